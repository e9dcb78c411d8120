"""Root conftest: the numeric glue check joins every nbval run; markers sort the suite.

Markers (``pyproject.toml``), each set in the test module itself:

- ``slow``: executes notebooks or chapters (the chapters' nbval cells are marked here);
- ``site``: needs the built book (``_build/html``) and headless Chromium;
- ``cluster``: starts a Dask cluster or a sweep process;
- ``weights``: runs a pretrained model from its weight package.

Plain ``pytest`` (no path, no ``-m``) leaves all four out, as ``make check`` does; naming a file,
a folder or a marker runs what is named. ``make test`` runs everything, after building what they
need. A test never skips because what it checks is missing: it fails and says what to build.

Plugins: the glue check (tests/nbval_glue.py), ``--timings`` (tests/timings.py), ``--tally``
(tests/tally.py, the outcomes the publication gate counts) and the order in
which xdist hands out files (tests/schedule.py).
"""

import pytest

pytest_plugins = ["tests.nbval_glue", "tests.timings", "tests.tally", "tests.schedule"]

#: what plain ``pytest`` runs: every test that needs nothing built and starts nothing heavy
FAST = "not slow and not site and not cluster and not weights"


def pytest_configure(config):
    if config.args_source == pytest.Config.ArgsSource.TESTPATHS and not config.option.markexpr:
        config.option.markexpr = FAST


def pytest_collection_modifyitems(config, items):
    for item in items:
        if type(item).__name__ == "IPyNbCell":
            item.add_marker(pytest.mark.slow)
