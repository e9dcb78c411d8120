"""Helpers shared by several test modules (not tests themselves): an HTML table reader, the
source/executed notebook comparison, and nbval run in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

from attnspec.chapters import ROOT

SANITIZE = ROOT / "tests" / "sanitize.cfg"


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
