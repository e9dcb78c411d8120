r"""Distances of a set of eigen-angles to the uniform law on the circle.

The paper's three discrepancies (Spectral Degeneration of Self-Attention under Isotropic Score
Geometry, 2025, empirical isotropy diagnostics): KL divergence of a histogram with 50 equal arcs
(:func:`kl_to_uniform`), Kolmogorov distance on :math:`(-\pi, \pi]` (:func:`kolmogorov_to_uniform`)
and the Wasserstein-1 distance on the circle in radians (:func:`circular_w1_to_uniform`), returned
together as an :class:`AngleDistances` by :func:`angle_discrepancies`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attnspec.core import validate
from attnspec.core.errors import InvalidInput

#: Bins of the eigen-angle histogram for the KL divergence (the paper's choice).
ANGLE_BINS = 50


@dataclass(frozen=True)
class AngleDistances:
    """KL divergence (histogram), Kolmogorov distance and circular Wasserstein-1 to the uniform
    law."""

    kl: float
    ks: float
    w1: float

    def get(self, key: str) -> float:
        """The distance named ``key`` (``"kl"``, ``"ks"`` or ``"w1"``)."""
        return float(getattr(self, key))


def _check_angles(phi) -> np.ndarray:
    phi = np.asarray(phi, dtype=float).ravel()
    if phi.size == 0 or not np.all(np.isfinite(phi)) or np.any(np.abs(phi) > math.pi + 1e-12):
        raise InvalidInput("angles must be a non-empty array of finite values in [-pi, pi]")
    return phi


def angle_histogram(phi, bins: int = ANGLE_BINS) -> np.ndarray:
    r"""Fractions of angles in B equal arcs of the circle, the first one centred at angle 0.

    Arc b is :math:`[(b - \tfrac12) \tfrac{2\pi}{B}, (b + \tfrac12) \tfrac{2\pi}{B})` modulo
    :math:`2\pi`, :math:`b = 0, \dots, B - 1`. Centring the arcs on 0 (and, for even B, on
    :math:`\pi`) keeps the atoms that real orthogonal matrices have at the eigenvalues
    :math:`\pm 1` away from arc boundaries, where round-off would decide the arc.
    """
    phi = _check_angles(phi)
    bins = validate.integer("bins", bins, 1)
    index = np.floor(phi / (2 * math.pi) * bins + 0.5).astype(int) % bins
    return np.bincount(index, minlength=bins) / phi.size


def kl_to_uniform(phi, bins: int = ANGLE_BINS) -> float:
    r"""KL divergence :math:`\sum_b \hat p_b \log(B \hat p_b)` of a B-bin angle histogram from the
    uniform law.

    :math:`\hat p_b` is the fraction of angles in arc b of :func:`angle_histogram`
    (:math:`0 \log 0 = 0`). It is 0 for equal counts and :math:`\log B` when all angles fall in one
    arc. For m uniform angles its mean is about :math:`(B - 1)/(2m)` (the chi-square bias), not 0.
    """
    p = angle_histogram(phi, bins)
    p = p[p > 0]
    return float(np.sum(p * np.log(p * bins)))


def kolmogorov_to_uniform(phi) -> float:
    r"""Kolmogorov distance :math:`\sup_\varphi |F_m(\varphi) - (\varphi + \pi)/(2\pi)|` on
    :math:`(-\pi, \pi]`.

    The cut of the circle at :math:`\pi` is natural here: angles of real matrices are symmetric
    about 0. Exact: with sorted :math:`u_{(i)} = (\varphi_{(i)} + \pi)/2\pi`,
    :math:`D = \max_i \max(i/m - u_{(i)}, u_{(i)} - (i-1)/m)`.
    """
    u = np.sort((_check_angles(phi) + math.pi) / (2 * math.pi))
    m = u.size
    i = np.arange(1, m + 1)
    return float(max(np.max(i / m - u), np.max(u - (i - 1) / m)))


def circular_w1_to_uniform(phi) -> float:
    r"""Wasserstein-1 distance on the circle (arc length, radians) to the uniform law.

    With :math:`t = \varphi / 2\pi \bmod 1` and :math:`g(t) = F_m(t) - t`,

    .. math::

        W_1 = 2\pi \min_{\alpha \in \mathbb R} \int_0^1 |g(t) - \alpha|\, dt

    (Rabin, Delon and Gousseau, 2011). Between consecutive sorted points g decreases with slope
    :math:`-1`, so under Lebesgue measure its values form a mixture of uniform laws on the intervals
    :math:`[g(t_{(k+1)}^-), g(t_{(k)})]`. The minimizing :math:`\alpha` is the median of that
    mixture, whose distribution function is piecewise linear (found exactly in
    :math:`O(m \log m)`), and the integral is exact. :math:`\pi/2` for a point mass,
    :math:`\pi/(2m)` for m equally spaced points.
    """
    t = np.sort(np.mod(_check_angles(phi) / (2 * math.pi), 1.0))
    m = t.size
    left = np.concatenate([[0.0], t])  # segment k is [left_k, right_k), where F = k/m
    right = np.concatenate([t, [1.0]])
    hi = np.arange(m + 1) / m - left  # g at the left end of segment k
    lo = hi - (right - left)  # g at its right end
    lo_s, hi_s = np.sort(lo), np.sort(hi)
    cum_lo, cum_hi = (
        np.concatenate([[0.0], np.cumsum(lo_s)]),
        np.concatenate([[0.0], np.cumsum(hi_s)]),
    )

    def mass_below(a: np.ndarray) -> np.ndarray:
        # sum_k clip(a - lo_k, 0, hi_k - lo_k) = sum_k (a - lo_k)_+ - (a - hi_k)_+
        i, j = np.searchsorted(lo_s, a, side="right"), np.searchsorted(hi_s, a, side="right")
        return (i * a - cum_lo[i]) - (j * a - cum_hi[j])

    points = np.sort(np.concatenate([lo, hi]))
    mass = mass_below(points)
    p = int(np.searchsorted(mass, 0.5, side="left"))
    if p == 0:
        alpha = float(points[0])
    else:
        p = min(p, points.size - 1)
        rise = mass[p] - mass[p - 1]
        step = (0.5 - mass[p - 1]) / rise if rise > 0 else 1.0
        alpha = float(points[p - 1] + min(max(step, 0.0), 1.0) * (points[p] - points[p - 1]))
    integral = np.sum(((hi - alpha) * np.abs(hi - alpha) - (lo - alpha) * np.abs(lo - alpha)) / 2.0)
    return float(2 * math.pi * integral)


def angle_discrepancies(phi, bins: int = ANGLE_BINS) -> AngleDistances:
    r"""The three distances of the paper to the uniform law, as an :class:`AngleDistances`.

    :func:`kl_to_uniform` (B = ``bins``), :func:`kolmogorov_to_uniform`,
    :func:`circular_w1_to_uniform`.
    """
    return AngleDistances(
        kl_to_uniform(phi, bins), kolmogorov_to_uniform(phi), circular_w1_to_uniform(phi)
    )
