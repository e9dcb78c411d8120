"""The canonical-causal chapter's own rules between its parameters (:data:`RULES`),
checked with their ranges before any kernel starts."""

from __future__ import annotations

import math

from ...core.config import Rule

#: The bound's constant is tested where it has settled: :math:`e^B` below the smallest length.
SETTLED_BOUND = Rule(
    ("ell_values", "bulk_max"),
    "bulk_max",
    lambda v: math.exp(v["bulk_max"]) < min(v["ell_values"]),
    lambda v: (
        f"bulk_max={v['bulk_max']!r} is out of range for this chapter at ell_values = "
        f"{v['ell_values']}: e^B must be < the smallest ell (where the bound's constant has "
        "settled, so that the chapter can test it)"
    ),
)

#: The rules of this chapter, checked with its declared parameters.
RULES = (SETTLED_BOUND,)
