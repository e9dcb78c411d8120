r"""The real-attention study: both models, every text and length, summarized (one call per chapter).

:func:`run_study` measures every head and layer (:func:`attnspec.real.measure.measure_text`,
cached; one process per core, :func:`attnspec.core.parallel.map_processes`) and summarizes them per
model and length (:mod:`attnspec.real.summary`) into a :class:`Study`. Every random choice comes
from the root seed: bootstrap indices from child 0 of ``SeedSequence(seed)``, the seeded
conventions and Haar floors from the streams of :func:`attnspec.real.rotation.completion_rng`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnspec.core.parallel import map_processes
from attnspec.real import summary, uncertainty
from attnspec.real.measure import HeadRecord, measure_text
from attnspec.real.models import MODELS, get_model
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
    crossed bootstrap interval, ``slope_difference`` decoder minus encoder.
    """

    texts: tuple[str, ...]
    lengths: dict[str, list[int]]
    heads: dict[tuple[str, int], list[HeadRecord]]
    spectra: dict[tuple[str, int], summary.SpectrumSummary]
    rotation: dict[tuple[str, int], summary.RotationSummary]
    literal: dict[tuple[str, int], summary.LiteralSummary]
    tokens: dict[tuple[str, int], summary.TokenSummary]
    slopes: dict[str, Interval]
    slope_difference: Interval | None

    def top(self, model: str) -> int | None:
        """The largest length measured for ``model``."""
        return self.lengths[model][-1] if self.lengths[model] else None


def run_study(
    lengths, n_texts: int, max_heads: int, angle_bins: int, seed: int, conventions: int
) -> Study:
    """Measure and summarize both models (parameters: :data:`~attnspec.core.config.PARAMETERS`)."""
    ns = sorted({int(n) for n in lengths})
    texts = tuple(TEXT_NAMES[:n_texts])
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    # (model, text) measurements are independent: one process per core, results in this order
    jobs = [
        (
            model,
            text,
            ns,
            max_heads,
            literal_heads(model) if i == 0 else (),
            conventions,
            seed,
            angle_bins,
            i == 0,
        )
        for model in NAMES
        for i, text in enumerate(texts)
    ]
    heads, layers = {}, {}
    for (model, *_), m in zip(jobs, map_processes(measure_text, jobs), strict=True):
        for r in m.heads:
            heads.setdefault((model, r.n), []).append(r)
        for r in m.layers:
            layers.setdefault((model, r.n), []).append(r)
    run = {model: [n for n in ns if (model, n) in heads] for model in NAMES}
    spectra = {key: summary.spectrum_summary(rs, rng) for key, rs in heads.items()}
    rot = {key: summary.rotation_summary(rs, seed, angle_bins) for key, rs in heads.items()}
    lit = {
        key: s for key, rs in heads.items() if (s := summary.literal_summary(rs, seed, angle_bins))
    }
    tok = {key: summary.token_summary(rs, seed, angle_bins) for key, rs in layers.items()}
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
    return Study(texts, run, heads, spectra, rot, lit, tok, slopes, diff)


__all__ = ["MODELS", "NAMES", "Study", "literal_heads", "run_study"]
