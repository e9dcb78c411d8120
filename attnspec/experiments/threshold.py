r"""Where attention's bulk leaves the limit law: the :math:`(d, \beta)` plane of distances with a
bootstrap over trials, the boundary of agreement and its exponent :math:`\gamma`, the rate in
:math:`d` at each :math:`\beta`, and a collapse that needs no tolerance.

A cell :math:`(d, \beta)` holds the Kolmogorov distance of a rung's pooled bulk to the
:math:`\theta^f` law, counted out of :math:`d` and taken below the law's :math:`(1 - r/d)` quantile
(:func:`attnspec.numerics.spectra.ks_to_law_below_quantile`), and ``resamples`` bootstrap
replicates: the trials resampled with replacement. Trial :math:`k` at :math:`(d, \beta)` and at
:math:`(d, \beta')` share their weights, so one resample of trial indices serves every
:math:`\beta` of a size; sizes are resampled independently.

- The **boundary** at a level :math:`\varepsilon` is :math:`\beta_\varepsilon(d)`, where the
  distance crosses :math:`\varepsilon` (interpolated in :math:`\beta`,
  :func:`attnspec.experiments.convergence.crossing`); its exponent :math:`\gamma` is the slope of
  :math:`\beta_\varepsilon^2` against :math:`\log d`, i.e. :math:`e^{\beta_\varepsilon^2} \propto
  d^{\gamma}`. Its error adds to the bootstrap the interpolation's: the gap between interpolating
  :math:`\log D` and :math:`D` linearly in :math:`\beta`.
- Two **models of the boundary** with two parameters each are fitted to the crossings: the line
  :math:`\beta_\varepsilon^2 = \gamma \log d + b` and the counter-model
  :math:`\beta_\varepsilon^2 = \log d + a\sqrt{\log d} + b`, which lies on
  :math:`e^{\beta^2} = d^{1 - o(1)}` as :math:`d \to \infty`.
- The **collapse** asks which :math:`c` makes :math:`\log D` a single function of
  :math:`x = \beta^2 - c \log d`: the spread is the root mean square of the differences between
  each cell and the other sizes' curves, linearly interpolated at its :math:`x`; :math:`\hat c`
  minimizes it. Every level's boundary is then :math:`e^{\beta^2} \propto d^{\hat c}`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

from ..models.ladder import REFERENCE
from ..numerics.fitting import slope_fit
from .convergence import crossing, limit_law, pooled_distance, trial_bulks
from .trials import LadderResult

#: Spawn key of the bootstrap's generator (child of ``SeedSequence(seed)``), apart from the
#: trials' keys ``(k,)``; the size is appended, so every size has its own resamples.
RESAMPLE_KEY = 900_001
#: This book's convention for "on the law": a Kolmogorov distance below this tolerance.
KS_TOL = 0.05
#: Levels of the iso-distance curves whose exponents are compared (the tolerance among them).
LEVELS = (0.02, 0.03, 0.05, 0.1, 0.2)
#: Tail probability below which a boundary model is rejected by its chi-squared.
FIT_ALPHA = 0.05


def beta_star(d) -> np.ndarray:
    r"""The curve :math:`e^{\beta^2} = d`: :math:`\beta_* = \sqrt{\log d}`."""
    return np.sqrt(np.log(np.asarray(d, dtype=float)))


def resampled_distances(
    parts: Sequence[np.ndarray], cdf, ppf, d: int, removed: int, counts: np.ndarray
) -> np.ndarray:
    r"""The pooled bulk's distance to a law when part :math:`k` is taken ``counts[b, k]`` times.

    Row :math:`b` of ``counts`` is one resample (e.g. a bootstrap draw, or a leave-one-out row of
    ones with one zero). With weights :math:`w_i` (the count of the part value :math:`v_i` belongs
    to) and :math:`n = d \sum_k c_{bk}`, the pooled distribution is :math:`F_b(x) =
    \sum_{v_i \le x} w_i / n`, and the distance is that of
    :func:`attnspec.numerics.spectra.ks_to_law_below_quantile`: the supremum of
    :math:`|F_b - F|` below :math:`q = F^{-1}(1 - r/d)`, both one-sided limits at every value and
    the left limit at :math:`q`. All ones give exactly the distance of the plain pooled bulk.
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=float))
    values = np.concatenate(parts)
    labels = np.concatenate([np.full(len(p), k) for k, p in enumerate(parts)])
    order = np.argsort(values, kind="stable")
    values, labels = values[order], labels[order]
    q = float(ppf(1.0 - removed / d)) if removed else np.inf
    below = values < q
    values, labels = values[below], labels[below]
    F = np.asarray(cdf(values), dtype=float)
    n = d * counts.sum(axis=1, keepdims=True)
    w = counts[:, labels]
    right = np.cumsum(w, axis=1) / n
    left = right - w / n
    gap = np.maximum(np.abs(right - F).max(axis=1), np.abs(left - F).max(axis=1))
    if removed:
        gap = np.maximum(gap, np.abs(right[:, -1] - (1.0 - removed / d)))
    return gap


