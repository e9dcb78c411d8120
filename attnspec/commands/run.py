"""``attnspec run CHAPTER -p NAME VALUE ... [-o DIR] [--html]``: re-execute a chapter with papermill.

Every name, type and range, and every rule between parameters, is checked before a kernel starts.
DIR is created (parents included). It receives ``CHAPTER.ipynb``, ``CHAPTER.results.json`` and with
``--html`` a self-contained page rendered by the book's own pipeline (:mod:`attnspec.render`).
Ctrl-C or SIGTERM stops with one line and status 130 or 143, leaving no partial or temporary file.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from contextlib import contextmanager
from pathlib import Path

from ..chapters import chapter, execute


class Interrupted(KeyboardInterrupt):
    """Raised in the main thread when SIGINT or SIGTERM arrives; remembers which signal."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextmanager
def interrupts():
    """Turn SIGINT and SIGTERM into :class:`Interrupted`; yield a list that receives the signals seen.

    A Ctrl-C in a terminal also reaches the kernel, whose failing cell may surface as another
    exception first: the caller treats any exception as an interrupt once a signal was seen.
    """
    seen: list[int] = []

    def handler(signum, frame):
        first = not seen
        seen.append(signum)
        # the kernel gets the signal too: what papermill, nbclient and asyncio log about its death is noise
        logging.disable(logging.CRITICAL)
        if first:
            raise Interrupted(signum)

    previous = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield seen
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


def add_parser(sub) -> None:
    parser = sub.add_parser("run", help="re-execute a chapter with new parameters")
    parser.add_argument("chapter", help="short name, as listed by `attnspec chapters`")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                        help="set a parameter (repeatable)")
    parser.add_argument("-o", "--output", default=".", metavar="DIR",
                        help="output folder, created if missing (default: .)")
    parser.add_argument("--html", action="store_true",
                        help="also write CHAPTER.html, rendered like the book, self-contained and offline")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    with interrupts() as seen:
        try:
            return _run(args, seen)
        except Interrupted as exc:  # before anything was written
            return _interrupted(exc.signum)


def _interrupted(signum: int) -> int:
    name = "SIGTERM" if signum == signal.SIGTERM else "Ctrl-C"
    print(f"attnspec run: interrupted ({name}); nothing written", file=sys.stderr)
    return 128 + signum


def _run(args: argparse.Namespace, seen: list[int]) -> int:
    chap = chapter(args.chapter)
    overrides = chap.parse_parameters(args.parameter)
    chap.resolve(overrides)  # every rule between parameters, before a kernel starts
    out_dir = Path(args.output)
    if out_dir.exists() and not out_dir.is_dir():
        from ..errors import InvalidInput

        raise InvalidInput(f"--output {out_dir}: is a file, not a folder")
    notebook = out_dir / f"{chap.name}.ipynb"
    written: list[Path] = []
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        execute(chap.name, overrides, notebook)
        written += [notebook, notebook.with_name(f"{chap.name}.results.json")]
        if args.html:
            from ..render import render_html

            written.append(render_html(notebook))
    except BaseException:
        if not seen:
            raise
        for path in written:  # an interrupted run leaves nothing behind
            path.unlink(missing_ok=True)
        return _interrupted(seen[0])
    for path in written:
        print(f"wrote {path}")
    return 0
