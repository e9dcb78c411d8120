"""What an executed chapter notebook holds: its glued values and its claims.

Glued values are ``display_data`` outputs whose metadata names a ``scrapbook`` key (myst-nb's
``glue``); claims are embedded by :func:`attnspec.present.tables.claims_markdown`. Provenance files,
the numeric glue check, ``attnspec diff`` and the Findings page all read executed notebooks through
this module.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

from ..present.tables import claims_from_markdown

PLAIN = "application/papermill.record/text/plain"
MARKDOWN = "application/papermill.record/text/markdown"
PNG = "application/papermill.record/image/png"


@dataclass(frozen=True)
class GluedValue:
    """One glued value: its key, its printed form and its number (None for text and figures)."""

    key: str
    text: str
    number: float | None
    kind: str  # "number", "text", "markdown" or "figure"


def _number(text: str) -> float | None:
    """The float a glued ``text/plain`` form stands for, or None (strings, reprs, figures)."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _outputs(nb: nbformat.NotebookNode):
    for cell in nb.cells:
        if cell.get("cell_type") == "code":
            yield from cell.get("outputs", [])


def read(path: str | Path) -> nbformat.NotebookNode:
    """The notebook at ``path``."""
    return nbformat.read(path, as_version=4)


def glued_values(nb: nbformat.NotebookNode) -> dict[str, GluedValue]:
    """Every glued value of ``nb``, by key, in order of appearance."""
    values = {}
    for out in _outputs(nb):
        key = out.get("metadata", {}).get("scrapbook", {}).get("name")
        if out.get("output_type") != "display_data" or not key:
            continue
        data = out.get("data", {})
        text = data.get(PLAIN, "")
        if PNG in data:
            kind, number = "figure", None
        elif MARKDOWN in data:
            kind, number, text = "markdown", None, data[MARKDOWN]
        else:
            number = _number(text)
            kind = "number" if number is not None else "text"
        values[key] = GluedValue(key, text, number, kind)
    return values


def claims(nb: nbformat.NotebookNode) -> list[dict[str, Any]]:
    """Every claim of ``nb`` (claim, measured, criterion, holds, if_fails, provenance), in order."""
    found = []
    for out in _outputs(nb):
        text = out.get("data", {}).get("text/markdown", "")
        if isinstance(text, list):
            text = "".join(text)
        found += claims_from_markdown(text)
    return found
