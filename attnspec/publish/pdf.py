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

The same tree prints the same bytes once two things Chromium writes are fixed
(:func:`reproducible`): the print time, as ``/CreationDate`` and ``/ModDate``, becomes the
version's release date (``date-released`` of CITATION.cff); and the ids of the tagged PDF's table
headers (``/ID (node00006557)``, referred to by the cells' ``/Headers``), which come from
Chromium's DOM node counter and so depend on what it painted before, are numbered in order. Both
keep their length, so the cross-reference offsets stay right.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from .. import __version__
from ..core.atomic import atomic_path, write_json
from ..core.stopping import one_line
from .gate import Refused, in_place, tree_hash
from .paths import CONFIG, ROOT
from .provenance import file_digest

SINGLE = ROOT / "_build" / "singlehtml"
#: the PDF, a fixed build path (never written through a symlink: :func:`~.gate.in_place`)
PDF = "_build/pdf/attnspec.pdf"
TARGET = ROOT / PDF
CHROMIUM = "/usr/bin/chromium"
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
#: opens the provenance blocks, puts the title page first and adds the print style sheet
PREPARE = """({lines, css}) => {
  document.querySelectorAll('details.attnspec-provenance').forEach(d => { d.open = true; });
  const title = document.createElement('section');
  title.className = 'attnspec-title-page';
  lines.forEach((text, i) => {
    title.appendChild(document.createElement(i ? 'p' : 'h1')).textContent = text;
  });
  document.body.prepend(title);
  document.head.appendChild(document.createElement('style')).textContent = css;
}"""
#: how ``page.pdf()`` prints: A4 with these margins, backgrounds (as on screen), tagged
PRINT = {
    "format": "A4",
    "margin": dict(top="16mm", bottom="16mm", left="14mm", right="14mm"),
    "print_background": True,
    "tagged": True,
}
PRINT_CSS = """
@media print {
  .bd-header, .bd-sidebar-primary, .bd-sidebar-secondary, .bd-footer, .bd-footer-article,
  .prev-next-area, .header-article, .headerlink, .toggle-secondary-sidebar, #pst-back-to-top {
    display: none !important;
  }
  .bd-main .bd-content .bd-article-container { max-width: 100% !important; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; }  /* a page cannot scroll sideways */
  figure, img, .cell_output, table { break-inside: avoid; }
  h1, h2, h3 { break-after: avoid; }
}
.attnspec-title-page { break-after: page; text-align: center; padding-top: 30vh; }
.attnspec-title-page h1 { font-size: 2.2em; margin-bottom: 0.6em; }
.attnspec-title-page p { font-size: 1.2em; margin: 0.4em 0; }
"""


def title_lines() -> list[str]:
    """The title page's lines: the book's title and author (_config.yml), then the attnspec version
    and its release date."""
    import yaml

    config = yaml.safe_load(CONFIG.read_text())
    released = f"Version {__version__}, released {release_date()}"
    return [str(config["title"]), str(config["author"]), released]


def release_date(citation: Path = ROOT / "CITATION.cff") -> str:
    """``date-released`` of CITATION.cff, as ``YYYY-MM-DD``."""
    found = re.search(r'^date-released:\s*"?(\d{4}-\d{2}-\d{2})"?\s*$', citation.read_text(), re.M)
    if not found:
        raise RuntimeError(f"{citation.name} states no date-released")
    return found.group(1)


def reproducible(pdf: bytes, date: str) -> bytes:
    """``pdf`` with ``/CreationDate`` and ``/ModDate`` set to ``date`` (midnight UTC) and the table
    headers' node ids numbered in order of appearance, each of the same length as before."""
    day = "D:" + date.replace("-", "") + "000000"

    def same_date(found: re.Match) -> bytes:
        old = found.group(2)
        new = [d for d in (day + "+00'00'", day + "Z", day) if len(d) == len(old)]
        if not new:
            raise RuntimeError(f"unexpected PDF date {old!r}")
        return found.group(1) + new[0].encode() + b")"

    seen: dict[bytes, int] = {}

    def in_order(found: re.Match) -> bytes:  # never longer: n ids come from a counter >= n
        digits = found.group(1)
        number = seen.setdefault(digits, len(seen))
        return b"(node" + str(number).zfill(len(digits)).encode() + b")"

    pdf = re.sub(rb"(/(?:CreationDate|ModDate) ?\()(D:[^)]*)\)", same_date, pdf)
    return re.sub(rb"(?<!\\)\(node(\d+)\)", in_order, pdf)


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


def prepare(page) -> None:
    """Open the provenance blocks of the Playwright ``page``, put the title page
    (:func:`title_lines`) first and add the print style sheet."""
    page.evaluate(PREPARE, {"lines": title_lines(), "css": PRINT_CSS})


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
                pdf = page.pdf(**PRINT)
            finally:
                browser.close()
    finally:
        copy.unlink(missing_ok=True)
    with atomic_path(target) as tmp:
        tmp.write_bytes(reproducible(pdf, release_date()))
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
