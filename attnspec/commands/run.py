"""``attnspec run CHAPTER -p NAME VALUE ... [-o DIR] [--html]``: re-execute a chapter with papermill.

Every name, type and range, and every rule between parameters, is checked before a kernel starts.
DIR is created (parents included). It receives ``CHAPTER.ipynb``, ``CHAPTER.results.json`` and with
``--html`` a self-contained page rendered by the book's own pipeline (:mod:`attnspec.render`).
Ctrl-C or SIGTERM stops with one line and status 130 or 143, leaving no partial or temporary file.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from contextlib import contextmanager
from pathlib import Path

from .. import cleanup
from ..chapters import chapter, execute
from ..errors import InvalidInput


@contextmanager
def interrupts(written: list[Path]):
    """On SIGINT or SIGTERM: stop the kernels, remove every temporary folder, print one line, exit 128 + signal.

    Results are moved into place whole (:func:`os.replace`), so stopping at any instant leaves only
    whole files; ``written`` lists them for the message.
    """

    def handler(signum, frame):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        logging.disable(logging.CRITICAL)  # the kernel gets the signal too: its death is expected
        cleanup.now()
        name = "SIGTERM" if signum == signal.SIGTERM else "Ctrl-C"
        kept = (
            f"kept {', '.join(p.name for p in written)}; no partial file"
            if written
            else "nothing written"
        )
        print(f"attnspec run: interrupted ({name}); {kept}", file=sys.stderr, flush=True)
        os._exit(128 + signum)

    previous = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


def add_parser(sub) -> None:
    parser = sub.add_parser("run", help="re-execute a chapter with new parameters")
    parser.add_argument("chapter", help="short name, as listed by `attnspec chapters`")
    parser.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "VALUE"),
        help="set a parameter (repeatable)",
    )
    parser.add_argument(
        "-o",
        "--output",
        default=".",
        metavar="DIR",
        help="output folder, created if missing (default: .)",
    )
    parser.add_argument(
        "--html",
        action="store_true",
        help="also write CHAPTER.html, rendered like the book, self-contained and offline",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    written: list[Path] = []
    with interrupts(written):
        chap = chapter(args.chapter)
        overrides = chap.parse_parameters(args.parameter)
        chap.resolve(overrides)  # every rule between parameters, before a kernel starts
        out_dir = Path(args.output)
        if out_dir.exists() and not out_dir.is_dir():
            raise InvalidInput(f"--output {out_dir}: is a file, not a folder")
        out_dir.mkdir(parents=True, exist_ok=True)
        notebook = execute(chap.name, overrides, out_dir / f"{chap.name}.ipynb")
        written += [out_dir / notebook.name, out_dir / f"{chap.name}.results.json"]
        if args.html:
            from ..render import render_html

            written.append(render_html(out_dir / notebook.name))
    for path in written:
        print(f"wrote {path}")
    return 0
