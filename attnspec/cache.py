"""Disk cache of trial results: one ``.npz`` file per entry, written atomically, verified on load.

Location: ``$ATTNSPEC_CACHE`` if set, else ``$XDG_CACHE_HOME/attnspec`` (default ``~/.cache/attnspec``).
An entry's name holds a digest of every parameter it depends on and of the package version, so a
changed parameter or a new release never reads an old result. A truncated or corrupted file fails
the zip CRC or the key check and is recomputed.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from . import __version__
from .atomic import atomic_path

CACHE_ENV = "ATTNSPEC_CACHE"
FORMAT = 2  # bump when the stored arrays change meaning or how they are computed


def cache_dir() -> Path:
    """The cache folder (created on first write)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "attnspec"


def entry_path(kind: str, params: dict) -> Path:
    """Path of the entry for ``params``; the digest covers params, version and format."""
    key = json.dumps({"kind": kind, "version": __version__, "format": FORMAT, **params}, sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    readable = "_".join(f"{k}{v}" for k, v in sorted(params.items()))
    return cache_dir() / f"{kind}_{readable}_{digest}.npz"


def load(path: Path) -> dict[str, np.ndarray] | None:
    """The stored arrays, or None if the entry is missing, truncated or corrupted."""
    try:
        with np.load(path, allow_pickle=False) as npz:
            return {name: npz[name] for name in npz.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError,
            NotImplementedError, RuntimeError):  # corrupted zip flags: "compression method", "encrypted"
        return None


def save(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write atomically: a temporary file in the same folder, then ``os.replace``."""
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.savez(fh, **arrays)


def cached(kind: str, params: dict, compute: Callable[[], dict[str, np.ndarray]],
           expected: set[str] | None = None) -> dict[str, np.ndarray]:
    """Return the stored entry for ``params`` if it is complete, else compute, store and return it."""
    path = entry_path(kind, params)
    stored = load(path)
    if stored is not None and (expected is None or expected <= stored.keys()):
        return stored
    arrays = compute()
    save(path, arrays)
    return arrays
