"""The limit-law chapter's own rules between its parameters (:data:`RULES`),
checked with their ranges before any kernel starts."""

from __future__ import annotations

from ...core.config import Rule
from ..rules import LAW_BETA, LAW_BETAS

#: Slider positions are distinct.
DISTINCT_BETAS = Rule(
    ("betas",),
    "betas",
    lambda v: len(set(v["betas"])) == len(v["betas"]),
    lambda v: f"betas={v['betas']} is out of range: each slider position must differ",
)

#: The rules of this chapter, checked with its declared parameters.
RULES = (
    LAW_BETA,
    LAW_BETAS,
    DISTINCT_BETAS,
)
