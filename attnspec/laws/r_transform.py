r"""The edge of the law :math:`\mathcal G_\theta` by its R-transform, a route independent of the
quartic's roots (:mod:`attnspec.laws.quartic`): the edge is where the inverse of the Cauchy
transform, :math:`K(G) = 1/G + (\theta_1 - \theta_2)G + \theta_2 G/(1 - \theta_2 G^2)`, turns."""

from __future__ import annotations

import math

from scipy import optimize


def edge_from_r_transform(theta1: float, theta2: float) -> float:
    r""":math:`\lambda_+ = (\min_{0 < G < \theta_2^{-1/2}} K(G))^2` with
    :math:`K(G) = 1/G + (\theta_1 - \theta_2)G + \theta_2 G/(1 - \theta_2 G^2)`: a route to the
    edge that does not go through the quartic's roots."""
    g_max = 1 / math.sqrt(theta2)
    found = optimize.minimize_scalar(
        lambda g: 1 / g + (theta1 - theta2) * g + theta2 * g / (1 - theta2 * g**2),
        bounds=(1e-9 * g_max, (1 - 1e-12) * g_max),
        method="bounded",
        options={"xatol": 1e-12},
    )
    return float(found.fun) ** 2
