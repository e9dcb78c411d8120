"""Root conftest: the numeric glue check (tests/nbval_glue.py) joins every nbval run of the chapters."""

pytest_plugins = ["tests.nbval_glue"]
