"""`attnspec run … -o DIR --html` as a new user runs it: the folder is created, the kernel prints
nothing, and the page, rendered by the book's own pipeline, passes the book's browser test: every
glue role shows the re-run's value, math is typeset offline, every image loads, nothing comes from
another host. The page opens with the parameters and the changes against the published chapter.

Needs Debian's chromium (skipped without it); re-executes the ladder at d = 300 with 2 trials.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from tests.helpers import chromium, probe_page

pytestmark = pytest.mark.slow  # executes a chapter or installs the package


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("user") / "runs" / "new"
    env = dict(os.environ)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "attnspec.cli",
            *"run ladder -p d 300 -p trials 2 --html -o".split(),
            out,
        ],
        capture_output=True,
        text=True,
        timeout=1200,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", "the run printed warnings"
    return out


def test_run_writes_notebook_results_and_page_and_nothing_else(run_folder):
    assert sorted(p.name for p in run_folder.iterdir()) == [
        "ladder.html",
        "ladder.ipynb",
        "ladder.results.json",
    ]
    results = json.loads((run_folder / "ladder.results.json").read_text())
    assert results["parameters"]["d"] == 300 and results["parameters"]["trials"] == 2


def test_page_is_self_contained(run_folder):
    page = (run_folder / "ladder.html").read_text()
    assert "{glue" not in page
    remote = re.compile(
        r'<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)="(?:https?:)?//', re.I
    )
    assert not remote.search(page)
    assert not re.search(r'<(?:script|img)\b[^>]*\bsrc="(?!data:)', page), (
        "a script or image is not embedded"
    )
    assert "Re-run of this chapter" in page and "What changed" in page
    assert "attnspec run ladder -p d 300" in page  # the provenance block


@pytest.mark.site  # needs chromium (make browser)
def test_page_typesets_math_and_loads_figures_offline(run_folder):
    page = run_folder / "ladder.html"  # a file of its own: nothing is written beside it
    result = probe_page(page)
    text = result.pop("text")
    assert result["mathjax"], "MathJax did not load"
    assert result["math"] > 0 and result["untypeset"] == 0, result
    assert result["images"] >= result["figures"] > 0, result
    assert result["broken"] == [], result
    assert "{glue" not in text
    parameters = text[text.index("Re-run of this chapter") : text.index("What changed")]
    assert re.search(r"d\s+300\s+1000\s+changed", parameters), parameters


def test_diff_of_the_run_lists_changed_values(run_folder):
    done = subprocess.run(
        [sys.executable, "-m", "attnspec.cli", "diff", str(run_folder / "ladder.results.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    changed = int(re.match(r"chapter ladder: (\d+) of \d+ glued values changed", first).group(1))
    assert changed > 0 and "values unchanged" in done.stdout


#: the page's links that lead nowhere: an anchor missing from the page ("#" is its top), or a file
#: (the page is one file: what it shows is embedded, what it refers to is another host's)
DEAD_LINKS = """() => [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))
  .filter(h => h.startsWith('#')
    ? h !== '#' && !document.getElementById(decodeURIComponent(h.slice(1)))
    : !/^(?:https?:|data:|mailto:)/.test(h))"""
#: cross-references Sphinx could not resolve (left as text, not a link), and headings' pilcrows
UNRESOLVED = """() => [...document.querySelectorAll('.xref:not(a .xref), a.headerlink')]
  .map(x => x.textContent)"""


@pytest.mark.site  # needs chromium (make browser)
def test_page_passes_the_sites_checks(run_folder):
    """What the site's chapter pages pass (tests/site/test_built_pages.py): no raw TeX, unresolved
    role or repr in the text, no console error, nothing wider than a phone; and no dead link, no
    unresolved cross-reference, a way back to the published chapter and a reference list."""
    from tests.site.reader import PHONE, defects, read

    errors: list[str] = []
    with chromium() as tab:
        tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        tab.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        seen = read(tab, run_folder / "ladder.html")
        dead, unresolved = tab.evaluate(DEAD_LINKS), tab.evaluate(UNRESOLVED)
    assert defects(seen["text"]) == []
    assert errors == [] and seen["phone_width"] <= PHONE
    assert dead == [] and unresolved == []
    assert "The published chapter" in seen["text"] and "References" in seen["text"]
