"""An exclusive reservation of a folder by one process: a :class:`filelock.FileLock` (``flock``)
on a hidden file beside it, holding the holder's pid.

The kernel releases the lock when its holder dies, so a killed run never blocks the next one; the
holder removes the file when it is done, or when it is interrupted
(:func:`attnspec.core.cleanup.now`).
"""

from __future__ import annotations

import errno
import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from .cleanup import removed_if_interrupted
from .errors import InvalidInput


def lock_path(folder: Path) -> Path:
    """``.attnspec-<16 hex digits of sha256(name)>.lock`` beside ``folder`` (fixed length, so any
    legal folder name gives a legal lock name)."""
    digest = hashlib.sha256(os.fsencode(folder.name)).hexdigest()[:16]
    return folder.parent / f".attnspec-{digest}.lock"


class _Replaced(Exception):
    """The lock was taken on a file that its last holder removed in between."""


def _claim(path: Path, fd: int) -> None:
    """Write this process's pid into the lock file just taken (what a refused run names), if it is
    still the file at ``path``."""
    try:
        current = os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        current = False
    if not current:
        raise _Replaced
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())


def _holder(path: Path) -> str:
    try:
        return path.read_bytes()[:32].decode("ascii", "replace").strip() or "unknown"
    except OSError:
        return "unknown"


@contextmanager
def reserved(folder: Path, what: str) -> Iterator[None]:
    """Hold ``folder`` for the block; InvalidInput, naming the holder's pid, if another holds it,
    or if the folder that holds the lock file cannot be written.

    The lock file beside it is created (with the parents) when missing and removed on exit. A
    file that another holder removed in between is not trusted: the lock is taken again on the file
    at that path. The lock is the resolved folder's (every symlink followed), so two paths to one
    folder share it.
    """
    path = lock_path(Path(os.path.realpath(folder)))
    lock = FileLock(
        path, timeout=0, mode=0o644, fallback_to_soft=False, on_acquired=lambda fd: _claim(path, fd)
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            try:
                lock.acquire()
                break
            except _Replaced:
                continue
    except Timeout:
        raise InvalidInput(
            f"{what}: another run is writing into it (process {_holder(path)}); wait for it to "
            "finish, or give another folder"
        ) from None
    except OSError as exc:
        if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise
        raise InvalidInput(
            f"{what}: cannot be reserved: its lock file goes beside it, in {str(path.parent)!r}, "
            f"which cannot be written ({exc.strerror}); the lock sits there, not inside, because "
            "a run may replace the whole folder: give a folder inside a writable one"
        ) from None
    try:
        with removed_if_interrupted(path):
            yield
    finally:
        path.unlink(missing_ok=True)
        lock.release()
