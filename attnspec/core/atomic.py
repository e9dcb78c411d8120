"""Atomic file output: a file appears whole or not at all, and a failed write leaves nothing.

Rules for the target of a write (the file named by ``-o/--output``):

- a regular file, or a missing one, is replaced atomically (temporary file, then ``os.replace``);
- a symlink to a regular file is written through: the file it points to is replaced, the symlink
  is kept;
- anything else that exists (a FIFO, a device node, a socket, a folder) is refused with
  :class:`~attnspec.core.errors.InvalidInput`: it is never replaced by a regular file, and never
  written into (``-o /dev/null`` as root must not replace the system's ``/dev/null``);
- the new file keeps the mode of the file it replaces, else it gets ``0o666`` minus the umask,
  as ``open`` would give it.

Temporary files are named ``.{stem}-{pid}-….tmp{suffix}``: the pid tells a live writer's file from
debris (see :func:`attnspec.core.cache.remove_debris`).
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import InvalidInput


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def target_of(path: str | Path, option: str = "output") -> Path:
    """The file a write to ``path`` replaces: ``path``, or the file its symlink points to.

    Raises InvalidInput if something other than a regular file exists there.
    """
    target = Path(os.path.realpath(path))
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise InvalidInput(f"{option} {str(path)!r}: is {kind}; give the path of a regular file")
    return target


def _new_mode(target: Path) -> int:
    """Mode of the regular file being replaced, else 0o666 minus the umask."""
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode):
        return stat.S_IMODE(st.st_mode)
    return 0o666 & ~_umask()


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path next to ``path``'s target.

    On success it replaces the target, else it is removed.
    """
    with replacing(target_of(path)) as tmp:
        yield tmp


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; on success it replaces whatever is at ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.stem}-{os.getpid()}-", suffix=f".tmp{path.suffix}"
    )
    os.close(fd)
    try:
        os.chmod(tmp, _new_mode(path))
        yield Path(tmp)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path``, atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text)


def write_json(path: str | Path, data) -> None:
    """Write ``data`` as indented, strict JSON (no NaN or Infinity) to ``path``, atomically."""
    write_text(path, json.dumps(data, indent=2, allow_nan=False) + "\n")


def check_writable(path: str | Path, option: str = "--output") -> None:
    """Raise InvalidInput, before any work, unless a file can be written at ``path``.

    Refused: an empty path, a path ending in a separator, a missing folder, a folder or special file
    at the target, a folder where a test file cannot be created (read-only, permissions). The
    message names ``option``, the spelling the path was given with.
    """
    text = str(path)
    if not text.strip() or text.endswith(("/", os.sep)):
        raise InvalidInput(f"{option} {text!r}: must be the path of a file")
    parent = Path(text).parent
    if not parent.is_dir():
        raise InvalidInput(f"{option} {text!r}: folder {str(parent)!r} does not exist")
    _probe(target_of(text, option).parent, f"{option} {text!r}")


def check_folder_writable(path: str | Path, option: str = "--output") -> None:
    """Raise InvalidInput, before any work, unless ``path`` is a folder files can be written in."""
    text = str(path)
    if not Path(text).is_dir():
        raise InvalidInput(f"{option} {text!r}: folder does not exist")
    _probe(Path(text), f"{option} {text!r}")


def _probe(folder: Path, what: str) -> None:
    """Create and remove a temporary file in ``folder``; InvalidInput if that fails."""
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=f".probe-{os.getpid()}-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise InvalidInput(
            f"{what}: cannot write in folder {str(folder)!r} ({exc.strerror})"
        ) from None
