"""Atomic JSON output: the file appears whole or not at all."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def write_json(path: str | Path, data) -> None:
    """Write ``data`` as indented JSON to ``path`` through a temporary file and ``os.replace``."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=f".{path.name}", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(data, fh, indent=2)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def check_writable(path: str | Path) -> None:
    """Raise ValueError before any work if ``path``'s folder does not exist."""
    parent = Path(path).parent
    if not parent.is_dir():
        raise ValueError(f"--json {path}: folder {parent} does not exist")
