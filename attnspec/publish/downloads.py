"""What GitHub Pages serves: the published site with its downloads, in ``_build/pages``.

``python -m attnspec.publish.downloads`` (``make pages``, after ``make dist``) copies the published
site (``_build/site``) and adds ``downloads/``:

- ``attnspec-VERSION.pdf``, the PDF that ``make pdf`` printed from the tested tree;
- ``attnspec-VERSION-supplement.zip``, the archive, its checksums verified;
- ``SHA256SUMS`` of the two (``sha256sum -c SHA256SUMS``);
- ``index.html``, which lists each file with its size and SHA-256.

The pages reach ``downloads/index.html`` at the site's published address (the footer,
``book/_ext/citation.py``; :mod:`attnspec.publish.repository`). A page that says where the files
are (the Citing page, the landing page's "Cite this book" box) shows :data:`UNPUBLISHED`, how to
make them, wherever the site has no ``downloads/``; here it becomes links to them
(:func:`link_downloads`). Neither the site nor the archive
holds these files: the archive holds the site, and no file can state its own checksum.

The folder is built beside its place and renamed into it, so it is whole or absent, and it is
never written through a symlink.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from .. import __version__
from ..core.stopping import one_line
from ..present.formatting import size_text
from .archive import SUMS, check_printed, folder, name, verify
from .gate import BUILD, SITE
from .paths import ROOT
from .pdf import TARGET as PDF
from .tree import Refused, in_place

PAGES = f"{BUILD}/pages"
DOWNLOADS = "downloads"


#: the paragraph of a page that says where the PDF and the archive are
MARK = '<p class="attnspec-downloads">'
#: what it says in a copy of the site without ``downloads/`` (the built site, the archive's copy)
UNPUBLISHED = (
    f"{MARK}This copy of the site has no <code>downloads/</code> folder, so it links neither the "
    "PDF nor the supplement archive: the published site serves both beside the book, and a "
    "checkout makes them with <code>make pdf</code> (the PDF, "
    "<code>_build/pdf/attnspec.pdf</code>) and <code>make dist</code> (the archive, in "
    "<code>dist/</code>).</p>"
)


def published(prefix: str, files: list[str]) -> str:
    """The paragraph of :data:`MARK` in the published layout: the downloads page, the PDF and the
    archive (``files``), linked by ``prefix`` (the way from the page to ``downloads/``)."""
    e = html.escape
    pdf, archive = files
    return (
        f"{MARK}This site serves both files beside the book, each with its size and SHA-256 on "
        f'<a href="{e(prefix)}index.html">its downloads page</a>: '
        f'<a href="{e(prefix + pdf)}">the PDF, <code>{e(pdf)}</code></a>, and '
        f'<a href="{e(prefix + archive)}">the supplement archive, <code>{e(archive)}</code></a>. '
        "A checkout makes them with <code>make pdf</code> and <code>make dist</code>.</p>"
    )


def link_downloads(site: Path, files: list[str]) -> list[Path]:
    """Replace :data:`MARK`'s paragraph in every page of ``site`` (which has ``downloads/``) by
    :func:`published`; return the pages changed."""
    changed = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        if MARK not in text:
            continue
        prefix = os.path.relpath(site / DOWNLOADS, page.parent).replace(os.sep, "/") + "/"
        paragraph = published(prefix, files)
        page.write_text(
            re.sub(re.escape(MARK) + r".*?</p>", lambda _, p=paragraph: p, text, flags=re.S),
            encoding="utf-8",
        )
        changed.append(page)
    return changed


def index_html(files: dict[str, bytes]) -> str:
    """The downloads page: each file linked, with its size and SHA-256."""
    e = html.escape
    rows = "".join(
        f'<tr><td><a href="{e(f)}">{e(f)}</a></td><td>{e(size_text(len(data)))}</td>'
        f"<td><code>{hashlib.sha256(data).hexdigest()}</code></td></tr>"
        for f, data in files.items()
    )
    title = f"attnspec {e(__version__)}: the PDF and the supplement archive"
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title><style>body{{font-family:sans-serif;max-width:60rem;"
        f"margin:2rem auto;padding:0 1rem;line-height:1.5}}td,th{{padding:.3rem .6rem;"
        f"text-align:left}}code{{overflow-wrap:anywhere}}</style></head><body><main>"
        f"<h1>{title}</h1><table><thead><tr><th>file</th><th>size</th><th>SHA-256</th></tr>"
        f"</thead><tbody>{rows}</tbody></table><p>Check them with "
        f'<code>sha256sum -c <a href="{SUMS}">{SUMS}</a></code>. The archive opens the book '
        f"offline and re-executes every chapter (see <em>How to cite</em> in the book). "
        f'<a href="../index.html">Back to the book</a>.</p></main></body></html>\n'
    )


def assemble(site: Path, pdf: Path, archive: Path, output: Path) -> Path:
    """Write ``output``: a copy of ``site`` with ``downloads/`` (see the module docstring)."""
    if not (site / "index.html").is_file():
        raise Refused(f"{site} is missing: make site makes it")
    if not archive.is_file():
        raise Refused(f"{archive} is missing: make dist makes it")
    try:
        verify(archive)
    except ValueError as exc:
        raise Refused(f"{archive}: {exc}") from None
    files = {f"{folder()}.pdf": pdf.read_bytes(), archive.name: archive.read_bytes()}
    sums = "".join(f"{hashlib.sha256(d).hexdigest()}  {f}\n" for f, d in files.items())
    work = Path(tempfile.mkdtemp(dir=output.parent, prefix=".pages-", suffix=".tmp"))
    try:
        shutil.rmtree(work)
        shutil.copytree(site, work, symlinks=True)
        downloads = work / DOWNLOADS
        downloads.mkdir()
        for f, data in files.items():
            (downloads / f).write_bytes(data)
        (downloads / SUMS).write_text(sums)
        (downloads / "index.html").write_text(index_html(files))
        link_downloads(work, list(files))
        shutil.rmtree(output, ignore_errors=True)
        os.replace(work, output)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return output


def _make(args: argparse.Namespace, root: Path) -> int:
    try:
        output = in_place(root, PAGES)
        check_printed(args.pdf, root)
        pages = assemble(args.site, args.pdf, args.archive, output)
    except Refused as exc:
        print(f"make pages: refused: {exc}", file=sys.stderr)
        return 1
    count = sum(1 for p in pages.rglob("*") if p.is_file())
    print(f"wrote {pages.relative_to(root)} ({count} files) with {DOWNLOADS}/index.html")
    return 0


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    """``make pages``: 0 when written, 1 when refused, and one line with 130, 143 or 74 on Ctrl-C,
    SIGTERM or a system error (nothing partial left)."""
    parser = argparse.ArgumentParser(prog="python -m attnspec.publish.downloads")
    parser.add_argument("--site", type=Path, default=root / SITE, help="the published site")
    parser.add_argument("--pdf", type=Path, default=PDF, help="the PDF supplement")
    parser.add_argument(
        "--archive", type=Path, default=root / "dist" / name(), help="the supplement archive"
    )
    args = parser.parse_args(argv)
    return one_line("make pages", lambda: _make(args, root))


if __name__ == "__main__":
    sys.exit(main())
