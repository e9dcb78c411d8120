r"""Summaries of the per-head and per-layer records for one model at one length (the chapter's
tables).

Each function takes the :class:`~attnspec.real.measure.HeadRecord` or
:class:`~attnspec.real.measure.LayerRecord` lists of :func:`attnspec.real.measure.measure_text`
and returns a small dataclass:

- :func:`spectrum_summary`: real against canonical singular-value :math:`W_1` and ranks, medians
  with crossed bootstrap intervals over texts and heads (:mod:`attnspec.real.uncertainty`);
- :func:`rotation_summary`: distances of the pooled eigen-angles of :math:`R(S)` to the uniform law
  against a Haar floor of the same ranks;
- :func:`literal_summary`: the literal full-factor reading under several seeded conventions;
- :func:`token_summary`: the paper's :math:`U_X` diagnostic per layer, spread over conventions.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from attnspec.numerics import spectra
from attnspec.real import circular, head_spectra, rotation, uncertainty
from attnspec.real.measure import HeadRecord, LayerRecord
from attnspec.real.models import get_model
from attnspec.real.uncertainty import Interval

#: Haar matrices per size for floors and per-head quantiles.
HAAR_REPS = 400
#: Stream number (first spawn-key entry) of the Haar floors, distinct from the conventions' stream.
HAAR_STREAM = 5
#: Spectral statistics of one head, by name (real and canonical).
SPECTRUM_KEYS = ("w1", "w1_avg", "srank", "srank_c", "erank1", "erank1_c", "erank2", "erank2_c")


def head_spectrum_stats(r: HeadRecord) -> dict[str, float]:
    r"""W₁ to the canonical spectrum and to rank-one averaging, and the ranks of both maps, of
    one head."""
    avg = head_spectra.averaging_singular_values(r.n)
    return {
        "w1": head_spectra.spectrum_w1(r.sv_real, r.sv_canonical),
        "w1_avg": head_spectra.spectrum_w1(r.sv_real, avg),
        "srank": spectra.stable_rank(r.sv_real),
        "srank_c": spectra.stable_rank(r.sv_canonical),
        "erank1": spectra.erank1(r.sv_real),
        "erank1_c": spectra.erank1(r.sv_canonical),
        "erank2": spectra.erank2(r.sv_real),
        "erank2_c": spectra.erank2(r.sv_canonical),
    }


@dataclass(frozen=True)
class SpectrumSummary:
    """Real against canonical spectra of one model at one length.

    ``stats`` maps each name of :data:`SPECTRUM_KEYS` to its median :class:`Interval` over all
    layers; ``w1_last`` and ``w1_first`` are the same for the last and first layer;
    ``layer_w1`` the median W₁ per layer (zero-based); ``closer_to_averaging`` the fraction of
    heads whose spectrum is closer to rank-one averaging than to the canonical spectrum.
    """

    model: str
    n: int
    stats: dict[str, Interval]
    w1_first: Interval
    w1_last: Interval
    layer_w1: np.ndarray
    closer_to_averaging: float
    n_texts: int
    n_heads: int
    n_layers: int


def _values(records: list[HeadRecord]) -> tuple[list[tuple[str, int, int]], dict[str, np.ndarray]]:
    rows = [
        (r.text, r.layer, r.head, head_spectrum_stats(r)) for r in records if r.sv_real is not None
    ]
    keys = [(t, layer, h) for t, layer, h, _ in rows]
    return keys, {k: np.array([s[k] for *_, s in rows]) for k in SPECTRUM_KEYS}


def _grid(keys, values: np.ndarray, layer: int | None = None) -> np.ndarray:
    texts = sorted({t for t, _, _ in keys})
    heads = sorted({(layer_, h) for _, layer_, h in keys if layer is None or layer_ == layer})
    index = {k: i for i, k in enumerate(keys)}
    return np.array([[values[index[(t, *h)]] for h in heads] for t in texts])


def spectrum_summary(records: list[HeadRecord], rng: np.random.Generator) -> SpectrumSummary:
    """Medians with crossed bootstrap intervals of every spectral statistic, for the records of
    one (model, n)."""
    keys, values = _values(records)
    if not keys:
        raise ValueError("no head with spectra")
    info = get_model(records[0].model)
    stats = {k: uncertainty.median_interval(_grid(keys, v), rng) for k, v in values.items()}
    layers = sorted({layer for _, layer, _ in keys})
    layer_w1 = np.array([float(np.median(_grid(keys, values["w1"], layer))) for layer in layers])
    grid = _grid(keys, values["w1"])
    return SpectrumSummary(
        info.name,
        records[0].n,
        stats,
        uncertainty.median_interval(_grid(keys, values["w1"], layers[0]), rng),
        uncertainty.median_interval(_grid(keys, values["w1"], layers[-1]), rng),
        layer_w1,
        float(np.mean(values["w1_avg"] < values["w1"])),
        grid.shape[0],
        grid.shape[1] // len(layers),
        len(layers),
    )


def srank_slope(
    records_by_n: dict[int, list[HeadRecord]],
    rng: np.random.Generator,
    reps: int = uncertainty.REPS,
) -> tuple[float, np.ndarray]:
    r"""Slope of the median real stable rank against :math:`\log n`, with crossed bootstrap
    replicates."""
    ns = sorted(records_by_n)
    tables = []
    for n in ns:
        keys, values = _values(records_by_n[n])
        tables.append(_grid(keys, values["srank"]))
    return uncertainty.slope_replicates(np.stack(tables), np.log(ns), rng, reps)


@dataclass(frozen=True)
class RotationSummary:
    """Eigen-angles of :math:`R(S)` for one model at one length, pooled over layers, heads and
    texts.

    ``real`` and ``haar`` are the distances of the pooled angles and of a Haar floor with the same
    ranks; ``outside`` the fraction of heads whose own circular W₁ exceeds the 95th percentile of
    Haar matrices of the same size; ``cos``/``cos2`` the means of :math:`\\cos\\varphi` and
    :math:`\\cos^2\\varphi`; ``rank`` the median score rank; ``spikes`` the median fraction of score
    singular values above :math:`\\log n`; ``pooled`` the angles.
    """

    model: str
    n: int
    real: circular.AngleDistances
    haar: circular.AngleDistances
    outside: float
    cos: float
    cos2: float
    rank: int
    spikes: float
    pooled: np.ndarray


@functools.cache
def haar_w1_quantile(r: int, seed: int, q: float = 0.95, reps: int = HAAR_REPS) -> float:
    """The ``q`` quantile of the circular W₁ of Haar O(r) matrices (``reps`` draws, stream
    ``(HAAR_STREAM, 0, r)``)."""
    rng = rotation.completion_rng(seed, HAAR_STREAM, 0, r)
    return float(
        np.quantile(
            [circular.circular_w1_to_uniform(a) for a in rotation.haar_angles([r] * reps, rng)], q
        )
    )


def rotation_summary(records: list[HeadRecord], seed: int, bins: int) -> RotationSummary:
    """Pool the eigen-angles of :math:`R(S)` of the records of one (model, n) and compare with
    Haar."""
    n = records[0].n
    pooled = np.concatenate([r.angles for r in records])
    rng = rotation.completion_rng(seed, HAAR_STREAM, 1, n)
    floor = np.concatenate(rotation.haar_angles([r.rank for r in records], rng))
    outside = [
        circular.circular_w1_to_uniform(r.angles) > haar_w1_quantile(r.rank, seed) for r in records
    ]
    return RotationSummary(
        records[0].model,
        n,
        circular.angle_discrepancies(pooled, bins),
        circular.angle_discrepancies(floor, bins),
        float(np.mean(outside)),
        float(np.mean(np.cos(pooled))),
        float(np.mean(np.cos(pooled) ** 2)),
        int(np.median([r.rank for r in records])),
        float(np.median([np.mean(r.sigma_S > math.log(n)) for r in records])),
        pooled,
    )


@dataclass(frozen=True)
class Spread:
    """A statistic under several seeded conventions: their mean, smallest and largest value."""

    mean: float
    low: float
    high: float
    draws: int

    @classmethod
    def of(cls, values) -> Spread:
        v = np.asarray(values, dtype=float)
        return cls(float(v.mean()), float(v.min()), float(v.max()), int(v.size))


@dataclass(frozen=True)
class HaarFloor:
    """Distances to uniform of the eigen-angles of Haar O(n) matrices: medians, and the 95th
    percentile of W₁."""

    median: circular.AngleDistances
    w1_q95: float
    reps: int


@functools.cache
def haar_floor(n: int, seed: int, bins: int, reps: int = 20) -> HaarFloor:
    """Haar O(n) floor from ``reps`` matrices (generator stream ``(HAAR_STREAM, 2, n)``)."""
    rng = rotation.completion_rng(seed, HAAR_STREAM, 2, n)
    d = [
        circular.angle_discrepancies(rotation.symmetrized_eigen_angles(W), bins)
        for W in rotation.haar_orthogonal(n, reps, rng)
    ]
    median = circular.AngleDistances(
        *(float(np.median([x.get(k) for x in d])) for k in ("kl", "ks", "w1"))
    )
    return HaarFloor(median, float(np.quantile([x.w1 for x in d], 0.95)), reps)


@dataclass(frozen=True)
class LiteralSummary:
    """The literal reading on a few heads at one length: mean circular W₁ of full U and V per
    convention.

    ``full_U`` and ``full_V`` spread over the seeded conventions (each value is a mean over the
    heads); ``rotation`` is the mean W₁ of :math:`R(S)` on the same heads (no convention);
    ``haar`` the Haar O(n) floor (:func:`haar_floor`).
    """

    model: str
    n: int
    heads: int
    full_U: Spread
    full_V: Spread
    rotation: float
    haar: HaarFloor


def literal_summary(records: list[HeadRecord], seed: int, bins: int) -> LiteralSummary | None:
    """Summarize the heads of one (model, n) that carry the literal reading (None if there are
    none)."""
    heads = [r for r in records if r.literal_w1 is not None]
    if not heads:
        return None
    w1 = np.stack([r.literal_w1 for r in heads]).mean(axis=0)  # (draws, 2)
    return LiteralSummary(
        heads[0].model,
        heads[0].n,
        len(heads),
        Spread.of(w1[:, 0]),
        Spread.of(w1[:, 1]),
        float(np.mean([circular.circular_w1_to_uniform(r.angles) for r in heads])),
        haar_floor(heads[0].n, seed, bins),
    )


@dataclass(frozen=True)
class TokenSummary:
    """The paper's :math:`U_X` diagnostic of one model at one length.

    ``pooled`` spreads over conventions the median (over layers and texts) of each distance;
    ``per_layer`` has shape ``(layers, draws, 3)``: KL, Kolmogorov, W₁ per layer and convention
    (median over texts); ``determined`` is the smallest fraction :math:`r/n` of :math:`U_X`'s
    columns fixed by :math:`X` over layers and texts; ``haar`` the Haar O(n) floor.
    """

    model: str
    n: int
    pooled: dict[str, Spread]
    per_layer: np.ndarray
    determined: float
    haar: HaarFloor


def token_summary(layers: list[LayerRecord], seed: int, bins: int) -> TokenSummary:
    """Summarize the :class:`LayerRecord` list of one (model, n)."""
    n = layers[0].n
    index = sorted({r.layer for r in layers})
    per_layer = np.stack(
        [np.median(np.stack([r.distances for r in layers if r.layer == i]), axis=0) for i in index]
    )  # (layers, draws, 3)
    med = np.median(per_layer, axis=0)  # (draws, 3)
    pooled = {k: Spread.of(med[:, j]) for j, k in enumerate(("kl", "ks", "w1"))}
    return TokenSummary(
        layers[0].model,
        n,
        pooled,
        per_layer,
        min(r.rank / n for r in layers),
        haar_floor(n, seed, bins),
    )
