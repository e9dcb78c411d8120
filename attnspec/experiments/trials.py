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

from ..core import cache
from ..core.config import Config
from ..core.errors import InvalidInput
from ..models.attention import draw_scores, row_normalizers
from ..models.ladder import LADDER, MODEL_NAMES, REFERENCE, TrialInputs
from ..models.nonlinearity import poly_degree, theta_f, theta_q, theta_q_monte_carlo
from ..numerics.spectra import bulk, distance, squared_singular_values_of_gram

TOP_N = 5


def trial_rng(seed: int, k: int) -> np.random.Generator:
    """Generator of trial k: child k of ``SeedSequence(seed)``, independent of the number of
    trials."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(k,)))


def trial_models(models=None) -> tuple[str, ...]:
    """The rungs a trial computes, in ladder order: all of them by default, or the named subset."""
    if models is None:
        return tuple(MODEL_NAMES)
    unknown = sorted(set(models) - set(MODEL_NAMES))
    if unknown or not models:
        raise InvalidInput(
            f"models={list(models)!r} is out of range: must be a non-empty subset of "
            f"{', '.join(MODEL_NAMES)}"
        )
    return tuple(m for m in MODEL_NAMES if m in models)


def trial_key(d: int, beta: float, c_poly: float, seed: int, k: int, models=None) -> dict:
    """Cache key (parameters) of trial k; a subset of rungs adds ``models`` (the full ladder does
    not)."""
    params = {"d": int(d), "beta": float(beta), "c": float(c_poly), "seed": int(seed), "k": int(k)}
    chosen = trial_models(models)
    if chosen != tuple(MODEL_NAMES):
        params["models"] = ",".join(chosen)
    return params


def trial_arrays(models=None) -> frozenset[str]:
    """Arrays a complete trial holds: ``D`` and one spectrum per rung computed."""
    return frozenset({"D", *trial_models(models)})


def trial_shapes(d: int, models=None) -> dict[str, tuple[int]]:
    """The arrays of a complete trial and their shapes: ``D`` and each rung's d squared singular
    values."""
    return {name: (d,) for name in trial_arrays(models)}


def trial_entry(d: int, beta: float, c_poly: float, seed: int, k: int, models=None):
    """Path of the cache entry :func:`trial` reads and writes."""
    return cache.entry_path("trial", trial_key(d, beta, c_poly, seed, k, models))


def cached_trial(d: int, beta: float, c_poly: float, seed: int, k: int, models=None) -> dict | None:
    """Trial k from the disk cache without computing it, or None if missing, damaged or incomplete.

    A full-ladder entry also serves any subset of rungs (its spectra are the same).
    """
    keys = [trial_key(d, beta, c_poly, seed, k, models)]
    if models is not None and "models" in keys[0]:
        keys.append(trial_key(d, beta, c_poly, seed, k))
    for params in keys:
        stored = cache.load(cache.entry_path("trial", params), trial_shapes(d, models))
        if stored is not None:
            return stored
    return None


def compute_trial(
    d: int, beta: float, c_poly: float, seed: int, k: int, models=None
) -> dict[str, np.ndarray]:
    """Squared singular values (descending) of every rung (or of ``models``), and D_i, for trial k.

    A rung whose Gram matrix follows from its parent's is computed through the parent also when
    only the rung is asked for, so its spectrum is the same as in a full trial.
    """
    chosen = set(trial_models(models))
    needed = set()
    for name in chosen:
        while name is not None:
            needed.add(name)
            name = LADDER[name].parent
    rng = trial_rng(seed, k)
    S = draw_scores(d, rng)
    W = rng.standard_normal((d, d))
    n = poly_degree(d, c_poly)
    x = TrialInputs(S, W, beta, n, theta_f(beta), theta_q(beta, n))
    out = {"D": x.D}
    G, previous = None, None
    for model in LADDER.values():
        if model.name not in needed:
            continue
        if model.parent is not None and model.parent == previous:
            G = model.gram_from_parent(G, x)
        else:
            del G
            M = model.build(x)
            G = M @ M.T
            del M
        if model.name in chosen:
            out[model.name] = squared_singular_values_of_gram(G)
        previous = model.name
    return out


def normalizers(d: int, beta: float, seed: int, trials: int) -> np.ndarray:
    r"""D_i of trials 0..trials-1 pooled, without the ladder: the same S as
    :func:`compute_trial`'s."""
    return np.concatenate(
        [row_normalizers(beta * draw_scores(d, trial_rng(seed, k)), beta)[1] for k in range(trials)]
    )


