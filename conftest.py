"""Root conftest: the numeric glue check joins every nbval run; markers sort the suite.

- ``slow``: nbval cells of the chapters (and tests that run nbval themselves);
- ``site``: tests of the built book (``_build/html``) in headless Chromium: skipped, with the
  reason, when the site is not built or Chromium is missing, so plain ``pytest`` after
  ``make install`` passes or skips. ``make check`` runs ``-m "not slow and not site"``.
"""

import shutil
from pathlib import Path

import pytest

pytest_plugins = ["tests.nbval_glue"]

SITE = Path(__file__).parent / "_build" / "html" / "index.html"
# Tests in modules of other branches that execute chapters (`attnspec run`, papermill) or install
# the package: slow, marked here until their modules say `pytestmark = pytest.mark.slow`.
SLOW_TESTS = (
    "tests/test_run_html.py::",
    "tests/test_run_installed.py::",
    "tests/test_run_interrupt.py::test_interrupted_run_leaves_nothing",
)


def pytest_collection_modifyitems(config, items):
    missing = [] if SITE.is_file() else ["the site is not built (make book)"]
    missing += [] if shutil.which("chromium") else ["chromium is missing (make browser)"]
    for item in items:
        if type(item).__name__ == "IPyNbCell" or item.nodeid.startswith(SLOW_TESTS):
            item.add_marker(pytest.mark.slow)
        if item.get_closest_marker("site") and missing:
            item.add_marker(pytest.mark.skip(reason="; ".join(missing)))
