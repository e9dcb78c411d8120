"""The canonical diagonal score model and its bidirectional attention (attnspec.canonical.model),
against dense computation."""

import math

import numpy as np
import pytest

from attnspec.canonical import causal
from attnspec.canonical import model as C
from attnspec.models.attention import row_softmax
from attnspec.numerics import spectra


@pytest.fixture
def rng():
    return np.random.default_rng(20260)


def dense_sv(M):
    return np.linalg.svd(M, compute_uv=False)


def test_spike_bulk_scores(rng):
    ell, k = 64, 3
    s = C.spike_bulk_scores(ell, k, f=math.log)
    assert np.allclose(np.exp(s[:k]), ell * math.log(ell))
    assert np.all(s[k:] == 0)
    s = C.spike_bulk_scores(ell, k, f=5.0, bulk_max=1.5, rng=rng)
    assert np.allclose(np.exp(s[:k]), 5 * ell)
    assert np.all((0 <= s[k:]) & (s[k:] <= 1.5)) and np.all(np.diff(s) <= 0)
    assert np.array_equal(C.score_matrix(s), np.diag(s))


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(ell=1, k=0), "ell"),
        (dict(ell=8, k=9), "k"),
        (dict(ell=8, k=2, f=0.0), "f"),
        (dict(ell=8, k=2, bulk_max=-1.0), "bulk_max"),
        (dict(ell=8, k=2, f=1.0, bulk_max=3.0), "bulk_max"),  # no gap: e^B > ell f
        (dict(ell=8, k=2, bulk_max=1.0), "rng"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        C.spike_bulk_scores(**kwargs)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: C.bidirectional_profile(10, 11), "k"),
        (lambda: C.stable_rank_limit(-1, 10), "k"),
        (lambda: causal.prefix_average_singular_values(1), "ell"),
        (lambda: C.middle_singular_value(10, -1.0), "f"),
        (lambda: causal.causal_norm_maximizer_scores(10, depth=0.0), "depth"),
    ],
)
def test_bad_input_of_closed_forms(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_bad_scores():
    with pytest.raises(ValueError, match="s must be"):
        C.bidirectional_parts([1.0])
    with pytest.raises(ValueError, match="s must be"):
        causal.causal_parts([0.0, np.nan])


def test_softmax_is_diagonal_plus_rank_one(rng):
    s = 3 * rng.standard_normal(40)
    d, z = C.bidirectional_parts(s)
    A = row_softmax(np.diag(s))
    assert np.allclose(C.bidirectional_attention(s), A, rtol=0, atol=1e-15)
    assert np.allclose(np.diag(d) + np.outer(z, np.ones(s.size)), A, rtol=0, atol=1e-15)
    assert np.allclose(A.sum(axis=1), 1, rtol=0, atol=1e-14)
    Z = np.exp(s) + s.size - 1
    # both forms of d: (e^s - 1)/Z (design notes) and 1 - ell z (paper)
    assert np.allclose(d, (np.exp(s) - 1) / Z, rtol=0, atol=1e-15)
    assert np.allclose(d, 1 - s.size * z, rtol=0, atol=1e-14)


def test_large_scores_do_not_overflow():
    d, z = C.bidirectional_parts(np.array([800.0, 0.0, 0.0]))
    assert np.all(np.isfinite(d)) and d[0] == pytest.approx(1.0)


def test_eigenvalues_real_one_and_interlacing(rng):
    s = 3 * rng.standard_normal(60)
    ev = np.linalg.eigvals(C.bidirectional_attention(s))
    assert np.max(np.abs(ev.imag)) < 1e-12
    ev_sym = np.linalg.eigvalsh(C.symmetrized(s))[::-1]
    lam = C.bidirectional_eigenvalues(s)
    assert np.allclose(np.sort(ev.real)[::-1], ev_sym, rtol=0, atol=1e-12)
    assert np.allclose(lam, ev_sym, rtol=0, atol=1e-12)
    assert lam[0] == pytest.approx(1.0, abs=1e-13)
    lower, upper = C.interlacing_bounds(s)
    assert np.all(lower - 1e-13 <= lam) and np.all(lam <= upper + 1e-13)
    # (ell A_ii - 1)/(ell - 1) with the diagonal in descending order
    ell, diag = s.size, np.sort(np.diag(C.bidirectional_attention(s)))[::-1]
    assert np.allclose(lower[1:], (ell * diag[1:] - 1) / (ell - 1), rtol=0, atol=1e-15)


def test_grouped_spectra_match_dense_with_ties(rng):
    s = np.round(2 * rng.standard_normal(80))  # a handful of distinct scores
    A = C.bidirectional_attention(s)
    assert np.allclose(C.bidirectional_singular_values(s), dense_sv(A), rtol=0, atol=1e-12)
    assert np.allclose(
        C.bidirectional_eigenvalues(s), np.sort(np.linalg.eigvals(A).real)[::-1], atol=1e-12
    )


def test_eigenvalue_range_depends_on_sign(rng):
    ell = 50
    lam = C.bidirectional_eigenvalues(rng.uniform(0, 5, ell))
    assert lam.min() >= -1e-14 and lam.max() <= 1 + 1e-14
    lam = C.bidirectional_eigenvalues(np.concatenate([[3.0], np.full(ell - 1, -2.0)]))
    assert -1 / (ell - 1) < lam.min() < 0


def test_profile_error_decreases_with_f():
    ell, k = 1024, 4
    err_log = C.profile_error(C.spike_bulk_scores(ell, k, f=math.log), k)
    err_lin = C.profile_error(C.spike_bulk_scores(ell, k, f=lambda x: x), k)
    assert 0.05 < err_log < 0.2
    assert err_lin < 1.5 / ell < err_log


def test_profile_endpoints_and_alpha():
    assert np.array_equal(C.bidirectional_profile(5, 0), [1, 0, 0, 0, 0])
    assert np.array_equal(C.bidirectional_profile(5, 5), np.ones(5))
    c = np.linspace(0, 1, 11)
    # alpha_+^2, alpha_-^2: eigenvalues of [[1, sqrt(c(1-c))], [sqrt(c(1-c)), 1 - c]]
    assert np.allclose(C.alpha_plus(c) ** 2 + C.alpha_minus(c) ** 2, 2 - c)
    assert np.allclose((C.alpha_plus(c) * C.alpha_minus(c)) ** 2, (1 - c) ** 2)


def test_limit_matrix_has_the_profile():
    ell, k = 40, 6  # spikes at infinity: rows e_i; bulk rows 1^T / ell
    A = np.vstack([np.eye(ell)[:k], np.full((ell - k, ell), 1 / ell)])
    assert np.allclose(dense_sv(A), C.bidirectional_profile(ell, k), atol=1e-12)


def test_middle_values_exact():
    ell, k, f = 300, 7, 3.0
    sigma = C.bidirectional_singular_values(C.spike_bulk_scores(ell, k, f=f))
    middle = C.middle_singular_value(ell, f)
    assert middle == pytest.approx((ell * f - 1) / (ell * f + ell - 1))
    assert np.allclose(sigma[1:k], middle, rtol=1e-14)
    assert np.allclose(sigma[k + 1 :], 0, atol=1e-14)


def test_stable_rank_limit():
    ell = 512
    for k in (1, 16, 128):
        profile = C.bidirectional_profile(ell, k)
        assert C.stable_rank_limit(k, ell) == pytest.approx(spectra.stable_rank(profile), rel=1e-12)
        s = C.spike_bulk_scores(ell, k, f=lambda x: x)
        sigma = C.bidirectional_singular_values(s)
        assert spectra.stable_rank(sigma) == pytest.approx(C.stable_rank_limit(k, ell), rel=1e-2)
        assert C.bidirectional_frobenius_sq(s) == pytest.approx(np.sum(sigma**2), rel=1e-12)
    # k + 1 only when k / ell -> 0
    assert abs(C.stable_rank_limit(128, ell) - 129) > 20
    assert C.stable_rank_limit(2, 10**8) == pytest.approx(3, rel=1e-3)


def test_sigma_zero_bidirectional():
    A = C.bidirectional_attention(np.zeros(30))
    assert np.allclose(A, 1 / 30, rtol=0, atol=1e-16)
    assert C.bidirectional_frobenius_sq(np.zeros(30)) == pytest.approx(1.0)


@pytest.mark.parametrize("erank", [spectra.erank1, spectra.erank2, spectra.stable_rank])
def test_ranks_of_simple_matrices(erank, rng):
    n = 7
    assert erank(dense_sv(np.eye(n))) == pytest.approx(n)
    assert erank(
        dense_sv(np.outer(rng.standard_normal(n), rng.standard_normal(n)))
    ) == pytest.approx(1, abs=1e-9)


def test_rank_order_and_bidirectional_limit():
    sigma = causal.prefix_average_singular_values(256)
    assert spectra.stable_rank(sigma) <= spectra.erank2(sigma) <= sigma.size
    ell, k = 10**6, 5
    assert spectra.erank2(C.bidirectional_profile(ell, k)) == pytest.approx(k + 1, rel=1e-2)
    s = C.spike_bulk_scores(1024, k, f=lambda x: x)
    assert spectra.erank1(C.bidirectional_singular_values(s)) == pytest.approx(k + 1, rel=1e-2)


def test_rank_measures_live_in_spectra_only():
    for name in ("stable_rank", "erank1", "erank2", "erank2_amplitude"):
        assert hasattr(spectra, name) and not hasattr(C, name)


def test_counterexample():
    ell = 128
    A_sigma, A_s = C.counterexample_attention(ell)
    t = 2 * math.log(ell)
    Sigma = np.zeros((ell, ell))
    Sigma[0, 0] = t
    assert np.allclose(dense_sv(Sigma), dense_sv(np.full((ell, ell), t / ell)), atol=1e-9)
    assert np.allclose(A_s, 1 / ell) and dense_sv(A_s)[1] < 1e-12
    sigma = dense_sv(A_sigma)
    assert np.allclose(sigma, C.bidirectional_singular_values(np.diag(Sigma)), atol=1e-12)
    assert np.all(np.abs(sigma[:2] - 1) > 1 / (4 * math.sqrt(ell))) and sigma[2] < 1e-12


def test_counterexample_rate():
    # the two leading values of softmax(Sigma) approach 1 only like 1/(2 sqrt(ell))
    gaps = []
    for ell in (1024, 16384):
        s = np.zeros(ell)
        s[0] = 2 * math.log(ell)
        sigma = C.bidirectional_singular_values(s)
        gaps.append(2 * math.sqrt(ell) * np.abs(sigma[:2] - 1))
    assert np.allclose(gaps[0], 1, atol=0.06) and np.allclose(gaps[1], 1, atol=0.015)
