"""What a stopped command must remove: its temporary folders and the kernels it started.

``attnspec run`` keeps everything temporary in folders registered here and writes its results by
:func:`os.replace` from them, so that on Ctrl-C or SIGTERM :func:`now` can stop the kernels and
remove the folders at any instant, leaving only whole files behind.

A temporary folder is named ``{prefix}{pid}-{8 random characters}.tmp``: the writer's pid tells a
live run's folder from the debris of a killed one, which :func:`remove_stale` removes (older than
:data:`STALE_SECONDS`, its writer gone), as :func:`attnspec.core.cache.remove_debris` removes the
cache's temporary files.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: age after which a temporary file or folder whose writer is gone is debris
STALE_SECONDS = 3600
_folders: list[Path] = []
_files: list[Path] = []
_kernels: list = []
_processes: list = []


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists (owned by anyone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by another user
        return True
    return True


def is_debris(path: str | Path, pid: int | None, now: float | None = None) -> bool:
    """Older than :data:`STALE_SECONDS` and its writer ``pid`` (None: unknown) is not alive."""
    if pid is not None and alive(pid):
        return False
    try:
        age = (time.time() if now is None else now) - os.lstat(path).st_mtime
    except OSError:
        return False
    return age > STALE_SECONDS


@contextmanager
def temporary_folder(parent: Path, prefix: str) -> Iterator[Path]:
    """A temporary folder ``{prefix}{pid}-XXXXXXXX.tmp`` in ``parent`` (mode 0700, its absolute
    path: the executor changes the working folder), removed on exit and by :func:`now`."""
    parent = Path(parent).absolute()
    folder = Path(tempfile.mkdtemp(dir=parent, prefix=f"{prefix}{os.getpid()}-", suffix=".tmp"))
    _folders.append(folder)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if folder in _folders:
            _folders.remove(folder)


def remove_stale(parent: Path, *prefixes: str) -> None:
    """Remove the debris of killed runs in ``parent``: folders :func:`temporary_folder` named with
    one of ``prefixes`` whose writer is gone, older than :data:`STALE_SECONDS`. Nothing else is
    touched."""
    alternatives = "|".join(map(re.escape, prefixes))
    pattern = re.compile(rf"(?:{alternatives})(\d+)-[a-z0-9_]{{8}}\.tmp")
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        match = pattern.fullmatch(name)
        path = Path(parent) / name
        if match and not path.is_symlink() and path.is_dir():
            if is_debris(path, int(match.group(1))):
                shutil.rmtree(path, ignore_errors=True)


def track_kernel(manager) -> None:
    """Register a kernel manager whose kernel :func:`now` must stop."""
    _kernels.append(manager)


def kernels() -> list:
    return list(_kernels)


def untrack_kernel(manager) -> None:
    if manager in _kernels:
        _kernels.remove(manager)


def run(command: list[str], **kwargs):
    """:func:`subprocess.run` with capture, the child registered so that :func:`now` can kill it.

    A Python child starts with ``PYTHONSAFEPATH=1``: it imports nothing from the current folder
    (``python -c`` would put it first on ``sys.path``).
    """
    import subprocess

    env = {**kwargs.pop("env", os.environ), "PYTHONSAFEPATH": "1"}
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, **kwargs
    ) as process:
        _processes.append(process)
        try:
            stdout, stderr = process.communicate()
        finally:
            _processes.remove(process)
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


@contextmanager
def removed_if_interrupted(path: Path) -> Iterator[Path]:
    """Register file ``path`` for the block: :func:`now` removes it (e.g. a lock file)."""
    _files.append(path)
    try:
        yield path
    finally:
        _files.remove(path)


def now() -> None:
    """Kill every registered kernel and child process, and remove every registered folder and
    file, now."""
    children = [getattr(getattr(m, "provisioner", None), "process", None) for m in list(_kernels)]
    for process in children + list(_processes):
        try:
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(timeout=10)
        except Exception:  # already gone
            pass
    for folder in list(_folders):
        shutil.rmtree(folder, ignore_errors=True)
    for file in list(_files):
        Path(file).unlink(missing_ok=True)


@contextmanager
def interrupts(written: list[Path], command: str = "run") -> Iterator[None]:
    """On SIGINT or SIGTERM: stop, clean up (:func:`now`), print one line, exit 128 + signal.

    Results are moved into place whole (:func:`os.replace`), so stopping at any instant leaves only
    whole files; ``written`` lists them for the message, which names ``attnspec COMMAND``.
    """
    import logging
    import os
    import signal
    import sys

    def handler(signum, frame):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        logging.disable(logging.CRITICAL)  # the kernel gets the signal too: its death is expected
        now()
        name = "SIGTERM" if signum == signal.SIGTERM else "Ctrl-C"
        kept = (
            f"kept {', '.join(p.name for p in written)}; no partial file"
            if written
            else "nothing written"
        )
        print(f"attnspec {command}: interrupted ({name}); {kept}", file=sys.stderr, flush=True)
        os._exit(128 + signum)

    previous = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
