"""Disk cache of trial results: one ``.npz`` file per entry, written atomically, verified on load.

Location: ``$ATTNSPEC_CACHE`` if set, else ``$XDG_CACHE_HOME/attnspec`` (default
``~/.cache/attnspec``). An entry's name holds a digest of every parameter it depends on and of the
package version, so a changed parameter or a new release never reads an old result.

An entry is used only if every expected array is there with the expected shape, dtype float64 and
finite values; each ``.npy`` header is checked before its data is read, so a header that declares
a huge array costs nothing. Extra members are ignored. Anything else (missing, truncated,
corrupted, wrong, a FIFO or a folder at the entry's path) is recomputed and, where possible,
replaced. If the cache cannot be written (read-only, full, not a folder), the run goes on without
caching and says so once on stderr. Its own temporary files (``.{entry}-{pid}-….tmp.npz``) older
than :data:`~attnspec.core.cleanup.STALE_SECONDS` whose writer is gone are removed when a cache
folder is first read; no other file is touched. A new entry gets mode ``0o666`` minus the umask,
whatever the mode of the entry it replaces.

Who computed an entry is not part of its key: a trial computed by a Dask worker and the same trial
computed in the calling process can differ in the last bits (round-off that depends on the BLAS
thread count and the CPU's code paths). Nothing the book stores may depend on that: chapters print
every number at a precision far above it, and round-off quantities as bounds (the portability run of
``make test`` recomputes every chapter from an empty cache under other code paths to check it).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import sys
import time
import zipfile
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path

import numpy as np

from .. import __version__
from .atomic import replacing
from .cleanup import is_debris

CACHE_ENV = "ATTNSPEC_CACHE"
FORMAT = 2  # bump when the stored arrays change meaning or how they are computed
DTYPE = np.dtype(np.float64)
#: most elements of a stored array whose shape is not known in advance (1 GiB of float64)
ANY_SHAPE_MAX = 2**27
#: the cache's own temporary files (:func:`save`): group 1 is the writer's pid (absent in older
#: releases)
_TMP_NAME = re.compile(r"\.[^/]+?(?:-(\d+))?-[a-z0-9_]+\.tmp\.npz")
_BAD_ENTRY = (
    OSError,
    ValueError,
    EOFError,
    SyntaxError,
    zipfile.BadZipFile,
    KeyError,
    NotImplementedError,
    RuntimeError,
)  # corrupted zip flags: "compression method", "encrypted"
_warned: set[str] = set()


def cache_dir() -> Path:
    """The cache folder (created on first write)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "attnspec"


def entry_path(kind: str, params: dict) -> Path:
    """Path of the entry for ``params``; the digest covers params, version and format."""
    key = json.dumps(
        {"kind": kind, "version": __version__, "format": FORMAT, **params}, sort_keys=True
    )
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    readable = "_".join(f"{k}{v}" for k, v in sorted(params.items()))
    return cache_dir() / f"{kind}_{readable}_{digest}.npz"


def _read_array(zf: zipfile.ZipFile, name: str, shape: tuple[int, ...] | None) -> np.ndarray:
    """Member ``name`` if its header declares ``shape`` and float64, and its values are finite.

    ``shape=None`` is for arrays whose shape the caller cannot know in advance (e.g. a real-model
    measurement): any shape of at most :data:`ANY_SHAPE_MAX` elements, float64 or int64.
    """
    with zf.open(f"{name}.npy") as member:
        version = np.lib.format.read_magic(member)
        read_header = (
            np.lib.format.read_array_header_1_0
            if version == (1, 0)
            else np.lib.format.read_array_header_2_0
        )
        got_shape, fortran, dtype = read_header(member)
        if shape is None:
            ok = dtype in (DTYPE, np.dtype(np.int64)) and int(np.prod(got_shape)) <= ANY_SHAPE_MAX
        else:
            ok = got_shape == tuple(shape) and dtype == DTYPE
        if not ok or fortran:
            raise ValueError(f"{name}: shape {got_shape}, dtype {dtype}")
        nbytes = int(np.prod(got_shape)) * dtype.itemsize
        data = member.read(nbytes + 1)  # to the end, so that the zip CRC is checked
    if len(data) != nbytes:
        raise ValueError(f"{name}: {len(data)} bytes of data")
    array = np.frombuffer(data, dtype).reshape(got_shape).copy()
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name}: not finite")
    return array


def load(
    path: Path, expected: Mapping[str, tuple[int, ...] | None]
) -> dict[str, np.ndarray] | None:
    """The arrays named in ``expected`` (name -> shape, or None for any bounded shape), or None
    if the entry is missing or not valid."""
    remove_debris(str(path.parent))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not block
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with open(fd, "rb", closefd=False) as fh, zipfile.ZipFile(fh) as zf:
            return {name: _read_array(zf, name, shape) for name, shape in expected.items()}
    except _BAD_ENTRY:
        return None
    finally:
        os.close(fd)


def save(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write atomically: a temporary file in the same folder, then ``os.replace`` (which replaces
    a FIFO)."""
    with replacing(path, keep_mode=False) as tmp, open(tmp, "wb") as fh:
        np.savez(fh, **arrays)


def warn_once(message: str) -> None:
    """Print ``message`` on stderr, once per process."""
    if message not in _warned:
        _warned.add(message)
        print(f"attnspec: warning: {message}", file=sys.stderr)


def cached(
    kind: str,
    params: dict,
    compute: Callable[[], dict[str, np.ndarray]],
    expected: Mapping[str, tuple[int, ...]],
) -> dict[str, np.ndarray]:
    """The valid stored entry for ``params``, else ``compute()``, stored if the cache can be
    written."""
    path = entry_path(kind, params)
    stored = load(path, expected)
    if stored is not None:
        return stored
    arrays = compute()
    try:
        save(path, arrays)
    except OSError as exc:
        warn_once(
            f"cannot write the cache in {str(path.parent)!r} ({exc.strerror or exc}); "
            "results are not cached"
        )
    return arrays


@cache
def remove_debris(folder: str) -> None:
    """Remove the cache's own temporary files in ``folder`` that are debris (older than
    :data:`~attnspec.core.cleanup.STALE_SECONDS`, writer gone), once per folder."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    now = time.time()
    for name in names:
        match = _TMP_NAME.fullmatch(name)
        path = os.path.join(folder, name)
        if match and is_debris(path, int(match.group(1)) if match.group(1) else None, now):
            try:
                os.unlink(path)
            except OSError:
                pass
