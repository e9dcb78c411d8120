"""The PDF supplement (`make pdf` -> _build/pdf/attnspec.pdf): a title page with the version, every
chapter with its provenance block open, every glued figure, every formula of the book's pages
typeset (no raw TeX), no glue role left; every folded block printed open, no `file:` link, an
outline with a bookmark per part, chapter and section, each chapter on a new page, and the API
reference as an appendix after the book. Read with poppler's pdftotext and pdfimages, and pikepdf.

`make pdf` builds the PDF and then runs this file by name. It is not called test_*.py on purpose:
`make test` builds no PDF (it takes minutes) and so does not collect it. Every check fails, none
skips, when the PDF or poppler is missing or the PDF cannot be read.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import unicodedata

import pytest

from attnspec import __version__
from attnspec.publish.chapters import chapters, toc_chapter_names
from attnspec.publish.paths import EXECUTED
from attnspec.publish.pdf import APPENDIX, SINGLE, TARGET, parts, release_date

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
    """The text of the book's pages: everything before the appendix's heading (the reference
    quotes TeX and glue roles in docstrings)."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == APPENDIX]
    assert starts, f"no {APPENDIX!r} heading"
    book, api = "\n".join(lines[: starts[-1]]), "\n".join(lines[starts[-1] :])
    assert API_HEADING in api and "attnspec.core" in api and "How to cite" in book
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


@pytest.fixture(scope="module")
def document():
    import pikepdf

    assert TARGET.is_file(), f"{TARGET} is missing: `make pdf` builds it, then runs these checks"
    with pikepdf.open(TARGET) as pdf:
        yield pdf


def page_texts(text: str) -> list[str]:
    """The text of each page (pdftotext ends each with a form feed), flattened."""
    return [flat(page) for page in text.split("\f")]


def flat(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def bare(text: str) -> str:
    """``text`` without white space and hyphens (pdftotext joins a word hyphenated at a line's
    end)."""
    return "".join(flat(text).replace("-", "").split())


def outline(document) -> list[tuple[int, str, int]]:
    """``(depth, title, page index)`` of every outline entry, depth first."""
    index = {page.objgen: i for i, page in enumerate(document.pages)}
    found = []

    def walk(item, depth):
        while item is not None:
            target = item.get("/Dest")
            if target is None and item.get("/A") is not None:
                target = item.A.get("/D")
            found.append((depth, str(item.Title), index.get(target[0].objgen, -1)))
            walk(item.get("/First"), depth + 1)
            item = item.get("/Next")

    walk(document.Root.Outlines.get("/First"), 0)
    return found


def test_no_link_points_at_a_file(document):
    """A link to ``file:`` breaks on any other machine and names the build's folder."""
    uris, internal = [], 0
    for page in document.pages:
        for annot in page.get("/Annots") or []:
            action = annot.get("/A")
            if action is not None and "/URI" in action:
                uris.append(str(action.URI))
            elif annot.get("/Dest") is not None or action is not None:
                internal += 1
    assert [u for u in uris if u.startswith("file:")] == []
    assert internal > 100, "the cross-references are no longer links inside the PDF"


def test_outline_has_every_part_chapter_and_section(document):
    entries = outline(document)
    top = [title for depth, title, _ in entries if depth == 0]
    captions = [caption for caption, _ in parts()]
    assert [t for t in top if t in captions] == captions and top[-1] == APPENDIX
    for chapter in chapters():
        at = next(
            (
                i
                for i, (depth, title, _) in enumerate(entries)
                if depth == 1 and all(run in title for run in prose_of(chapter.title))
            ),
            None,
        )
        assert at is not None, f"no bookmark for chapter {chapter.title!r}"
        assert entries[at + 1][0] == 2, f"chapter {chapter.title!r} has no section bookmarks"
    assert all(page >= 0 for _, _, page in entries)


def test_each_part_and_chapter_starts_a_page(document, text):
    """A part's or chapter's title opens its page (a chapter's may follow its part's title)."""
    pages = page_texts(text)
    titles = [run for c in chapters() for run in prose_of(c.title)[:1]]
    starts = [
        (title, page)
        for depth, title, page in outline(document)
        if depth == 0 or (depth == 1 and any(run in title for run in titles))
    ]
    assert len(starts) >= len(chapters()) + len(parts())
    late = [
        (title, page + 1)
        for title, page in starts
        if bare(title)[:25] not in bare(pages[page][:300])
    ]
    assert late == []


def test_the_api_reference_is_an_appendix_after_the_book(document):
    entries = outline(document)
    appendix = next(page for depth, title, page in entries if depth == 0 and title == APPENDIX)
    assert appendix == max(page for depth, _, page in entries if depth == 0)
    assert all(page < appendix for _, title, page in entries if "How to cite" in title)


def test_every_folded_block_is_printed_open(text):
    """Each dropdown, folded cell or output and provenance block of the printed page: a run of
    plain words from its body is in the PDF (closed, only its summary line would be)."""
    from lxml import html as lxml_html

    printed = flat(text)
    tree = lxml_html.parse(str(next((SINGLE / "book").glob("*.html"))))
    blocks = tree.getroot().xpath("//details")
    assert len(blocks) > 50, "the single page has no longer its folded blocks"
    missing = []
    for block in blocks:
        for math in block.xpath(".//*[contains(@class, 'math')] | .//script | .//style"):
            tail = math.tail  # a formula ends a run of words: it prints as symbols
            math.clear()
            math.text, math.tail = " | ", tail
        # each paragraph, cell or line of code on its own: a table's cells wrap line by line
        # into the PDF's text, so three words of a line at least
        texts = [
            " ".join(part.text_content().split())
            for part in block.xpath(".//p | .//td | .//th | .//li | .//pre")
            if not part.xpath("ancestor-or-self::summary")
        ]
        runs = [run for t in texts for run in re.findall(r"[A-Za-z]+(?: [A-Za-z]+){2}", t)][:10]
        if runs and not any(flat(run) in printed for run in runs):
            missing.append(runs[0])
    assert missing == []
