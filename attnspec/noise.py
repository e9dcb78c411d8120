r"""The noise floor of a bulk comparison: the reference rung against independent repetitions of
itself.

Two bulks of the same law, drawn independently, still differ: their distance is the floor below
which a measured distance says nothing. Repetition r (r = 1, 2, ...) draws the reference rung
:math:`\sqrt d A_\perp` from the trials of ``SeedSequence(seed + r)``, independent of the trials of
``seed``, with the same size, temperature, number of trials and top-value removal. Only the
reference rung is computed, not the whole ladder.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import cache
from .attention import draw_scores, row_softmax
from .config import Config
from .errors import InvalidInput
from .experiment import trial_rng
from .spectra import (
    bulk,
    ks_distance,
    l1_distance,
    squared_singular_values,
    wasserstein1,
)

METRICS = ("l1", "ks", "w1")


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


def distance(metric: str, a: np.ndarray, b: np.ndarray, config: Config) -> float:
    """Distance between two bulks: ``metric`` in {'l1', 'ks', 'w1'} (L1 on ``config``'s histogram
    grid)."""
    if metric == "l1":
        return l1_distance(a, b, config.hist_bins, config.hist_range)
    if metric == "ks":
        return ks_distance(a, b)
    if metric == "w1":
        return wasserstein1(a, b)
    raise InvalidInput(f"metric={metric!r} is out of range: must be one of {', '.join(METRICS)}")


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
    if int(repetitions) < 1:
        raise InvalidInput(f"repetitions={repetitions} is out of range: must be an integer >= 1")
    reps = [
        reference_bulk(config, (config.seed + r) % 2**32) for r in range(1, int(repetitions) + 1)
    ]
    values = {m: np.array([distance(m, reference, rep, config) for rep in reps]) for m in METRICS}
    return NoiseFloor(int(repetitions), values, reps[0])
