"""Atomic text and JSON output: a file appears whole or not at all."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and ``os.replace``."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json(path: str | Path, data) -> None:
    """Write ``data`` as indented JSON to ``path``, atomically."""
    write_text(path, json.dumps(data, indent=2) + "\n")


def check_writable(path: str | Path) -> None:
    """Raise ValueError before any work if ``path``'s folder does not exist."""
    parent = Path(path).parent
    if not parent.is_dir():
        raise ValueError(f"--json {path}: folder {parent} does not exist")
    if Path(path).is_dir():
        raise ValueError(f"--json {path}: is a folder, not a file")
