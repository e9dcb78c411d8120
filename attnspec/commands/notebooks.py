"""``attnspec notebooks [NAME ...] [--no-pages]``: execute the book's chapters, then its pages.

What ``make notebooks`` does: every chapter (or each chapter named) is executed at its defaults and
stored in ``book/chapters/`` with its results file, without timing metadata, so that re-execution
leaves no diff (:func:`attnspec.publish.chapters.execute`); then the generated pages, which read the
stored chapters, are executed and stored in ``book/`` (:func:`attnspec.publish.pages.execute`). A
NAME may also be a page: naming only pages executes only those pages. Every name is checked before
anything runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_parser(sub) -> None:
    parser = sub.add_parser(
        "notebooks",
        help="execute the book's chapters at their defaults, then its generated pages",
        description="Execute and store the book's chapters at their defaults (all, or those "
        "named), then the generated pages that read them.",
    )
    parser.add_argument(
        "names",
        metavar="NAME",
        nargs="*",
        help="chapter or page to execute (default: every chapter, then every page)",
    )
    parser.add_argument(
        "--no-pages", action="store_true", help="execute the chapters only, not the pages"
    )
    parser.set_defaults(run=run)


def plan(names: list[str], no_pages: bool = False) -> tuple[list[str], list[str]]:
    """The chapters and the pages to execute, in order, for the given NAMEs.

    No name: every chapter, then every page. Chapters named: those, then every page (each page
    reads every chapter). Only pages named: those pages. ``no_pages`` drops the pages.

    Raises
    ------
    InvalidInput
        outside a checkout of the book, or naming an unknown name (listing the chapters and the
        pages).
    """
    from ..core.errors import InvalidInput
    from ..publish.chapters import check_data, toc_chapter_names
    from ..publish.pages import PAGES
    from ..publish.paths import DATA, ROOT

    if ROOT == DATA:  # an installed package: its book data are copies, not a checkout's files
        raise InvalidInput(
            f"notebooks rewrites the book's stored chapters and pages, so it runs only in a "
            f"checkout of the book, not in the installed package {str(DATA.parent)!r}; "
            "to re-execute a chapter, use `attnspec run CHAPTER -o DIR`"
        )
    check_data()
    all_chapters = toc_chapter_names()
    unknown = [n for n in names if n not in all_chapters and n not in PAGES]
    if unknown:
        raise InvalidInput(
            f"unknown chapter or page {unknown[0]!r}; chapters: {', '.join(all_chapters)}; "
            f"pages: {', '.join(PAGES)}"
        )
    chapters = [n for n in all_chapters if n in names] if names else list(all_chapters)
    named_pages = [n for n in PAGES if n in names]
    pages = named_pages or list(PAGES)
    return chapters, [] if no_pages else pages


def run(args: argparse.Namespace) -> int:
    from ..core.cleanup import interrupts
    from ..publish.chapters import chapter, execute
    from ..publish.pages import execute as execute_page
    from ..publish.paths import EXECUTED

    chapters, pages = plan(args.names, args.no_pages)
    written: list[Path] = []
    # every kernel and temporary folder is registered with attnspec.core.cleanup: on Ctrl-C or
    # SIGTERM they are removed and the command stops at once
    with interrupts(written, "notebooks"):
        for name in chapters:
            print(f"executing {name}", flush=True)
            written.append(execute(chapter(name).resolve(), EXECUTED / f"{name}.ipynb"))
        for name in pages:
            print(f"executing page {name}", flush=True)
            written.append(execute_page(name))
    return 0
