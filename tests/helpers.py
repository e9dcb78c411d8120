"""Helpers shared by several test modules (not tests themselves): strict JSON, the command's exit
status, the command in a subprocess, tmpfs mounts, a TCP peer, a copy of the checkout, hand-built
glue notebooks, an HTML table reader, the source/executed notebook comparison, nbval run in a
subprocess, a page probed in headless Chromium (Playwright), a copy of the built site, and a
chapter study's verdicts and figures checked."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path

import pytest

from attnspec.publish.paths import ROOT

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


def attnspec(
    *args: str,
    cwd: Path,
    stdout=subprocess.PIPE,
    env: dict | None = None,
    timeout: float = 120,
    **kwargs,
) -> subprocess.CompletedProcess:
    """Run ``python -m attnspec.cli ARGS`` in ``cwd`` (the test's cache folder is inherited)."""
    return subprocess.run(
        [sys.executable, "-m", "attnspec.cli", *args],
        cwd=cwd,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        **kwargs,
    )


def one_line(stderr: str, fragment: str) -> None:
    """``stderr`` is one line, without a traceback, and holds ``fragment``."""
    assert stderr.count("\n") == 1 and "Traceback" not in stderr and fragment in stderr, stderr


def tmpfs_mounts(tmp_path: Path) -> Iterator[Callable[[str], Path]]:
    """The body of a ``mounted`` fixture: ``mounted(options)`` gives a fresh tmpfs folder mounted
    with ``options``; every one is unmounted after the test."""
    points = []

    def mount(options: str) -> Path:
        point = tmp_path / f"mnt{len(points)}"
        point.mkdir()
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)], capture_output=True
        )
        if done.returncode:
            pytest.skip(f"cannot mount a tmpfs here: {done.stderr!r}")
        points.append(point)
        return point

    yield mount
    for point in points:
        subprocess.run(["umount", str(point)], check=False)


@contextlib.contextmanager
def peer(answer: Callable[[socket.socket], None], close: bool = True) -> Iterator[str]:
    """A TCP peer on a free local port that calls ``answer(connection)`` for every connection,
    then closes its side if ``close`` (a client waiting for more learns it at once), else keeps
    the connection open; yields its ``tcp://`` address."""
    listener = socket.create_server(("127.0.0.1", 0))
    conns: list[socket.socket] = []

    def serve():
        with contextlib.suppress(OSError):
            while True:
                conn, _ = listener.accept()
                conns.append(conn)
                with contextlib.suppress(OSError):
                    answer(conn)
                    if close:
                        conn.shutdown(socket.SHUT_WR)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()
        for conn in conns:
            conn.close()


def copy_checkout(target: Path) -> Path:
    """Copy the checkout's tracked files (symlinks as symlinks) to ``target``; return it."""
    files = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True
    ).stdout
    for name in files.decode().split("\0"):
        if name:
            source, copy = ROOT / name, target / name
            copy.parent.mkdir(parents=True, exist_ok=True)
            if source.is_symlink():
                copy.symlink_to(os.readlink(source))
            elif source.is_file():
                shutil.copy2(source, copy)
    return target


