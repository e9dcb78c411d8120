"""Atomic file output: a file appears whole or not at all, and a failed write leaves nothing.

Rules for the target of a write (the file named by ``-o/--output``):

- a regular file, or a missing one, is replaced atomically (temporary file, then ``os.replace``);
- a symlink is refused (:func:`unlinked`): it is never written through, so a link someone else
  planted never makes attnspec replace the file it names; nor is a folder on the way reached
  through another user's symlink in a sticky, world-writable folder such as ``/tmp`` (the links
  ``fs.protected_symlinks`` keeps ``open`` from following);
- anything else that exists (a FIFO, a device node, a socket, a folder) is refused with
  :class:`~attnspec.core.errors.InvalidInput`: it is never replaced by a regular file, and never
  written into (``-o /dev/null`` as root must not replace the system's ``/dev/null``);
- the new file keeps the mode of the file it replaces, else it gets ``0o666`` minus the umask,
  as ``open`` would give it.

Temporary files are named ``.{stem}-{pid}-….tmp{suffix}``: the pid tells a live writer's file from
debris (see :func:`attnspec.core.cache.remove_debris`). The stem is shortened so that the name fits
in :data:`NAME_MAX` bytes, so a legal long file name never fails at the end of a run.
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

#: longest file name, in bytes, of the file systems in use (ext4, xfs, btrfs, tmpfs)
NAME_MAX = 255
#: what :func:`replacing` adds to a stem: ``.``, ``-{pid}-``, mkstemp's 8 characters, ``.tmp``
_TEMPORARY_EXTRA = len(".--") + 10 + 8 + len(".tmp")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def new_file_mode() -> int:
    """The mode ``open`` gives a new file: ``0o666`` minus the umask."""
    return 0o666 & ~_umask()


def _shortened(text: str, size: int) -> str:
    """``text`` cut to at most ``size`` bytes of its file-system encoding, on a character boundary
    (bytes that are not UTF-8, as :func:`os.fsdecode` keeps them, count one each)."""
    cut = os.fsencode(text)[: max(size, 0)]
    for back in range(1, min(3, len(cut)) + 1):  # a multi-byte character cut in its middle
        lead = cut[-back]
        if lead >= 0xC0:
            if back < (2 if lead < 0xE0 else 3 if lead < 0xF0 else 4):
                cut = cut[:-back]
            break
        if lead < 0x80:
            break
    return os.fsdecode(cut)


def temporary_affixes(path: Path) -> tuple[str, str]:
    """The prefix and suffix of the temporary files of ``path``: ``.{stem}-{pid}-`` and
    ``.tmp{suffix}``, shortened (stem first, then suffix) to fit in :data:`NAME_MAX` bytes."""
    suffix = _shortened(path.suffix, NAME_MAX // 4)
    stem = _shortened(path.stem, NAME_MAX - _TEMPORARY_EXTRA - len(os.fsencode(suffix)))
    return f".{stem}-{os.getpid()}-", f".tmp{suffix}"


def _foreign_in_sticky(link: Path) -> bool:
    """Whether symlink ``link`` lies in a sticky, world-writable folder and belongs to another
    user than this process's."""
    folder = os.stat(link.parent).st_mode
    sticky = folder & stat.S_ISVTX and folder & stat.S_IWOTH
    return bool(sticky) and os.lstat(link).st_uid != os.geteuid()


def unlinked(path: str | Path, option: str = "output") -> Path:
    """``path`` with the folders on its way resolved, its own name kept.

    Raises InvalidInput if ``path`` is itself a symlink, or if a folder on the way is reached
    through another user's symlink in a sticky, world-writable folder.
    """
    text = str(path)
    if os.path.islink(text):
        raise InvalidInput(
            f"{option} {text!r}: is a symlink; attnspec never writes through one: give the path "
            "itself"
        )
    absolute = Path(os.path.abspath(text))
    walked = Path(absolute.anchor)
    for part in absolute.parent.parts[1:]:
        walked = walked / part
        if walked.is_symlink():
            if _foreign_in_sticky(walked):
                raise InvalidInput(
                    f"{option} {text!r}: {str(walked)!r} is another user's symlink in a sticky "
                    "folder; attnspec does not follow it"
                )
            walked = Path(os.path.realpath(walked))
    return walked / absolute.name


def target_of(path: str | Path, option: str = "output") -> Path:
    """The file a write to ``path`` replaces (:func:`unlinked`).

    Raises InvalidInput if something other than a regular file exists there, or if ``path`` is a
    symlink.
    """
    target = unlinked(path, option)
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
    return new_file_mode()


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path next to ``path``'s target.

    On success it replaces the target, else it is removed.
    """
    with replacing(target_of(path)) as tmp:
        yield tmp


@contextmanager
def replacing(path: Path, keep_mode: bool = True) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; on success it replaces whatever is at ``path``.

    The new file keeps the mode of the file it replaces (``keep_mode``), else it gets
    :func:`new_file_mode`.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    prefix, suffix = temporary_affixes(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=suffix)
    os.close(fd)
    try:
        os.chmod(tmp, _new_mode(path) if keep_mode else new_file_mode())
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

    Refused: an empty path, a path ending in a separator, a missing folder, a name longer than its
    file system allows, a folder or special file at the target, a folder where a test file cannot
    be created (read-only, permissions). The message names ``option``, the spelling the path was
    given with.
    """
    text = str(path)
    if not text.strip() or text.endswith(("/", os.sep)):
        raise InvalidInput(f"{option} {text!r}: must be the path of a file")
    parent = Path(text).parent
    if not parent.is_dir():
        raise InvalidInput(f"{option} {text!r}: folder {str(parent)!r} does not exist")
    _check_name(Path(text), parent, option)
    _probe(target_of(text, option).parent, f"{option} {text!r}")


def _check_name(path: Path, folder: Path, option: str) -> None:
    """InvalidInput if ``path``'s name is longer than ``folder``'s file system allows."""
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = NAME_MAX
    if len(os.fsencode(path.name)) > longest:
        raise InvalidInput(f"{option} {str(path)!r}: the name is longer than {longest} bytes")


def check_folder(path: str | Path, option: str = "--output") -> Path:
    """Raise InvalidInput, before any work, unless a folder can be written, or created, at ``path``.

    Refused, as :func:`check_writable` refuses a file: an empty path, a symlink at ``path``
    (:func:`unlinked`), a file or a dangling symlink at one of its ancestors, a name too long for
    the file system, an ancestor where a folder cannot be created (read-only, permissions).
    Returns the path.
    """
    text = str(path)
    if not text.strip():
        raise InvalidInput(f"{option} {text!r}: must be the path of a folder")
    folder = Path(text)
    for part in folder.parts:
        if len(os.fsencode(part)) > NAME_MAX:
            raise InvalidInput(f"{option} {text!r}: a name is longer than {NAME_MAX} bytes")
    existing = folder
    while not existing.exists():
        if existing.is_symlink():
            raise InvalidInput(f"{option} {text!r}: {str(existing)!r} is a dangling symlink")
        existing = existing.parent
    if not existing.is_dir():
        raise InvalidInput(f"{option} {text!r}: {str(existing)!r} is a file, not a folder")
    unlinked(text, option)
    _probe(existing, f"{option} {text!r}")
    return folder


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
