"""``attnspec run CHAPTER -p NAME VALUE ... [-o DIR] [--force] [--html]``: re-execute a chapter.

Every name, type and range, and every rule between parameters, is checked before a kernel starts; a
name may be spelled with underscores or dashes (``remove_top_k``, ``remove-top-k``). DIR, the run
folder (default ``runs/CHAPTER``), is created (parents included) and receives ``CHAPTER.ipynb``,
``CHAPTER.results.json`` and with ``--html`` a self-contained page rendered by the book's own
pipeline (:mod:`attnspec.publish.render`). The kernel runs in a private temporary folder
(:func:`attnspec.publish.chapters.execute`); DIR is written only at the end.

A run never mixes with another: a DIR that is not empty is refused (status 2) unless ``--force`` is
given, and then only if it holds nothing but this chapter's run (``CHAPTER.ipynb``,
``CHAPTER.results.json``, ``CHAPTER.html``); the new run is built beside it and replaces the whole
folder at once, so no file of the old run stays beside the new one. If anything appeared in DIR
while the kernel ran (another process's file), nothing is replaced: status 2. The book's own stored
chapters are never a run folder, and a run reserves DIR (:func:`attnspec.core.lock.reserved`), so a
second run into the same folder is refused while the first one works. Ctrl-C or SIGTERM stops with
one line and status 130 or 143, leaving no partial or temporary file.
"""

from __future__ import annotations

import argparse
import os
import signal
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from .options import add_output, output_option, parameter_pairs

#: The files of a run, for a chapter NAME.
RUN_FILES = ("{}.ipynb", "{}.results.json", "{}.html")


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
    add_output(
        parser,
        "run folder, created if missing; must be empty unless --force (default: runs/CHAPTER)",
        metavar="DIR",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace a run folder that holds a previous run, as a whole",
    )
    parser.add_argument(
        "--html",
        action="store_true",
        help="also write CHAPTER.html, rendered like the book, self-contained and offline",
    )
    parser.set_defaults(run=run)


def not_stored_chapters(folder: Path, where: str) -> None:
    """InvalidInput if ``folder`` (or what it links to) is the book's stored chapters."""
    from ..core.errors import InvalidInput
    from ..publish.paths import EXECUTED

    try:
        stored = folder.exists() and folder.resolve() == EXECUTED.resolve()
    except OSError:  # a name too long, say: not the book's folder (check_folder says what)
        return
    if stored:
        raise InvalidInput(
            f"{where}: is the book's stored chapters, which only `attnspec notebooks` rewrites; "
            "give another folder"
        )


def previous_run(folder: Path, name: str, option: str, force: bool) -> bool:
    """Whether ``folder`` holds a previous run of chapter ``name`` that ``--force`` lets this run
    replace.

    Raises
    ------
    InvalidInput
        if ``folder`` is the book's stored chapters, if it is not empty and ``force`` is not given,
        or if it holds anything but this chapter's run, or the current folder.
    """
    from ..core.errors import InvalidInput

    where = f"{option} {str(folder)!r}"
    not_stored_chapters(folder, where)
    if force and folder.is_symlink():
        raise InvalidInput(f"{where}: is a symlink; --force replaces only a folder")
    entries = sorted(folder.iterdir()) if folder.is_dir() else []
    if not entries:
        return False
    if not force:
        raise InvalidInput(
            f"{where}: folder is not empty (a previous run?); give --force to replace it, "
            "or another folder"
        )
    allowed = {pattern.format(name) for pattern in RUN_FILES}
    foreign = [p.name for p in entries if p.name not in allowed or p.is_symlink() or p.is_dir()]
    if foreign:
        raise InvalidInput(
            f"{where}: holds {foreign[0]!r}, which is not a file of this chapter's run; --force "
            f"replaces only a folder that holds {name}'s run alone"
        )
    here = Path.cwd().resolve()
    if folder.resolve() in (here, *here.parents):
        raise InvalidInput(f"{where}: is the current folder or holds it; run from elsewhere")
    return True


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back while the block runs; they are delivered after it."""
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def contents(folder: Path) -> list[str]:
    """Every path in ``folder``, relative to it, sorted."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def replace_folder(old: Path, new: Path, prefix: str, expected: list[str], where: str) -> None:
    """Put folder ``new`` at ``old``'s place in one step; ``old`` and all it holds are removed.

    Two renames with SIGINT and SIGTERM held back between them: ``old`` is never half replaced.
    Between them ``old``, set aside, is listed again: if it holds more than ``expected`` (its
    contents when the run was allowed to replace it: another process wrote there meanwhile), it is
    put back as it is, and InvalidInput names what appeared.
    """
    import shutil

    from ..core import cleanup
    from ..core.errors import InvalidInput

    os.chmod(new, os.stat(old).st_mode & 0o7777)
    with cleanup.temporary_folder(old.parent, prefix) as aside:
        with signals_held():
            os.rename(old, aside)  # replaces the empty folder reserved at that name
            appeared = sorted(set(contents(aside)) - set(expected))
            if appeared:
                os.rename(aside, old)
                raise InvalidInput(
                    f"{where}: {appeared[0]!r} appeared in it during the run ({len(appeared)} "
                    "new); the folder is left as it was and the new run is not written: move "
                    "them, or give another folder"
                )
            os.rename(new, old)
        shutil.rmtree(aside, ignore_errors=True)


def run(args: argparse.Namespace) -> int:
    from ..core import cleanup
    from ..core.atomic import check_folder
    from ..core.cleanup import interrupts
    from ..core.lock import reserved
    from ..publish.chapters import chapter, execute, toc_chapter_names

    written: list[Path] = []
    with interrupts(written, "run"), ExitStack() as stack:
        chap = chapter(args.chapter)
        # every value and every rule between parameters, before a kernel starts
        resolved = chap.resolve(chap.parse_parameters(parameter_pairs(args.parameter)))
        option, names = output_option(args), toc_chapter_names()
        given = args.output if args.output is not None else Path("runs") / chap.name
        not_stored_chapters(Path(given), f"{option} {str(given)!r}")
        out = check_folder(given, option)
        stack.enter_context(reserved(out, f"{option} {str(given)!r}"))
        # what killed runs left: hidden folders of every chapter's run and page
        prefixes = [f".{name}-{kind}" for name in names for kind in ("", "html-")]
        cleanup.remove_stale(out, *prefixes)
        notebook_name = f"{chap.name}.ipynb"
        if not previous_run(out, chap.name, option, args.force):
            execute(resolved, out / notebook_name)  # creates the folder once the kernel is done
            written += [out / notebook_name, out / f"{chap.name}.results.json"]
            if args.html:
                from ..publish.render import render_html

                render_html(out / notebook_name, chap)
                written.append(out / f"{chap.name}.html")
        else:
            before = contents(out)
            cleanup.remove_stale(out.parent, *prefixes)
            with cleanup.temporary_folder(out.parent, f".{chap.name}-") as staging:
                execute(resolved, staging / notebook_name)
                if args.html:
                    from ..publish.render import render_html

                    render_html(staging / notebook_name, chap)
                made = sorted(p.name for p in staging.iterdir())
                replace_folder(out, staging, f".{chap.name}-", before, f"{option} {str(given)!r}")
            written += [out / name for name in made]
    for path in written:
        print(f"wrote {path}")
    return 0
