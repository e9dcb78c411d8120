"""The PDF supplement (`make pdf` -> _build/pdf/attnspec.pdf): a title page with the version, every
chapter with its provenance block open, every glued figure, every formula of the book's pages
typeset (no raw TeX), no glue role left. Read with poppler's pdftotext and pdfimages.

`make pdf` builds the PDF and then runs this file by name. It is not called test_*.py on purpose:
`make test` builds no PDF (it takes minutes) and so does not collect it. Every check fails, none
skips, when the PDF or poppler is missing or the PDF cannot be read.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from attnspec import __version__
from attnspec.publish.chapters import chapters, toc_chapter_names
from attnspec.publish.paths import EXECUTED
from attnspec.publish.pdf import TARGET, release_date

#: The API reference's heading: the book's own pages come before it (the reference quotes TeX and
#: glue roles in docstrings, e.g. ``{glue:md}``, which are code, not rendering errors).
API_HEADING = "API reference"


def poppler(tool: str, *args: str) -> str:
    """The output of a poppler tool run on the PDF (``tool ARGS... PDF [-]``); fails, with what to
    do, when the tool or the PDF is missing or the PDF cannot be read."""
    assert shutil.which(tool), f"{tool} is not installed (`make poppler`: poppler-utils)"
    assert TARGET.is_file(), f"{TARGET} is missing: `make pdf` builds it, then runs these checks"
    to_stdout = ["-"] if tool == "pdftotext" else []
    done = subprocess.run([tool, *args, str(TARGET), *to_stdout], capture_output=True, text=True)
    assert done.returncode == 0, f"{tool} cannot read {TARGET.name}: {done.stderr.strip()}"
    return done.stdout


@pytest.fixture(scope="module")
def text() -> str:
    return poppler("pdftotext", "-enc", "UTF-8")


@pytest.fixture(scope="module")
def book_pages(text) -> str:
    """The text of the book's pages: everything before the API reference's heading (the last line
    that is only that heading; the first is in the table of contents)."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == API_HEADING]
    assert len(starts) >= 2, f"no {API_HEADING!r} heading after the table of contents"
    book, api = "\n".join(lines[: starts[-1]]), "\n".join(lines[starts[-1] :])
    assert "attnspec.core" in api and "How to cite" in book
    return book


def test_title_page_names_the_version(text):
    title_page = text.split("\f")[0]
    assert f"Version {__version__}, released {release_date()}" in title_page, title_page


def prose_of(title: str) -> list[str]:
    """The runs of a title outside its ``$…$`` math (typeset math reads differently as text)."""
    return [" ".join(run.split()) for run in re.split(r"\$[^$]*\$", title) if run.strip()]


def test_every_chapter_title_is_present(text):
    flat = " ".join(text.split())
    missing = [c.title for c in chapters() if any(run not in flat for run in prose_of(c.title))]
    assert missing == []
    for page in ("Reproduce and re-execute", "References"):
        assert page in flat


def test_every_chapters_provenance_block_is_printed_open(book_pages):
    # closed, a block shows only its summary; open, its text, which ends each chapter's block once
    flat = " ".join(book_pages.split())
    assert flat.count("To reproduce it (see Reproduce and re-execute):") == len(chapters())


def test_no_raw_tex_and_no_glue_roles(book_pages):
    # (code cells may hold TeX in matplotlib labels, e.g. r"$\beta$"; prose and display math may
    # not)
    for raw in (r"\frac", "$$", r"\[", r"\(", r"\begin{aligned}", "{glue", "{numref", "{math}"):
        assert raw not in book_pages, raw


def test_embedded_images_at_least_glued_figures():
    listed = poppler("pdfimages", "-list")
    images = sum(1 for line in listed.splitlines()[2:] if line.split()[2:3] == ["image"])
    figures = sum(
        1
        for name in toc_chapter_names()
        for v in json.loads((EXECUTED / f"{name}.results.json").read_text())["values"]
        if v["kind"] == "figure"
    )
    assert figures > 0 and images >= figures, (images, figures)
