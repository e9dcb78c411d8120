r"""Power-law fits with their uncertainty, and jackknife standard errors over trials.

A rate of convergence is the slope of a straight line in :math:`(\log x, \log y)`. Its standard
error from the residuals needs at least two degrees of freedom (four points); with fewer it is not
reported (NaN), and the jackknife over trials (:func:`jackknife_se`) measures the sampling noise
instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Degrees of freedom a least-squares fit needs before its residual standard error is reported.
MIN_DOF = 2


@dataclass(frozen=True)
class SlopeFit:
    """Least-squares line :math:`y = a + b x`: slope b, intercept a, standard error of b."""

    slope: float
    intercept: float
    se: float


def slope_fit(x, y, min_dof: int = MIN_DOF) -> SlopeFit:
    r"""The one least-squares line fit :math:`y = a + b x` with the slope's standard error

    .. math:: \mathrm{se}(b) = \sqrt{\frac{\sum r_i^2/(n-2)}{\sum (x_i - \bar x)^2}},

    reported with at least ``min_dof`` degrees of freedom :math:`n - 2` (NaN otherwise).
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    b, a = np.polyfit(x, y, 1)
    dof = x.size - 2
    se = math.nan
    if dof >= max(min_dof, 1):
        ss = float(np.sum((y - (a + b * x)) ** 2))
        se = math.sqrt(ss / dof / float(np.sum((x - x.mean()) ** 2)))
    return SlopeFit(float(b), float(a), se)


def power_law_fit(x, y) -> tuple[float, float, float]:
    r"""Least-squares fit of :math:`\log y = a + b \log x`; returns ``(b, a, se_b)``
    (:func:`slope_fit` in logarithms: NaN ``se_b`` below :data:`MIN_DOF` degrees of freedom, as
    a line through two points has no residual, and one degree of freedom gives no usable error).
    """
    fit = slope_fit(np.log(np.asarray(x, float)), np.log(np.asarray(y, float)))
    return fit.slope, fit.intercept, fit.se


@dataclass(frozen=True)
class RateFit:
    r"""A fitted rate of decay :math:`y \approx e^{a} x^{-\text{rate}}`.

    Attributes
    ----------
    rate : float
        minus the fitted slope of :math:`\log y` against :math:`\log x` (NaN with fewer than two
        usable points).
    intercept : float
        :math:`a`.
    se : float
        standard error of the slope from the residuals (NaN with fewer than :data:`MIN_DOF`
        degrees of freedom).
    se_trials : float
        jackknife standard error of the rate over trials (NaN when not computed).
    n_points : int
        points used (finite and positive).
    """

    rate: float
    intercept: float
    se: float
    se_trials: float = float("nan")
    n_points: int = 0

    def predict(self, x) -> np.ndarray:
        """The fitted power law at ``x``."""
        return np.exp(self.intercept) * np.asarray(x, float) ** (-self.rate)


def rate_fit(x, y) -> RateFit:
    r"""Fit :math:`y \propto x^{-\text{rate}}` over the points where ``y`` is finite and
    positive."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = np.isfinite(y) & (y > 0)
    if ok.sum() < 2:
        return RateFit(float("nan"), float("nan"), float("nan"), n_points=int(ok.sum()))
    slope, intercept, se = power_law_fit(x[ok], y[ok])
    return RateFit(-slope, intercept, se, n_points=int(ok.sum()))


def leave_one_out(parts: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The pooled ``parts`` with one part (trial) left out at a time; empty with fewer than two
    parts."""
    if len(parts) < 2:
        return []
    return [np.concatenate(list(parts[:j]) + list(parts[j + 1 :])) for j in range(len(parts))]


def jackknife_se(values) -> float:
    r"""Jackknife standard error from leave-one-out values :math:`v_j`, :math:`j = 1..n`.

    :math:`\mathrm{se} = \sqrt{\tfrac{n-1}{n} \sum_j (v_j - \bar v)^2}` (Efron & Tibshirani); NaN
    with fewer than two values or a non-finite one.
    """
    v = np.asarray(values, dtype=float)
    if v.size < 2 or not np.all(np.isfinite(v)):
        return float("nan")
    return float(np.sqrt((v.size - 1) / v.size * np.sum((v - v.mean()) ** 2)))


def rate_fit_jackknife(x, parts_per_x: Sequence[Sequence[np.ndarray]], distance) -> RateFit:
    r"""A rate fitted to ``distance(i, pooled parts)`` at each ``x[i]``, with its jackknife over
    trials.

    ``parts_per_x[i]`` holds the per-trial samples at ``x[i]``. The rate's trial uncertainty
    ``se_trials`` leaves out trial :math:`j` at every ``x`` that has more than one trial (sizes
    with a single trial keep it) and refits; NaN unless some ``x`` has at least two trials.
    """
    y = [distance(i, np.concatenate(list(p))) for i, p in enumerate(parts_per_x)]
    fit = rate_fit(x, y)
    n_jk = max((len(p) for p in parts_per_x), default=0)
    if n_jk < 2:
        return fit
    rates = []
    for j in range(n_jk):
        yj = [
            distance(i, np.concatenate([q for t, q in enumerate(p) if t != j]))
            if len(p) > max(j, 1)
            else y[i]
            for i, p in enumerate(parts_per_x)
        ]
        rates.append(rate_fit(x, yj).rate)
    return RateFit(fit.rate, fit.intercept, fit.se, jackknife_se(rates), fit.n_points)
