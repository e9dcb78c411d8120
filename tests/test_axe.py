"""Accessibility of the built site, checked by axe-core: every page of the table of contents, in
light and in dark mode (there, the rules that read colours), has no critical and no serious
violation of WCAG 2 A/AA (and of axe's best practices).

A text whose contrast axe cannot determine (an "incomplete" ``color-contrast`` result) fails too,
unless it is made only of symbols (``✓``, ``≤``: axe measures no contrast for those, by design).
So that axe can measure every entry of the sidebar, which scrolls in its own box, the window is
2400 px tall: at 900 px the entries below its fold were "partially obscured" and left unmeasured.

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
    "resultTypes": ["violations", "incomplete"],
    "preload": False,  # no XHR for the stylesheets: under file:// it fails and waits
    # experimental in axe-core 4.12 (so off by default), on in later releases: run it
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}
#: The whole page but the typeset formulas' SVG glyphs (hidden from assistive technology, which
#: reads each formula's MathML copy, checked) and plotly's SVG (each figure is labelled by its
#: ``role="img"`` container, checked): thousands of nodes that made one run take seconds.
CONTEXT = {"exclude": [["mjx-container > svg"], [".plotly-graph-div .svg-container"]]}
#: (rule id, CSS selector of the element) that cannot be fixed here, with the upstream issue and
#: the reason. Every violation the site had is fixed (book/_ext/site_chrome.py); what is left is
#: axe's, not the page's.
SLIDER_CAPTION = (
    "the limit-law chapter's slider figure, once drawn: the bars of its histogram reach far below "
    "the plot, clipped by the SVG's clip path, and axe counts their transparent boxes as "
    "overlapping the caption (bgOverlap), though the caption is on top at every point "
    "(document.elementsFromPoint); dequelabs/axe-core#3464, open: overlapping elements with a "
    "transparent background should be ignored"
)
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("color-contrast (undetermined)", f"#fig-law-slider > figcaption > p > .caption-{part}"): (
        SLIDER_CAPTION
    )
    for part in ("number", "text")
}
#: Waits for MathJax (when the page loads it) to finish typesetting.
TYPESET = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
}"""
#: Brings each interactive figure near the window, where it loads plotly.js and draws itself
#: (``book/_static/plotly-on-demand.js``): axe then reads every figure as drawn, never one moving
#: its caption while it draws.
NEAR_FIGURES = """() => {
  for (const figure of document.querySelectorAll('script[type="text/x-plotly-figure"]'))
    (figure.previousElementSibling || figure.parentElement).scrollIntoView();
}"""
#: True once every interactive figure of the page is drawn.
DRAWN = """() => !document.querySelector('script[type="text/x-plotly-figure"]')
  && [...document.querySelectorAll('.plotly-graph-div')].every(div => div._fullLayout)"""
#: True once the theme shows the colour mode ``arg``.
THEMED = "mode => document.documentElement.dataset.theme === mode"
#: Waits for the page's running animations and transitions (the theme's colour change) to end.
SETTLED = """async () => {
  const finite = document.getAnimations().filter(
    a => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
  await Promise.all(finite.map(a => a.finished));
}"""
SEVERE = ("critical", "serious")
#: Why axe may leave a text's contrast undetermined and still be right not to judge it: the text
#: is only symbols (its message key).
UNJUDGED = {"nonBmp"}
#: Tall enough for the whole sidebar (and the top of every page) at the desktop width.
VIEWPORT = {"width": 1280, "height": 2400}
MODES = ("light", "dark")
#: In dark mode only the colours change: the rules that read colours run again there.
DARK = {**OPTIONS, "runOnly": {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return copy_site(BUILT, tmp_path_factory.mktemp("site"))


def run_axe(page, options: dict = OPTIONS) -> list[dict]:
    """The critical and serious violations axe finds on the open page, minus the exceptions, as
    ``{rule, impact, targets}``."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("([context, options]) => axe.run(context, options)", [CONTEXT, options])
    undetermined = [
        {**v, "id": "color-contrast (undetermined)", "nodes": nodes}
        for v in found["incomplete"]
        if v["id"] == "color-contrast"
        and (nodes := [n for n in v["nodes"] if message_key(n) not in UNJUDGED])
    ]
    severe = []
    for v in found["violations"] + undetermined:
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


def message_key(node: dict) -> str | None:
    """Why axe left a node's check undetermined (``elmPartiallyObscured``, ``nonBmp``, …)."""
    data = next(iter(node.get("any") or [{}])).get("data")
    return data.get("messageKey") if isinstance(data, dict) else None


@pytest.fixture(scope="module")
def tab():
    """One headless Chromium tab for the module (each xdist worker has its own)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser.new_page(viewport=VIEWPORT)
        finally:
            browser.close()


@pytest.fixture(scope="module")
def violations(site, tab) -> dict[str, dict[str, list[dict]]]:
    """axe's severe violations per TOC page and mode, each page checked when a test first asks
    for it (``tests/schedule.py`` gives each page, both modes, to one worker)."""

    class Found(dict):
        def __missing__(self, name: str) -> dict[str, list[dict]]:
            self[name] = check_page(tab, site / f"{name}.html")
            return self[name]

    return Found()


def check_page(tab, page: Path) -> dict[str, list[dict]]:
    """The severe violations on ``page`` in each mode: opened in light mode, then switched to dark
    as the reader's system would switch (the theme's colour mode is "auto": it follows on the open
    page, and its colour transitions are let finish before axe reads any colour)."""
    tab.emulate_media(color_scheme="light")
    tab.goto(page.as_uri(), wait_until="load")
    tab.evaluate(TYPESET)
    tab.evaluate(NEAR_FIGURES)
    tab.wait_for_function(DRAWN, timeout=120_000)
    tab.evaluate("() => window.scrollTo(0, 0)")
    found = {}
    for mode in MODES:
        tab.emulate_media(color_scheme=mode)
        tab.wait_for_function(THEMED, arg=mode)
        tab.evaluate(SETTLED)
        found[mode] = run_axe(tab, DARK if mode == "dark" else OPTIONS)
    return found


#: the pages the site ships besides its table of contents: the proof index, the indexes, search,
#: and the index of the highlighted sources
SHIPPED = ["prf-prf", "genindex", "py-modindex", "search", "_modules/index"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", [*toc_pages(), *SHIPPED])
def test_no_critical_or_serious_accessibility_violation(violations, name, mode):
    assert violations[name][mode] == []


DEFECTIVE = """<!DOCTYPE html><html lang="en"><head><title>defects</title></head><body><main>
<h1>Defects</h1>
<div role="list"><p>a citation that is not a listitem</p></div>
<button aria-label="Search">Find me</button>
<details><summary></summary><p>hidden</p></details>
<p style="color:#777;background:#fff">low contrast text</p>
<p style="color:#333;background-image:linear-gradient(#fff,#ccc)">text on a gradient</p>
</main></body></html>"""


def test_axe_sees_each_violation(tab, tmp_path):
    """In the module's tab: Playwright's sync API cannot start a second time in one worker."""
    page_file = tmp_path / "defects.html"
    page_file.write_text(DEFECTIVE)
    tab.goto(page_file.as_uri())
    rules = {v["rule"] for v in run_axe(tab)}
    assert {
        "aria-required-children",
        "label-content-name-mismatch",
        "summary-name",
        "color-contrast",
        "color-contrast (undetermined)",
    } <= rules, rules
