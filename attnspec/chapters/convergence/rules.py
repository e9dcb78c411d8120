"""The convergence chapter's own rules between its parameters (:data:`RULES`),
checked with their ranges before any kernel starts."""

from __future__ import annotations

from ...core.config import Rule
from ..rules import LAW_BETA

#: Every size of the series at scale keeps a bulk.
D_SCALE_BULK = Rule(
    ("d_scale",),
    "d_scale",
    lambda v: min(v["d_scale"]) > v["remove_top_k"],
    lambda v: (
        f"d_scale={v['d_scale']} is out of range: "
        f"each d must be > remove_top_k = {v['remove_top_k']}"
    ),
)

#: The rules of this chapter, checked with its declared parameters.
RULES = (
    D_SCALE_BULK,
    LAW_BETA,
)
