"""The figure of "The θ statistics"."""

from __future__ import annotations

from ...present import plotting
from .claims import TAYLOR_NS


def fig_gap(study):
    r"""The relative gaps :math:`|\theta^Q/\theta^f - 1|` of both statistics across the Taylor
    parameter :math:`n`."""
    return plotting.curves(
        TAYLOR_NS,
        {
            r"$|\theta_1^Q/\theta_1 - 1|$": study.gap1,
            r"$|\theta_2^Q/\theta_2 - 1|$": study.gap2,
        },
        r"Taylor parameter $n$ (degree $n - 1$)",
        "relative gap",
        logy=True,
    )
