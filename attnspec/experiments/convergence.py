r"""Convergence of each rung's bulk to the exact limit law as :math:`d` grows, and its breakdown in
:math:`\beta`: the computations behind the convergence chapter.

The distance of a bulk to a law is :func:`attnspec.numerics.spectra.ks_to_law_below_quantile` (bulk
counted out of :math:`d`, supremum below the law's :math:`(1 - r/d)` quantile). Uncertainties are
jackknife standard errors over trials; a rate :math:`\text{distance} \propto d^{-\text{rate}}` is
fitted by :func:`attnspec.numerics.fitting.rate_fit_jackknife`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import stats

from ..laws.gaussian_equivalent import GaussianEquivalentLaw
from ..models.nonlinearity import poly_degree
from ..numerics.fitting import RateFit, jackknife_se, leave_one_out, rate_fit, rate_fit_jackknife
from ..numerics.spectra import bulk, ks_to_law_below_quantile
from .trials import LadderResult

#: Fewest trials whose jackknife error is reported and tested: from 2 trials it rests on one
#: degree of freedom, and it can be off by any factor.
MIN_TRIALS = 3
#: The normal quantile of "3 standard errors", turned into Student's quantile for an error from
#: n trials (n − 1 degrees of freedom) by :func:`t_factor`.
THREE_SIGMA = 0.99865


@lru_cache(maxsize=256)
def limit_law(target: str, d: int, beta: float, c_poly: float) -> GaussianEquivalentLaw | None:
    r"""The :math:`\theta^f` law (``target="f"``) or the :math:`\theta^Q` law at degree :math:`n_d`
    (``"q"``) at :math:`\beta`; None where it does not exist (:math:`\beta = 0`, or :math:`\theta^Q`
    overflows)."""
    if not beta > 0:
        return None
    try:
        if target == "f":
            return GaussianEquivalentLaw.for_f(beta)
        return GaussianEquivalentLaw.for_q(beta, poly_degree(d, c_poly))
    except ValueError:
        return None


def trial_bulks(ladder: LadderResult, model: str) -> list[np.ndarray]:
    """The bulk (top ``remove_top_k`` removed) of every trial of ``ladder`` for rung ``model``."""
    return [bulk(t[model], ladder.config.remove_top_k) for t in ladder.trials]


def bulk_distance(values: np.ndarray, law, d: int, removed: int) -> float:
    """Kolmogorov distance of a pooled bulk to ``law`` (NaN without a law)."""
    if law is None:
        return float("nan")
    return ks_to_law_below_quantile(values, law.cdf, law.ppf, d, removed)


@dataclass(frozen=True)
class PooledDistance:
    """A pooled bulk's Kolmogorov distance to a law, with its jackknife standard error over
    trials."""

    ks: float
    se: float


def pooled_distance(ladder: LadderResult, model: str, target: str = "f") -> PooledDistance:
    """Distance of ``model``'s pooled bulk in ``ladder`` to its ``target`` law, with the jackknife
    over trials."""
    cfg = ladder.config
    law = limit_law(target, cfg.d, cfg.beta, cfg.c_poly)
    parts = trial_bulks(ladder, model)
    ks = bulk_distance(np.concatenate(parts), law, cfg.d, cfg.remove_top_k)
    se = jackknife_se(
        [bulk_distance(v, law, cfg.d, cfg.remove_top_k) for v in leave_one_out(parts)]
    )
    return PooledDistance(ks, se)


@dataclass(frozen=True)
class DistanceSeries:
    r"""One rung's distance to a law over the sizes of a series, with the fitted rate: the rung
    ``model`` (ladder name) and the law ``target`` (``"f"`` or ``"q"``); sizes ``d`` and ``trials``
    per size; the pooled Kolmogorov distance ``ks`` and its jackknife standard error over trials
    ``ks_se`` (NaN with one trial); ``fit``, :math:`\text{ks} \propto d^{-\text{rate}}` with the
    residual and the trial standard errors."""

    model: str
    target: str
    d: np.ndarray
    trials: np.ndarray
    ks: np.ndarray
    ks_se: np.ndarray
    fit: RateFit

    def at(self, d: int) -> float:
        """The distance at size ``d`` (NaN if the series does not have it)."""
        hit = np.flatnonzero(self.d == d)
        return float(self.ks[hit[0]]) if hit.size else float("nan")


def distance_series(
    ladders: Sequence[LadderResult], model: str, target: str = "f"
) -> DistanceSeries:
    """The distance of ``model``'s bulk to its ``target`` law at every ladder (one per size, same
    beta)."""
    ladders = sorted(ladders, key=lambda L: L.config.d)
    cfgs = [L.config for L in ladders]
    laws = [limit_law(target, c.d, c.beta, c.c_poly) for c in cfgs]
    parts = [trial_bulks(L, model) for L in ladders]

    def dist(i: int, values: np.ndarray) -> float:
        return bulk_distance(values, laws[i], cfgs[i].d, cfgs[i].remove_top_k)

    ks = np.array([dist(i, np.concatenate(p)) for i, p in enumerate(parts)])
    se = np.array(
        [jackknife_se([dist(i, v) for v in leave_one_out(p)]) for i, p in enumerate(parts)]
    )
    d = np.array([c.d for c in cfgs])
    fit = rate_fit_jackknife(d, parts, dist)
    return DistanceSeries(model, target, d, np.array([len(p) for p in parts]), ks, se, fit)


def reported_se(series: DistanceSeries) -> np.ndarray:
    """The jackknife errors of a series where they rest on at least :data:`MIN_TRIALS` trials,
    NaN elsewhere (not reliable)."""
    return np.where(series.trials >= MIN_TRIALS, series.ks_se, np.nan)


def t_factor(trials: int) -> float:
    r"""Student's quantile :math:`t_{n-1}` at :data:`THREE_SIGMA`: the factor of an error from
    :math:`n` trials that matches 3 standard errors of a known one."""
    return float(stats.t.ppf(THREE_SIGMA, trials - 1))


def noise_levels(series: DistanceSeries) -> np.ndarray:
    r"""The 95 % Kolmogorov level :math:`1.36/\sqrt{nd}` of as many independent values, at each
    size."""
    return 1.36 / np.sqrt(series.trials * series.d)


def trials_for_pooled(
    d_values: Sequence[int], pooled_values: int, minimum: int = 1
) -> dict[int, int]:
    r"""Trials per size so that each pooled bulk holds at least ``pooled_values`` values:
    :math:`\lceil \text{pooled} / d \rceil`, at least ``minimum``."""
    return {int(d): max(minimum, math.ceil(pooled_values / d)) for d in d_values}


def crossing(xs: Sequence[float], ys: Sequence[float], level: float) -> float:
    """First x where ``ys`` crosses ``level`` upwards, interpolating log ys linearly in x; NaN if
    none."""
    for j in range(1, len(xs)):
        if ys[j - 1] < level <= ys[j]:
            t = (math.log(level) - math.log(ys[j - 1])) / (math.log(ys[j]) - math.log(ys[j - 1]))
            return float(xs[j - 1] + t * (xs[j] - xs[j - 1]))
    return float("nan")


def rigidity_scale(d, trials) -> np.ndarray:
    r"""The rigidity scale :math:`\log d/(d\sqrt n)` of a pooled bulk of :math:`n` spectra of size
    :math:`d`.

    The eigenvalues of a random matrix are rigid: each lies within about :math:`\log d/d` of its
    quantile of the law, so the empirical distribution of one spectrum is about :math:`\log d/d`
    from the law in Kolmogorov distance, and the average of :math:`n` independent spectra about
    :math:`\log d/(d\sqrt n)`; an i.i.d. sample of :math:`nd` values would be at
    :math:`1/\sqrt{nd}`.
    """
    d = np.asarray(d, dtype=float)
    return np.log(d) / (d * np.sqrt(np.asarray(trials, dtype=float)))


@dataclass(frozen=True)
class Rigidity:
    r"""A series' distances against the rigidity scale :math:`\log d/(d\sqrt n)`.

    ``ratio`` is distance over scale at each size; ``exponent`` and ``se`` the fitted slope of
    :math:`\log(\text{ratio})` against :math:`\log d` and its standard error (0 when the distance
    follows the scale; NaN error with fewer than four sizes); ``scale_rate`` the rate
    :math:`\rho` the scale alone would show over these sizes (minus its log-log slope).
    """

    d: np.ndarray
    trials: np.ndarray
    ks: np.ndarray
    scale: np.ndarray
    ratio: np.ndarray
    exponent: float
    se: float
    scale_rate: float


def rigidity(series: DistanceSeries) -> Rigidity:
    """The distances of ``series`` against :func:`rigidity_scale`."""
    scale = rigidity_scale(series.d, series.trials)
    ratio = series.ks / scale
    fit = rate_fit(series.d, ratio)
    return Rigidity(
        series.d,
        series.trials,
        series.ks,
        scale,
        ratio,
        -fit.rate,
        fit.se,
        rate_fit(series.d, scale).rate,
    )
