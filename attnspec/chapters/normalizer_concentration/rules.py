"""The normalizer-concentration chapter's own rules between its parameters (:data:`RULES`),
checked with their ranges before any kernel starts."""

from __future__ import annotations

from ...core.config import Rule
from ..rules import LAW_BETA, LAW_BETAS

#: The exact mean of the normalizer :math:`D_i` exists only for :math:`\beta^2 < d`.
NORMALIZER_MEAN = Rule(
    ("d", "beta"),
    "beta",
    lambda v: v["beta"] ** 2 < v["d"],
    lambda v: (
        f"beta={v['beta']!r} is out of range for this chapter at d = {v['d']}: must satisfy "
        "beta^2 < d (the exact mean of D_i, (1 - beta^2/d)^(-d/2) e^(-beta^2/2), needs it)"
    ),
)

#: The rules of this chapter, checked with its declared parameters.
RULES = (
    LAW_BETA,
    LAW_BETAS,
    NORMALIZER_MEAN,
)
