r"""How the bulk of attention depends on the scores' model: i.i.d. scores against the bilinear
:math:`S = W_Q W_K^\top/\sqrt d` of the ladder, each against the :math:`\theta^f` law and
Marchenko–Pastur, with a noise floor from splitting the trials in two halves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import cache
from ..core.config import Config
from ..models.attention import centred_attention, draw_iid_scores
from ..numerics.spectra import ks_to_law_below_quantile, squared_singular_values


def iid_scores_s2(d: int, beta: float, seed: int, k: int) -> np.ndarray:
    r"""Squared singular values (descending) of :math:`\sqrt d\,A_\perp` for i.i.d. scores
    (:func:`~attnspec.models.attention.draw_iid_scores`), trial k of ``seed``, cached.

    Trial k draws from child 0 of trial k's ``SeedSequence`` (``spawn_key=(k, 0)``), a stream
    independent of the ladder's trial k.
    """

    def compute():
        rng = np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=(int(k), 0)))
        return {"s2": squared_singular_values(centred_attention(draw_iid_scores(d, rng), beta))}

    params = {"d": int(d), "beta": float(beta), "seed": int(seed), "k": int(k)}
    return cache.cached("iid_scores_s2", params, compute, expected={"s2": (int(d),)})["s2"]


#: The two score models: i.i.d. entries, and the bilinear :math:`S = W_Q W_K^\top/\sqrt d` of
#: the ladder.
SCORE_MODELS = ("iid", "bilinear")


def split_floor(spectra: np.ndarray, removed: int) -> float:
    r"""Noise floor of a pooled bulk: the Kolmogorov distance between the bulks of the first
    :math:`\lfloor T/2 \rfloor` and the other trials, each counted out of :math:`d` per trial.

    ``spectra`` holds the :math:`T` spectra, shape ``(T, d)``, rows descending. The two halves are
    independent, and each pools half the values, so this distance is about twice the typical
    distance of the whole pool to its expected finite-:math:`d` law: a conservative floor. With
    one trial there is nothing to compare, and the floor is 1, the largest Kolmogorov distance.
    """
    trials, d = spectra.shape
    if trials < 2:
        return 1.0
    half = trials // 2
    a = np.sort(spectra[:half, removed:], axis=None)
    b = np.sort(spectra[half:, removed:], axis=None)
    x = np.concatenate([a, b])
    Fa = np.searchsorted(a, x, side="right") / (half * d)
    Fb = np.searchsorted(b, x, side="right") / ((trials - half) * d)
    return float(np.max(np.abs(Fa - Fb)))


@dataclass(frozen=True)
class ScoreDependence:
    r"""The bulk of :math:`\sqrt d\,A_\perp` for i.i.d. and for bilinear scores against the
    :math:`\theta^f` law (``"pw"``, Pennington–Worah's) and Marchenko–Pastur of mean
    :math:`\theta_1` (``"mp"``).

    Attributes
    ----------
    bulks : dict
        score model (:data:`SCORE_MODELS`) -> pooled bulk.
    ks : dict
        score model -> law key -> Kolmogorov distance (below the law's :math:`(1 - r/d)`
        quantile, counted out of :math:`d`).
    floor : dict
        score model -> its noise floor, :func:`split_floor`.
    """

    bulks: dict
    ks: dict
    floor: dict

    def interval(self, model: str, law: str) -> tuple[float, float]:
        r"""The distance :math:`\pm` the model's noise floor."""
        return self.ks[model][law] - self.floor[model], self.ks[model][law] + self.floor[model]


def score_dependence(config: Config, bilinear: np.ndarray, laws: dict) -> ScoreDependence:
    r"""Both score models' bulks against both laws, with noise floors.

    ``bilinear`` holds the ladder's reference spectra, shape ``(trials, d)`` rows descending;
    the i.i.d.-score spectra are trials ``0..trials-1`` of :func:`iid_scores_s2`. ``laws`` holds
    ``"f"`` and ``"mp"`` (:func:`~attnspec.experiments.limit_law.ladder_laws`). By the triangle
    inequality a distance to a law moves by at most the distance of the bulk to its expected
    finite-:math:`d` law, which the floor (:func:`split_floor`) exceeds in typical size.
    """
    d, r = config.d, config.remove_top_k
    iid = np.vstack([iid_scores_s2(d, config.beta, config.seed, k) for k in range(config.trials)])
    spectra = {"iid": iid, "bilinear": np.asarray(bilinear)}
    bulks = {m: s[:, r:].ravel() for m, s in spectra.items()}
    named = {"pw": laws["f"], "mp": laws["mp"]}
    ks = {
        m: {k: ks_to_law_below_quantile(b, law.cdf, law.ppf, d, r) for k, law in named.items()}
        for m, b in bulks.items()
    }
    floor = {m: split_floor(spectra[m], r) for m in SCORE_MODELS}
    return ScoreDependence(bulks, ks, floor)
