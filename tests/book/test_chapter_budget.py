"""Each notebook is a paper: its code is its parameters and the calls that show what its study gives
(the computation, glue, tables, figures and claims live in ``attnspec/chapters``). Budget: at most
:data:`PER_CHAPTER` code lines in a chapter, :data:`TOTAL` in all (non-blank lines inside code
cells, the parameters cell included)."""

from __future__ import annotations

import re

import pytest

from attnspec.publish.paths import SOURCES
from tests.site.reader import toc_pages

PER_CHAPTER = 120
TOTAL = 1200
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```$", re.M | re.S)
CHAPTERS = [n.removeprefix("book/chapters/") for n in toc_pages() if n.startswith("book/chapters/")]


def code_lines(text: str) -> int:
    """Non-blank lines inside the MyST code cells of ``text``, cell options (``:tags:``) aside."""
    return sum(
        1
        for cell in CELL.findall(text)
        for line in cell.splitlines()
        if line.strip() and not line.startswith(":")
    )


def test_code_lines_counts_only_code():
    text = "# T\n\n```{code-cell} ipython3\n:tags: [parameters]\n\nd: int = 3\n```\n\nprose\n"
    assert code_lines(text + "```{code-cell} ipython3\nx = 1\n\ny = 2\n```\n") == 3


@pytest.mark.parametrize("name", CHAPTERS)
def test_chapter_within_its_code_budget(name):
    assert code_lines((SOURCES / f"{name}.md").read_text()) <= PER_CHAPTER


def test_book_within_its_code_budget():
    assert sum(code_lines((SOURCES / f"{n}.md").read_text()) for n in CHAPTERS) <= TOTAL
