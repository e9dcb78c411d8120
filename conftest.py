"""Root conftest: the numeric glue check joins every nbval run; markers sort the suite.

Markers (``pyproject.toml``), each set in the test module itself:

- ``slow``: executes notebooks or chapters (the chapters' nbval cells are marked here);
- ``site``: needs the built book (``_build/html``) and headless Chromium;
- ``cluster``: starts a Dask cluster or a sweep process;
- ``weights``: runs a pretrained model from its weight package.

``make check`` leaves all four out; ``make test`` runs everything, after building what they need.
A test never skips because what it checks is missing: it fails and says what to build.
"""

import pytest

pytest_plugins = ["tests.nbval_glue"]


def pytest_collection_modifyitems(config, items):
    for item in items:
        if type(item).__name__ == "IPyNbCell":
            item.add_marker(pytest.mark.slow)
