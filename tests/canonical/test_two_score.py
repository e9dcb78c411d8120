"""Exact spectra of two-score bidirectional attention (attnspec.canonical.two_score)."""

import math

import pytest

from attnspec.canonical.summary import bidirectional_summary
from attnspec.canonical.two_score import two_score_summary


@pytest.mark.parametrize("ell, k, margin", [(64, 4, "log"), (256, 1, "lin"), (1024, 9, "lin")])
def test_two_score_summary_equals_the_dense_reduction(ell, k, margin):
    f = math.log(ell) if margin == "log" else float(ell)
    a, b = two_score_summary(ell, k, f), bidirectional_summary(ell, k, margin)
    for key in ("profile_error", "lamk1_error", "lead_error", "w1", "srank", "erank2"):
        assert getattr(a, key) == pytest.approx(getattr(b, key), rel=1e-9, abs=1e-13), key
    assert a.top == pytest.approx(tuple(b.sigma[:3]), rel=1e-12)


def test_two_score_summary_at_astronomical_length():
    x = two_score_summary(2**1000, 4, 1000 * math.log(2))
    assert x.srank_limit == pytest.approx(5.0) and 0 < x.profile_error < 2 / x.f
