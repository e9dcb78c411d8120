"""The rules between parameters that several chapters share (each chapter names its own in
``attnspec/chapters/<name>/rules.py``, as ``RULES``).

A chapter's parameters are declared in its notebook's ``parameters`` cell, their kinds (type and
range) in :data:`attnspec.core.kinds.PARAMETERS`, and the rules that hold wherever their parameters
appear in :data:`attnspec.core.config.RULES`; a chapter's rules narrow a range, or relate
parameters, in that chapter only. Light (no NumPy): the command line checks them before a kernel
starts.
"""

from __future__ import annotations

import sys

from ..core.config import Rule
from ..core.kinds import BETA_MAX

#: Smallest :math:`\beta` where :math:`\theta_1 = e^{\beta^2} - 1` is computed:
#: :math:`\beta^2 \ge \sqrt{\epsilon}` (machine epsilon), so that it keeps at least half of a
#: float's digits (below, :math:`e^{\beta^2} - 1` is 0 or round-off).
BETA_THETA_MIN = sys.float_info.epsilon**0.25
#: beta's range where theta_1 and the limit law are computed
BETA_LAW = f">= {BETA_THETA_MIN:.3g} and <= {BETA_MAX:g}"
THETA_WHY = (
    "theta_1 = e^(beta^2) - 1 must be > 0 with at least half of a float's digits: "
    "beta^2 >= sqrt(machine epsilon)"
)

#: The chapters that divide by theta_1, or compare a bulk with the limit law, need beta at least
#: :data:`BETA_THETA_MIN`.
LAW_BETA = Rule(
    ("beta",),
    "beta",
    lambda v: v["beta"] >= BETA_THETA_MIN,
    lambda v: (
        f"beta={v['beta']!r} is out of range for the limit law: must be {BETA_LAW} ({THETA_WHY})"
    ),
    bound=BETA_LAW,
)
#: The same for every beta of a grid.
LAW_BETAS = Rule(
    ("betas",),
    "betas",
    lambda v: min(v["betas"]) >= BETA_THETA_MIN,
    lambda v: (
        f"betas={v['betas']} is out of range for this chapter: each beta must be "
        f"{BETA_LAW} ({THETA_WHY})"
    ),
)
