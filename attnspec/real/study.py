r"""The real-attention study: both models, every text and length, summarized (one call per chapter).

:func:`run_study` measures every head and layer (:func:`attnspec.real.measure.measure_text`,
cached; one process per core, :func:`attnspec.core.parallel.map_processes`) and summarizes them per
model and length (:mod:`attnspec.real.summary`, :mod:`attnspec.real.angle_summary`) into a
:class:`Study`. Every random choice comes from the root seed: bootstrap indices from the
children of ``SeedSequence(seed)`` (0: spectra and slopes, 1: the :math:`U_X` diagnostic, 2: the
score-factor reading), the seeded conventions and Haar floors from the streams of
:func:`attnspec.real.rotation.completion_rng`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnspec.core.parallel import map_processes
from attnspec.real import angle_summary, summary, uncertainty
from attnspec.real.measure import measure_text
from attnspec.real.models import MODELS, get_model
from attnspec.real.paper import PAPER_BAND_W1, PAPER_BANDS
from attnspec.real.records import HeadRecord
from attnspec.real.texts import TEXT_NAMES
from attnspec.real.uncertainty import Interval

#: Model registry names in the order of every table and figure.
NAMES = ("minilm", "smollm")


def literal_heads(model: str) -> list[tuple[int, int]]:
    """First, middle and last layer, head 0: where the literal full-factor reading is measured."""
    layers = get_model(model).layers
    return sorted({(0, 0), (layers // 2, 0), (layers - 1, 0)})


@dataclass(frozen=True)
class Study:
    """Summaries keyed by ``(model, n)``; ``lengths[model]`` lists the lengths measured.

    ``slopes[model]`` is the slope of the median real stable rank against :math:`\\log n` with its
    crossed bootstrap interval, ``slope_difference`` decoder minus encoder; ``token_slopes[model]``
    the exponents of the :math:`U_X` distances against n; ``bands[(model, band)]`` the paper's
    score-factor reading in each of its length bands.
    """

    texts: tuple[str, ...]
    lengths: dict[str, list[int]]
    heads: dict[tuple[str, int], list[HeadRecord]]
    spectra: dict[tuple[str, int], summary.SpectrumSummary]
    rotation: dict[tuple[str, int], angle_summary.RotationSummary]
    literal: dict[tuple[str, int], angle_summary.LiteralSummary]
    tokens: dict[tuple[str, int], angle_summary.TokenSummary]
    slopes: dict[str, Interval]
    slope_difference: Interval | None
    token_slopes: dict[str, dict[str, Interval]]
    bands: dict[tuple[str, tuple[int, int]], angle_summary.BandSummary]

    def cells(self) -> list[tuple[str, int]]:
        """Every measured ``(model, n)``: models in order, lengths ascending."""
        return [(m, n) for m, ns in self.lengths.items() for n in ns]

    def top(self, model: str) -> int | None:
        """The largest length measured for ``model``."""
        return self.lengths[model][-1] if self.lengths[model] else None


def run_study(
    lengths,
    n_texts: int,
    max_heads: int,
    angle_bins: int,
    seed: int,
    conventions: int,
    band_lengths=(),
) -> Study:
    """Measure and summarize both models (each parameter's meaning and range:
    the ``parameters`` cell of ``notebooks/real-attention.md``)."""
    ns = sorted({int(n) for n in lengths})
    band = sorted({int(n) for n in band_lengths} - set(ns))
    texts = tuple(TEXT_NAMES[:n_texts])
    rng, rng_tok, rng_lit = (
        np.random.default_rng(c) for c in np.random.SeedSequence(seed).spawn(3)
    )
    # (model, text) measurements are independent: one process per core, the longest first
    jobs = [
        (
            model,
            text,
            ns,
            max_heads,
            literal_heads(model),
            conventions,
            seed,
            angle_bins,
            True,
            band,
        )
        for model in reversed(NAMES)
        for text in texts
    ]
    heads, layers, extra = {}, {}, {}
    for (model, *_), m in zip(jobs, map_processes(measure_text, jobs), strict=True):
        for r in m.heads:
            (heads if r.n in ns else extra).setdefault((model, r.n), []).append(r)
        for r in m.layers:
            layers.setdefault((model, r.n), []).append(r)
    keys = [(m, n) for m in NAMES for n in ns if (m, n) in heads]
    heads = {key: sorted(heads[key], key=_order) for key in keys}
    layers = {key: sorted(layers[key], key=_order) for key in keys if key in layers}
    run = {model: [n for n in ns if (model, n) in heads] for model in NAMES}
    spectra = {key: summary.spectrum_summary(rs, rng) for key, rs in heads.items()}
    rot = {key: angle_summary.rotation_summary(rs, seed, angle_bins) for key, rs in heads.items()}
    lit = {
        key: s
        for key, rs in heads.items()
        if (s := angle_summary.literal_summary(rs, seed, angle_bins, rng_lit))
    }
    tok = {
        key: angle_summary.token_summary(rs, seed, angle_bins, rng_tok)
        for key, rs in layers.items()
    }
    token_slopes = {
        model: angle_summary.token_slopes({n: layers[(model, n)] for n in run[model]}, rng_tok)
        for model in NAMES
        if len(run[model]) >= 2
    }
    bands = {}
    for model in NAMES:
        records = [
            r
            for (m, _), rs in list(heads.items()) + sorted(extra.items())
            if m == model
            for r in rs
        ]
        for b in PAPER_BANDS:
            if found := angle_summary.band_summary(records, b, seed, angle_bins, rng_lit):
                bands[(model, b)] = found
    slopes, reps = {}, {}
    for model in NAMES:
        if len(run[model]) >= 2:
            reps[model] = summary.srank_slope({n: heads[(model, n)] for n in run[model]}, rng)
            lo, hi = np.quantile(
                reps[model][1], [(1 - uncertainty.LEVEL) / 2, (1 + uncertainty.LEVEL) / 2]
            )
            s = spectra[(model, run[model][-1])]
            slopes[model] = Interval(
                reps[model][0], float(lo), float(hi), s.n_texts, s.n_heads * s.n_layers
            )
    diff = (
        uncertainty.difference_interval(reps["smollm"], reps["minilm"], n_texts=len(texts))
        if len(reps) == 2
        else None
    )
    return Study(texts, run, heads, spectra, rot, lit, tok, slopes, diff, token_slopes, bands)


def _order(r) -> tuple:
    """Records in text order, then layer, then head (the order of every summary's tables)."""
    return (list(TEXT_NAMES).index(r.text), r.layer, getattr(r, "head", 0))


def detectable(tokens: dict, names, key: str) -> tuple[float, float]:
    """The smallest excess of the median distance ``key`` over the Haar median, in percent, that
    the one-sided test against the Haar 95th percentile detects: ``100 (q95/median − 1)``,
    smallest and largest over the models ``names`` (``tokens``: model -> TokenSummary)."""
    pct = [100 * (tokens[m].haar.q95.get(key) / tokens[m].haar.median.get(key) - 1) for m in names]
    return min(pct), max(pct)


def band_falls(study: Study) -> dict:
    """The factor :math:`W_1(\\text{17–64})/W_1(\\text{385–471})` by which the score-factor W₁
    falls from the first to the second paper band: per model ``(U, V, Haar)`` of the same lengths,
    and ``"paper"`` for GPT-2 (the values the seed summary states)."""
    out = {}
    for m in study.lengths:
        first, last = (study.bands.get((m, b)) for b in PAPER_BANDS)
        if first and last:
            out[m] = (
                first.U.value / last.U.value,
                first.V.value / last.V.value,
                first.haar / last.haar,
            )
    out["paper"] = float(PAPER_BAND_W1[PAPER_BANDS[0]]) / float(PAPER_BAND_W1[PAPER_BANDS[1]])
    return out


__all__ = ["MODELS", "NAMES", "Study", "band_falls", "detectable", "literal_heads", "run_study"]
