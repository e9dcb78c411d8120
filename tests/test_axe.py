"""Accessibility of the built site, checked by axe-core: every page of the table of contents, in
light and in dark mode (there, the rules that read colours), has no critical and no serious
violation of WCAG 2 A/AA (and of axe's best practices).

axe-core comes from the ``axe-playwright-python`` package of the lock (its bundled
``axe.min.js``), injected once per page into headless Chromium (Debian's, through Playwright). An
exception is listed in :data:`EXCEPTIONS` only with its upstream issue and the reason it cannot be
fixed here. ``test_axe_sees_each_violation`` runs the same check on a page made of the defects the
site once had, so the check is seen to fail.

Needs the built site (`make book`; `make test` builds it first) and Debian's chromium.
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

import pytest

from attnspec.publish.paths import ROOT
from tests.helpers import CHROMIUM, CHROMIUM_ARGS, copy_site
from tests.test_site import toc_pages

BUILT = ROOT / "_build" / "html"
pytestmark = pytest.mark.site  # needs the built site (make book) and chromium (make browser)

#: axe-core as the lock pins it (axe-playwright-python bundles axe-core 4.12.1).
AXE = Path(next(iter(find_spec("axe_playwright_python").submodule_search_locations))) / "axe.min.js"
OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    },
    "resultTypes": ["violations"],
    "preload": False,  # no XHR for the stylesheets: under file:// it fails and waits
    # experimental in axe-core 4.12 (so off by default), on in later releases: run it
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}
#: The whole page but the typeset formulas' SVG glyphs (hidden from assistive technology, which
#: reads each formula's MathML copy, checked) and plotly's SVG (each figure is labelled by its
#: ``role="img"`` container, checked): thousands of nodes that made one run take seconds.
CONTEXT = {"exclude": [["mjx-container > svg"], [".plotly-graph-div .svg-container"]]}
#: (rule id, CSS selector of the element) that cannot be fixed here, with the upstream issue and
#: the reason. Empty: every violation the site had is fixed (book/_ext/site_chrome.py).
EXCEPTIONS: dict[tuple[str, str], str] = {}
#: Waits for MathJax (when the page loads it) to finish typesetting.
TYPESET = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
}"""
SEVERE = ("critical", "serious")
MODES = ("light", "dark")
#: In dark mode only the colours change: the rules that read colours run again there.
DARK = {**OPTIONS, "runOnly": {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return copy_site(BUILT, tmp_path_factory.mktemp("site"))


def run_axe(page, options: dict = OPTIONS) -> list[dict]:
    """The critical and serious violations axe finds on the open page, minus the exceptions, as
    ``{rule, impact, targets}``."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("([context, options]) => axe.run(context, options)", [CONTEXT, options])[
        "violations"
    ]
    severe = []
    for v in found:
        if v["impact"] not in SEVERE:
            continue
        targets = [
            " ".join(map(str, n["target"]))
            for n in v["nodes"]
            if (v["id"], " ".join(map(str, n["target"]))) not in EXCEPTIONS
        ]
        if targets:
            severe.append({"rule": v["id"], "impact": v["impact"], "targets": targets[:5]})
    return severe


@pytest.fixture(scope="module")
def violations(site) -> dict[tuple[str, str], list[dict]]:
    """axe's severe violations on every TOC page in both modes, in one browser."""
    from playwright.sync_api import sync_playwright

    found = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for mode in MODES:
                context = browser.new_context(
                    viewport={"width": 1280, "height": 900}, color_scheme=mode
                )
                page = context.new_page()
                for name in toc_pages():
                    page.goto((site / f"{name}.html").as_uri(), wait_until="load")
                    page.evaluate(TYPESET)
                    assert page.evaluate("() => document.documentElement.dataset.theme") == mode
                    found[name, mode] = run_axe(page, DARK if mode == "dark" else OPTIONS)
                context.close()
        finally:
            browser.close()
    return found


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", toc_pages())
def test_no_critical_or_serious_accessibility_violation(violations, name, mode):
    assert violations[name, mode] == []


DEFECTIVE = """<!DOCTYPE html><html lang="en"><head><title>defects</title></head><body><main>
<h1>Defects</h1>
<div role="list"><p>a citation that is not a listitem</p></div>
<button aria-label="Search">Find me</button>
<details><summary></summary><p>hidden</p></details>
<p style="color:#777;background:#fff">low contrast text</p>
</main></body></html>"""


def test_axe_sees_each_violation(tmp_path):
    from playwright.sync_api import sync_playwright

    page_file = tmp_path / "defects.html"
    page_file.write_text(DEFECTIVE)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(page_file.as_uri())
            rules = {v["rule"] for v in run_axe(page)}
        finally:
            browser.close()
    assert {
        "aria-required-children",
        "label-content-name-mismatch",
        "summary-name",
        "color-contrast",
    } <= rules, rules
