"""The limit-law-edge chapter's own rules between its parameters (:data:`RULES`),
checked with their ranges before any kernel starts."""

from __future__ import annotations

import math
import sys

from ...core.config import Rule
from ...core.kinds import BETA_MAX
from ..rules import BETA_THETA_MIN, THETA_WHY


def _edge_beta_max() -> float:
    """Largest beta (to 0.01) where the size d = e^((2 beta + sqrt(3 beta^2 - log theta_1))^2)
    at which the largest entry of Y_f reaches theta_1 is a finite float."""
    top = math.log(sys.float_info.max)

    def exponent(b: float) -> float:
        return (2 * b + math.sqrt(3 * b * b - math.log(math.expm1(b * b)))) ** 2

    low, high = 1.0, BETA_MAX
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if exponent(mid) <= top else (low, mid)
    return math.floor(low * 100) / 100


#: beta's range where the edge chapter's localized outliers are computed
BETA_EDGE_MAX = _edge_beta_max()
_BETA_EDGE = f">= {BETA_THETA_MIN:.3g} and <= {BETA_EDGE_MAX:g}"
EDGE_BETA = Rule(
    ("beta",),
    "beta",
    lambda v: BETA_THETA_MIN <= v["beta"] <= BETA_EDGE_MAX,
    lambda v: (
        f"beta={v['beta']!r} is out of range for this chapter: must be {_BETA_EDGE} "
        f"({THETA_WHY}; and the size at which Y_f's largest entry reaches theta_1, "
        "e^((2 beta + sqrt(3 beta^2 - log theta_1))^2), must be a finite float)"
    ),
    bound=_BETA_EDGE,
)

#: The rules of this chapter, checked with its declared parameters.
RULES = (EDGE_BETA,)
