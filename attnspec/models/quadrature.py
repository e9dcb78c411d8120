r"""Gauss–Hermite quadrature of the Gaussian statistics :math:`\theta_1, \theta_2` of a
nonlinearity.

For :math:`\chi \sim \mathcal N(0, 1)`, :math:`\mathbb E[h(\chi)] \approx \sum_k w_k h(x_k)` with
the probabilists' Hermite nodes :math:`x_k` and weights :math:`w_k` normalized to sum to one; exact
for polynomials of degree below :math:`2 \times` ``nodes``. An independent check of the closed
forms in :mod:`attnspec.models.nonlinearity`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core import validate


def gaussian_expectation(h: Callable[[np.ndarray], np.ndarray], nodes: int = 200) -> float:
    r""":math:`\mathbb E[h(\chi)]`, :math:`\chi \sim \mathcal N(0, 1)`, by ``nodes``-point
    Gauss–Hermite quadrature."""
    nodes = validate.integer("nodes", nodes, 1)
    x, w = np.polynomial.hermite_e.hermegauss(nodes)
    return float((w / np.sqrt(2 * np.pi)) @ h(x))


def thetas(
    g: Callable[[np.ndarray], np.ndarray], dg: Callable[[np.ndarray], np.ndarray], nodes: int = 200
) -> tuple[float, float]:
    r""":math:`(\theta_1, \theta_2) = (\mathbb E[g(\chi)^2], (\mathbb E[g'(\chi)])^2)`, by
    quadrature.

    :math:`\theta_1 = \mathbb E g^2` is the total power of the Gaussian-equivalent model only for a
    centred :math:`g` (:math:`\mathbb E g(\chi) = 0`), as are :math:`f` and :math:`Q_n`.
    """
    return gaussian_expectation(lambda x: g(x) ** 2, nodes), gaussian_expectation(dg, nodes) ** 2
