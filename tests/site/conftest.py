"""The built site's fixtures: one copy of it for the session (tests open pages there, never in
``_build/html``), and one headless Chromium per test module (Debian's, through Playwright)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import CHROMIUM, CHROMIUM_ARGS, copy_site
from tests.site.reader import BUILT


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """A copy of the built site (`make book`; `make test` builds it first)."""
    return copy_site(BUILT, tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium for the module: Playwright's sync API runs once at a time in a process,
    so a test that starts its own (``pdf.print_pdf``, ``tests.helpers.chromium``) is in a module
    that does not use this one."""
    assert Path(CHROMIUM).is_file(), f"{CHROMIUM} is missing: install Debian's chromium"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def tab(browser):
    """One tab (1280 × 900) for the module's tests, which open one page after another in it."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(300_000)
    return page
