"""Atomic file output: a file appears whole or not at all, and a failed write leaves nothing."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path in ``path``'s folder; on success it replaces ``path``, else it is removed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=f".tmp{path.suffix}")
    os.close(fd)
    os.chmod(tmp, 0o644)
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path``, atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text)


def write_json(path: str | Path, data) -> None:
    """Write ``data`` as indented JSON to ``path``, atomically."""
    write_text(path, json.dumps(data, indent=2) + "\n")


def check_writable(path: str | Path) -> None:
    """Raise ValueError before any work if ``path``'s folder does not exist or ``path`` is a folder."""
    parent = Path(path).parent
    if not parent.is_dir():
        raise ValueError(f"--json {path}: folder {parent} does not exist")
    if Path(path).is_dir():
        raise ValueError(f"--json {path}: is a folder, not a file")
