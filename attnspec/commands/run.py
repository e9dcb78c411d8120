"""``attnspec run CHAPTER -p NAME VALUE ... [-o DIR] [--html]``: re-execute a chapter with papermill.

Every name, type and range is checked before anything runs; the executed notebook (and with
``--html`` a standalone HTML page) is written to DIR atomically.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..chapters import chapter, execute


def add_parser(sub) -> None:
    parser = sub.add_parser("run", help="re-execute a chapter with new parameters")
    parser.add_argument("chapter", help="short name, as listed by `attnspec chapters`")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                        help="set a parameter (repeatable)")
    parser.add_argument("-o", "--output", default=".", metavar="DIR", help="output folder (default: .)")
    parser.add_argument("--html", action="store_true", help="also write a standalone HTML page")
    parser.set_defaults(run=run)


def write_html(notebook: Path) -> Path:
    """A standalone HTML page of an executed notebook (nbconvert), written atomically."""
    import warnings

    import nbconvert
    import nbformat

    from ..atomic import write_text

    with warnings.catch_warnings():  # glue payloads have no HTML form; they are shown in the prose
        warnings.simplefilter("ignore", UserWarning)
        body, _ = nbconvert.HTMLExporter().from_notebook_node(nbformat.read(notebook, as_version=4))
    target = notebook.with_suffix(".html")
    write_text(target, body)
    return target


def run(args: argparse.Namespace) -> int:
    chap = chapter(args.chapter)
    values = chap.parse_parameters(args.parameter)
    out_dir = Path(args.output)
    if not out_dir.is_dir():
        raise ValueError(f"--output {out_dir}: folder does not exist")
    notebook = execute(chap.name, values, out_dir / f"{chap.name}.ipynb")
    print(f"wrote {notebook}")
    if args.html:
        print(f"wrote {write_html(notebook)}")
    return 0
