r"""Per-trial statistics of the normalizer diagnostic :math:`D_i = Z_i/(d\,e^{\beta^2/2})`, its
exact mean, and a test of that mean with the power to see its deviation from one.

Rows of one trial share the keys, so they are not independent: the standard errors here come from
the spread of the per-trial statistics over independent trials.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core import validate
from ..core.errors import InvalidInput
from .trials import normalizers


def normalizer_mean(beta: float, d: int) -> float:
    r"""Exact :math:`\mathbb E D_i = (1 - \beta^2/d)^{-d/2}\, e^{-\beta^2/2}`, for
    :math:`\beta^2 < d`.

    Given the query :math:`q_i`,
    :math:`\mathbb E[e^{\beta S_{ij}} \mid q_i] = e^{\beta^2 \lVert q_i\rVert^2/(2d)}`;
    :math:`\lVert q_i\rVert^2 \sim \chi^2_d` and :math:`\mathbb E e^{t\chi^2_d} = (1 - 2t)^{-d/2}`.
    Derived in this book; :math:`= 1 + \beta^4/(4d) + O(d^{-2})`.
    """
    d = validate.real("d", d, 1.0)
    beta = validate.real("beta", beta)
    if not beta * beta < d:
        raise InvalidInput(f"beta={beta!r} is out of range for d={d!r}: must satisfy beta^2 < d")
    return math.exp(-0.5 * d * math.log1p(-beta * beta / d) - 0.5 * beta * beta)


@dataclass(frozen=True)
class NormalizerStats:
    """Pooled mean and standard deviation of D_i, with standard errors from per-trial values."""

    mean: float
    mean_se: float
    std: float
    std_se: float
    max_dev: float
    trials: int


def normalizer_stats(D: np.ndarray, trials: int) -> NormalizerStats:
    """Statistics of D_i pooled over ``trials`` equal blocks of rows (one per trial, in order)."""
    D = np.asarray(D, dtype=float)
    trials = validate.integer("trials", trials, 1)
    if D.size % trials:
        raise InvalidInput(
            f"trials={trials} is out of range: must divide the number of rows {D.size}"
        )
    per = D.reshape(trials, -1)
    root = math.sqrt(trials)
    se = (lambda v: float(v.std(ddof=1)) / root) if trials > 1 else (lambda v: float("nan"))
    return NormalizerStats(
        float(D.mean()),
        se(per.mean(axis=1)),
        float(D.std()),
        se(per.std(axis=1)),
        float(np.max(np.abs(D - 1.0))),
        trials,
    )


def trial_mean_sd(beta: float, d: int) -> float:
    r"""First-order standard deviation of one trial's mean :math:`\bar D = \frac1d \sum_i D_i`:
    :math:`\sqrt{e^{\beta^2} - 1 + \beta^4}\,/\,d`.

    Derived in this book: the rows contribute :math:`\operatorname{Var} D_i / d = (e^{\beta^2} - 1 +
    \beta^4/2)/d^2` (:func:`attnspec.laws.predictions.normalizer_std`), and the keys they share
    correlate two rows by :math:`\operatorname{Cov}(D_i, D_{i'}) \approx \beta^4/(2d^2)`
    (:math:`E e^{\beta^2\lVert q + q'\rVert^2/(2d)}` against :math:`(E e^{\beta^2\lVert q
    \rVert^2/(2d)})^2`), which adds :math:`\beta^4/(2d^2)` over the :math:`d^2` pairs.
    """
    beta = validate.real("beta", beta)
    d = validate.real("d", d, 1.0)
    return math.sqrt(math.expm1(beta * beta) + beta**4) / d


@dataclass(frozen=True)
class MeanTest:
    """The mean of D_i over ``trials`` trials at size ``d``, against its exact value and against 1.

    ``deviation`` is the predicted excess of the mean over one, :math:`E D_i - 1`; the test
    resolves it when it exceeds ``3 * se``.
    """

    d: int
    trials: int
    mean: float
    se: float
    exact: float

    @property
    def deviation(self) -> float:
        return self.exact - 1.0

    @property
    def z_exact(self) -> float:
        """(mean - exact mean) / se."""
        return (self.mean - self.exact) / self.se

    @property
    def z_one(self) -> float:
        """(mean - 1) / se: how many standard errors the measured mean lies above one."""
        return (self.mean - 1.0) / self.se

    @property
    def detectable(self) -> float:
        """Smallest deviation of the mean this test detects: three standard errors."""
        return 3.0 * self.se


def mean_test(beta: float, d: int, seed: int, trials: int) -> MeanTest:
    """:class:`MeanTest` of the trial means of D_i for trials ``0 .. trials-1`` of ``seed`` (its
    standard error is NaN for a single trial)."""
    trials = validate.integer("trials", trials, 1)
    per = normalizers(d, beta, seed, trials).reshape(trials, -1).mean(axis=1)
    se = float(per.std(ddof=1) / math.sqrt(trials)) if trials > 1 else math.nan
    return MeanTest(int(d), trials, float(per.mean()), se, normalizer_mean(beta, d))


#: The powered test wants the predicted excess of the mean over one to be this many standard errors.
POWERED_RATIO = 5.0


def trials_to_resolve(beta: float, d: int, ratio: float = POWERED_RATIO) -> int:
    r"""Trials whose mean resolves :math:`E D_i - 1` at ``ratio`` first-order standard errors:
    :math:`\lceil (\text{ratio}\cdot\text{sd}/(E D_i - 1))^2\rceil` with sd from
    :func:`trial_mean_sd`.

    Both the excess (:math:`\approx \beta^4/(4d)`) and sd fall like :math:`1/d`, so the number of
    trials does not depend on :math:`d` to first order (about 1100 at :math:`\beta = 1`) while
    each trial costs :math:`O(d^3)`: the powered test runs at a small size.
    """
    deviation = normalizer_mean(beta, d) - 1.0
    if not deviation > 0:
        raise InvalidInput(
            f"beta={beta!r} is out of range: the mean of D_i deviates from 1 only for beta > 0"
        )
    return max(2, math.ceil((ratio * trial_mean_sd(beta, d) / deviation) ** 2))


#: Size of the powered test of the mean, and the most trials it may draw (its cost bound where the
#: excess is small, at small beta).
POWERED_D, POWERED_MAX_TRIALS = 100, 20000


def powered_mean_test(
    beta: float, seed: int, d: int = POWERED_D, max_trials: int = POWERED_MAX_TRIALS
) -> MeanTest | None:
    r""":func:`mean_test` at size ``min(d, POWERED_D)`` with :func:`trials_to_resolve` trials (at
    most ``max_trials``); None where there is no excess to resolve: β = 0 (every :math:`D_i` is 1)
    or :math:`\beta^2` at least the size (the mean is infinite)."""
    size = min(int(d), POWERED_D)
    if not 0 < beta * beta < size:
        return None
    trials = min(trials_to_resolve(beta, size), int(max_trials))
    return mean_test(beta, size, seed, trials)
