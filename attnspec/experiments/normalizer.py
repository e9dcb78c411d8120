r"""Per-trial statistics of the normalizer diagnostic :math:`D_i = Z_i/(d\,e^{\beta^2/2})`, and
its exact mean.

Rows of one trial share the keys, so they are not independent: the standard errors here come from
the spread of the per-trial statistics over independent trials.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core import validate
from ..core.errors import InvalidInput


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
