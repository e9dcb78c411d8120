"""The whole book as one PDF (a journal supplement), built offline: ``python -m
attnspec.publish.pdf``.

1. Sphinx's single-page HTML builder renders the book (``jupyter-book build --builder singlehtml``),
   with the same stored outputs, bundled MathJax and glued figures as the site.
2. Headless Chromium opens the page and waits until MathJax has typeset every formula (a marker is
   added when ``MathJax.startup.promise`` resolves); the typeset DOM is saved with its SVG math,
   the MathJax script removed and the provenance blocks opened.
3. Chromium prints that static page to ``_build/pdf/attnspec.pdf`` (atomically): no formula can be
   caught half-typeset, since nothing is typeset any more while printing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..core.atomic import atomic_path
from ..core.paths import ROOT

SINGLE = ROOT / "_build" / "singlehtml"
TARGET = ROOT / "_build" / "pdf" / "attnspec.pdf"
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


def typeset(page: Path, work: Path, budget_ms: int = 120000) -> str:
    """The page's DOM once MathJax has finished, the MathJax script removed, details opened."""
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
    dom = re.sub(r"<script[^>]*mathjax[^>]*>\s*</script>", "", dom, flags=re.I)
    dom = re.sub(r"<script>\s*window\.MathJax\s*=.*?</script>", "", dom, flags=re.S)
    dom = dom.replace(
        '<details class="attnspec-provenance">', '<details class="attnspec-provenance" open="">'
    )
    return dom.replace("</head>", PRINT_CSS + "</head>")


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
    finally:
        static.unlink(missing_ok=True)
    return target


def build(target: Path = TARGET) -> Path:
    """Build ``_build/pdf/attnspec.pdf`` from the stored chapters (nothing is executed)."""
    page = build_singlehtml()
    with tempfile.TemporaryDirectory(prefix="attnspec-pdf-") as work:
        dom = typeset(page, Path(work))
        return print_pdf(dom, target, Path(work))


if __name__ == "__main__":
    print(f"wrote {build().relative_to(ROOT)}")
