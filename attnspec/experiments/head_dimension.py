r"""Gaussian equivalence at a head dimension :math:`d_{qk} \ne d`: trials, two-sample gaps, rates.

A trial draws :math:`W_Q, W_K \in \mathbb R^{d \times d_{qk}}` and :math:`W \in \mathbb R^{d
\times d}` from child t of ``SeedSequence(seed)`` (at :math:`d_{qk} = d` the same matrices as the
ladder's trial t) and keeps the squared singular values of the models it is asked for
(:data:`MODELS`), plus the normalizers :math:`D_i` with the reference. The *gap* is the two-sample
Kolmogorov distance between the pooled bulks of the reference and of the linear model; its *noise
floor* the same distance between the linear model's bulks at ``seed`` and at ``seed + 1``. Standard
errors are jackknife over trials. Everything here is this book's.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..core import cache
from ..core.parallel import map_processes
from ..laws.head_dimension import HeadDimensionLaw, band_threshold
from ..models.attention import row_normalizers, row_softmax
from ..models.head_dimension import (
    draw_head_scores,
    key_gram,
    linear_covariance,
    participation_ratio,
    row_covariance,
    theta_exact_law,
)
from ..models.ladder import gaussian_equivalent
from ..models.nonlinearity import f, theta_f
from ..numerics.fitting import RateFit, jackknife_se, leave_one_out, rate_fit_jackknife
from ..numerics.spectra import (
    bulk,
    ks_distance,
    ks_to_law_below_quantile,
    squared_singular_values_of_gram,
)
from .convergence import trials_for_pooled
from .trials import trial_rng

#: The models a trial can hold, in the order of the chain from attention to its linear model:
#: ``ref`` :math:`\sqrt d A_\perp`; ``no_norm`` :math:`f(S) P_\perp/\sqrt d = D \sqrt d A_\perp`
#: (normalizers replaced by :math:`d e^{\beta^2/2}`); ``rows_f`` and ``rows_G`` Gaussian rows
#: :math:`W\Sigma^{1/2}/\sqrt d` with the exact row covariance :math:`\Sigma_f` of :math:`f(S)`,
#: ``rows_h`` with :math:`\Sigma_h = e^{\beta^2\Sigma_K} - 1` (the key-norm factor of
#: :math:`\Sigma_f` dropped), ``rows_G`` with that of the linear model, :math:`\Sigma_G` (the same
#: W); ``lin`` the linear model at the Gaussian :math:`\theta`; ``lin_exact`` at the
#: :math:`\theta` of the scores' exact law.
MODELS = ("ref", "no_norm", "rows_f", "rows_h", "rows_G", "lin", "lin_exact")
#: Pairs of models compared besides the consecutive ones: the whole covariance step.
EXTRA_PAIRS = (("rows_f", "rows_G"),)
#: The reference and its linear model, what the gap needs.
PAIR = ("ref", "lin")


def gram_spectrum(M: np.ndarray) -> np.ndarray:
    """Squared singular values of ``M`` (descending), from its Gram :math:`MM^T`."""
    return squared_singular_values_of_gram(M @ M.T)


def compute_head_trial(
    d: int, d_qk: int, beta: float, seed: int, t: int, models: Sequence[str]
) -> dict[str, np.ndarray]:
    """Squared singular values (descending) of each of ``models`` for trial t, and ``D`` with
    ``ref``."""
    rng = trial_rng(seed, t)
    _, Wk, S = draw_head_scores(d, d_qk, rng)
    W = rng.standard_normal((d, d))
    out: dict[str, np.ndarray] = {}
    if "ref" in models:
        out["D"] = row_normalizers(beta * S, beta)[1]
        M = row_softmax(beta * S)
        M *= math.sqrt(d)
        M -= 1.0 / math.sqrt(d)
        out["ref"] = gram_spectrum(M)
    if "no_norm" in models:
        F = f(S, beta)
        F -= F.mean(axis=1, keepdims=True)
        out["no_norm"] = gram_spectrum(F / math.sqrt(d))
    if {"rows_f", "rows_h", "rows_G"} & set(models):
        sigma_k = key_gram(Wk)
        for name, sigma in (
            ("rows_f", lambda: row_covariance(sigma_k, beta)),
            ("rows_h", lambda: row_covariance(sigma_k, beta, key_norms=False)),
            ("rows_G", lambda: linear_covariance(sigma_k, theta_f(beta))),
        ):
            if name in models:
                out[name] = squared_singular_values_of_gram((W @ sigma()) @ W.T / d)
    if "lin" in models:
        out["lin"] = gram_spectrum(gaussian_equivalent(S, W, theta_f(beta)))
    if "lin_exact" in models:
        out["lin_exact"] = gram_spectrum(gaussian_equivalent(S, W, theta_exact_law(beta, d_qk)))
    return out


def _params(d, d_qk, beta, seed, t, models) -> dict:
    chosen = ",".join(m for m in MODELS if m in models)
    return dict(d=int(d), q=int(d_qk), b=float(beta), seed=int(seed), t=int(t), m=chosen)


def _shapes(d: int, models: Sequence[str]) -> dict[str, tuple[int]]:
    names = [m for m in MODELS if m in models] + (["D"] if "ref" in models else [])
    return {name: (int(d),) for name in names}


def head_trial(
    d: int, d_qk: int, beta: float, seed: int, t: int, models: Sequence[str] = PAIR
) -> dict[str, np.ndarray]:
    """Trial t from the disk cache, computed and stored if missing."""
    return cache.cached(
        "head_trial",
        _params(d, d_qk, beta, seed, t, models),
        lambda: compute_head_trial(d, d_qk, beta, seed, t, models),
        expected=_shapes(d, models),
    )


def _cached(d, d_qk, beta, seed, t, models) -> bool:
    path = cache.entry_path("head_trial", _params(d, d_qk, beta, seed, t, models))
    return cache.load(path, _shapes(d, models)) is not None


def _compute_and_store(d, d_qk, beta, seed, t, models) -> None:
    head_trial(d, d_qk, beta, seed, t, models)


def prefetch(jobs: Iterable[tuple]) -> None:
    """Compute the missing trials of ``jobs`` (tuples of :func:`head_trial`'s arguments) on every
    core, largest first, and store them in the cache; the results do not depend on the order."""
    missing = {tuple(j[:5]) + (tuple(j[5]),) for j in jobs if not _cached(*j)}
    missing = sorted(missing, key=lambda j: -j[0])
    map_processes(_compute_and_store, missing)


@dataclass(frozen=True)
class TwoSample:
    """A two-sample Kolmogorov distance between pooled bulks, with its jackknife over trials."""

    ks: float
    se: float


def two_sample(a: Sequence[np.ndarray], b: Sequence[np.ndarray]) -> TwoSample:
    """KS distance between the pooled ``a`` and ``b`` (one bulk per trial); the jackknife leaves
    trial j out of both."""
    ks = ks_distance(np.concatenate(a), np.concatenate(b))
    loo = zip(leave_one_out(a), leave_one_out(b), strict=True)
    # a KS distance is a difference of two ECDF steps: round off the last bits, so that equal
    # leave-one-out distances give a standard error of exactly 0, not of round-off
    se = jackknife_se([round(ks_distance(x, y), 12) for x, y in loo])
    return TwoSample(ks, round(se, 12))


def outside_support(s2: np.ndarray, law: HeadDimensionLaw) -> int:
    """How many of the values ``s2`` lie where ``law`` has no mass (a gap, or above its edge)."""
    inside = np.zeros(s2.shape, dtype=bool)
    for lo, hi in law.intervals:
        inside |= (s2 >= lo) & (s2 <= hi)
    return int(np.sum(~inside))


@dataclass
class GapPoint:
    r"""The gap at one :math:`(d, d_{qk}, \beta)`, its floor, and the other distances asked for.

    ``chain`` holds, when more than :data:`PAIR` is computed, the distance of each consecutive
    pair of the models computed (in :data:`MODELS` order, ``lin_exact`` left out) and of the
    :data:`EXTRA_PAIRS` computed, and ``exact`` that of the reference to ``lin_exact``;
    ``outside`` the count, per trial, of each model's values outside the limit law's support;
    ``D`` the pooled normalizers.
    """

    d: int
    d_qk: int
    beta: float
    trials: int
    gap: TwoSample
    floor: TwoSample
    chain: dict[tuple[str, str], TwoSample] = field(default_factory=dict)
    exact: TwoSample | None = None
    outside: dict[str, np.ndarray] = field(default_factory=dict)
    D: np.ndarray | None = None

    @property
    def ratio(self) -> float:
        return self.d_qk / self.d


def gap_point(
    d: int,
    d_qk: int,
    beta: float,
    seed: int,
    trials: int,
    remove_top_k: int,
    models: Sequence[str] = PAIR,
) -> GapPoint:
    """The gap, its floor and (for ``models`` beyond :data:`PAIR`) the chain and exact-law
    distances."""
    runs = [head_trial(d, d_qk, beta, seed, t, models) for t in range(trials)]
    copies = [head_trial(d, d_qk, beta, seed + 1, t, ("lin",))["lin"] for t in range(trials)]

    def parts(name):
        return [bulk(r[name], remove_top_k) for r in runs]

    point = GapPoint(
        d,
        d_qk,
        beta,
        trials,
        two_sample(parts("ref"), parts("lin")),
        two_sample(parts("lin"), [bulk(c, remove_top_k) for c in copies]),
        D=np.concatenate([r["D"] for r in runs]),
    )
    chain = [m for m in MODELS[:-1] if m in models]
    if set(models) - set(PAIR):
        pairs = [*zip(chain, chain[1:], strict=False)]
        pairs += [(a, b) for a, b in EXTRA_PAIRS if a in chain and b in chain]
        point.chain = {(a, b): two_sample(parts(a), parts(b)) for a, b in pairs}
    if "lin_exact" in models:
        point.exact = two_sample(parts("ref"), parts("lin_exact"))
    if beta > 0:
        law = HeadDimensionLaw(*theta_f(beta), d_qk / d)
        point.outside = {m: np.array([outside_support(r[m], law) for r in runs]) for m in chain}
    return point


def point_jobs(d, d_qk, beta, seed, trials, models=PAIR) -> list[tuple]:
    """The trials :func:`gap_point` reads, for :func:`prefetch`."""
    models = tuple(models)
    return [(d, d_qk, beta, seed, t, models) for t in range(trials)] + [
        (d, d_qk, beta, seed + 1, t, ("lin",)) for t in range(trials)
    ]


def gap_rate(points: Sequence[GapPoint], seed: int, remove_top_k: int) -> RateFit:
    r"""Fit :math:`\text{gap} \propto d^{-\text{rate}}` over ``points`` (one per d), with the
    residual standard error and the jackknife over trials."""
    stacks = []
    for p in points:
        runs = [head_trial(p.d, p.d_qk, p.beta, seed, t) for t in range(p.trials)]
        stacks.append([np.stack([bulk(r[m], remove_top_k) for m in PAIR]) for r in runs])

    def distance(_i: int, pooled: np.ndarray) -> float:
        return ks_distance(pooled[0::2].ravel(), pooled[1::2].ravel())

    return rate_fit_jackknife([p.d for p in points], stacks, distance)


def rate_se(fit: RateFit) -> float:
    """The larger of a rate's residual and jackknife standard errors (NaN if neither exists)."""
    errors = [e for e in (fit.se, fit.se_trials) if math.isfinite(e)]
    return max(errors) if errors else math.nan


def mean_se(counts: np.ndarray) -> tuple[float, float]:
    """Mean and standard error :math:`s/\\sqrt n` over trials (NaN standard error for one)."""
    se = float(counts.std(ddof=1) / math.sqrt(counts.size)) if counts.size > 1 else math.nan
    return float(counts.mean()), se


@dataclass(frozen=True)
class LawCheck:
    """The linear model's pooled bulk against :class:`HeadDimensionLaw` at one ratio and size."""

    d: int
    d_qk: int
    ks: float
    values: int


@dataclass(frozen=True)
class HadamardSquare:
    r""":math:`\Sigma_K^{\circ 2} = \Sigma_K \circ \Sigma_K` over trials at one
    :math:`(d, d_{qk})`: per trial its numerical rank (eigenvalues above :math:`d\,\epsilon`
    times the largest) and its participation ratio
    (:func:`~attnspec.models.head_dimension.participation_ratio`)."""

    d: int
    d_qk: int
    rank: np.ndarray
    participation: np.ndarray


def _hadamard_trial(d: int, d_qk: int, seed: int, t: int) -> tuple[int, float]:
    _, Wk, _ = draw_head_scores(d, d_qk, trial_rng(seed, t))
    H = key_gram(Wk) ** 2
    lam = np.linalg.eigvalsh(H)
    return int(np.sum(lam > lam[-1] * d * np.finfo(float).eps)), participation_ratio(H)


def hadamard_square(d: int, d_qk: int, seed: int, trials: int) -> HadamardSquare:
    r"""The Hadamard square of the key Gram of trials 0..trials-1 (the keys of :func:`head_trial`),
    one trial per core: eigenvalues and traces only, so nothing depends on a basis."""
    out = map_processes(_hadamard_trial, [(d, d_qk, seed, t) for t in range(trials)])
    return HadamardSquare(d, d_qk, np.array([r for r, _ in out]), np.array([pr for _, pr in out]))


@dataclass
class HeadDimStudy:
    r"""Everything the chapter reports: ``maps[beta]``, the gap points over the head dimensions at
    size ``d``, d and the fixed head dimension ``d_qk`` included, largest first (with the chain and
    the exact-law model at the chapter's ``beta``); ``series[key]``, the gap points over the sizes
    at a fixed ratio (``key = ("ratio", c)``) or a fixed head dimension (``("d_qk", k)``), with
    ``rates[key]`` the fitted :math:`\text{gap} \propto d^{-\text{rate}}`; ``law_checks[c]``, the
    linear model against its limit law at the largest size; ``threshold``, the ratio :math:`c^*`
    below which the law's score part is a separate band; ``hadamard``, the Hadamard square of
    the key Gram at ``(d, d_qk)``."""

    d: int
    beta: float
    d_qk: int
    maps: dict[float, list[GapPoint]]
    series: dict[tuple[str, float], list[GapPoint]]
    rates: dict[tuple[str, float], RateFit]
    law_checks: dict[float, LawCheck]
    threshold: float
    hadamard: HadamardSquare

    def point(self, d_qk: int, beta: float | None = None) -> GapPoint:
        """The map's point at head dimension ``d_qk`` (at the chapter's beta by default)."""
        points = self.maps[self.beta if beta is None else beta]
        return next(p for p in points if p.d_qk == d_qk)


def series_sizes(
    d_values: Sequence[int], ratios: Sequence[float], d_qk_fixed: int
) -> dict[tuple[str, float], list[tuple[int, int]]]:
    r"""The :math:`(d, d_{qk})` of each series: :math:`d_{qk} = \operatorname{round}(c d)` at a
    fixed ratio c, :math:`d_{qk}` = ``d_qk_fixed`` at fixed head dimension."""
    sizes = sorted(d_values)
    out = {("ratio", float(c)): [(d, max(1, round(c * d))) for d in sizes] for c in ratios}
    out[("d_qk", float(d_qk_fixed))] = [(d, int(d_qk_fixed)) for d in sizes]
    return out


def run_study(
    d: int,
    d_qk_values: Sequence[int],
    beta: float,
    betas: Sequence[float],
    trials: int,
    d_values: Sequence[int],
    head_ratios: Sequence[float],
    d_qk: int,
    pooled_values: int,
    seed: int,
    remove_top_k: int,
) -> HeadDimStudy:
    """Compute every trial (both cores, cached), then every gap, rate and law check (each
    parameter's meaning and range: the ``parameters`` cell of
    ``notebooks/head-dimension.md``)."""
    heads = sorted({int(k) for k in d_qk_values} | {int(d), int(d_qk)}, reverse=True)
    temps = sorted({float(b) for b in betas} | {float(beta)})
    sizes = series_sizes(d_values, head_ratios, d_qk)
    n = trials_for_pooled(d_values, pooled_values, minimum=2)  # the jackknife needs two
    jobs = [
        job
        for b in temps
        for k in heads
        for job in point_jobs(d, k, b, seed, trials, MODELS if b == beta else PAIR)
    ]
    jobs += [
        job
        for pairs in sizes.values()
        for dv, k in pairs
        for job in point_jobs(dv, k, beta, seed, n[dv])
    ]
    prefetch(jobs)
    maps = {
        b: [
            gap_point(d, k, b, seed, trials, remove_top_k, MODELS if b == beta else PAIR)
            for k in heads
        ]
        for b in temps
    }
    series = {
        key: [gap_point(dv, k, beta, seed, n[dv], remove_top_k) for dv, k in pairs]
        for key, pairs in sizes.items()
    }
    rates = {key: gap_rate(points, seed, remove_top_k) for key, points in series.items()}
    theta = theta_f(beta)
    checks = {}
    for c in head_ratios:
        dv, k = sizes[("ratio", float(c))][-1]
        law = HeadDimensionLaw(*theta, k / dv)
        runs = [head_trial(dv, k, beta, seed, t) for t in range(n[dv])]
        pooled = np.concatenate([bulk(r["lin"], remove_top_k) for r in runs])
        ks = ks_to_law_below_quantile(pooled, law.cdf, law.ppf, dv, remove_top_k)
        checks[float(c)] = LawCheck(dv, k, ks, len(runs) * dv)
    square = hadamard_square(d, int(d_qk), seed, trials)
    return HeadDimStudy(
        d, beta, int(d_qk), maps, series, rates, checks, band_threshold(*theta), square
    )
