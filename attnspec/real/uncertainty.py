r"""Bootstrap intervals for medians over texts and heads, and for slopes against log length.

A real-model statistic is a median over a table of values indexed by text :math:`t` and head
:math:`h` (a head is a (layer, head) pair, the same heads on every text). Its uncertainty comes
from both which texts were read and which heads were measured, so the bootstrap resamples both: a
crossed (two-way) bootstrap draws :math:`T` texts and :math:`H` heads with replacement and takes the
median of the :math:`T \times H` sub-table (McCullagh, 2000, resampling with two factors). With
four texts this interval is wide: it is honest about how little four texts pin down.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnspec.core.errors import InvalidInput

#: Bootstrap replicates of every interval.
REPS = 1000
#: Two-sided coverage of every interval.
LEVEL = 0.95


@dataclass(frozen=True)
class Interval:
    """A point estimate with a percentile bootstrap interval.

    Attributes
    ----------
    value : float
        The statistic on the full table.
    low, high : float
        The ``level`` percentile interval of the bootstrap replicates.
    n_texts, n_heads : int
        Size of the table (texts, heads).
    se : float
        Standard deviation of the bootstrap replicates (NaN when not computed).
    """

    value: float
    low: float
    high: float
    n_texts: int
    n_heads: int
    se: float = float("nan")

    def span(self, scale: float = 1.0) -> tuple[float, float]:
        """``(scale low, scale high)``: the interval of ``scale`` times the statistic (scale > 0),
        as :func:`attnspec.numerics.intervals.interval_below` takes it."""
        return (scale * self.low, scale * self.high)

    def excludes(self, x: float) -> bool:
        """Whether ``x`` lies outside ``[low, high]``."""
        return not self.low <= x <= self.high


def _check_table(values) -> np.ndarray:
    v = np.asarray(values, dtype=float)
    if v.ndim < 2 or v.size == 0 or not np.all(np.isfinite(v)):
        raise InvalidInput(
            f"values must be a finite (..., texts, heads) table, got shape {v.shape}"
        )
    return v


def _indices(
    shape: tuple[int, int], rng: np.random.Generator, reps: int
) -> tuple[np.ndarray, np.ndarray]:
    T, H = shape
    return rng.integers(0, T, (reps, T)), rng.integers(0, H, (reps, H))


def _bounds(replicates: np.ndarray, level: float) -> tuple[float, float]:
    lo, hi = np.quantile(replicates, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


def median_interval(
    values, rng: np.random.Generator, reps: int = REPS, level: float = LEVEL, statistic=np.median
) -> Interval:
    r"""Median (or ``statistic``) of a texts × heads table with a crossed bootstrap interval.

    Parameters
    ----------
    values : array_like
        Shape ``(T, H)``.
    rng : numpy.random.Generator
        Source of the resampling indices.
    reps : int
        Bootstrap replicates.
    level : float
        Coverage of the percentile interval.
    statistic : callable
        ``statistic(array, axis=1)``, e.g. :func:`numpy.median` or :func:`numpy.mean`.
    """
    v = _check_table(values)
    if v.ndim != 2:
        raise InvalidInput(f"values must have shape (texts, heads), got {v.shape}")
    ti, hi = _indices(v.shape, rng, reps)
    sub = v[ti[:, :, None], hi[:, None, :]].reshape(reps, -1)
    replicates = statistic(sub, axis=1)
    lo, up = _bounds(replicates, level)
    value = float(statistic(v.reshape(1, -1), axis=1)[0])
    return Interval(value, lo, up, v.shape[0], v.shape[1], float(np.std(replicates)))


def _slopes(medians: np.ndarray, x: np.ndarray) -> np.ndarray:
    xc = x - x.mean()
    return (medians - medians.mean(axis=-1, keepdims=True)) @ xc / float(xc @ xc)


def slope_replicates(
    values, log_n, rng: np.random.Generator, reps: int = REPS
) -> tuple[float, np.ndarray]:
    r"""Least-squares slope of the median against :math:`\log n`, and its crossed bootstrap
    replicates.

    ``values`` has shape ``(L, T, H)``: L lengths, the same T texts and H heads at every length.
    One replicate resamples texts and heads once and uses them at every length (a paired design),
    takes the median at each length and fits the slope.
    """
    v = _check_table(values)
    x = np.asarray(log_n, dtype=float)
    if v.ndim != 3 or x.shape != (v.shape[0],) or v.shape[0] < 2:
        raise InvalidInput(
            f"values must have shape (lengths >= 2, texts, heads) matching log_n, got {v.shape}"
        )
    ti, hi = _indices(v.shape[1:], rng, reps)
    sub = v[:, ti[:, :, None], hi[:, None, :]].reshape(v.shape[0], reps, -1)
    medians = np.median(sub, axis=2).T  # (reps, L)
    return float(_slopes(np.median(v.reshape(v.shape[0], -1), axis=1), x)), _slopes(medians, x)


def slope_interval(
    values, log_n, rng: np.random.Generator, reps: int = REPS, level: float = LEVEL
) -> Interval:
    """:func:`slope_replicates` summarized as an :class:`Interval`."""
    value, rep = slope_replicates(values, log_n, rng, reps)
    lo, hi = _bounds(rep, level)
    v = np.asarray(values)
    return Interval(value, lo, hi, v.shape[1], v.shape[2], float(np.std(rep)))


def difference_interval(
    a: tuple[float, np.ndarray],
    b: tuple[float, np.ndarray],
    level: float = LEVEL,
    n_texts: int = 0,
    n_heads: int = 0,
) -> Interval:
    """Interval of ``a - b`` from two independent sets of bootstrap replicates ``(value,
    replicates)``."""
    lo, hi = _bounds(a[1] - b[1], level)
    return Interval(a[0] - b[0], lo, hi, n_texts, n_heads)