def bootstrap_counts(trials: int, resamples: int, seed: int, d: int) -> np.ndarray:
    """``resamples`` bootstrap draws of ``trials`` trial indices, as counts (resamples, trials)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(RESAMPLE_KEY, int(d))))
    picks = rng.integers(0, trials, size=(resamples, trials))
    counts = np.zeros((resamples, trials))
    np.add.at(counts, (np.arange(resamples)[:, None], picks), 1.0)
    return counts


@dataclass(frozen=True)
class Plane:
    r"""One rung's distance to the :math:`\theta^f` law over a grid of :math:`(d, \beta)`: sizes
    ``d`` (rows) and inverse temperatures ``beta`` (columns), increasing; ``trials`` per size; the
    pooled distance ``ks`` (sizes, betas) and its bootstrap replicates ``boot`` (sizes, betas,
    resamples: the same resample of trials at every beta of a size)."""

    model: str
    d: np.ndarray
    beta: np.ndarray
    trials: np.ndarray
    ks: np.ndarray
    boot: np.ndarray

    @property
    def se(self) -> np.ndarray:
        """Bootstrap standard error of every cell (NaN without resamples)."""
        if self.boot.shape[-1] < 2:
            return np.full(self.ks.shape, np.nan)
        return self.boot.std(axis=-1, ddof=1)

    def row(self, d: int) -> int:
        """Index of size ``d``."""
        return int(np.flatnonzero(self.d == d)[0])

    def column(self, beta: float) -> int:
        """Index of inverse temperature ``beta``."""
        return int(np.flatnonzero(np.isclose(self.beta, beta))[0])


def distance_plane(
    ladders: Sequence[LadderResult], model: str = REFERENCE, resamples: int = 0, seed: int = 0
) -> Plane:
    """The distance plane of ``model`` from one ladder per :math:`(d, \\beta)` (a full grid)."""
    by_cell = {(L.config.d, L.config.beta): L for L in ladders}
    d = np.array(sorted({c[0] for c in by_cell}))
    beta = np.array(sorted({c[1] for c in by_cell}))
    trials = np.array([by_cell[dv, beta[0]].config.trials for dv in d])
    ks = np.empty((d.size, beta.size))
    boot = np.empty((d.size, beta.size, resamples))
    for i, dv in enumerate(d):
        counts = np.vstack([np.ones(trials[i]), bootstrap_counts(trials[i], resamples, seed, dv)])
        for j, b in enumerate(beta):
            L = by_cell[dv, b]
            law = limit_law("f", L.config.d, L.config.beta, L.config.c_poly)
            parts = trial_bulks(L, model)
            gaps = resampled_distances(
                parts, law.cdf, law.ppf, L.config.d, L.config.remove_top_k, counts
            )
            ks[i, j], boot[i, j] = gaps[0], gaps[1:]
    return Plane(model, d, beta, trials, ks, boot)


def crossings(beta: Sequence[float], ks: np.ndarray, level: float, log: bool = True) -> np.ndarray:
    r""":func:`~attnspec.experiments.convergence.crossing` along the last axis of ``ks``
    (interpolating :math:`\log D` in :math:`\beta`; ``log=False`` interpolates :math:`D`)."""
    flat = np.asarray(ks, dtype=float).reshape(-1, np.shape(ks)[-1])
    if not log:  # crossing interpolates the log of its values: exp makes it linear in D
        flat, level = np.exp(flat), math.exp(level)
    out = np.array([crossing(beta, row, level) for row in flat])
    return out.reshape(np.shape(ks)[:-1])


def exponent(d: Sequence[int], beta_level: np.ndarray) -> float:
    r"""Slope :math:`\gamma` of :math:`\beta_\varepsilon^2` against :math:`\log d` (NaN with
    fewer than two finite crossings)."""
    b = np.asarray(beta_level, dtype=float)
    ok = np.isfinite(b)
    if ok.sum() < 2:
        return math.nan
    return slope_fit(np.log(np.asarray(d, dtype=float)[ok]), b[ok] ** 2).slope


@dataclass(frozen=True)
class Boundary:
    r"""Where the distance crosses ``level`` at each size, and the exponent :math:`\gamma`.

    ``beta_se`` and ``gamma_se`` are bootstrap standard errors; ``beta_interp`` and
    ``gamma_interp`` the interpolation's errors, :math:`|x_{\rm lin} - x_{\log}|` between
    interpolating :math:`D` and :math:`\log D` linearly in :math:`\beta`; ``found`` is the fraction
    of replicates whose crossing lies inside the grid at every size (the others are left out).
    """

    level: float
    d: np.ndarray
    beta: np.ndarray
    beta_se: np.ndarray
    gamma: float
    gamma_se: float
    found: float
    beta_interp: np.ndarray
    gamma_interp: float

    @property
    def beta_err(self) -> np.ndarray:
        r"""Error of :math:`\beta_\varepsilon`: bootstrap and interpolation in quadrature."""
        return np.hypot(self.beta_se, self.beta_interp)

    @property
    def gamma_err(self) -> float:
        r"""Error of :math:`\gamma`: bootstrap and interpolation in quadrature."""
        return math.hypot(self.gamma_se, self.gamma_interp)


def _std(values: np.ndarray, axis=None) -> np.ndarray | float:
    return np.nanstd(values, axis=axis, ddof=1) if np.size(values) > 1 else math.nan


def boundary(plane: Plane, level: float) -> Boundary:
    r"""The crossings :math:`\beta_\varepsilon(d)` of ``level`` and their exponent, with the
    bootstrap."""
    beta = crossings(plane.beta, plane.ks, level)
    linear = crossings(plane.beta, plane.ks, level, log=False)
    reps = crossings(plane.beta, np.moveaxis(plane.boot, -1, 0), level)  # (resamples, sizes)
    inside = np.all(np.isfinite(reps), axis=1)
    gammas = np.array([exponent(plane.d, r) for r in reps[inside]])
    gamma = exponent(plane.d, beta)
    return Boundary(
        level,
        plane.d,
        beta,
        _std(reps[inside], axis=0) if inside.sum() > 1 else np.full(beta.shape, math.nan),
        gamma,
        float(_std(gammas)) if gammas.size > 1 else math.nan,
        float(inside.mean()) if inside.size else math.nan,
        np.abs(linear - beta),
        abs(exponent(plane.d, linear) - gamma),
    )


@dataclass(frozen=True)
class BoundaryFit:
    r"""A two-parameter model of :math:`\beta_\varepsilon^2(d)` fitted by least squares.

    ``params`` are :math:`(\gamma, b)` of the line or :math:`(a, b)` of the counter-model;
    ``rms`` is the root mean square residual in :math:`\beta^2`; ``chi2`` the sum of squared
    residuals over the points' errors :math:`2\beta_\varepsilon\,\mathrm{err}(\beta_\varepsilon)`,
    with ``dof`` = points − 2 degrees of freedom; ``p`` its upper tail probability.
    """

    params: tuple[float, float]
    rms: float
    chi2: float
    dof: int

    @property
    def p(self) -> float:
        r"""Probability of a larger :math:`\chi^2` if the model is right (NaN without dof)."""
        return float(stats.chi2.sf(self.chi2, self.dof)) if self.dof > 0 else math.nan


def fit_boundary(b: Boundary, counter: bool = False) -> BoundaryFit:
    r"""The line :math:`\beta^2 = \gamma\log d + b` or (``counter``) the counter-model
    :math:`\beta^2 = \log d + a\sqrt{\log d} + b`, fitted to the crossings inside the grid."""
    ok = np.isfinite(b.beta)
    if ok.sum() < 2:
        return BoundaryFit((math.nan, math.nan), math.nan, math.nan, 0)
    logd = np.log(b.d[ok].astype(float))
    y, err = b.beta[ok] ** 2, 2 * b.beta[ok] * b.beta_err[ok]
    basis = np.sqrt(logd) if counter else logd
    target = y - logd if counter else y
    design = np.column_stack([basis, np.ones_like(basis)])
    params = np.linalg.lstsq(design, target, rcond=None)[0]
    r = target - design @ params
    return BoundaryFit(
        (float(params[0]), float(params[1])),
        float(np.sqrt(np.mean(r**2))),
        float(np.sum((r / err) ** 2)),
        int(ok.sum()) - 2,
    )


@dataclass(frozen=True)
class Rates:
    r"""The rate :math:`\rho(\beta)` of :math:`D \propto d^{-\rho}` at each :math:`\beta`, with
    its bootstrap standard error, and the least-squares slope of :math:`\rho` against
    :math:`\beta` with its own."""

    beta: np.ndarray
    rate: np.ndarray
    se: np.ndarray
    slope: float
    slope_se: float


def _rates(d: np.ndarray, ks: np.ndarray) -> np.ndarray:
    """Minus the least-squares slope of log ks against log d, for every column of ``ks``."""
    log_d = np.log(d.astype(float))
    return -np.array([slope_fit(log_d, column).slope for column in np.log(ks).T])


def rates_in_d(plane: Plane) -> Rates:
    r""":math:`\rho(\beta)` over the plane's sizes at every :math:`\beta` (needs two sizes)."""
    rate = _rates(plane.d, plane.ks)
    reps = np.array([_rates(plane.d, plane.boot[:, :, b]) for b in range(plane.boot.shape[-1])])
    slope = slope_fit(plane.beta, rate).slope
    slopes = np.array([slope_fit(plane.beta, r).slope for r in reps])
    return Rates(
        plane.beta,
        rate,
        _std(reps, axis=0) if reps.size else rate * np.nan,
        slope,
        float(_std(slopes)) if slopes.size > 1 else math.nan,
    )


