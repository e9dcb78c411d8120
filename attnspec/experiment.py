r"""Trials of the seven-model ladder, streamed model by model, cached on disk, then aggregated.

Trial k draws its weights from child k of ``SeedSequence(seed)`` (``spawn_key=(k,)``), so it is the
same whatever the number of trials. Per trial only S, W, one model matrix and one Gram matrix are
alive at once; each rung is reduced to its squared singular values before the next is built.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from tqdm import tqdm

from . import cache
from .attention import draw_scores, row_normalizers
from .config import Config
from .ladder import LADDER, MODEL_NAMES, REFERENCE, TrialInputs
from .nonlinearity import poly_degree, theta_f, theta_q, theta_q_monte_carlo
from .spectra import bulk, ks_distance, l1_distance, squared_singular_values_of_gram, wasserstein1

TOP_N = 5


def trial_rng(seed: int, k: int) -> np.random.Generator:
    """Generator of trial k: child k of ``SeedSequence(seed)``, independent of the number of trials."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(k,)))


def compute_trial(d: int, beta: float, c_poly: float, seed: int, k: int) -> dict[str, np.ndarray]:
    """Squared singular values (descending) of every rung, and D_i, for trial k."""
    rng = trial_rng(seed, k)
    S = draw_scores(d, rng)
    W = rng.standard_normal((d, d))
    n = poly_degree(d, c_poly)
    x = TrialInputs(S, W, beta, n, theta_f(beta), theta_q(beta, n))
    out = {"D": x.D}
    G, previous = None, None
    for model in LADDER.values():
        if model.parent is not None and model.parent == previous:
            G = model.gram_from_parent(G, x)
        else:
            del G
            M = model.build(x)
            G = M @ M.T
            del M
        out[model.name] = squared_singular_values_of_gram(G)
        previous = model.name
    return out


def normalizers(d: int, beta: float, seed: int, trials: int) -> np.ndarray:
    r"""D_i of trials 0..trials-1 pooled, without the ladder: the same S as :func:`compute_trial`'s."""
    return np.concatenate([row_normalizers(beta * draw_scores(d, trial_rng(seed, k)), beta)[1]
                           for k in range(trials)])


def trial_shapes(d: int) -> dict[str, tuple[int]]:
    """Arrays of a stored trial and their shapes: D and every rung's d squared singular values."""
    return {name: (d,) for name in ("D", *MODEL_NAMES)}


def trial(d: int, beta: float, c_poly: float, seed: int, k: int) -> dict[str, np.ndarray]:
    """Trial k from the disk cache, computed and stored if missing, damaged or not valid."""
    params = {"d": d, "beta": float(beta), "c": float(c_poly), "seed": seed, "k": k}
    return cache.cached("trial", params, lambda: compute_trial(d, beta, c_poly, seed, k),
                        expected=trial_shapes(d))


@dataclass
class LadderResult:
    """All trials of one configuration, with the aggregates the chapters and the CLI report."""

    config: Config
    trials: list[dict[str, np.ndarray]]

    def s2(self, name: str) -> np.ndarray:
        """Squared singular values of rung ``name``: array (trials, d), rows descending."""
        return np.vstack([t[name] for t in self.trials])

    def bulk(self, name: str) -> np.ndarray:
        """Bulk of rung ``name`` (top ``remove_top_k`` removed per trial), pooled over trials."""
        return np.concatenate([bulk(t[name], self.config.remove_top_k) for t in self.trials])

    def top_sq(self, name: str, n: int = TOP_N) -> np.ndarray:
        """The n largest squared singular values of rung ``name``, averaged over trials."""
        return self.s2(name)[:, :n].mean(axis=0)

    @property
    def s1_A(self) -> np.ndarray:
        r"""Per trial :math:`s_1(A) = s_1(\sqrt d A)/\sqrt d`."""
        return np.sqrt(self.s2("sqrt_d_A")[:, 0] / self.config.d)

    @property
    def D(self) -> np.ndarray:
        """All normalizer diagnostics D_i, pooled over trials."""
        return np.concatenate([t["D"] for t in self.trials])

    @property
    def poly_degree(self) -> int:
        return poly_degree(self.config.d, self.config.c_poly)

    @property
    def theta_f(self) -> tuple[float, float]:
        return theta_f(self.config.beta)

    @property
    def theta_q(self) -> tuple[float, float]:
        return theta_q(self.config.beta, self.poly_degree)

    @cached_property
    def theta_q_mc(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """Monte-Carlo (estimate, standard error) of theta^Q, drawn from ``default_rng(seed)``."""
        rng = np.random.default_rng(self.config.seed)
        return theta_q_monte_carlo(self.config.beta, self.poly_degree, self.config.mc_samples, rng)

    def distances(self, metric: str, reference: str = REFERENCE) -> dict[str, float]:
        """Distance of every rung's bulk to the reference's: ``metric`` in {'l1', 'ks', 'w1'}."""
        ref = self.bulk(reference)
        cfg = self.config
        fn = {
            "l1": lambda a: l1_distance(ref, a, cfg.hist_bins, cfg.hist_range),
            "ks": lambda a: ks_distance(ref, a),
            "w1": lambda a: wasserstein1(ref, a),
        }[metric]
        return {name: fn(self.bulk(name)) for name in MODEL_NAMES}

    def summary(self) -> dict:
        """The JSON summary written by ``attnspec ladder --json``."""
        cfg = self.config
        (mc, se) = self.theta_q_mc
        D = self.D
        return {
            "d": cfg.d, "beta": cfg.beta, "trials": cfg.trials, "seed": cfg.seed,
            "remove_top_k": cfg.remove_top_k, "c_poly": cfg.c_poly,
            "poly_degree": self.poly_degree,
            "theta_f": list(self.theta_f), "theta_q": list(self.theta_q),
            "theta_q_mc": list(mc), "theta_q_mc_se": list(se),
            "s1_A_mean": float(self.s1_A.mean()),
            "D_mean": float(D.mean()), "D_std": float(D.std()),
            "D_max_dev": float(np.max(np.abs(D - 1.0))),
            "l1_reference": REFERENCE,
            "l1": self.distances("l1"),
            "top_sq": {name: self.top_sq(name).tolist() for name in MODEL_NAMES},
        }


def run_ladder(config: Config | None = None, *, progress: bool = False, **params) -> LadderResult:
    """Run (or read from the cache) every trial of ``config`` (or of ``Config(**params)``)."""
    cfg = config if config is not None else Config(**params)
    ks = tqdm(range(cfg.trials), desc=f"trials d={cfg.d} beta={cfg.beta:g}", file=sys.stderr,
              disable=not progress, delay=1.0, leave=False)
    return LadderResult(cfg, [trial(cfg.d, cfg.beta, cfg.c_poly, cfg.seed, k) for k in ks])
