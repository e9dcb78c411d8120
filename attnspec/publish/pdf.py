"""The whole book as one PDF (a journal supplement), built offline: ``python -m
attnspec.publish.pdf``.

1. Sphinx's single-page HTML builder renders the book (``jupyter-book build --builder singlehtml``),
   with the same stored outputs, bundled MathJax and glued figures as the site.
2. Headless Chromium opens the page and waits until MathJax has typeset every formula (a marker is
   added when ``MathJax.startup.promise`` resolves); the typeset DOM is saved with its SVG math,
   the MathJax script removed and the provenance blocks opened.
3. Chromium prints that static page to ``_build/pdf/attnspec.pdf`` (atomically): no formula can be
   caught half-typeset, since nothing is typeset any more while printing. A title page comes
   first, with the book's title, author and attnspec version. The PDF's creation and modification
   dates are the version's release date (``date-released`` of CITATION.cff) and the page's random
   icon ids are numbered, so that the same tree prints the same bytes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
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
MARKER = "attnspec-typeset"
WAIT = f"""<script>
window.addEventListener('load', () => {{
  const done = () => {{ const m = document.createElement('meta'); m.name = '{MARKER}';
                        const math = '.math:not(:has(mjx-container))';
                        m.content = String(document.querySelectorAll(math).length);
                        document.head.appendChild(m); }};
  if (window.MathJax && MathJax.startup && MathJax.startup.promise)
    MathJax.startup.promise.then(done, done);
  else done();
}});
</script>"""
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PRINT_CSS = """<style>
@page { size: A4; margin: 16mm 14mm; }
@media print {
  .bd-header, .bd-sidebar-primary, .bd-sidebar-secondary, .bd-footer, .bd-footer-article,
  .prev-next-area, .header-article, .headerlink, .toggle-secondary-sidebar, #pst-back-to-top {
    display: none !important;
  }
  .bd-main .bd-content .bd-article-container { max-width: 100% !important; }
  figure, img, .cell_output, table { break-inside: avoid; }
  h1, h2, h3 { break-after: avoid; }
}
</style>"""


TITLE_CSS = """<style>
.attnspec-title-page { break-after: page; text-align: center; padding-top: 30vh; }
.attnspec-title-page h1 { font-size: 2.2em; margin-bottom: 0.6em; }
.attnspec-title-page p { font-size: 1.2em; margin: 0.4em 0; }
</style>"""


def title_page() -> str:
    """The PDF's first page: the book's title and author (_config.yml), the attnspec version and its
    release date."""
    import html

    import yaml

    config = yaml.safe_load(CONFIG.read_text())
    e = html.escape
    return (
        f'<section class="attnspec-title-page"><h1>{e(config["title"])}</h1>'
        f"<p>{e(config['author'])}</p>"
        f"<p>Version {e(__version__)}, released {e(release_date())}</p></section>"
    )


def release_date(citation: Path = ROOT / "CITATION.cff") -> str:
    """``date-released`` of CITATION.cff, as ``YYYY-MM-DD``."""
    found = re.search(r'^date-released:\s*"?(\d{4}-\d{2}-\d{2})"?\s*$', citation.read_text(), re.M)
    if not found:
        raise RuntimeError(f"{citation.name} states no date-released")
    return found.group(1)


def fix_dates(pdf: bytes, date: str) -> bytes:
    """Set the PDF's ``/CreationDate`` and ``/ModDate`` to ``date``, midnight UTC.

    Each keeps its length (with or without a time zone), so the cross-reference offsets stay right.
    """
    day = "D:" + date.replace("-", "") + "000000"

    def same_length(found: re.Match) -> bytes:
        old = found.group(2)
        new = [d for d in (day + "+00'00'", day + "Z", day) if len(d) == len(old)]
        if not new:
            raise RuntimeError(f"unexpected PDF date {old!r}")
        return found.group(1) + new[0].encode() + b")"

    return re.sub(rb"(/(?:CreationDate|ModDate) ?\()(D:[^)]*)\)", same_length, pdf)


def chromium() -> str:
    """The Chromium executable (Debian's ``chromium``), or a one-line error."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        raise SystemExit("attnspec pdf: error: chromium is not installed (`make browser`)")
    return found


def build_singlehtml() -> Path:
    """Build the book as one HTML page; return it, moved beside ``_static`` and ``_images``."""
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
    root_page = next(p for p in (SINGLE / "book").glob("*.html"))  # the root document (book/intro)
    return root_page


def stable_ids(dom: str) -> str:
    """The DOM with the random ids FontAwesome gives its icons' titles numbered in order instead, so
    that the same page always prints the same PDF."""
    seen: dict[str, str] = {}
    return re.sub(
        r"svg-inline--fa-title-[A-Za-z0-9]+",
        lambda m: seen.setdefault(m.group(0), f"svg-inline--fa-title-{len(seen)}"),
        dom,
    )


def typeset(page: Path, work: Path, budget_ms: int = 120000) -> str:
    """The page's DOM once MathJax has finished, the MathJax script removed, details opened, ids
    stable (:func:`stable_ids`)."""
    probe = SINGLE / "_attnspec_probe.html"  # beside _static and _images: relative links resolve
    probe.write_text(page.read_text().replace("</body>", WAIT + "</body>"))
    try:
        done = subprocess.run(
            [
                chromium(),
                *FLAGS,
                f"--user-data-dir={work / 'profile'}",
                f"--virtual-time-budget={budget_ms}",
                "--dump-dom",
                probe.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=900,
        )
    finally:
        probe.unlink(missing_ok=True)
    dom = done.stdout
    found = re.search(rf'<meta name="{MARKER}" content="(\d+)">', dom)
    if not found:
        raise RuntimeError("MathJax did not finish typesetting before the time budget ran out")
    if found.group(1) != "0":
        raise RuntimeError(f"{found.group(1)} formulas were not typeset")
    dom = stable_ids(re.sub(r"<script[^>]*mathjax[^>]*>\s*</script>", "", dom, flags=re.I))
    dom = re.sub(r"<script>\s*window\.MathJax\s*=.*?</script>", "", dom, flags=re.S)
    dom = dom.replace(
        '<details class="attnspec-provenance">', '<details class="attnspec-provenance" open="">'
    )
    dom = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + title_page(), dom, count=1)
    return dom.replace("</head>", PRINT_CSS + TITLE_CSS + "</head>")


def print_pdf(dom: str, target: Path, work: Path) -> Path:
    """Print a static page (no script left to change it) to ``target``, atomically."""
    static = SINGLE / "_attnspec_print.html"
    static.write_text(dom)
    try:
        with atomic_path(target) as tmp:
            subprocess.run(
                [
                    chromium(),
                    *FLAGS,
                    f"--user-data-dir={work / 'profile'}",
                    "--no-pdf-header-footer",
                    "--virtual-time-budget=10000",
                    f"--print-to-pdf={tmp}",
                    static.as_uri(),
                ],
                capture_output=True,
                text=True,
                timeout=900,
                check=True,
            )
            if tmp.stat().st_size == 0:
                raise RuntimeError("chromium wrote an empty PDF")
            tmp.write_bytes(fix_dates(tmp.read_bytes(), release_date()))
    finally:
        static.unlink(missing_ok=True)
    return target


def printed_record(target: Path = TARGET) -> Path:
    """The record beside a PDF of the tree it was printed from: ``attnspec.printed.json``."""
    return target.with_name(f"{target.stem}.printed.json")


def build(target: Path = TARGET) -> Path:
    """Build ``_build/pdf/attnspec.pdf`` from the stored chapters (nothing is executed), and
    record beside it the tree it was printed from and its SHA-256 (:func:`printed_record`)."""
    tree = tree_hash(ROOT)
    page = build_singlehtml()
    with tempfile.TemporaryDirectory(prefix="attnspec-pdf-") as work:
        dom = typeset(page, Path(work))
        print_pdf(dom, target, Path(work))
    write_json(printed_record(target), {"tree": tree, "sha256": file_digest(target)})
    return target


def _make() -> int:
    try:
        for path in (PDF, printed_record(Path(PDF)).as_posix()):
            in_place(ROOT, path)
    except Refused as exc:
        print(f"make pdf: refused: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {build().relative_to(ROOT)}")
    return 0


def main() -> int:
    """``make pdf``: 0 when written, 1 when refused (its path runs through a symlink), and one line
    with 130, 143 or 74 on Ctrl-C, SIGTERM or a system error."""
    return one_line("make pdf", _make)


if __name__ == "__main__":
    sys.exit(main())
