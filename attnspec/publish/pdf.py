"""The whole book as one PDF (a journal supplement), built offline: ``python -m
attnspec.publish.pdf``.

1. Sphinx's single-page HTML builder renders the book (``jupyter-book build --builder singlehtml``),
   with the same stored outputs, bundled MathJax and glued figures as the site.
2. Playwright opens the page in Debian's headless Chromium with the network off (only files load)
   and waits until MathJax has typeset every formula (``MathJax.startup.promise``): a formula left
   untypeset is an error. MathJax typesets only at startup, so nothing changes while printing.
3. The page's own DOM API opens the provenance blocks, puts a title page first (the book's title
   and author, the attnspec version and its release date) and adds the print style sheet; then
   ``page.pdf()`` prints it (A4, with backgrounds, tagged: figures keep their alt text) to
   ``_build/pdf/attnspec.pdf``, atomically. The page size and margins are given to ``page.pdf()``,
   not to an ``@page`` rule: the theme's media queries then see the printed page's width.

The same tree prints the same bytes once pikepdf fixes two things Chromium writes
(:func:`reproducible`): the print time, as ``/CreationDate`` and ``/ModDate``, becomes the
version's release date (``date-released`` of CITATION.cff); and the ids of the tagged PDF's table
headers (``/ID (node00006557)``, referred to by the cells' ``/Headers``), which come from
Chromium's DOM node counter and so depend on what it painted before, are numbered in order.
"""

from __future__ import annotations

import io
import logging
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from .. import __version__
from ..core.atomic import atomic_path, write_json
from ..core.stopping import Terminated, one_line
from .paths import CONFIG, ROOT
from .provenance import file_digest
from .tree import Refused, in_place, tree_hash

SINGLE = ROOT / "_build" / "singlehtml"
#: the PDF, a fixed build path (never written through a symlink: :func:`~.tree.in_place`)
PDF = "_build/pdf/attnspec.pdf"
TARGET = ROOT / PDF
CHROMIUM = "/usr/bin/chromium"
#: the API reference, printed as an appendix after the book
API = "book/api"
APPENDIX = "Appendix: API reference"
#: Chromium's switches, without network of its own (Playwright adds ``--headless``)
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: how long loading and typesetting the whole book may take
TIMEOUT_MS = 600_000
#: sets ``data-attnspec-typeset`` on ``<html>`` to the number of formulas MathJax left untypeset,
#: once its startup promise settles (at once when the page has no MathJax)
TYPESET = """() => {
  const mark = () => document.documentElement.setAttribute('data-attnspec-typeset',
    document.querySelectorAll('.math:not(:has(mjx-container))').length);
  const ready = window.MathJax?.startup?.promise;
  ready ? ready.then(mark, mark) : mark();
}"""
#: readies the single page for print (see :func:`prepare`), and its print style sheet
PREPARE = Path(__file__).with_name("print.js").read_text()
PRINT_CSS = Path(__file__).with_name("print.css").read_text()
#: the title of each heading the printed page shows, in order: the outline's entries
TITLES = """() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
  .filter(h => h.getClientRects().length)
  .map(h => h.innerText.replace(/\\s+/g, ' ').trim())"""
#: how ``page.pdf()`` prints: A4 with these margins, backgrounds (as on screen), tagged, with an
#: outline (bookmarks) from the headings
PRINT = {
    "format": "A4",
    "margin": dict(top="16mm", bottom="16mm", left="14mm", right="14mm"),
    "print_background": True,
    "tagged": True,
    "outline": True,
}


def title_lines() -> list[str]:
    """The title page's lines: the book's title and author (_config.yml), then the attnspec version
    and its release date."""
    import yaml

    config = yaml.safe_load(CONFIG.read_text())
    released = f"Version {__version__}, released {release_date()}"
    return [str(config["title"]), str(config["author"]), released]


