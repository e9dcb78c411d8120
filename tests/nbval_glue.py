"""pytest plugin: numeric check of glued values, run inside every nbval comparison
(``-p tests.nbval_glue``; the root conftest.py loads it for the chapters).

nbval compares outputs as text, which is right for prose but says only which line changed. Here
every glued number of the fresh execution is also compared with the stored one, and a failure names
the chapter, the key, both values and their relative difference.

Default tolerance: glued numbers are rounded Python floats (at most 6 decimals), and an unchanged
value round-trips through its ``repr`` exactly, so any change that survives the rounding is at least
1e-6 in absolute terms; ``DEFAULT_RTOL = 1e-9`` flags every such change for values below 1000 while
never reacting to a value that did not change. A chapter may loosen it for a named key, with a
reason, in its notebook metadata::

    attnspec:
      glue_tolerance:
        KEY: {rtol: 1e-3, reason: "..."}

nbval has no study object, only the notebook's outputs, so here, and only here, a glued number is
read back from its ``text/plain`` (:func:`glued_values`); the results file is written from the
study's typed values (:mod:`attnspec.present.record`).
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from pathlib import Path

PLAIN = "application/papermill.record/text/plain"
MARKDOWN = "application/papermill.record/text/markdown"
PNG = "application/papermill.record/image/png"
DEFAULT_RTOL = 1e-9


@dataclass(frozen=True)
class GluedValue:
    """One glued output: its key, its printed form and its number (None for text and figures)."""

    key: str
    text: str
    number: float | None
    kind: str  # "number", "text", "markdown" or "figure", as in a results file


def _number(text: str) -> float | None:
    """The float a glued ``text/plain`` form stands for, or None (strings, reprs, figures)."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def glued_values(outputs) -> dict[str, GluedValue]:
    """Every glued value among a notebook's cell ``outputs`` (myst-nb's ``glue``: ``display_data``
    whose metadata names a ``scrapbook`` key), by key, in order of appearance."""
    values = {}
    for out in outputs:
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


def notebook_outputs(nb):
    """Every output of every code cell of ``nb``, in order."""
    for cell in nb.cells:
        if cell.get("cell_type") == "code":
            yield from cell.get("outputs", [])


def _tolerances(nb) -> dict[str, float]:
    declared = nb.metadata.get("attnspec", {}).get("glue_tolerance", {})
    return {key: float(spec["rtol"]) for key, spec in declared.items()}


def glue_differences(chapter: str, new_outputs, stored_outputs, tolerances=None) -> list[str]:
    """One readable line per glued number whose relative change exceeds its tolerance."""
    new = glued_values(new_outputs)
    stored = glued_values(stored_outputs)
    lines = []
    for key, old in stored.items():
        if old.number is None or key not in new or new[key].number is None:
            continue
        a, b = old.number, new[key].number
        rel = abs(b - a) / max(abs(a), abs(b)) if (a or b) else 0.0
        rtol = (tolerances or {}).get(key, DEFAULT_RTOL)
        if not (rel <= rtol) or math.isnan(rel):
            lines.append(
                f"glued value changed: chapter {chapter}, key {key}: stored {old.text}, "
                f"new {new[key].text}, relative difference {rel:.3g} (tolerance {rtol:g})"
            )
    return lines


def pytest_configure(config):
    """Wrap nbval's output comparison (when nbval is active) with the numeric glue check."""
    if not config.getoption("nbval", default=False):
        return
    from nbval.plugin import IPyNbCell

    if getattr(IPyNbCell.compare_outputs, "_glue_checked", False):
        return
    compare = IPyNbCell.compare_outputs

    def compare_with_glue(self, test, ref, skip_compare=None):
        same = compare(self, test, ref, skip_compare)
        nb = self.parent.nb
        problems = glue_differences(Path(str(self.parent.fspath)).stem, test, ref, _tolerances(nb))
        if problems:
            self.comparison_traceback[:0] = problems
        return same and not problems

    compare_with_glue._glue_checked = True
    IPyNbCell.compare_outputs = compare_with_glue
