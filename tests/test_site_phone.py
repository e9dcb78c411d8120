"""A chapter's claims table on a phone (390 px): every verdict is on screen, without scrolling
sideways (the table stacks each claim with its verdict first, book/_static/attnspec.css).

Needs the built site (`make book`); the tests open a copy of it.
"""

from __future__ import annotations

import pytest

from attnspec.publish.chapters import toc_chapter_names
from attnspec.publish.paths import ROOT
from tests.helpers import chromium, copy_site

BUILT = ROOT / "_build" / "html"
PHONE = 390
pytestmark = pytest.mark.site  # needs the built site (make book)

#: the right edge of each claims table's verdict cells, and the page's width
VERDICTS = """() => [...document.querySelectorAll(
    '.cell_output:has(> p.attnspec-source) table tbody tr')]
  .map(row => row.lastElementChild.getBoundingClientRect().right)"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    assert (BUILT / "index.html").is_file(), f"{BUILT} is not built: run `make book` first"
    return copy_site(BUILT, tmp_path_factory.mktemp("site"))


def test_every_verdict_is_on_a_phones_screen(site):
    off, rows = {}, 0
    with chromium() as tab:
        tab.set_viewport_size({"width": PHONE, "height": 800})
        for name in toc_chapter_names():
            tab.goto((site / "book" / "chapters" / f"{name}.html").as_uri(), wait_until="load")
            edges = tab.evaluate(VERDICTS)
            rows += len(edges)
            width = tab.evaluate("() => document.documentElement.scrollWidth")
            late = [round(edge) for edge in edges if edge > PHONE]
            if late or width > PHONE:
                off[name] = (width, late)
    assert rows > 100 and off == {}