def collapse_spread(log_ks: np.ndarray, use: np.ndarray, x: np.ndarray) -> float:
    r"""Root mean square of :math:`\log D_{ij} - \mathrm{interp}_k(x_{ij})` over every cell
    :math:`(i, j)` in ``use`` and every other size :math:`k` whose used :math:`x` range holds
    :math:`x_{ij}` (NaN without such a pair)."""
    sq, n = 0.0, 0
    for i in range(len(log_ks)):
        xi, yi = x[i][use[i]], log_ks[i][use[i]]
        for k in range(len(log_ks)):
            xk, yk = x[k][use[k]], log_ks[k][use[k]]
            if k == i or xk.size < 2:
                continue
            inside = (xi >= xk[0]) & (xi <= xk[-1])
            r = yi[inside] - np.interp(xi[inside], xk, yk)
            sq, n = sq + float(r @ r), n + r.size
    return math.sqrt(sq / n) if n else math.nan


@dataclass(frozen=True)
class Collapse:
    r"""The collapse of :math:`\log D` onto one curve of :math:`x = \beta^2 - c\log d`: the
    minimizing :math:`\hat c` and its bootstrap standard error ``c_se``; the residual ``spread``
    at :math:`\hat c` (root mean square, in :math:`\log D`), ``spread_one`` at :math:`c = 1` (the
    variable :math:`\beta^2 - \log d` of the curve :math:`e^{\beta^2} = d`) and ``spread_ratio``
    of the variable :math:`\beta^2/\log d` instead; ``noise``, the spread sampling noise alone
    gives (:math:`\sqrt 2` times the root mean square of the cells' relative standard errors: a
    residual is a difference of two noisy values); ``cells``, the cells used."""

    c: float
    c_se: float
    spread: float
    spread_one: float
    spread_ratio: float
    noise: float
    cells: int


