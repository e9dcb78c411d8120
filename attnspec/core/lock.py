"""An exclusive reservation of a folder by one process: ``flock`` on a hidden file beside it.

The kernel releases the lock when its holder dies, so a killed run never blocks the next one; the
holder removes the file when it is done, or when it is interrupted
(:func:`attnspec.core.cleanup.now`).
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .cleanup import removed_if_interrupted
from .errors import InvalidInput


def lock_path(folder: Path) -> Path:
    """``.attnspec-<16 hex digits of sha256(name)>.lock`` beside ``folder`` (fixed length, so any
    legal folder name gives a legal lock name)."""
    digest = hashlib.sha256(os.fsencode(folder.name)).hexdigest()[:16]
    return folder.parent / f".attnspec-{digest}.lock"


def _open_lock(path: Path, what: str) -> int:
    """The lock file at ``path``, opened (created with its parents if missing); InvalidInput if
    its folder cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise
        raise InvalidInput(
            f"{what}: cannot be reserved: its lock file goes beside it, in {str(path.parent)!r}, "
            f"which cannot be written ({exc.strerror}); the lock sits there, not inside, because "
            "a run may replace the whole folder: give a folder inside a writable one"
        ) from None


@contextmanager
def reserved(folder: Path, what: str) -> Iterator[None]:
    """Hold ``folder`` for the block; InvalidInput, naming the holder's pid, if another holds it.

    The lock file beside it is created (with the parents) when missing and removed on exit. A
    file that another holder removed in between is not trusted: the lock is taken again on the file
    at that path. The lock is the resolved folder's (every symlink followed), so two paths to one
    folder share it.
    """
    path = lock_path(Path(os.path.realpath(folder)))
    while True:
        fd = _open_lock(path, what)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise InvalidInput(
                f"{what}: another run is writing into it (process {holder}); wait for it to "
                "finish, or give another folder"
            ) from None
        try:
            if os.stat(path).st_ino == os.fstat(fd).st_ino:
                break
        except FileNotFoundError:
            pass
        os.close(fd)
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    try:
        with removed_if_interrupted(path):
            yield
    finally:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        os.close(fd)
