"""The checkout as the publication gate sees it: the files git does not ignore and their content
hash, the ignored files under the book's sources, and fixed build paths written only in place.
Whatever stops publication raises :class:`Refused` with a one-line reason."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .paths import ROOT
from .provenance import content_hash, file_digest


class Refused(Exception):
    """The site cannot be published from this tree; the message says why, in one line."""


def in_place(root: Path, relative: str) -> Path:
    """``root / relative``, a fixed build path, if no folder on the way to it and not the path
    itself is a symlink: a fixed path is never written through one (else Refused)."""
    path = root
    for part in Path(relative).parts:
        path = path / part
        if path.is_symlink():
            where = path.relative_to(root)
            raise Refused(f"{where} is a symlink: {relative} is written only in place")
    return path


def git(root: Path, *args: str) -> bytes:
    """The output of ``git -C root ARGS`` (Refused when ``root`` is no git checkout)."""
    try:
        return subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, check=True, timeout=60
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise Refused(f"{root} is not a git checkout (git {args[0]} failed)") from exc


def tree_files(root: Path = ROOT) -> list[str]:
    """Every file git does not ignore: tracked (even if deleted) and untracked, sorted (a name that
    is not UTF-8 keeps its bytes, as :func:`os.fsdecode` gives them)."""
    listed = git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    return sorted({name for name in os.fsdecode(listed).split("\0") if name})


#: the folder of the book's sources: what the build reads and copies (pages, _static, _ext)
BOOK_SOURCES = "book"


def ignored_sources(root: Path = ROOT) -> list[str]:
    """Files under :data:`BOOK_SOURCES` that git ignores (``*.tmp``, ...): the build would read
    or copy them into the site, yet no test and no commit covers them. Python's bytecode of the
    book's extensions (``__pycache__``) is left out: the build writes it and never publishes it."""
    listed = git(
        root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--", BOOK_SOURCES
    )
    names = [name for name in os.fsdecode(listed).split("\0") if name]
    return sorted(name for name in names if "__pycache__" not in name.split("/"))


def no_ignored_sources(root: Path) -> None:
    """Refused if :func:`ignored_sources` finds any."""
    ignored = ignored_sources(root)
    if ignored:
        raise Refused(
            f"{len(ignored)} git-ignored files under {BOOK_SOURCES}/ would be built into the "
            f"site, e.g. {ignored[0]!r}: remove them, then make test"
        )


def tree_hash(root: Path = ROOT) -> str:
    """The :func:`~attnspec.publish.provenance.content_hash` of :func:`tree_files` as they are on
    disk (a deleted file counts as ``missing``)."""
    return content_hash(
        (name, file_digest(root / name) if os.path.lexists(root / name) else "missing")
        for name in tree_files(root)
    )


def folder_digests(folder: Path) -> dict[str, str]:
    """``relative path -> SHA-256`` of every file in ``folder``."""
    return {
        p.relative_to(folder).as_posix(): file_digest(p)
        for p in sorted(folder.rglob("*"))
        if p.is_file() or p.is_symlink()
    }
