"""The record of what a chapter glued and claimed, handed from its kernel to the executor as typed
values: the results file is built from it, never from the notebook's rendered text.

``attnspec``'s executor (:mod:`attnspec.publish.execution`) starts a chapter's kernel with the
environment variable :data:`RECORD` naming a file in the kernel's private folder;
:meth:`attnspec.chapters.base.ChapterStudy.glue` writes there, atomically, every value it glues and
every claim of the chapter (:func:`write`), and the executor reads it (:func:`read`) to write
``CHAPTER.results.json`` (:func:`attnspec.publish.provenance.results`). Without the variable
(nbval, a reader's own Jupyter) nothing is written.

Why a file named by the environment: the study lives in the kernel, another process, and the
environment reaches the kernel without touching the notebook. Reading the glued outputs back
(``ast.literal_eval`` of their ``text/plain``, claims as JSON in an HTML comment, as before) turns
typed values into text and parses them again; gluing the record into the notebook as one more
output would change every stored notebook and still read it back from outputs.

A value's entry is ``{"key", "kind", "value", "text"}`` (:func:`entry`), as in the results file:
``text`` is what the page shows, the ``text/plain`` (or Markdown) form ``glue`` stores.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..core.atomic import write_json
from .claims import Claim

#: The environment variable naming the record's file in a chapter's kernel.
RECORD = "ATTNSPEC_RECORD"


def entry(key: str, value: Any) -> dict[str, Any]:
    """The record of one glued value, given as glued: an int, a float, a string (glued as
    Markdown) or a figure.

    Kinds: ``number`` (an int stays an int), ``markdown`` (the string itself), ``figure`` (its
    ``repr`` as ``text``, no value). A float that is not finite is kind ``text`` with its ``repr``
    as value, as the results file is strict JSON.
    """
    if isinstance(value, str):
        return {"key": key, "kind": "markdown", "value": value, "text": value}
    if isinstance(value, int | float) and not isinstance(value, bool):
        text = repr(value)
        if isinstance(value, float) and not math.isfinite(value):
            return {"key": key, "kind": "text", "value": text, "text": text}
        return {"key": key, "kind": "number", "value": value, "text": text}
    return {"key": key, "kind": "figure", "value": None, "text": repr(value)}


def write(chapter: str, values: Iterable[dict[str, Any]], claims: Iterable[Claim]) -> Path | None:
    """Write the record (chapter, value entries, claims as dicts) to the file :data:`RECORD`
    names, atomically; return its path, or None (nothing written) when the variable is not set."""
    path = os.environ.get(RECORD)
    if not path:
        return None
    record = {
        "chapter": chapter,
        "values": list(values),
        "claims": [c.as_dict() for c in claims],
    }
    write_json(path, record)
    return Path(path)


def read(path: str | Path, chapter: str) -> dict[str, Any]:
    """The record at ``path``, written by chapter ``chapter``.

    Raises
    ------
    RuntimeError
        when the chapter wrote none (its notebook never calls ``study.glue()``), or the record is
        another chapter's: a bug of the chapter, not of its input.
    """
    path = Path(path)
    if not path.is_file():
        raise RuntimeError(
            f"chapter {chapter!r} recorded no values: its notebook must call study.glue()"
        )
    record = json.loads(path.read_text())
    if record.get("chapter") != chapter:
        raise RuntimeError(f"chapter {chapter!r} ran the study of {record.get('chapter')!r}")
    return record
