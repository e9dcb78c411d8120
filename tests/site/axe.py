"""Accessibility as axe-core checks it: the critical and serious violations of WCAG 2 A/AA (and of
axe's best practices) on an open page, in light and in dark mode (there, the rules that read
colours; the checks: ``tests/site/test_built_pages.py``).

A text whose contrast axe cannot determine (an "incomplete" ``color-contrast`` result) counts too,
unless it is made only of symbols (``✓``, ``≤``: axe measures no contrast for those, by design).
So that axe can measure every entry of the sidebar, which scrolls in its own box, the window is
2400 px tall: at 900 px the entries below its fold were "partially obscured" and left unmeasured.

axe-core comes from the ``axe-playwright-python`` package of the lock (its bundled
``axe.min.js``), injected once per page into headless Chromium (Debian's, through Playwright). An
exception is listed in :data:`EXCEPTIONS` only with its upstream issue and the reason it cannot be
fixed here.
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

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


def check(tab) -> dict[str, list[dict]]:
    """The severe violations on the page open (in light mode) in ``tab``, in each mode: every
    figure drawn, then switched to dark as the reader's system would switch (the theme's colour
    mode is "auto": it follows on the open page, and its colour transitions are let finish before
    axe reads any colour)."""
    tab.set_viewport_size(VIEWPORT)
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