def _outline_entries(pdf) -> list:
    """The outline's entries of a pikepdf ``pdf``, depth first (the order of their headings)."""
    found = []

    def walk(item):
        while item is not None:
            found.append(item)
            walk(item.get("/First"))
            item = item.get("/Next")

    outlines = pdf.Root.get("/Outlines")
    walk(outlines.get("/First") if outlines is not None else None)
    return found


def release_date(citation: Path = ROOT / "CITATION.cff") -> str:
    """``date-released`` of CITATION.cff, as ``YYYY-MM-DD``."""
    found = re.search(r'^date-released:\s*"?(\d{4}-\d{2}-\d{2})"?\s*$', citation.read_text(), re.M)
    if not found:
        raise RuntimeError(f"{citation.name} states no date-released")
    return found.group(1)


#: the ids Chromium gives the tagged PDF's table headers, from its DOM node counter
NODE_ID = re.compile(r"node\d+")


def _node_ids(item) -> Iterator[tuple]:
    """``(container, key)`` of each :data:`NODE_ID` string in a PDF object and its direct parts."""
    import pikepdf

    if isinstance(item, pikepdf.Dictionary):
        keys = sorted(item.keys())
    elif isinstance(item, pikepdf.Array):
        keys = range(len(item))
    else:
        return
    for key in keys:
        part = item[key]
        if isinstance(part, pikepdf.String) and NODE_ID.fullmatch(str(part)):
            yield item, key
        elif isinstance(part, (pikepdf.Dictionary, pikepdf.Array)) and not part.is_indirect:
            yield from _node_ids(part)


def reproducible(pdf: bytes, date: str, titles: list[str]) -> bytes:
    """``pdf`` as the same tree prints it every time, with ``/CreationDate`` and ``/ModDate`` set
    to ``date`` (midnight UTC), the table headers' node ids numbered in the order of Chromium's
    counter, and its outline's entries titled ``titles``, in order: Chromium titles an entry
    from the heading's text runs on the page, which repeat or lose words where a heading wraps."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        for key in ("/CreationDate", "/ModDate"):
            if key in doc.docinfo:
                doc.docinfo[key] = pikepdf.String("D:" + date.replace("-", "") + "000000Z")
        found = [place for item in doc.objects for place in _node_ids(item)]
        old = sorted({int(str(holder[key])[4:]) for holder, key in found})
        rank = {number: f"node{i:08d}" for i, number in enumerate(old)}
        for holder, key in found:
            holder[key] = pikepdf.String(rank[int(str(holder[key])[4:])])
        entries = _outline_entries(doc)
        if len(entries) != len(titles):
            raise RuntimeError(f"the outline has {len(entries)} entries for {len(titles)} headings")
        for entry, title in zip(entries, titles, strict=True):
            entry.Title = pikepdf.String(title)
        if "/ID" in doc.trailer:
            del doc.trailer["/ID"]  # so that the file's /ID is a digest of what it holds
        out = io.BytesIO()
        doc.save(out, deterministic_id=True)
        return out.getvalue()


def build_singlehtml() -> Path:
    """Build the book as one HTML page; return it (the root document, ``book/intro``)."""
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from jupyter_book.cli.main import main; sys.exit(main())",
            "build",
            str(ROOT),
            "--builder",
            "singlehtml",
            "--all",
            "--quiet",
        ],
        check=True,
        cwd=ROOT,
    )
    return next(p for p in (SINGLE / "book").glob("*.html"))


def typeset(page) -> None:
    """Wait until MathJax has typeset the Playwright ``page``; fail if a formula is left raw."""
    page.evaluate(TYPESET)
    marker = page.wait_for_selector("html[data-attnspec-typeset]", state="attached")
    left = marker.get_attribute("data-attnspec-typeset")
    if left != "0":
        raise RuntimeError(f"{left} formulas were not typeset")


def parts(toc: Path = ROOT / "_toc.yml") -> list[list[str]]:
    """``[caption, first document]`` of each part of the table of contents, in order, and the API
    reference as an appendix after them."""
    import yaml

    found = [
        [str(part["caption"]), part["chapters"][0]["file"]]
        for part in yaml.safe_load(toc.read_text()).get("parts", [])
        if part.get("caption") and part.get("chapters")
    ]
    return found + [[APPENDIX, API]]


def prepare(page) -> None:
    """Ready the Playwright ``page`` of the whole book for print.

    Every folded block (dropdown, folded cell or output, provenance) is opened. Each document is
    moved to the top level, under a heading per part (:func:`parts`), and its headings renumbered
    below it, so that the outline has one bookmark per part, chapter and section. Links into the
    page become anchors in it and links to files lose their target (no ``file:`` link). Names in
    code may break after a dot, slash or underscore only, and a heading is kept with what follows.
    Then the title page (:func:`title_lines`) goes first and the print style sheet is added.
    """
    page.evaluate(PREPARE, {"lines": title_lines(), "css": PRINT_CSS, "parts": parts()})


def print_pdf(source: Path, target: Path) -> Path:
    """Print the HTML page ``source`` (typeset, prepared, :func:`reproducible`) to ``target``,
    atomically."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).is_file():
        raise SystemExit("attnspec pdf: error: chromium is not installed (`make browser`)")
    # beside _static and _images, where the page's relative links resolve
    copy = SINGLE / "_attnspec_print.html"
    copy.write_text(source.read_text())
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            try:
                page = browser.new_context(offline=True).new_page()
                page.set_default_timeout(TIMEOUT_MS)
                page.goto(copy.as_uri(), wait_until="load")
                typeset(page)
                prepare(page)
                page.emulate_media(media="print")
                titles = page.evaluate(TITLES)
                pdf = page.pdf(**PRINT)
            finally:
                browser.close()
    except (KeyboardInterrupt, Terminated):
        # Playwright's driver stops on the same signal; the futures it leaves failed are logged
        # when collected ("Future exception was never retrieved"), after the one line that says
        # the print was interrupted
        logging.getLogger("asyncio").disabled = True
        raise
    finally:
        copy.unlink(missing_ok=True)
    with atomic_path(target) as tmp:
        tmp.write_bytes(reproducible(pdf, release_date(), titles))
    return target


