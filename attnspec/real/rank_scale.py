r"""One rank scale: random initialization, the canonical model and trained heads, by length.

The stable rank :math:`\operatorname{srank} = \|A\|_F^2/\|A\|^2` and the entropy effective rank
:math:`\operatorname{erank}_1 = \exp H(\sigma/\sum_j\sigma_j)` of

- random attention at initialization, :math:`A = \operatorname{softmax}(\beta S)` with
  :math:`S = W_Q W_K^\top/\sqrt d` and :math:`d = \ell = d_{qk}` (Part I's model), bidirectional and
  causal; :math:`\operatorname{srank} \to e^{\beta^2}` for the bidirectional one
  (:func:`attnspec.experiments.stable_rank.stable_rank_limit`, this book's derivation from the
  Gaussian-equivalent bulk);
- the canonical model: :math:`k` spikes at :math:`f = \ell` over a zero bulk, bidirectional and
  causal, and causal attention at :math:`\Sigma = 0`;
- trained heads (:mod:`attnspec.real.study`) and their canonical counterparts,

all against the context length, so that the chapter can draw them on one scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attnspec.canonical import model
from attnspec.canonical.causal import causal_singular_values, prefix_average_singular_values
from attnspec.canonical.two_score import two_score_summary
from attnspec.core import cache, validate
from attnspec.experiments.stable_rank import attention_stable_ranks, causal_softmax
from attnspec.experiments.trials import trial_rng
from attnspec.models.attention import draw_scores, row_softmax
from attnspec.numerics.spectra import erank1
from attnspec.real.models import MODELS

#: Inverse temperature of the random-initialization rows (the book's default).
INIT_BETA = 1.0
#: Spikes of the canonical rows (the canonical chapters' default k).
SCALE_SPIKES = 4


def init_erank1(d: int, beta: float, seed: int, trials: int, causal: bool = False) -> np.ndarray:
    r""":math:`\operatorname{erank}_1(A)` of trials ``0 .. trials-1`` of random attention, cached.

    The same matrices as :func:`attnspec.experiments.stable_rank.attention_stable_ranks`: trial k
    draws the ladder's score matrix of trial k.
    """
    d = validate.integer("d", d, 2)
    trials = validate.integer("trials", trials, 1)

    def one(k: int) -> float:
        params = {"d": d, "beta": float(beta), "seed": int(seed), "k": k, "causal": bool(causal)}

        def compute():
            x = beta * draw_scores(d, trial_rng(seed, k))
            A = causal_softmax(x) if causal else row_softmax(x)
            return {"erank1": np.array([erank1(np.linalg.svd(A, compute_uv=False))])}

        return float(
            cache.cached("erank1_A", params, compute, expected={"erank1": (1,)})["erank1"][0]
        )

    return np.array([one(k) for k in range(trials)])


@dataclass(frozen=True)
class Point:
    """A rank at one length: value and its standard error (0 for an exact value)."""

    value: float
    se: float = 0.0


@dataclass(frozen=True)
class RankScale:
    """Stable and effective ranks against length, by series name (:data:`SERIES`)."""

    lengths: list[int]
    k: int
    srank: dict  # series -> {n: Point}
    erank1: dict
    beta: float
    trials: int

    @property
    def limit(self) -> float:
        r"""The bidirectional random-initialization limit :math:`e^{\beta^2}`."""
        return math.exp(self.beta**2)


def _trials(values: np.ndarray) -> Point:
    return Point(float(values.mean()), float(values.std(ddof=1) / math.sqrt(values.size)))


def rank_scale(lengths, seed: int, trials: int, study=None, k: int = SCALE_SPIKES) -> RankScale:
    r"""Every series of the rank scale at the token counts ``lengths``.

    ``study`` (a :class:`attnspec.real.study.Study`) adds the trained heads' medians and those of
    their canonical counterparts, with crossed bootstrap standard errors.
    """
    ns = sorted({int(n) for n in lengths})
    srank, e1 = {}, {}
    for name, causal in (("random init, bidirectional", False), ("random init, causal", True)):
        srank[name] = {
            n: _trials(attention_stable_ranks(n, INIT_BETA, seed, trials, causal)) for n in ns
        }
        e1[name] = {n: _trials(init_erank1(n, INIT_BETA, seed, trials, causal)) for n in ns}
    srank["canonical $A_b$"], e1["canonical $A_b$"] = {}, {}
    srank["canonical $A_c$"], e1["canonical $A_c$"] = {}, {}
    srank[r"canonical $A_c$, $\Sigma = 0$"], e1[r"canonical $A_c$, $\Sigma = 0$"] = {}, {}
    for n in ns:
        kk = min(k, n - 2)
        spikes = model.spike_bulk_scores(n, kk, f=float(n))
        sb = model.bidirectional_singular_values(spikes)
        srank["canonical $A_b$"][n] = Point(two_score_summary(n, kk, float(n)).srank)
        e1["canonical $A_b$"][n] = Point(erank1(sb))
        sc = causal_singular_values(spikes)
        srank["canonical $A_c$"][n] = Point(float(np.sum(sc**2) / sc[0] ** 2))
        e1["canonical $A_c$"][n] = Point(erank1(sc))
        s0 = prefix_average_singular_values(n)
        srank[r"canonical $A_c$, $\Sigma = 0$"][n] = Point(float(np.sum(s0**2) / s0[0] ** 2))
        e1[r"canonical $A_c$, $\Sigma = 0$"][n] = Point(erank1(s0))
    if study is not None:
        for m in study.lengths:
            for suffix, label in (("", "trained"), ("_c", "canonical of trained")):
                name = f"{label}, {MODELS[m].display}"
                for target, key in ((srank, "srank"), (e1, "erank1")):
                    target[name] = {
                        n: Point(
                            study.spectra[(m, n)].stats[key + suffix].value,
                            study.spectra[(m, n)].stats[key + suffix].se,
                        )
                        for n in study.lengths[m]
                        if n in ns
                    }
    return RankScale(ns, k, srank, e1, INIT_BETA, trials)
