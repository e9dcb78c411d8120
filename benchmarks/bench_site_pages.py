"""Where the browser tests' time goes, page by page: one headless Chromium visits each page of the
built site as ``tests/site/test_built_pages.py`` does, and times each step of the visit.

Steps: ``load`` (open the page at 1280 px and read it once MathJax has typeset it, then its width at
390 px: :func:`tests.site.reader.read`), ``draw`` (every interactive figure drawn, at 2400 px tall),
``axe light`` (every rule) and ``axe dark`` (the rules that read colours). With ``--rules``, axe's
own per-rule times on the given pages (its ``performanceTimer``), the slowest first.

Reproduce (from the repository root, after ``make book``)::

    .venv/bin/python benchmarks/bench_site_pages.py --json /tmp/site_pages.json
    .venv/bin/python benchmarks/bench_site_pages.py --rules book/api/experiments
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

from tests.helpers import CHROMIUM, CHROMIUM_ARGS
from tests.site import axe
from tests.site.reader import BUILT, read, toc_pages
from tests.site.test_built_pages import SHIPPED


def visit(tab, page: Path) -> dict[str, float]:
    """Seconds per step of one visit of ``page``."""
    steps, start = {}, time.perf_counter()

    def lap(step: str) -> None:
        nonlocal start
        steps[step] = round(time.perf_counter() - start, 2)
        start = time.perf_counter()

    tab.emulate_media(color_scheme="light")
    read(tab, page)
    lap("load")
    tab.set_viewport_size(axe.VIEWPORT)
    tab.evaluate(axe.NEAR_FIGURES)
    tab.wait_for_function(axe.DRAWN, timeout=120_000)
    tab.evaluate("() => window.scrollTo(0, 0)")
    lap("draw")
    for mode in axe.MODES:
        tab.emulate_media(color_scheme=mode)
        tab.wait_for_function(axe.THEMED, arg=mode)
        tab.evaluate(axe.SETTLED)
        axe.run_axe(tab, axe.DARK if mode == "dark" else axe.OPTIONS)
        lap(f"axe {mode}")
    return steps


def rule_times(tab, page: Path) -> dict[str, float]:
    """axe's milliseconds per rule on ``page`` (light mode, every rule)."""
    logged: list[str] = []
    tab.on("console", lambda m: logged.append(m.text))
    tab.goto(page.as_uri(), wait_until="load")
    tab.evaluate(axe.TYPESET)
    tab.add_script_tag(path=str(axe.AXE))
    tab.evaluate(
        "([c, o]) => axe.run(c, o)", [axe.CONTEXT, {**axe.OPTIONS, "performanceTimer": True}]
    )
    times = {}
    for line in logged:
        if m := re.match(r"Measure rule_(\S+?)#\S* took ([\d.]+)ms", line):
            times[m.group(1)] = times.get(m.group(1), 0.0) + float(m.group(2))
    return dict(sorted(times.items(), key=lambda kv: -kv[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write the times here too")
    parser.add_argument("--rules", nargs="+", metavar="PAGE", help="per-rule times on PAGE")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.set_default_timeout(300_000)
        if args.rules:
            found = {name: rule_times(tab, BUILT / f"{name}.html") for name in args.rules}
        else:
            found = {name: visit(tab, BUILT / f"{name}.html") for name in [*toc_pages(), *SHIPPED]}
        browser.close()
    if args.json:
        args.json.write_text(json.dumps(found, indent=1) + "\n")
    if args.rules:
        for name, times in found.items():
            print(
                name, ", ".join(f"{rule} {ms / 1000:.1f} s" for rule, ms in list(times.items())[:8])
            )
        return
    total = {step: sum(s[step] for s in found.values()) for step in next(iter(found.values()))}
    for name, steps in sorted(found.items(), key=lambda kv: -sum(kv[1].values())):
        print(
            f"{sum(steps.values()):6.1f} s  {name}: "
            + ", ".join(f"{k} {v}" for k, v in steps.items())
        )
    print(
        f"{sum(total.values()):6.1f} s  all {len(found)} pages: "
        + ", ".join(f"{k} {v:.1f}" for k, v in total.items())
    )


if __name__ == "__main__":
    main()