def printed_record(target: Path = TARGET) -> Path:
    """The record beside a PDF of the tree it was printed from: ``attnspec.printed.json``."""
    return target.with_name(f"{target.stem}.printed.json")


def build(target: Path = TARGET) -> Path:
    """Build ``_build/pdf/attnspec.pdf`` from the stored chapters (nothing is executed), and
    record beside it the tree it was printed from and its SHA-256 (:func:`printed_record`).

    The tree is hashed before the single-page build and again after printing: if it changed in
    between, the PDF may hold text of neither tree, so nothing is written (:class:`~.gate.Refused`)
    and an earlier PDF stays as it was, with its record."""
    tree = tree_hash(ROOT)
    with atomic_path(target) as printed:
        print_pdf(build_singlehtml(), printed)
        if tree_hash(ROOT) != tree:
            raise Refused("the tree changed while the PDF was printed: no PDF written")
    write_json(printed_record(target), {"tree": tree, "sha256": file_digest(target)})
    return target


def _make() -> int:
    try:
        for path in (PDF, printed_record(Path(PDF)).as_posix()):
            in_place(ROOT, path)
        print(f"wrote {build().relative_to(ROOT)}")
    except Refused as exc:
        print(f"make pdf: refused: {exc}", file=sys.stderr)
        return 1
    return 0


def main() -> int:
    """``make pdf``: 0 when written, 1 when refused (its path runs through a symlink, or the tree
    changed while it was printed), and one line
    with 130, 143 or 74 on Ctrl-C, SIGTERM or a system error."""
    return one_line("make pdf", _make)


if __name__ == "__main__":
    sys.exit(main())
