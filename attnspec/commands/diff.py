"""``attnspec diff A [B] [-o FILE]``: every glued value of two runs of a chapter, side by side.

A and B are results files (``CHAPTER.results.json``) or run folders holding one; B defaults to the
published chapter of the same name. Prints key, published (B), re-run (A) and the relative change
of every value that changed, one line for the unchanged ones, and every claim whose verdict
changed. Exit status 0 whatever changed; 2 with one line for bad input, which includes any file
that is not a results file of a chapter of the book (:func:`attnspec.publish.provenance.load`),
and a FILE in the book's stored chapters or that is one of the inputs.
"""

from __future__ import annotations

import argparse

from ..core.errors import InvalidInput
from .options import add_output, output_option


def add_parser(sub) -> None:
    parser = sub.add_parser(
        "diff", help="compare the glued values and claims of two runs of a chapter"
    )
    parser.add_argument("a", metavar="A", help="results file or run folder (the re-run)")
    parser.add_argument(
        "b",
        metavar="B",
        nargs="?",
        help="results file or run folder (default: the published chapter)",
    )
    add_output(
        parser, "also write the comparison as JSON to FILE", metavar="FILE", aliases=("--json",)
    )
    parser.set_defaults(run=run)


def check_output(output: str, option: str, inputs: list) -> None:
    """InvalidInput unless FILE can be written, lies outside the book's stored chapters and is
    none of the ``inputs`` (results files)."""
    import os

    from ..core.atomic import check_writable, target_of
    from ..publish.paths import EXECUTED

    try:
        check_writable(output, option)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    target = target_of(output, option)
    where = f"{option} {output!r}"
    if target.parent == EXECUTED.resolve():
        raise InvalidInput(
            f"{where}: is in the book's stored chapters, which only `attnspec notebooks` "
            "rewrites; give another file"
        )
    if any(os.path.exists(target) and os.path.samefile(target, i) for i in inputs):
        raise InvalidInput(f"{where}: is an input of this diff; give another file")


def run(args: argparse.Namespace) -> int:
    from ..core.atomic import write_json
    from ..publish.chapters import toc_chapter_names
    from ..publish.diff import diff, format_text
    from ..publish.provenance import find_results, load, published

    names = toc_chapter_names()  # a file's "chapter" is a name of the book's, never a path
    inputs = [args.a, args.b if args.b else None]
    if args.output:
        found = [find_results(i) for i in inputs if i is not None]
        check_output(args.output, output_option(args), found)
    a = load(args.a, names)
    b = load(args.b if args.b else published(a["chapter"]), names)
    result = diff(a, b)
    if args.output:  # the file first: a closed or full stdout loses nothing
        write_json(args.output, result.as_dict())
    print(format_text(result, "A" if args.b else "re-run", "B" if args.b else "published"))
    return 0