def collapse(plane: Plane, use: np.ndarray, bounds: tuple[float, float] = (0.0, 2.0)) -> Collapse:
    r"""The best :math:`c` for the collapse over the cells ``use`` (a boolean array like
    ``plane.ks``), by bounded minimization of :func:`collapse_spread`, for the data and every
    bootstrap replicate."""
    logd = np.log(plane.d.astype(float))[:, None]
    b2 = plane.beta[None, :] ** 2

    def best(log_ks: np.ndarray) -> float:
        found = optimize.minimize_scalar(
            lambda c: collapse_spread(log_ks, use, b2 - c * logd),
            bounds=bounds,
            method="bounded",
            options={"xatol": 1e-4},
        )
        return float(found.x)

    log_ks = np.log(plane.ks)
    c = best(log_ks)
    reps = np.array([best(np.log(plane.boot[:, :, b])) for b in range(plane.boot.shape[-1])])
    rel = (plane.se / plane.ks)[use]
    return Collapse(
        c,
        float(_std(reps)) if reps.size > 1 else math.nan,
        collapse_spread(log_ks, use, b2 - c * logd),
        collapse_spread(log_ks, use, b2 - logd),
        collapse_spread(log_ks, use, b2 / logd),
        float(math.sqrt(2.0 * np.mean(rel**2))) if rel.size else math.nan,
        int(use.sum()),
    )


def collapse_error(col: Collapse, gammas: Sequence[float]) -> float:
    r"""Error of :math:`\hat c` that includes the collapse's misfit: its bootstrap error and the
    spread (standard deviation) of the exponents :math:`\gamma_\varepsilon` over levels, which a
    single exponent summarizes, in quadrature."""
    g = np.asarray(gammas, dtype=float)
    g = g[np.isfinite(g)]
    return math.hypot(col.c_se, float(g.std(ddof=1))) if g.size > 1 else math.nan


def row_distances(ladders: Sequence[LadderResult], models: Sequence[str]) -> dict:
    """Each rung's pooled distance (with its jackknife error) at every ladder of a row, by rung,
    in the order of ``ladders``."""
    return {m: [pooled_distance(L, m) for L in ladders] for m in models}
