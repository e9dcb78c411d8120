"""The bulk-equivalence chapter's own rules between its parameters (:data:`RULES`),
checked with their ranges before any kernel starts."""

from __future__ import annotations

from ...core.config import Rule
from ..rules import LAW_BETA

#: The noise floor compares bulks of two values at least.
BULK_OF_TWO = Rule(
    ("d", "remove_top_k"),
    "remove_top_k",
    lambda v: v["d"] - v["remove_top_k"] >= 2,
    lambda v: (
        f"remove_top_k={v['remove_top_k']} is out of range for this chapter: must be "
        f">= 0 and <= d - 2 = {v['d'] - 2} (the noise floor compares bulks of two values at least)"
    ),
)

#: The rules of this chapter, checked with its declared parameters.
RULES = (
    LAW_BETA,
    BULK_OF_TWO,
)
