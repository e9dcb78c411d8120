"""Score matrix, stable row softmax and row normalizers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnspec.models.attention import (
    centred_attention,
    draw_iid_scores,
    draw_scores,
    row_normalizers,
    row_softmax,
    score_matrix,
)


@pytest.fixture(scope="module")
def S():
    return draw_scores(200, np.random.default_rng(1))


def test_draw_scores_is_score_matrix_of_the_first_two_draws():
    S = draw_scores(30, np.random.default_rng(5))
    rng = np.random.default_rng(5)
    Wq, Wk = rng.standard_normal((30, 30)), rng.standard_normal((30, 30))
    assert S.shape == (30, 30)
    np.testing.assert_array_equal(S, score_matrix(Wq, Wk))
    np.testing.assert_array_equal(S, draw_scores(30, np.random.default_rng(5)))


def test_score_matrix_formula():
    rng = np.random.default_rng(2)
    Wq, Wk = rng.standard_normal((7, 5)), rng.standard_normal((7, 5))
    expected = np.array([[Wq[i] @ Wk[j] for j in range(7)] for i in range(7)]) / math.sqrt(5)
    np.testing.assert_allclose(score_matrix(Wq, Wk), expected, rtol=1e-13, atol=1e-14)


def test_score_entries_are_standard_at_large_d(S):
    # S_ij = q_i . k_j / sqrt(d): mean 0, variance 1.
    assert abs(S.mean()) < 0.02
    assert abs(S.var() - 1.0) < 0.05


@pytest.mark.parametrize("beta", [0.0, 1.0, 5.0, 50.0])
def test_softmax_rows_sum_to_one_and_finite(S, beta):
    A = row_softmax(beta * S)
    assert np.isfinite(A).all()
    assert (A >= 0).all()
    np.testing.assert_allclose(A.sum(axis=1), 1.0, rtol=0, atol=1e-12)


def test_softmax_extreme_inputs():
    x = np.array([[1e4, 0.0, -1e4], [-1e4, -1e4, -1e4], [700.0, 710.0, 720.0]])
    A = row_softmax(x)
    assert np.isfinite(A).all()
    np.testing.assert_allclose(A.sum(axis=1), 1.0, atol=1e-15)
    np.testing.assert_allclose(A[1], 1 / 3)
    assert A[0, 0] == 1.0


def test_softmax_matches_naive_formula(S):
    A = row_softmax(S)
    E = np.exp(S)
    np.testing.assert_allclose(A, E / E.sum(axis=1, keepdims=True), rtol=1e-13)


def test_softmax_does_not_modify_input(S):
    before = S.copy()
    row_softmax(S)
    np.testing.assert_array_equal(S, before)


def test_normalizers_match_naive_formula(S):
    beta = 1.0
    Z, D = row_normalizers(beta * S, beta)
    Z_naive = np.exp(beta * S).sum(axis=1)
    np.testing.assert_allclose(Z, Z_naive, rtol=1e-12)
    np.testing.assert_allclose(D, Z_naive / (S.shape[1] * math.exp(beta**2 / 2)), rtol=1e-12)


@pytest.mark.parametrize("beta", [5.0, 20.0, 50.0])
def test_normalizers_finite_at_large_beta(S, beta):
    Z, D = row_normalizers(beta * S, beta)
    assert np.isfinite(Z).all() and (Z > 0).all()
    assert np.isfinite(D).all() and (D >= 0).all()
    # Z_i >= e^{max_j beta S_ij}: the largest term of the sum
    assert (np.log(Z) >= (beta * S).max(axis=1) - 1e-9).all()
    # log Z_i <= max_j beta S_ij + log d
    assert (np.log(Z) <= (beta * S).max(axis=1) + math.log(S.shape[1]) + 1e-9).all()


def test_softmax_equals_exp_over_normalizer(S):
    beta = 2.0
    Z, _ = row_normalizers(beta * S, beta)
    np.testing.assert_allclose(row_softmax(beta * S), np.exp(beta * S) / Z[:, None], rtol=1e-12)


def test_iid_scores_have_the_scores_marginal_and_no_product_structure():
    rng = np.random.default_rng(3)
    S = draw_iid_scores(400, rng)
    assert S.shape == (400, 400)
    assert abs(S.mean()) < 4 / 400 and abs(S.var() - 1) < 4 * math.sqrt(2) / 400
    # a bilinear S has rank d_qk; with d_qk = 20 < d the i.i.d. matrix is full rank, S is not
    rng = np.random.default_rng(4)
    low = score_matrix(rng.standard_normal((60, 20)), rng.standard_normal((60, 20)))
    assert np.linalg.matrix_rank(low) == 20 and np.linalg.matrix_rank(S[:60, :60]) == 60


def test_centred_attention_formula():
    rng = np.random.default_rng(6)
    S, beta = draw_iid_scores(50, rng), 0.7
    M = centred_attention(S, beta)
    np.testing.assert_allclose(M.sum(axis=1), 0.0, atol=1e-12)  # rows of A sum to 1
    D = row_normalizers(beta * S, beta)[1]
    expected = (np.exp(beta * S - beta**2 / 2) / D[:, None] - 1) / math.sqrt(50)
    np.testing.assert_allclose(M, expected, rtol=1e-10, atol=1e-13)
