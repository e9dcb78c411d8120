r"""Bidirectional spectra of k equal spikes over a zero bulk, exact at any context length.

With two distinct scores (k spikes :math:`e^{s} = \ell f(\ell)`, :math:`\ell - k` zeros) the
reduction of :func:`attnspec.canonical.model.bidirectional_singular_values` leaves the values
:math:`d_{\text{spike}}` (multiplicity :math:`k - 1`), :math:`d_{\text{bulk}} = 0`
(multiplicity :math:`\ell - k - 1`) and those of the :math:`2 \times 2` matrix

.. math::
    M = \begin{pmatrix} d_s + k z_s & z_s\sqrt{k(\ell - k)} \\
    z_b\sqrt{k(\ell - k)} & (\ell - k) z_b \end{pmatrix}, \qquad
    z_s = \frac{1}{\ell f + \ell - 1}, \; d_s = (\ell f - 1) z_s, \; z_b = \frac1\ell .

Nothing of size :math:`\ell` is formed, so :math:`\ell` may be :math:`2^{1000}`: at the slow margin
:math:`f = \log\ell` the rates in :math:`1/f` can only be told apart over a wide range of
:math:`f`, which needs astronomically long contexts. Every statistic of the chapter's rate fits is
a function of the values and their multiplicities (:class:`TwoScoreSummary`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attnspec.canonical.model import alpha_minus, alpha_plus
from attnspec.core import validate


@dataclass(frozen=True)
class TwoScoreSummary:
    r"""The chapter's bidirectional statistics at one :math:`\ell` (zero bulk, k spikes).

    Attributes
    ----------
    ell : int
    k : int
    f : float
        :math:`f(\ell)`.
    profile_error : float
        :math:`\max_i |\sigma_i - p_i|` against
        :func:`~attnspec.canonical.model.bidirectional_profile`.
    lamk1_error : float
        :math:`|\lambda_{k+1} - (1 - c)|`.
    lead_error : float
        :math:`\max_{i \le k+1} |\sigma_i - 1|`.
    w1 : float
        The larger :math:`W_1` distance of the empirical laws of :math:`\sigma` and of
        :math:`\lambda` to :math:`c\delta_1 + (1 - c)\delta_0`.
    srank, erank2 : float
    srank_limit : float
        :math:`(k + 1 - c)/\alpha_+(c)^2`.
    top : tuple of float
        :math:`\sigma_1, \sigma_2, \sigma_3`.
    """

    ell: int
    k: int
    f: float
    profile_error: float
    lamk1_error: float
    lead_error: float
    w1: float
    srank: float
    erank2: float
    srank_limit: float
    top: tuple

    @property
    def c(self) -> float:
        return self.k / self.ell


def _segments(values, counts) -> list[tuple[int, int, float]]:
    """``(start, end, value)`` runs of the descending sort of ``values`` repeated ``counts``
    times (counts may be huge Python ints; no array of that size is formed)."""
    runs, start = [], 0
    for v, n in sorted(zip(values, counts, strict=True), key=lambda p: -p[0]):
        if n > 0:
            runs.append((start, start + int(n), float(v)))
            start += int(n)
    return runs


def _compare(a, b) -> tuple[float, float]:
    """Largest absolute difference and sum of absolute differences of two sorted grouped
    sequences of equal length, position by position."""
    i = j = 0
    largest, total = 0.0, 0.0
    while i < len(a) and j < len(b):
        lo = max(a[i][0], b[j][0])
        hi = min(a[i][1], b[j][1])
        diff = abs(a[i][2] - b[j][2])
        if hi > lo:
            largest = max(largest, diff)
            total += (hi - lo) * diff
        if a[i][1] <= b[j][1]:
            i += 1
        else:
            j += 1
    return largest, total


def _at(runs, index: int) -> float:
    """The value at position ``index`` (0-based) of a grouped descending sequence."""
    return next(v for lo, hi, v in runs if lo <= index < hi)


def two_score_summary(ell: int, k: int, f: float) -> TwoScoreSummary:
    r"""Exact statistics of :math:`A_b` with k spikes :math:`e^s = \ell f` over a zero bulk.

    Parameters
    ----------
    ell : int
        Context length (a Python int; any size).
    k : int
        Number of spikes, :math:`1 \le k < \ell`.
    f : float
        The spike margin's value :math:`f(\ell) > 0`.
    """
    ell = validate.integer("ell", ell, 3)
    k = validate.integer("k", k, 1, ell - 1)
    n_b = ell - k
    ellf = float(ell) * float(f)
    z_s = 1.0 / (ellf + ell - 1)
    d_s = (ellf - 1) * z_s
    z_b = 1.0 / ell
    cross = math.sqrt(k * float(n_b))
    M = np.array([[d_s + k * z_s, z_s * cross], [z_b * cross, n_b * z_b]])
    s2 = float(np.sum(M * M))
    det = abs(float(M[0, 0] * M[1, 1] - M[0, 1] * M[1, 0]))
    s1 = math.sqrt((s2 + math.sqrt(max(s2 * s2 - 4 * det * det, 0.0))) / 2)
    s_low = det / s1
    w = np.sqrt(np.array([z_s * k, z_b * n_b]))
    lam_core = np.linalg.eigvalsh(np.diag([d_s, 0.0]) + np.outer(w, w))
    c = k / ell
    a_p, a_m = float(alpha_plus(c)), float(alpha_minus(c))
    sigma = _segments([s1, s_low, d_s, 0.0], [1, 1, k - 1, n_b - 1])
    lam = _segments([*lam_core, d_s, 0.0], [1, 1, k - 1, n_b - 1])
    profile = _segments([a_p, 1.0, a_m, 0.0], [1, k - 1, 1, n_b - 1])
    limit = _segments([1.0, 0.0], [k, n_b])
    power2 = s1**2 + s_low**2 + (k - 1) * d_s**2
    power4 = s1**4 + s_low**4 + (k - 1) * d_s**4
    return TwoScoreSummary(
        ell=ell,
        k=k,
        f=float(f),
        profile_error=_compare(sigma, profile)[0],
        lamk1_error=abs(_at(lam, k) - (1 - c)),
        lead_error=max(abs(_at(sigma, i) - 1) for i in {0, 1, k - 1, k}),
        w1=max(_compare(sigma, limit)[1], _compare(lam, limit)[1]) / ell,
        srank=power2 / s1**2,
        erank2=power2**2 / power4,
        srank_limit=(k + 1 - c) / a_p**2,
        top=tuple(_at(sigma, i) for i in range(3)),
    )
