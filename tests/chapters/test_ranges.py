"""Every chapter's study over values drawn from its declared ranges (hypothesis): a value the
declaration accepts must run the whole page (the computation, every glued value, table, claim and
figure) without an exception, since in a kernel any exception is a traceback and a failed run. A
value the declaration refuses is refused before any kernel starts (status 2), which is fine.

Each example starts from the chapter's pinned small parameters (``SMALL`` of its
``tests/test_chapter_*.py``) and draws some of them anew: sizes small (:data:`SMALL_SIZES` caps
the parameters that set the cost), the others, such as ``beta``, ``c_poly`` or ``bulk_max``, from
their whole range, ends included. A few examples per chapter, derandomized so that every run draws
the same values; ``slow`` (``make test`` only: minutes in all). The values found by hand
are checked too: in the fast loop, those the chapters' rules now refuse; in ``make test``, the
others run the whole page.
"""

from __future__ import annotations

import importlib
import importlib.util
import math

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from attnspec.chapters.base import ChapterStudy
from attnspec.chapters.parameters import declared
from attnspec.core.errors import InvalidInput
from attnspec.core.parameter import Parameter
from attnspec.present.tables import claims_markdown
from attnspec.publish.chapters import toc_chapter_names
from tests.helpers import in_this_process

#: The largest value drawn for a parameter that sets a chapter's cost (its declared range
#: otherwise), and for a list the most items drawn.
SMALL_SIZES = {
    "d": 40,
    "trials": 3,
    "remove_top_k": 6,
    "hist_bins": 200,
    "mc_samples": 2000,
    "pooled_values": 200,
    "d_values": 40,
    "d_scale": 40,
    "resamples": 20,
    "d_qk_values": 40,
    "d_qk": 40,
    "alpha_d_values": 40,
    "ell_values": 128,
    "dense_max": 128,
    "lengths": 32,
    "n_texts": 2,
    "max_heads": 2,
    "conventions": 3,
    "band_lengths": 48,
    # left open: a histogram range that holds no bulk value, or one near the
    # largest float, still crashes bulk-equivalence (a noise floor of 0) and limit-law (no grid)
    "hist_min": 100.0,
    "hist_max": 100.0,
}
LIST_ITEMS = 3
#: examples drawn per chapter, fewer for the chapters whose smallest run takes tens of seconds
EXAMPLES = 3
FEWER = {
    "canonical-ranks": 1,
    "canonical-causal": 1,
    "convergence-threshold": 2,
    "real-attention": 1,  # about 130 s an example on 2 cores
    "real-spectra": 1,
}
#: chapters that run pretrained models
WEIGHTS = {"real-attention", "real-spectra"}


def pinned(name: str) -> tuple[type[ChapterStudy], dict]:
    """The study of chapter ``name`` and its small parameters, as its pin test runs them (the
    canonical-ranks pins run the chapter on smaller fixed grids: a subclass)."""
    pins = importlib.import_module(f"tests.chapters.test_{name.replace('-', '_')}")
    if name == "canonical-ranks":
        return pins.SmallRanks, pins.SMALL
    module = importlib.import_module(f"attnspec.chapters.{name.replace('-', '_')}.study")
    study = next(
        v
        for v in vars(module).values()
        if isinstance(v, type) and issubclass(v, ChapterStudy) and getattr(v, "name", "") == name
    )
    return study, pins.SMALL


def scalar(p: Parameter, kind: type) -> st.SearchStrategy:
    """Values of ``kind`` in ``p``'s range, capped by :data:`SMALL_SIZES`."""
    cap = SMALL_SIZES.get(p.name)
    high = p.high if cap is None else cap if p.high is None else min(p.high, cap)
    if kind is int:
        low = 0 if p.low is None else math.ceil(p.low) + (1 if p.low_open else 0)
        return st.integers(low, high if high is not None else low + 1000)
    return st.floats(p.low, high, exclude_min=p.low_open, allow_nan=False, allow_infinity=False)


def values_of(p: Parameter) -> st.SearchStrategy:
    if p.kind is list:
        return st.lists(scalar(p, p.item), min_size=1, max_size=LIST_ITEMS)
    return scalar(p, p.kind)


def page(name: str, values: dict) -> None:
    """The chapter's whole page at ``values``: what its notebook computes and shows."""
    import matplotlib.pyplot as plt

    study = pinned(name)[0].run(**values)
    study.values()
    study.tables()
    study.shared_values()
    claims_markdown(study.claims())
    for draw in study.figures().values():
        fig = draw()
        plt.close(getattr(fig, "static", fig))


def marks(name: str) -> list:
    return [pytest.mark.slow] + ([pytest.mark.weights] if name in WEIGHTS else [])


@pytest.mark.parametrize("name", [pytest.param(n, marks=marks(n)) for n in toc_chapter_names()])
def test_every_accepted_value_runs_the_whole_page(name):
    chapter, small = declared(name), pinned(name)[1]
    drawn = st.fixed_dictionaries({}, optional={p.name: values_of(p) for p in chapter})

    @settings(
        max_examples=FEWER.get(name, EXAMPLES),
        phases=(Phase.explicit, Phase.generate),  # no shrinking: the first failure is reported
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(drawn)
    def accepted_values_run(changed):
        values = small | changed
        try:
            chapter.validate(values)
        except InvalidInput:
            return  # refused before any kernel: one line, status 2
        with in_this_process():
            page(name, values)

    accepted_values_run()


#: values that crashed a chapter inside its kernel, each refused now
FOUND = [
    ("rank-one-mode", {"trials": 1, "d": 10, "d_values": [10, 20]}),
    ("rank-one-mode", {"beta": 0.0}),
    ("rank-one-mode", {"beta": 1e-300}),
    ("normalizer-concentration", {"betas": [0.0]}),
    ("normalizer-concentration", {"beta": 1e-300}),
    ("theta-statistics", {"beta": 0.0}),
    ("bulk-equivalence", {"d": 4, "remove_top_k": 3}),
    ("bulk-equivalence", {"beta": 1e-300}),
    ("limit-law", {"betas": [1.0, 1.0]}),
    ("limit-law", {"beta": 1e-300}),
    ("limit-law-edge", {"beta": 18.8}),
    ("limit-law-edge", {"beta": 1e-300}),
    ("canonical-causal", {"ell_values": [64], "bulk_max": 5.0, "dense_max": 64}),
    ("real-spectra", {"lengths": [4, 8], "band_lengths": [40]}),
]


@pytest.mark.parametrize("name, values", FOUND)
def test_values_that_crashed_a_kernel_are_refused_before_it(name, values):
    with pytest.raises(InvalidInput, match="out of range"):
        declared(name).validate(pinned(name)[1] | values)


def test_the_encoders_head_dimension_is_the_declared_one():
    from attnspec.chapters.real_spectra.rules import BIDIRECTIONAL_HEAD_DIM
    from attnspec.real.models import MODELS

    assert max(m.head_dim for m in MODELS.values() if not m.causal) == BIDIRECTIONAL_HEAD_DIM
