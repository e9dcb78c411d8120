r"""Spectra of the per-head records for one model at one length (the chapter's tables).

:func:`spectrum_summary` takes the :class:`~attnspec.real.records.HeadRecord` list of
:func:`attnspec.real.measure.measure_text`: real against canonical singular-value :math:`W_1` and
ranks, medians with crossed bootstrap intervals over texts and heads
(:mod:`attnspec.real.uncertainty`); :func:`srank_slope` the stable rank's growth with n. The
eigen-angle summaries are in :mod:`attnspec.real.angle_summary`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnspec.numerics import spectra
from attnspec.real import head_spectra, uncertainty
from attnspec.real.models import get_model
from attnspec.real.records import HeadRecord
from attnspec.real.uncertainty import Interval

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
