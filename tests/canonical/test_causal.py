"""Causal attention of the canonical model (attnspec.canonical.causal), against dense
computation."""

import math

import numpy as np
import pytest
from scipy.optimize import minimize

from attnspec.canonical import causal
from attnspec.canonical import model as C
from attnspec.core.errors import InvalidInput
from attnspec.models.attention import row_softmax
from attnspec.numerics import spectra
from attnspec.numerics.spectra import erank2


@pytest.fixture
def rng():
    return np.random.default_rng(20260)


def dense_sv(M):
    return np.linalg.svd(M, compute_uv=False)


def causal_softmax(s):
    ell = s.size
    mask = np.triu(np.full((ell, ell), -np.inf), 1)
    return row_softmax(np.diag(s) + mask)


def test_causal_matrix_eigenvalues_gram(rng):
    s = 3 * rng.standard_normal(70)
    A = causal.causal_attention(s)
    assert np.allclose(A, causal_softmax(s), rtol=0, atol=1e-15)
    assert np.allclose(A.sum(axis=1), 1) and np.all(np.triu(A, 1) == 0)
    i = np.arange(1, s.size + 1)
    assert np.allclose(np.diag(A), np.exp(s) / (np.exp(s) + i - 1))
    ev = np.linalg.eigvals(A)
    assert np.allclose(np.sort(ev.real)[::-1], causal.causal_eigenvalues(s), atol=1e-12)
    assert np.allclose(causal.causal_gram(s), A @ A.T, rtol=0, atol=1e-15)
    # Gram route: absolute error about sqrt(eps * |G|) ~ 1.5e-8 on singular values near 0
    assert np.allclose(causal.causal_singular_values(s), dense_sv(A), rtol=0, atol=1e-7)
    assert causal.causal_frobenius_sq(s) == pytest.approx(np.sum(A**2), rel=1e-13)
    assert causal.causal_operator_norm(s) == pytest.approx(np.linalg.norm(A, 2), rel=1e-12)


def test_causal_sigma_zero():
    ell = 512
    A = causal.causal_attention(np.zeros(ell))
    assert np.allclose(A, np.tril(np.ones((ell, ell))) / np.arange(1, ell + 1)[:, None])
    H = causal.harmonic_number(ell)
    assert causal.causal_frobenius_sq(np.zeros(ell)) == pytest.approx(H, rel=1e-14)
    sigma = causal.prefix_average_singular_values(ell)
    assert np.allclose(sigma, dense_sv(A), rtol=1e-10, atol=0)
    assert np.sum(sigma**2) == pytest.approx(H, rel=1e-10)


@pytest.mark.parametrize("ell, norm", [(256, 1.686), (1024, 1.749), (4096, 1.79478)])
def test_causal_sigma_zero_norm(ell, norm):
    assert causal.causal_operator_norm(np.zeros(ell)) == pytest.approx(norm, abs=5e-4)
    assert causal.prefix_average_singular_values(ell)[0] == pytest.approx(norm, abs=5e-4)


def test_causal_stable_rank_grows_like_log():
    ells = 2 ** np.arange(7, 14)
    srank = [causal.causal_stable_rank(np.zeros(int(ell))) for ell in ells]
    slope, intercept = np.polyfit(np.log(ells), srank, 1)
    assert slope == pytest.approx(0.219, abs=1e-3) and intercept == pytest.approx(0.938, abs=1e-3)


def test_gram_operator_matches_dense(rng):
    for s in (
        rng.uniform(0, 4, 50),
        np.r_[rng.uniform(3, 5, 3), np.zeros(47)],
        -rng.uniform(0, 2, 50),
    ):
        A = causal.causal_attention(s)
        op = causal.CausalGramOperator(*causal.causal_parts(s))
        x = rng.standard_normal(s.size)
        assert np.allclose(op.matvec(x), A.T @ (A @ x), rtol=0, atol=1e-13)
        assert op.top_eigenvalue() == pytest.approx(np.linalg.norm(A, 2) ** 2, rel=1e-12)
        assert op.top_eigenvalues(3) == pytest.approx(dense_sv(A)[:3] ** 2, rel=1e-10)


