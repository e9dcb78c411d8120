"""Part III's canonical modules: rate tests, exact two-score spectra, the upper bound's constant,
the diagonal order, the closed forms of the ranks and the crossing bracket (the chapters' studies
and figures: tests/test_chapter_canonical_*.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnspec.canonical import causal, model, order, rates, upper_bound
from attnspec.canonical.rank_study import harmonic_erank1, sigma0_erank2
from attnspec.canonical.summary import bidirectional_summary
from attnspec.canonical.two_score import two_score_summary
from attnspec.core.errors import InvalidInput
from attnspec.numerics.spectra import erank1, erank2

# --- rate tests -----------------------------------------------------------------------------------


def test_rate_test_separates_one_over_x_from_log_x_over_x():
    x = np.geomspace(64, 2**20, 8)
    cand = {"1/x": 1 / x, "log x/x": np.log(x) / x}
    fast = rates.rate_test(x, 3 / x, cand, "1/x")
    slow = rates.rate_test(x, np.log(x) ** 2 / x, cand, "1/x")
    assert fast.holds is True and fast.constant == pytest.approx(3)
    assert slow.holds is False
    assert rates.rate_test(x, 1 / np.sqrt(x), kind="zero").holds is True
    assert rates.rate_test(x, np.sqrt(x), kind="zero").holds is False


def test_rate_test_theta_and_omega_and_unresolvable():
    x = np.geomspace(10, 1e6, 10)
    cand = {"x": x, "x^2": x**2, "1": np.ones_like(x)}
    assert rates.rate_test(x, 5 * x, cand, "x", "theta").holds is True
    assert rates.rate_test(x, x**2, cand, "x", "theta").holds is False
    assert rates.rate_test(x, x**1.8, {"x^2": x**2, "x": x}, "x^2", "omega").holds is True
    noisy = x * np.exp(np.random.default_rng(0).normal(0, 3, x.size))
    assert rates.rate_test(x, noisy, cand, "x", "theta").holds is None
    with pytest.raises(InvalidInput, match="kind"):
        rates.rate_test(x, x, cand, "x", "big")
    assert rates.rate_test(x, -x, cand, "x").holds is None  # nothing positive to fit


def test_slope_test_and_log_slope():
    ell = 2.0 ** np.arange(6, 22, 2)
    log_law = rates.slope_test(ell, 2 + 0.25 * np.log(ell))
    assert log_law.holds is True
    assert rates.slope_test(ell, np.log(ell) ** 2).holds is False
    assert rates.slope_test(ell, 3 - np.log(ell)).holds is False  # does not grow
    b, se = rates.log_slope(ell, 1 + 0.5 * np.log(ell))
    assert b == pytest.approx(0.5) and se < 1e-12


# --- exact spectra --------------------------------------------------------------------------------


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


def test_causal_gram_frobenius_and_erank2_in_linear_time():
    rng = np.random.default_rng(3)
    s = np.r_[np.full(3, 8.0), rng.uniform(0, 2, 200)]
    sigma = causal.causal_singular_values(s)
    assert causal.causal_gram_frobenius_sq(s) == pytest.approx(np.sum(sigma**4), rel=1e-12)
    assert causal.causal_erank2(s) == pytest.approx(erank2(sigma), rel=1e-12)


def test_sigma0_closed_forms():
    for ell in (10, 300, 2000):
        sigma = causal.prefix_average_singular_values(ell)
        assert sigma0_erank2(ell) == pytest.approx(erank2(sigma), rel=1e-9)
    assert harmonic_erank1(500) == pytest.approx(erank1(1 / np.arange(1, 501)), rel=1e-12)
    h = math.log(1e12) + np.euler_gamma
    assert sigma0_erank2(1e12) == pytest.approx(h * h / (2 * h - math.pi**2 / 6), rel=1e-9)


# --- upper bound and order ------------------------------------------------------------------------


def test_bound_profile_and_smallest_constant():
    b, term = upper_bound.bound_profile(100, 4)
    assert b.size == 96 and b[0] == 1 and term[0] == 0 and term[-1] == 1
    sigma = np.r_[np.ones(4), 0.5 * b]
    c = upper_bound.smallest_constant(sigma, 4)
    assert c.constant == pytest.approx(0.5) and 1 <= c.m <= 96
    m = np.arange(1, 97)
    assert c.count_constant == pytest.approx(np.max(m * (0.5 * b) ** 2) / math.log(101))


def test_constant_bulk_needs_a_constant_near_e_to_the_b():
    for bulk in (1.0, 2.0):
        s = upper_bound.constant_bulk_scores(512, 4, bulk)
        c = upper_bound.smallest_constant(causal.causal_singular_values(s), 4)
        assert 0.7 * math.exp(bulk) < c.constant < math.exp(bulk)
        assert c.term == upper_bound.TERMS[1]


def test_structured_families_flags():
    fams = {f.name: f for f in upper_bound.structured_bound_families(4)}
    assert fams[r"$\Sigma = 0$"].canonical and fams[r"$\Sigma = 0$"].bulk_bounded
    assert not fams[r"ramp $0 \to \log\ell$"].canonical
    assert not fams[r"ramp $\log\ell \to 0$"].bulk_bounded


def test_two_token_example_and_orders():
    got = order.two_token_eigenvalues(2 * math.log(2))
    assert got["descending"] == pytest.approx([1.0, 0.5])
    assert got["ascending"] == pytest.approx([1.0, 0.8])
    s = np.r_[np.full(2, 6.0), np.linspace(2, 0, 30)]
    for o in order.ORDERS:
        t = order.ordered(s, o, 0)
        assert sorted(t) == pytest.approx(sorted(s))
    assert order.ordered(s, "ascending", 0)[0] == 0
    p = order.order_point(s, "random", 0, dense=True)
    assert p.srank > 1 and p.erank1 > 1 and p.eigenvalues[0] == pytest.approx(1)
    with pytest.raises(InvalidInput, match="order"):
        order.ordered(s, "sideways", 0)


# --- the crossing bracket -------------------------------------------------------------------------


def test_crossing_bracket_halves_doubles_and_gives_up():
    from attnspec.canonical import cesaro

    srank = {
        e: cesaro.large_ell_stable_rank(model.spike_bulk_scores(e, 1, f=float(e)))[0]
        for e in (64, 128, 256, 512)
    }
    target = (srank[128] + srank[256]) / 2
    low, high, known = cesaro.crossing_bracket(1, float, target, 64, 4096)
    assert (low, high) == (128, 256) and dict(known)[128] == pytest.approx(srank[128])
    assert cesaro.crossing_bracket(1, float, target, 512, 4096)[:2] == (128, 256)
    assert cesaro.crossing_bracket(1, float, 1e3, 64, 1024) is None
