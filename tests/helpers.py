"""Helpers shared by several test modules (not tests themselves): strict JSON, the command's exit
status, hand-built glue notebooks, an HTML table reader, the source/executed notebook comparison,
nbval run in a subprocess, and a page probed in Chromium."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

from attnspec.core.paths import ROOT
from attnspec.publish.pdf import FLAGS

SANITIZE = ROOT / "tests" / "sanitize.cfg"
#: The MIME prefix myst-nb's glue gives a value's outputs.
RECORD = "application/papermill.record/"


def strict_json(path: Path):
    """The JSON in ``path``; ValueError on NaN or Infinity, which strict JSON does not allow."""

    def refuse(name):
        raise ValueError(f"not strict JSON: {name}")

    return json.loads(path.read_text(), parse_constant=refuse)


def cli_status(argv: list[str]) -> int:
    """``attnspec``'s exit status for ``argv``, whether main() returns it or argparse exits."""
    from attnspec.cli import main

    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code


def glue_output(key: str, data: str | dict):
    """The display output ``glue(key, ...)`` stores: ``data`` is its text/plain, or a MIME dict."""
    import nbformat

    data = {"text/plain": data} if isinstance(data, str) else data
    return nbformat.v4.new_output(
        "display_data",
        data={RECORD + mime: value for mime, value in data.items()},
        metadata={"scrapbook": {"name": key, "mime_prefix": RECORD}},
    )


def claims_output(claim_list):
    """The display output of a chapter's claims table."""
    import nbformat

    from attnspec.publish.report import claims_markdown

    return nbformat.v4.new_output(
        "display_data", data={"text/markdown": claims_markdown(claim_list)}
    )


def notebook_with(outputs, markdown: str | None = None):
    """A notebook with one code cell holding ``outputs`` (after a Markdown cell, if given)."""
    import nbformat

    cell = nbformat.v4.new_code_cell("...")
    cell.outputs = list(outputs)
    nb = nbformat.v4.new_notebook()
    nb.cells = ([nbformat.v4.new_markdown_cell(markdown)] if markdown else []) + [cell]
    return nb


class _Tables(HTMLParser):
    """Every <table> of a page as a list of rows, each row the texts of its <th>/<td> cells."""

    def __init__(self):
        super().__init__()
        self.tables, self._row, self._cell = [], None, None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[-1].append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def html_tables(html: str) -> list[list[list[str]]]:
    """The tables of an HTML page: rows (header rows included) of cell texts."""
    parser = _Tables()
    parser.feed(html)
    return parser.tables


def assert_cells_agree(source, executed) -> None:
    """A notebook source and its executed notebook have the same cells: type, source and tags."""
    assert len(source.cells) == len(executed.cells)
    for a, b in zip(source.cells, executed.cells, strict=True):
        assert (a.cell_type, a.source, a.metadata.get("tags", [])) == (
            b.cell_type,
            b.source,
            b.metadata.get("tags", []),
        )


def run_nbval(path: Path, *plugins: str, timeout: int = 600) -> subprocess.CompletedProcess:
    """nbval on one notebook in a fresh pytest process, from the repository root.

    With the sanitize file and the extra ``-p`` plugins; the output is captured as text.
    """
    loaded = [arg for plugin in plugins for arg in ("-p", plugin)]
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--nbval",
            "--nbval-current-env",
            f"--nbval-sanitize-with={SANITIZE}",
            "-p",
            "no:cacheprovider",
            *loaded,
            "-q",
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


#: Appended to a page: once MathJax has typeset it, writes what a reader would see as JSON in a
#: <pre id="attnspec-probe">, which Chromium's --dump-dom prints.
PROBE = """<script>
function attnspecProbe() {
  const imgs = [...document.images];
  const result = {mathjax: typeof MathJax !== 'undefined' && !!MathJax.startup,
                  typeset: document.querySelectorAll('mjx-container').length,
                  math: document.querySelectorAll('.math').length,
                  untypeset: [...document.querySelectorAll('.math')]
                               .filter(m => !m.querySelector('mjx-container')).length,
                  figures: document.querySelectorAll('figure').length,
                  images: imgs.length,
                  interactive: document.querySelectorAll('figure .plotly-graph-div').length,
                  drawn: [...document.querySelectorAll('figure .plotly-graph-div')]
                           .filter(g => g.querySelector('.main-svg')).length,
                  broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0))
                              .map(i => i.src.slice(0, 80)),
                  text: document.body.innerText};
  const out = document.createElement('pre');
  out.id = 'attnspec-probe';
  out.textContent = JSON.stringify(result);
  document.body.appendChild(out);
}
window.addEventListener('load', () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise)
    MathJax.startup.promise.then(attnspecProbe, attnspecProbe);
  else attnspecProbe();
});
</script>"""


def probe_page(page: Path, copy: Path, profile: Path, timeout: int = 300) -> dict:
    """Open ``page`` in headless Chromium through ``copy`` (the page with :data:`PROBE` appended;
    beside the page when it links to files next to it) and return what the probe saw."""
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is not installed (`make browser`)"
    copy.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    try:
        done = subprocess.run(
            [
                chromium,
                *FLAGS,
                "--virtual-time-budget=20000",
                "--dump-dom",
                f"--user-data-dir={profile}",
                copy.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    finally:
        copy.unlink()
    found = re.search(r'<pre id="attnspec-probe"[^>]*>(.*?)</pre>', done.stdout, re.S)
    assert found, f"the probe did not run in {page.name}"
    return json.loads(html.unescape(found.group(1)))