def test_causal_top_until():
    s = np.zeros(512)
    top, complete = causal.causal_top_until(s, 0.1, 4, 256)
    assert complete and top[-1] <= 0.1 and top.size >= 8
    top, complete = causal.causal_top_until(s, 1e-9, 4, 16)
    assert not complete and top.size == 16


def test_causal_lower_bound_only_for_nonnegative_scores(rng):
    ell = 200
    bound = causal.causal_singular_lower_bound(ell)
    for s in (np.zeros(ell), rng.uniform(0, 6, ell), np.sort(rng.uniform(0, 6, ell))[::-1]):
        assert np.all(causal.causal_singular_values(s) >= bound)
    s = np.concatenate([[0.0], np.full(ell - 1, -20.0)])  # rows 1 and 2 almost equal
    assert causal.causal_singular_values(s)[-1] < bound[-1]


def test_causal_norm_below_sqrt5_and_maximizer(rng):
    ell = 32

    def negative_norm(s):  # d sigma_1 / d s_i = u_i A_ii (v_i - (A v)_i)
        A = causal.causal_attention(s)
        U, S, Vt = np.linalg.svd(A)
        return -S[0], -U[:, 0] * np.diag(A) * (Vt[0] - A @ Vt[0])

    best = causal.causal_operator_norm(causal.causal_norm_maximizer_scores(ell))
    start = 3 * rng.standard_normal(ell)
    found = minimize(negative_norm, start, jac=True, method="L-BFGS-B", bounds=[(-50, 50)] * ell)
    assert -found.fun <= best + 1e-6
    assert causal.causal_operator_norm(np.zeros(ell)) < best < causal.CAUSAL_NORM_BOUND


def test_causal_top_singular_values_match_dense(rng):
    ell, k = 300, 4
    s = C.spike_bulk_scores(ell, k, f=math.log, bulk_max=2.0, rng=rng)
    dense = causal.causal_singular_values(s)
    for n in (1, 40, ell - 1, ell):
        top = causal.causal_top_singular_values(s, n)
        assert top.shape == (n,) and np.all(np.diff(top) <= 0)
        assert np.allclose(top, dense[:n], rtol=0, atol=1e-12)
    assert causal.causal_top_singular_values(s, 1)[0] == pytest.approx(
        causal.causal_operator_norm(s), rel=1e-12
    )
    for bad in (0, ell + 1, 2.0, True):
        with pytest.raises(ValueError, match="n="):
            causal.causal_top_singular_values(s, bad)


def test_erank2_amplitude():
    n = 7
    assert spectra.erank2_amplitude(np.ones(n)) == pytest.approx(n)
    assert spectra.erank2_amplitude(np.array([3.0, 0, 0])) == pytest.approx(1)
    # causal attention at Sigma = 0: the module's erank2 is affine in log(ell), this one is not
    ells = [256, 1024, 4096]
    e2 = [spectra.erank2(causal.prefix_average_singular_values(ell)) for ell in ells]
    amp = [spectra.erank2_amplitude(causal.prefix_average_singular_values(ell)) for ell in ells]
    assert np.diff(e2) == pytest.approx([np.diff(e2)[0]] * 2, rel=0.02)
    assert np.log(amp[-1] / amp[0]) / np.log(16) == pytest.approx(0.3, abs=0.03)


def test_causal_spike_gaps_are_the_rows_off_diagonal_mass(rng):
    s = C.spike_bulk_scores(128, 4, bulk_max=1.0, rng=rng)
    gaps = causal.causal_spike_gaps(s[:4])
    assert np.allclose(gaps, 1 - np.diag(causal_softmax(s))[:4], rtol=0, atol=1e-15)
    i, ellf = np.arange(1, 5), 128 * math.log(128)
    assert np.allclose(gaps, (i - 1) / (ellf + i - 1), rtol=1e-13, atol=0)
    with pytest.raises(InvalidInput, match="leading"):
        causal.causal_spike_gaps([])


def test_causal_gram_frobenius_and_erank2_in_linear_time():
    rng = np.random.default_rng(3)
    s = np.r_[np.full(3, 8.0), rng.uniform(0, 2, 200)]
    sigma = causal.causal_singular_values(s)
    assert causal.causal_gram_frobenius_sq(s) == pytest.approx(np.sum(sigma**4), rel=1e-12)
    assert causal.causal_erank2(s) == pytest.approx(erank2(sigma), rel=1e-12)
