"""``attnspec run CHAPTER -p NAME VALUE ... [-o DIR] [--html]``: re-execute a chapter (papermill).

Every name, type and range, and every rule between parameters, is checked before a kernel starts; a
name may be spelled with underscores or dashes (``remove_top_k``, ``remove-top-k``). DIR is created
(parents included). It receives ``CHAPTER.ipynb``, ``CHAPTER.results.json`` and with ``--html`` a
self-contained page rendered by the book's own pipeline (:mod:`attnspec.publish.render`). Ctrl-C or
SIGTERM stops with one line and status 130 or 143, leaving no partial or temporary file.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .options import add_output, parameter_pairs


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
        help="set a parameter (repeatable); a name may be written with _ or -: "
        "remove_top_k or remove-top-k",
    )
    add_output(parser, "output folder, created if missing (default: .)", metavar="DIR", default=".")
    parser.add_argument(
        "--html",
        action="store_true",
        help="also write CHAPTER.html, rendered like the book, self-contained and offline",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..core.atomic import check_folder_writable
    from ..core.cleanup import interrupts
    from ..core.errors import InvalidInput
    from ..publish.chapters import chapter, execute

    written: list[Path] = []
    with interrupts(written, "run"):
        chap = chapter(args.chapter)
        # every value and every rule between parameters, before a kernel starts
        resolved = chap.resolve(chap.parse_parameters(parameter_pairs(args.parameter)))
        out_dir = Path(args.output)
        if out_dir.exists() and not out_dir.is_dir():
            raise InvalidInput(f"--output {str(out_dir)!r}: is a file, not a folder")
        out_dir.mkdir(parents=True, exist_ok=True)
        check_folder_writable(out_dir)
        notebook = execute(resolved, out_dir / f"{chap.name}.ipynb")
        written += [out_dir / notebook.name, out_dir / f"{chap.name}.results.json"]
        if args.html:
            from ..publish.render import render_html

            written.append(render_html(out_dir / notebook.name, chap))
    for path in written:
        print(f"wrote {path}")
    return 0
