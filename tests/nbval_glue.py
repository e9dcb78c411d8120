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
"""

from __future__ import annotations

import math
from pathlib import Path

import nbformat

from attnspec.publish.executed import glued_values

DEFAULT_RTOL = 1e-9


def _tolerances(nb) -> dict[str, float]:
    declared = nb.metadata.get("attnspec", {}).get("glue_tolerance", {})
    return {key: float(spec["rtol"]) for key, spec in declared.items()}


def glue_differences(chapter: str, new_outputs, stored_outputs, tolerances=None) -> list[str]:
    """One readable line per glued number whose relative change exceeds its tolerance."""
    new = glued_values_of(new_outputs)
    stored = glued_values_of(stored_outputs)
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


def glued_values_of(outputs):
    """Glued values of a list of cell outputs (as :func:`attnspec.publish.executed.glued_values`
    reads)."""
    return glued_values(
        nbformat.from_dict({"cells": [{"cell_type": "code", "outputs": list(outputs)}]})
    )


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
