"""What several chapters share: the theorem the convergence chapters test and how they print a
measured value with its error; the lengths of the canonical-model chapters; the reporting of the
two real-attention chapters (decimals from a bootstrap standard error, ``value [low, high]``)."""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from ..present.formatting import ONE_OR_TWO, decimals_for, format_uncertain, with_interval
from ..real.models import MODELS
from ..real.study import Study, run_study
from ..real.uncertainty import Interval
from .base import ChapterStudy

#: The statement of the paper that the convergence and threshold chapters test.
THEOREM = "paper, abstract (Gaussian equivalence at constant-order β)"
#: The point 0 as an interval, for "an interval below (above) 0".
ZERO = (0.0, 0.0)


def span(value: float, se: float) -> tuple[float, float]:
    """The interval value ± 2 se (the whole line when se is not finite: it decides nothing)."""
    return (value - 2 * se, value + 2 * se) if math.isfinite(se) else (-math.inf, math.inf)


def uncertain_text(value, se, fallback: int = 4) -> str:
    """``value ± se`` with one or two significant digits of ``se`` (``fallback`` decimals without
    it), as the convergence and threshold chapters print a distance or a rate."""
    return format_uncertain(value, se, ONE_OR_TWO, fallback=fallback)


def dense_grid(ell_values, dense_max: int) -> list[int]:
    """Powers of two from 64 to ``dense_max``, with the chapter's lengths capped at
    ``dense_max``."""
    grid = {2**j for j in range(6, 15) if 2**j <= dense_max}
    return sorted(grid | {min(int(ell), dense_max) for ell in ell_values})


class CanonicalLengths(ChapterStudy):
    r"""The parameters the canonical-model chapters at several lengths ℓ share: k spikes
    (``spikes``) over a bulk in :math:`[0, B]` (``bulk_max``, drawn from ``seed``) at the lengths
    ``ell_values``, computed densely up to :math:`\ell =` ``dense_max``."""

    def lengths(self) -> tuple[int, float, int, int, list[int]]:
        """Keep k, B and the chapter's lengths ℓ (distinct, ascending) on the study as
        :attr:`k`, :attr:`bulk_max` and :attr:`ells`; return ``(k, B, seed, dense_max, ells)``."""
        p = self.params
        self.k, self.bulk_max = p["spikes"], p["bulk_max"]
        self.ells = sorted({int(e) for e in p["ell_values"]})
        return self.k, self.bulk_max, p["seed"], p["dense_max"], self.ells


#: The parameters of :func:`attnspec.real.study.run_study`, the measurements both real chapters
#: share.
STUDY_PARAMETERS = (
    "lengths",
    "n_texts",
    "max_heads",
    "angle_bins",
    "seed",
    "conventions",
    "band_lengths",
)
#: Most decimals a statistic is printed with: beyond them round-off, not sampling, decides a digit.
MAX_DECIMALS = 5
#: The decimals a bootstrap interval's standard error supports: one significant digit, two when
#: the first is 1, at most :data:`MAX_DECIMALS` (4 when the error is unknown).
decimals = partial(decimals_for, significant=ONE_OR_TWO, fallback=4, most=MAX_DECIMALS)


def measured_study(params: dict[str, Any]) -> Study:
    """Both models measured and summarized at a real chapter's checked parameters (cached)."""
    return run_study(**{name: params[name] for name in STUDY_PARAMETERS})


def interval_text(iv: Interval, digits: int | None = None) -> str:
    """``value [low, high]`` with the decimals its bootstrap standard error supports."""
    return with_interval(iv.value, iv.low, iv.high, decimals(iv.se) if digits is None else digits)


def short_name(model: str) -> str:
    """The model's display name without its size: ``MiniLM-L6``, ``SmolLM2-135M``."""
    return MODELS[model].display.split(" ")[0]


def per_model(texts: dict[str, str]) -> str:
    """The models' texts in table order, ``a / b``."""
    return " / ".join(texts.values())


def unless_open(holds: bool | None, fails: str, overlap: str) -> str:
    """The sentence under a claim that compares intervals: why it fails (✗, or nothing to say
    under ✓), or, under ○, that the intervals overlap."""
    return overlap if holds is None else fails