def trial(
    d: int, beta: float, c_poly: float, seed: int, k: int, models=None
) -> dict[str, np.ndarray]:
    """Trial k (all rungs, or ``models``) from the disk cache, computed and stored if missing or
    damaged."""
    found = cached_trial(d, beta, c_poly, seed, k, models)
    if found is not None:
        return found
    return cache.cached(
        "trial",
        trial_key(d, beta, c_poly, seed, k, models),
        lambda: compute_trial(d, beta, c_poly, seed, k, models),
        expected=trial_shapes(d, models),
    )


@dataclass
class LadderResult:
    """All trials of one configuration, with the aggregates the chapters and the CLI report."""

    config: Config
    trials: list[dict[str, np.ndarray]]

    @property
    def models(self) -> list[str]:
        """The rungs these trials hold, in ladder order."""
        return [m for m in MODEL_NAMES if all(m in t for t in self.trials)]

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
        r"""Per trial :math:`s_1(A) = s_1(\sqrt d A)/\sqrt d` (NaN when the trials do not hold that
        rung)."""
        if "sqrt_d_A" not in self.models:
            return np.full(len(self.trials), np.nan)
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
        r"""Monte-Carlo (estimate, standard error) of :math:`\theta^Q`, drawn from
        ``default_rng(seed)``."""
        rng = np.random.default_rng(self.config.seed)
        return theta_q_monte_carlo(self.config.beta, self.poly_degree, self.config.mc_samples, rng)

    def distances(self, metric: str, reference: str = REFERENCE) -> dict[str, float]:
        """Distance of every rung's bulk to the reference's: ``metric`` a key of
        :data:`attnspec.numerics.spectra.METRICS`."""
        ref = self.bulk(reference)
        cfg = self.config
        return {
            name: distance(
                metric, ref, self.bulk(name), bins=cfg.hist_bins, value_range=cfg.hist_range
            )
            for name in self.models
        }

    def summary(self) -> dict:
        """The JSON summary written by ``attnspec ladder --json``."""
        cfg = self.config
        (mc, se) = self.theta_q_mc
        D = self.D
        return {
            "d": cfg.d,
            "beta": cfg.beta,
            "trials": cfg.trials,
            "seed": cfg.seed,
            "remove_top_k": cfg.remove_top_k,
            "c_poly": cfg.c_poly,
            "poly_degree": self.poly_degree,
            "theta_f": list(self.theta_f),
            "theta_q": list(self.theta_q),
            "theta_q_mc": list(mc),
            "theta_q_mc_se": list(se),
            "s1_A_mean": float(self.s1_A.mean()),
            "D_mean": float(D.mean()),
            "D_std": float(D.std()),
            "D_max_dev": float(np.max(np.abs(D - 1.0))),
            "l1_reference": REFERENCE,
            "l1": self.distances("l1"),
            "top_sq": {name: self.top_sq(name).tolist() for name in MODEL_NAMES},
        }


def run_ladder(config: Config | None = None, *, progress: bool = False, **params) -> LadderResult:
    """Run (or read from the cache) every trial of ``config`` (or of ``Config(**params)``)."""
    cfg = config if config is not None else Config(**params)
    ks = tqdm(
        range(cfg.trials),
        desc=f"trials d={cfg.d} beta={cfg.beta:g}",
        file=sys.stderr,
        disable=not progress,
        delay=1.0,
        leave=False,
    )
    return LadderResult(cfg, [trial(cfg.d, cfg.beta, cfg.c_poly, cfg.seed, k) for k in ks])
