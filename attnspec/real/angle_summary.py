r"""Eigen-angle summaries of the per-head and per-layer records for one model at one length.

Each function takes the :class:`~attnspec.real.records.HeadRecord` or
:class:`~attnspec.real.records.LayerRecord` lists of :func:`attnspec.real.measure.measure_text`
and returns a small dataclass:

- :func:`rotation_summary`: distances of the pooled eigen-angles of :math:`R(S)` to the uniform law
  against a Haar floor of the same ranks;
- :func:`literal_summary`: the literal full-factor reading under several seeded conventions;
- :func:`token_summary`: the paper's :math:`U_X` diagnostic per layer, spread over conventions;
- :func:`band_summary`: the literal reading's angular W₁ in one length band.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from attnspec.real import circular, rotation, uncertainty
from attnspec.real.records import HeadRecord, LayerRecord
from attnspec.real.uncertainty import Interval

#: Haar matrices per size for floors and per-head quantiles.
HAAR_REPS = 400
#: Stream number (first spawn-key entry) of the Haar floors, distinct from the conventions' stream.
HAAR_STREAM = 5


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
    """Distances to uniform of the eigen-angles of Haar O(n) matrices: the median, mean, standard
    error of the mean and 95th percentile of each distance over ``reps`` matrices."""

    median: circular.AngleDistances
    q95: circular.AngleDistances
    mean: circular.AngleDistances
    se: circular.AngleDistances
    reps: int

    @property
    def w1_q95(self) -> float:
        """The 95th percentile of W₁."""
        return self.q95.w1


@functools.cache
def haar_floor(n: int, seed: int, bins: int, reps: int = 20) -> HaarFloor:
    """Haar O(n) floor from ``reps`` matrices (generator stream ``(HAAR_STREAM, 2, n)``)."""
    rng = rotation.completion_rng(seed, HAAR_STREAM, 2, n)
    d = np.array(
        [
            [x.kl, x.ks, x.w1]
            for x in (
                circular.angle_discrepancies(rotation.symmetrized_eigen_angles(W), bins)
                for W in rotation.haar_orthogonal(n, reps, rng)
            )
        ]
    )

    def per(values):
        return circular.AngleDistances(*(float(v) for v in values))

    return HaarFloor(
        per(np.median(d, axis=0)),
        per(np.quantile(d, 0.95, axis=0)),
        per(d.mean(axis=0)),
        per(d.std(axis=0, ddof=1) / math.sqrt(reps)),
        reps,
    )


@dataclass(frozen=True)
class LiteralSummary:
    """The literal reading on a few heads at one length: circular W₁ of the full U and V.

    ``full_U`` and ``full_V`` are the means over texts, heads and seeded conventions, with crossed
    bootstrap intervals over texts and heads; ``spread_U`` the range over conventions of the mean
    over texts and heads (how much the convention moves it); ``rotation`` the mean W₁ of
    :math:`R(S)` on the same heads (no convention); ``haar`` the Haar O(n) floor
    (:func:`haar_floor`).
    """

    model: str
    n: int
    heads: int
    full_U: Interval
    full_V: Interval
    spread_U: Spread
    rotation: float
    haar: HaarFloor

    def at_haar_level(self) -> bool:
        """Whether the mean W₁ of the full U differs from the Haar mean by at most two standard
        errors of the difference (bootstrap se and the Haar floor's se, combined)."""
        se = math.hypot(self.full_U.se, self.haar.se.w1)
        return abs(self.full_U.value - self.haar.mean.w1) <= 2 * se


def literal_summary(
    records: list[HeadRecord], seed: int, bins: int, rng: np.random.Generator
) -> LiteralSummary | None:
    """Summarize the heads of one (model, n) that carry the literal reading (None if there are
    none)."""
    heads = [r for r in records if r.literal_w1 is not None]
    if not heads:
        return None
    texts = sorted({r.text for r in heads})
    index = sorted({(r.layer, r.head) for r in heads})
    cell = {(r.text, r.layer, r.head): r.literal_w1 for r in heads}
    table = np.array([[cell[(t, *h)] for h in index] for t in texts])  # (T, H, draws, 2)
    means = table.mean(axis=2)
    return LiteralSummary(
        heads[0].model,
        heads[0].n,
        len(index),
        uncertainty.median_interval(means[:, :, 0], rng, statistic=np.mean),
        uncertainty.median_interval(means[:, :, 1], rng, statistic=np.mean),
        Spread.of(table[:, :, :, 0].mean(axis=(0, 1))),
        float(np.mean([circular.circular_w1_to_uniform(r.angles) for r in heads])),
        haar_floor(heads[0].n, seed, bins),
    )


@dataclass(frozen=True)
class TokenSummary:
    """The paper's :math:`U_X` diagnostic of one model at one length.

    ``intervals`` maps each distance (``"kl"``, ``"ks"``, ``"w1"``) to the median over texts and
    layers of its mean over the seeded conventions, with a crossed bootstrap interval and standard
    error that resample texts and layers (:func:`attnspec.real.uncertainty.median_interval`);
    ``table`` has shape ``(texts, layers, 3)``: those per-cell means; ``per_layer`` has shape
    ``(layers, draws, 3)``: each distance per layer and convention (median over texts);
    ``determined`` is the smallest fraction :math:`r/n` of :math:`U_X`'s columns fixed by
    :math:`X` over layers and texts, ``deep_determined`` the same past the embedding layer
    (layers ≥ 1; NaN if none), ``embedding_rank`` the rank :math:`r` of the embedding layer's
    :math:`X` per text; ``haar`` the Haar O(n) floor.
    """

    model: str
    n: int
    intervals: dict[str, Interval]
    table: np.ndarray
    per_layer: np.ndarray
    determined: float
    deep_determined: float
    embedding_rank: dict[str, int]
    haar: HaarFloor


def _token_table(layers: list[LayerRecord]) -> np.ndarray:
    texts = sorted({r.text for r in layers})
    index = sorted({r.layer for r in layers})
    cell = {(r.text, r.layer): r.distances.mean(axis=0) for r in layers}
    return np.array([[cell[(t, i)] for i in index] for t in texts])


def token_summary(
    layers: list[LayerRecord], seed: int, bins: int, rng: np.random.Generator
) -> TokenSummary:
    """Summarize the :class:`LayerRecord` list of one (model, n)."""
    n = layers[0].n
    index = sorted({r.layer for r in layers})
    per_layer = np.stack(
        [np.median(np.stack([r.distances for r in layers if r.layer == i]), axis=0) for i in index]
    )  # (layers, draws, 3)
    table = _token_table(layers)
    intervals = {
        k: uncertainty.median_interval(table[:, :, j], rng)
        for j, k in enumerate(("kl", "ks", "w1"))
    }
    return TokenSummary(
        layers[0].model,
        n,
        intervals,
        table,
        per_layer,
        min(r.rank / n for r in layers),
        min((r.rank / n for r in layers if r.layer > 0), default=math.nan),
        {r.text: r.rank for r in layers if r.layer == 0},
        haar_floor(n, seed, bins),
    )


def token_slopes(
    layers_by_n: dict[int, list[LayerRecord]], rng: np.random.Generator
) -> dict[str, Interval]:
    r"""Exponent of each median :math:`U_X` distance against n: the slope of
    :math:`\log(\text{distance})` against :math:`\log n`, with a paired crossed bootstrap over
    texts and layers (:func:`attnspec.real.uncertainty.slope_interval`)."""
    ns = sorted(layers_by_n)
    tables = np.stack([_token_table(layers_by_n[n]) for n in ns])  # (L, T, layers, 3)
    return {
        k: uncertainty.slope_interval(np.log(tables[..., j]), np.log(ns), rng)
        for j, k in enumerate(("kl", "ks", "w1"))
    }


@dataclass(frozen=True)
class BandSummary:
    r"""The paper's angular W₁ of the full score singular factors in one length band.

    ``U`` and ``V`` are the means over texts, heads, lengths in the band and seeded conventions
    of the circular W₁ (radians) of the eigen-angles of the full factors, with crossed bootstrap
    intervals over texts and heads (:func:`attnspec.real.uncertainty.median_interval` with the
    mean); ``haar`` is the mean W₁ of Haar O(n) matrices over the band's lengths, with its
    standard error; ``lengths`` the lengths used.
    """

    model: str
    band: tuple[int, int]
    lengths: tuple[int, ...]
    U: Interval
    V: Interval
    haar: float
    haar_se: float


def band_summary(
    records: list[HeadRecord],
    band: tuple[int, int],
    seed: int,
    bins: int,
    rng: np.random.Generator,
) -> BandSummary | None:
    """Summarize the literal-reading records whose length lies in ``band`` (None if none do)."""
    rs = [r for r in records if r.literal_w1 is not None and band[0] <= r.n <= band[1]]
    if not rs:
        return None
    texts = sorted({r.text for r in rs})
    heads = sorted({(r.layer, r.head) for r in rs})
    lengths = tuple(sorted({r.n for r in rs}))
    cell = {}
    for r in rs:
        cell.setdefault((r.text, r.layer, r.head), []).append(r.literal_w1.mean(axis=0))
    table = np.array([[np.mean(cell[(t, *h)], axis=0) for h in heads] for t in texts])
    floors = [haar_floor(n, seed, bins) for n in lengths]
    return BandSummary(
        rs[0].model,
        band,
        lengths,
        uncertainty.median_interval(table[:, :, 0], rng, statistic=np.mean),
        uncertainty.median_interval(table[:, :, 1], rng, statistic=np.mean),
        float(np.mean([f.mean.w1 for f in floors])),
        float(math.sqrt(np.mean([f.se.w1**2 for f in floors]) / len(floors))),
    )
