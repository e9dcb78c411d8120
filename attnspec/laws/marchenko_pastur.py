r"""The Marchenko–Pastur law of ratio 1, with closed-form density, distribution and moments."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..numerics.smooth_cdf import bisect_increasing
from .base import SquaredSingularValueLaw, positive_real


class MarchenkoPastur(SquaredSingularValueLaw):
    r"""Marchenko–Pastur law of ratio 1: squared singular values of :math:`\sqrt{s}\, W/\sqrt d`.

    For a square :math:`d \times d` matrix :math:`W` of independent :math:`N(0, 1)` entries the
    squared singular values of :math:`\sqrt s\, W/\sqrt d` have, as :math:`d \to \infty`, the
    density

    .. math::

        q(\lambda) = \frac{\sqrt{\lambda (4s - \lambda)}}{2\pi s \lambda}, \qquad 0 < \lambda < 4s,

    and the distribution function
    :math:`F(\lambda) = \bigl(\psi + \sin\psi\bigr)/\pi` with
    :math:`\psi = 2 \arcsin\sqrt{\lambda/(4s)}`. Moments :math:`E\lambda^k = s^k C_k` (Catalan
    numbers), so the mean is :math:`s` and the variance :math:`s^2`. It is the case
    :math:`\theta_2 = 0` of :class:`~attnspec.laws.gaussian_equivalent.GaussianEquivalentLaw`; the
    Gaussian-equivalence paper (arXiv 2510.06685) shows that attention spectra deviate from it
    (Marchenko and Pastur, 1967).

    Parameters
    ----------
    scale : float
        The scale :math:`s`, finite and > 0; the mean of the law.

    Raises
    ------
    ValueError
        If ``scale`` is not a finite real number > 0.
    """

    def __init__(self, scale: float) -> None:
        self.scale = positive_real("scale", scale)
        self.edge = 4.0 * self.scale
        super().__init__()

    def __repr__(self) -> str:
        return f"MarchenkoPastur(scale={self.scale!r})"

    def _pdf(self, lam: np.ndarray) -> np.ndarray:
        r"""Density :math:`\sqrt{\lambda(4s - \lambda)}/(2\pi s\lambda)`."""
        return np.sqrt(lam * (self.edge - lam)) / (2.0 * np.pi * self.scale * lam)

    def _cdf(self, lam: np.ndarray) -> np.ndarray:
        r"""Distribution function :math:`F(\lambda) = (\psi + \sin\psi)/\pi`.

        Here :math:`\psi = 2\arcsin\sqrt{\lambda/(4s)}`.
        """
        psi = 2.0 * np.arcsin(np.sqrt(np.clip(lam / self.edge, 0.0, 1.0)))
        return (psi + np.sin(psi)) / np.pi

    def _ppf(self, p: np.ndarray) -> np.ndarray:
        r"""Quantile: solves :math:`\psi + \sin\psi = \pi p` by bisection."""
        psi = bisect_increasing(lambda t: t + np.sin(t), np.pi * p, 0.0, np.pi)
        return self.edge * np.sin(0.5 * psi) ** 2

    def _stats(self):
        """Mean :math:`s` and variance :math:`s^2`."""
        return self.scale, self.scale * self.scale, None, None

    def _munp(self, n: int) -> float:
        r""":math:`E\lambda^n = s^n C_n`, Catalan number :math:`C_n = \binom{2n}{n}/(n+1)`."""
        return self.scale**n * math.comb(2 * n, n) / (n + 1)

    def _quadrature(self, func: Callable[[np.ndarray], np.ndarray], points: int = 256) -> float:
        r""":math:`E[\mathrm{func}(\lambda)]` by Gauss–Chebyshev quadrature of the second kind.

        With :math:`\lambda = x^2`, x semicircular on :math:`[-2\sqrt s, 2\sqrt s]`; exact for
        polynomials of degree < ``points``.
        """
        k = np.arange(1, points + 1)
        angle = k * np.pi / (points + 1)
        weights = 2.0 / (points + 1) * np.sin(angle) ** 2
        lam = self.edge * np.cos(angle) ** 2
        return float(np.sum(weights * np.asarray(func(lam), dtype=float)))
