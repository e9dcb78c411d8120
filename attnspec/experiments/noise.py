r"""The noise floor of a bulk comparison: the reference rung against independent repetitions of
itself.

Two bulks of the same law, drawn independently, still differ: their distance is the floor below
which a measured distance says nothing. Repetition r (r = 1, 2, ...) draws the reference rung
:math:`\sqrt d A_\perp` from the trials of ``SeedSequence(seed + r)``, independent of the trials of
``seed``, with the same size, temperature, number of trials and top-value removal. Only the
reference rung is computed, not the whole ladder.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core import cache, validate
from ..core.config import Config
from ..models.attention import draw_scores, row_softmax
from ..numerics.spectra import METRICS, bulk, distance, squared_singular_values
from .trials import trial_rng


def reference_s2(d: int, beta: float, seed: int, k: int) -> np.ndarray:
    r"""Squared singular values (descending) of :math:`\sqrt d A_\perp` for trial k of ``seed``,
    cached."""

    def compute():
        M = row_softmax(float(beta) * draw_scores(int(d), trial_rng(int(seed), int(k))))
        M *= np.sqrt(d)
        M -= 1.0 / np.sqrt(d)
        return {"s2": squared_singular_values(M)}

    params = {"d": int(d), "beta": float(beta), "seed": int(seed), "k": int(k)}
    return cache.cached("reference_s2", params, compute, expected={"s2": (int(d),)})["s2"]


def reference_bulk(config: Config, seed: int) -> np.ndarray:
    """Bulk of the reference rung over ``config.trials`` trials of ``seed``, top values removed
    per trial."""
    return np.concatenate(
        [
            bulk(reference_s2(config.d, config.beta, seed, k), config.remove_top_k)
            for k in range(config.trials)
        ]
    )


@dataclass(frozen=True)
class NoiseFloor:
    """Distances of the reference's bulk to ``repetitions`` independent repetitions, per metric."""

    repetitions: int
    values: dict[str, np.ndarray]  # metric -> one distance per repetition
    first_repetition: np.ndarray  # bulk of repetition 1, for plots

    def mean(self, metric: str) -> float:
        return float(self.values[metric].mean())

    def max(self, metric: str) -> float:
        return float(self.values[metric].max())


def noise_floor(config: Config, reference: np.ndarray, repetitions: int = 3) -> NoiseFloor:
    """Distances between ``reference`` (the bulk at ``config.seed``) and repetitions at seeds
    seed + 1 ... seed + R."""
    repetitions = validate.integer("repetitions", repetitions, 1)
    reps = [reference_bulk(config, (config.seed + r) % 2**32) for r in range(1, repetitions + 1)]
    grid = {"bins": config.hist_bins, "value_range": config.hist_range}
    values = {m: np.array([distance(m, reference, rep, **grid) for rep in reps]) for m in METRICS}
    return NoiseFloor(repetitions, values, reps[0])


def resolved_order(
    distances: dict[str, float], closer: list[str], farther: list[str], floor: float
):
    """Whether every rung of ``closer`` is nearer the reference than every rung of ``farther``.

    True when each difference ``distances[far] - distances[near]`` exceeds ``floor`` (the largest
    distance between the reference and its independent repetitions, the scale of the sampling noise
    in one distance), False when some difference is below ``-floor`` (the opposite order, resolved),
    None when the samples cannot tell (some difference lies within the floor).
    """
    gaps = [distances[far] - distances[near] for near in closer for far in farther]
    if all(g > floor for g in gaps):
        return True
    if any(g < -floor for g in gaps):
        return False
    return None


def ks_noise(values: int, d: int, removed: int) -> float:
    r"""The 95 % Kolmogorov level :math:`1.36/\sqrt N` of as many independent values as the bulk
    counts (:math:`N` = values :math:`\cdot d/(d - r)`)."""
    return 1.36 / math.sqrt(values * d / (d - removed))
