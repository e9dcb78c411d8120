r"""Attention against the Hermite-block models :math:`Y_k` and their limit laws, along
:math:`d_{qk} = d^\alpha` at sizes where :math:`d^\alpha` is an integer (no rounding).

A trial draws :math:`W_Q, W_K` and W from child t of ``SeedSequence(seed)``, the draws of
:func:`~attnspec.experiments.head_dimension.head_trial` (so :math:`Y_1` there is ``lin`` here),
and keeps the squared singular values of :math:`\sqrt d A_\perp` and of :math:`Y_1, \dots, Y_K`
(:mod:`attnspec.models.hermite_blocks`). At each size the distances are Kolmogorov distances of a
pooled bulk to a law (:func:`~attnspec.numerics.spectra.ks_to_law_below_quantile`), with the
jackknife over trials; the noise floor of the law check is the two-sample distance between
:math:`Y_k` at ``seed`` and at ``seed + 1``. Everything here is this book's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core import cache
from ..core.parallel import map_processes
from ..laws.hermite_blocks import HermiteBlockLaw
from ..models.attention import row_softmax
from ..models.head_dimension import draw_head_scores
from ..models.hermite_blocks import block_powers, block_ratios, hermite_model, noise_power
from ..numerics.fitting import RateFit, jackknife_se, leave_one_out, rate_fit
from ..numerics.spectra import bulk, ks_to_law_below_quantile
from .head_dimension import TwoSample, gram_spectrum, two_sample
from .trials import trial_rng


def compute_block_trial(
    d: int, d_qk: int, beta: float, k_max: int, seed: int, t: int, ref: bool
) -> dict[str, np.ndarray]:
    """Squared singular values (descending) of ``ref`` (if asked) and ``Y1``..``Y{k_max}``."""
    rng = trial_rng(seed, t)
    _, _, S = draw_head_scores(d, d_qk, rng)
    W = rng.standard_normal((d, d))
    out = {f"Y{k}": gram_spectrum(hermite_model(S, W, beta, k)) for k in range(1, k_max + 1)}
    if ref:
        M = row_softmax(beta * S)
        M *= math.sqrt(d)
        M -= 1.0 / math.sqrt(d)
        out["ref"] = gram_spectrum(M)
    return out


def block_trial(d, d_qk, beta, k_max, seed, t, ref=True) -> dict[str, np.ndarray]:
    """Trial t from the disk cache, computed and stored if missing."""
    params = {"d": int(d), "q": int(d_qk), "b": float(beta), "k": int(k_max)}
    params |= {"seed": int(seed), "t": int(t), "ref": bool(ref)}
    names = [f"Y{k}" for k in range(1, k_max + 1)] + (["ref"] if ref else [])
    return cache.cached(
        "block_trial",
        params,
        lambda: compute_block_trial(d, d_qk, beta, k_max, seed, t, ref),
        expected={n: (int(d),) for n in names},
    )


def block_law(d: int, d_qk: int, beta: float, k: int) -> HermiteBlockLaw:
    r"""The limit law of :math:`Y_k` at the ratios :math:`c_j = r_j/d` of this size."""
    return HermiteBlockLaw(block_powers(beta, k), block_ratios(d, d_qk, k), noise_power(beta, k))


def _law_distances(d, d_qk, beta, k, k_max, seed, trials, removed) -> dict:
    """At one size and k: attention's and Y_k's distances to the law of Y_k (with attention's
    leave-one-out values, for the rate's jackknife), Y_k's two-sample distance to its copy at
    ``seed + 1`` (the floor) and attention's to Y_k (both sampled)."""
    law = block_law(d, d_qk, beta, k)
    runs = [block_trial(d, d_qk, beta, k_max, seed, t) for t in range(trials)]
    out = {}
    for name in ("ref", f"Y{k}"):
        parts = [bulk(r[name], removed) for r in runs]

        def ks(values, law=law):
            return ks_to_law_below_quantile(values, law.cdf, law.ppf, d, removed)

        loo = [round(ks(p), 12) for p in leave_one_out(parts)]
        out[name] = (ks(np.concatenate(parts)), round(jackknife_se(loo), 12), loo)
    copies = [block_trial(d, d_qk, beta, k_max, seed + 1, t, False)[f"Y{k}"] for t in range(trials)]
    mine = [bulk(r[f"Y{k}"], removed) for r in runs]
    out["floor"] = two_sample(mine, [bulk(c, removed) for c in copies])
    out["sampled"] = two_sample([bulk(r["ref"], removed) for r in runs], mine)
    return out


@dataclass
class BlockPoint:
    r"""One size of a series :math:`d_{qk} = d^\alpha`: for each k, attention's distance to the
    law of :math:`Y_k` (``to_law[k]``), :math:`Y_k`'s own distance to it (``check[k]``) and its
    two-sample noise floor (``floor[k]``), attention's two-sample distance to sampled
    :math:`Y_k` (``sampled[k]``), each a :class:`~.head_dimension.TwoSample`; ``loo[k]`` attention's
    leave-one-out distances to the law (for the rate's jackknife)."""

    d: int
    d_qk: int
    trials: int
    ratios: list[float]
    to_law: dict[int, TwoSample]
    check: dict[int, TwoSample]
    floor: dict[int, TwoSample]
    sampled: dict[int, TwoSample]
    loo: dict[int, list[float]]

    def best(self) -> int:
        """The k whose law is nearest to attention."""
        return min(self.to_law, key=lambda k: self.to_law[k].ks)


@dataclass
class BlockSeries:
    r"""The sizes of one exponent :math:`\alpha`, the rate of attention's distance to the law
    of each :math:`Y_k` (``rates[k]``), and that of the best k at the largest size."""

    alpha: float
    points: list[BlockPoint]
    rates: dict[int, RateFit]

    @property
    def best(self) -> int:
        """The k nearest to attention at the largest size."""
        return self.points[-1].best()


def block_trials(d: int, min_trials: int, pooled_values: int) -> int:
    r"""Trials at size d: :math:`\lceil\text{pooled}/d\rceil`, at least ``min_trials``."""
    return max(int(min_trials), math.ceil(pooled_values / d))


def _job(d, d_qk, beta, k_max, seed, t, ref):
    block_trial(d, d_qk, beta, k_max, seed, t, ref)


def _law_job(d, d_qk, beta, k, k_max, seed, trials, removed):
    return _law_distances(d, d_qk, beta, k, k_max, seed, trials, removed)


def run_block_series(
    heads: Sequence[int],
    exponent: float,
    beta: float,
    k_max: int,
    seed: int,
    pooled_values: int,
    min_trials: int,
    remove_top_k: int,
) -> BlockSeries:
    r"""The series at :math:`d = d_{qk}^{1/\alpha}` for each head dimension in ``heads`` (each
    such d an integer): trials on both cores (cached), laws, distances and rates."""
    sizes = sorted((round(q ** (1.0 / exponent)), int(q)) for q in heads)
    jobs = []
    for d, q in sizes:
        n = block_trials(d, min_trials, pooled_values)
        jobs += [(d, q, beta, k_max, seed, t, True) for t in range(n)]
        jobs += [(d, q, beta, k_max, seed + 1, t, False) for t in range(n)]
    jobs.sort(key=lambda j: -j[0])
    map_processes(_job, jobs)
    law_jobs = [
        (d, q, beta, k, k_max, seed, block_trials(d, min_trials, pooled_values), remove_top_k)
        for d, q in sizes
        for k in range(1, k_max + 1)
    ]
    results = iter(map_processes(_law_job, law_jobs))
    points = []
    for d, q in sizes:
        n = block_trials(d, min_trials, pooled_values)
        point = BlockPoint(d, q, n, block_ratios(d, q, k_max), {}, {}, {}, {}, {})
        for k in range(1, k_max + 1):
            r = next(results)
            point.to_law[k], point.loo[k] = TwoSample(*r["ref"][:2]), r["ref"][2]
            point.check[k] = TwoSample(*r[f"Y{k}"][:2])
            point.floor[k], point.sampled[k] = r["floor"], r["sampled"]
        points.append(point)
    rates = {k: law_rate(points, k) for k in range(1, k_max + 1)}
    return BlockSeries(float(exponent), points, rates)


def law_rate(points: Sequence[BlockPoint], k: int) -> RateFit:
    r"""Fit attention's distance to the law of :math:`Y_k` as :math:`\propto d^{-\rho}`, with the
    residual standard error and the jackknife over trials (trial j left out at every size with
    more than j trials, as :func:`~attnspec.numerics.fitting.rate_fit_jackknife` does)."""
    x = [p.d for p in points]
    y = [p.to_law[k].ks for p in points]
    fit = rate_fit(x, y)
    n_jk = max(p.trials for p in points)
    rates = [
        rate_fit(x, [p.loo[k][j] if p.trials > max(j, 1) else p.to_law[k].ks for p in points]).rate
        for j in range(n_jk)
    ]
    return RateFit(fit.rate, fit.intercept, fit.se, jackknife_se(rates), fit.n_points)
