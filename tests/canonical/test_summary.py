"""Per-ell summaries of the canonical model (attnspec.canonical.summary) and the chapter
formatters."""

import math

import numpy as np
import pytest

from attnspec.canonical import model
from attnspec.canonical.summary import (
    bidirectional_summary,
    bounded_bulk_summary,
    causal_summary,
    exact_identities,
    margin,
)
from attnspec.core.errors import InvalidInput
from attnspec.present.formatting import (
    fixed,
    per_length,
    plus_minus,
    round_off_bound,
    with_interval,
)


def test_bidirectional_summary_against_closed_forms():
    x = bidirectional_summary(1024, 4, "lin")
    assert x.f == 1024 and x.c == 4 / 1024
    assert x.profile_error < 2 / x.f and x.middle_error < 1e-12 and x.tail < 1e-12
    assert x.srank == pytest.approx(x.srank_limit, rel=3 / x.f)
    y = bidirectional_summary(1024, 4, "log")
    assert y.profile_error > x.profile_error and y.srank < x.srank
    with pytest.raises(InvalidInput, match="margin"):
        margin("sqrt")


def test_bounded_and_causal_summaries():
    b = bounded_bulk_summary(128, 4, 2.0, 0)
    assert (
        b.lam1_error < 1e-12
        and b.interlacing_violation < 1e-12
        and 0 <= b.lam_min <= b.lam_max <= 1 + 1e-12
    )
    assert b.tail * 128 <= math.expm1(2.0) and 0 <= b.bulk_d_min
    c = causal_summary(128, 4, 2.0, 0, 0.1, 64)
    assert 1 - 1e-12 <= c.i_lam_min <= c.i_lam_max <= math.exp(2.0) + 1e-9
    assert c.count_complete and c.count >= 1 and c.srank > 1


def test_exact_identities_are_round_off():
    ids = exact_identities(
        64, 4, 2.0, 0, [bidirectional_summary(64, 4, "log"), bounded_bulk_summary(64, 4, 2.0, 0)]
    )
    assert len(ids.deviations) == 11 and ids.largest < 1e-12


def test_formatters():
    assert fixed(-0.00001, 4) == "0.0000" and per_length([1, 2.5], 1) == "1.0 / 2.5"
    assert round_off_bound(3e-15) == "≤ 1e-12" and round_off_bound(2e-9) == "2.00e-09"
    assert plus_minus(-0.5012, 0.00004) == "-0.501 (se < 0.0005)"  # never "± 0.000"
    assert plus_minus(-0.5012, 0.012) == "-0.501 ± 0.012" and plus_minus(1, float("nan")) == "1.000"
    assert with_interval(0.12345, 0.1, 0.2, 3) == "0.123 [0.100, 0.200]"
    assert fixed(float("nan")) == "–" and fixed(None) == "–"
    assert np.isfinite(model.alpha_plus(0.5))