def glue_output(key: str, data: str | dict):
    """The display output ``glue(key, ...)`` stores: ``data`` is its text/plain, or a MIME dict."""
    import nbformat

    data = {"text/plain": data} if isinstance(data, str) else data
    return nbformat.v4.new_output(
        "display_data",
        data={RECORD + mime: value for mime, value in data.items()},
        metadata={"scrapbook": {"name": key, "mime_prefix": RECORD}},
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


#: Headless Chromium as the tests drive it: Debian's package, through Playwright, offline.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: Waits for MathJax to finish typesetting (when the page loads it), then returns what a reader
#: would see: MathJax loaded, formulas typeset or not, figures and whether their images loaded.
PROBE = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    try { await MathJax.startup.promise; } catch (e) {}
  }
  const imgs = [...document.images];
  return {mathjax: typeof MathJax !== 'undefined' && !!MathJax.startup,
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
}"""


@contextmanager
def chromium(timeout: float = 300):
    """A Playwright page in headless Chromium (1280 × 900), opened for the ``with`` block.

    Fails with what to install when Debian's chromium or Playwright is missing.
    """
    assert Path(CHROMIUM).is_file(), f"{CHROMIUM} is missing: install Debian's chromium"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(timeout * 1000)
            yield page
        finally:
            browser.close()


def probe_page(page: Path, timeout: float = 300) -> dict:
    """Open ``page`` (a file, read only: nothing is written beside it) in headless Chromium and
    return what :data:`PROBE` saw once MathJax had typeset it."""
    with chromium(timeout) as tab:
        tab.goto(page.resolve().as_uri(), wait_until="load")
        return tab.evaluate(PROBE)


def copy_site(site: Path, into: Path) -> Path:
    """A copy of the built site ``site`` in ``into``: tests open pages there, never in ``site``."""
    assert (site / "index.html").is_file(), f"{site} is not built: run `make book` first"
    return Path(shutil.copytree(site, into / site.name))


def verdicts_of(claims) -> str:
    """The claims' verdicts in order, one symbol each (✓ ✗ ○): what a verdict-pinning test fixes
    at chosen parameters, so that a claims builder changed by mistake fails the fast loop."""
    from attnspec.present.claims import verdict

    return "".join(verdict(c.holds) for c in claims)


def verdicts(claims, pinned: str) -> None:
    """The claims are Claims, their table renders, and their verdicts are the ``pinned`` ones."""
    from attnspec.present.claims import Claim
    from attnspec.present.tables import claims_markdown

    assert claims and all(isinstance(c, Claim) for c in claims)
    assert "claims hold at these parameters" in claims_markdown(claims)
    assert verdicts_of(claims) == pinned


def columns(markdown: str) -> list[int]:
    """Cells per row of a Markdown table (pipes outside math, escaped ones excluded)."""
    rows = [line for line in markdown.splitlines() if line.startswith("|")]
    return [line.replace(r"\|", "").count("|") - 1 for line in rows]


def plain(values: dict) -> None:
    """Every value is one glue_values takes: a real number or a string, not an array."""
    import numbers

    assert all(isinstance(v, numbers.Real | str) for v in values.values()), values


def check_figures(
    study, names: set[str], extra=None, labelled: bool = True, legends: bool = False
) -> None:
    """Draw each of ``study``'s figures, check it and close it: the figures are exactly ``names``;
    each has axes and, with ``labelled``, an x label on every visible axis, with ``legends`` a
    figure legend (an interactive figure: its static rendering); ``extra(name, fig)``, when given,
    makes a chapter's own checks on the figure as drawn (a panel grid labels only its outer axes:
    its test checks those in ``extra``)."""
    import matplotlib.pyplot as plt

    from attnspec.present.interactive import InteractiveFigure

    figures = study.figures()
    assert set(figures) == names
    for name, draw in figures.items():
        fig = draw()
        static = fig.static if isinstance(fig, InteractiveFigure) else fig
        try:
            visible = [ax for ax in static.axes if ax.get_visible()]
            assert static.axes and (not labelled or all(ax.get_xlabel() for ax in visible)), name
            assert static.legends or not legends, name
            if extra is not None:
                extra(name, fig)
        finally:
            plt.close(static)


@contextmanager
def in_this_process() -> Iterator[None]:
    """A study's parallel work done in the test's own process: ``map_processes`` as a loop, and
    the trials a sweep misses computed one after the other instead of on a new Dask cluster.

    What the pins check (verdicts, values) does not depend on where a trial runs; the processes
    and the cluster are tested on their own (``tests/core/test_parallel.py``,
    ``tests/runner/test_sweep.py``).
    Starting them would cost a chapter's pin more than its small computation, and a spawned
    process loads the model weights again.
    """
    from attnspec.experiments import head_dimension, head_dimension_blocks
    from attnspec.experiments.trials import trial
    from attnspec.real import study
    from attnspec.runner import sweep

    def serial(func, args):
        return [func(*a) for a in args]

    def trials(tasks, client, progress=False):
        return [trial(c.d, c.beta, c.c_poly, c.seed, k, models) for c, k, models in tasks]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(study, "map_processes", serial)
        mp.setattr(head_dimension, "map_processes", serial)
        mp.setattr(head_dimension_blocks, "map_processes", serial)
        mp.setattr(sweep, "cluster_client", lambda *args: contextlib.nullcontext())
        mp.setattr(sweep, "compute_trials", trials)
        yield
