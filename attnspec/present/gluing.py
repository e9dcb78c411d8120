"""Glue from the package: a chapter glues a whole set of values under its prefix in one call.

A result object of the package returns its reader-facing values as a mapping (name -> value, each
already rounded to the digits it supports); :func:`glue_values` glues them as ``{prefix}_{name}``
in the form myst-nb's ``glue`` wants: ints and floats as Python numbers (never NumPy scalars),
strings as Markdown, figures as figures, and returns what it glued, typed, for the chapter's record
(:mod:`attnspec.present.record`). :func:`uncertain` gives a value with its standard error as
three entries, rounded as the error supports.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import Any

from .formatting import ONE_OR_TWO, decimals_for, format_uncertain
from .record import entry


def uncertain(name: str, value: float, se: float, significant: int | str = ONE_OR_TWO) -> dict:
    """``name``, ``name_se`` (both rounded to the decimals ``se`` supports) and ``name_txt``
    (``'value ± se'``)."""
    n = decimals_for(se, significant)
    return {
        name: round(float(value), n),
        f"{name}_se": round(float(se), n),
        f"{name}_txt": format_uncertain(value, se, significant),
    }


def glue_values(prefix: str, values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Glue every value as ``{prefix}_{name}`` (not displayed); return the record of each
    (:func:`attnspec.present.record.entry`), in order.

    Raises
    ------
    TypeError
        for a value that is not a bool, number, string or matplotlib figure.
    """
    from IPython.display import Markdown
    from matplotlib.figure import Figure
    from myst_nb import glue

    entries = []
    for name, value in values.items():
        key = f"{prefix}_{name}"
        if isinstance(value, Figure):
            glued = value
        elif isinstance(value, str):
            glued = str(value)
        elif isinstance(value, bool | numbers.Integral):
            glued = int(value)
        elif isinstance(value, numbers.Real):
            glued = float(value)
        else:
            raise TypeError(f"{key}: cannot glue a {type(value).__name__}")
        glue(key, Markdown(glued) if isinstance(glued, str) else glued, display=False)
        entries.append(entry(key, glued))
    return entries
