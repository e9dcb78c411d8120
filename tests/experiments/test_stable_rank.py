"""Stable rank of random attention at initialization: exact identities and the large-d limit."""

import math

import numpy as np
import pytest

from attnspec.core.errors import InvalidInput
from attnspec.experiments.stable_rank import (
    attention_stable_ranks,
    causal_softmax,
    initial_stable_ranks,
    stable_rank_first_order,
    stable_rank_limit,
)


def test_causal_softmax_rows_sum_to_one_below_the_diagonal():
    x = np.random.default_rng(0).standard_normal((6, 6))
    A = causal_softmax(x)
    assert np.allclose(A.sum(axis=1), 1) and np.all(np.triu(A, 1) == 0)
    assert A[0, 0] == 1 and A[1, 0] == pytest.approx(math.exp(x[1, 0]) / np.exp(x[1, :2]).sum())


def test_zero_scores_give_the_uniform_and_the_cesaro_matrix():
    """At beta = 0 bidirectional attention is 11^T/d (rank one) and causal attention the Cesàro
    matrix, whose squared Frobenius norm is the harmonic number H_d."""
    assert attention_stable_ranks(50, 0.0, 0, 1)[0] == pytest.approx(1.0, rel=1e-12)
    d = 50
    harmonic = sum(1 / i for i in range(1, d + 1))
    A = causal_softmax(np.zeros((d, d)))
    assert np.sum(A * A) == pytest.approx(harmonic, rel=1e-12)
    top = np.linalg.svd(A, compute_uv=False)[0]
    assert attention_stable_ranks(d, 0.0, 0, 1, causal=True)[0] == pytest.approx(harmonic / top**2)


def test_bidirectional_stable_rank_approaches_e_to_the_beta_squared():
    ranks = attention_stable_ranks(400, 1.0, 0, 4)
    assert stable_rank_limit(1.0) == pytest.approx(math.e)
    assert abs(ranks.mean() - math.e) < 0.1  # finite-d deficit is O(1/sqrt d) here
    with pytest.raises(InvalidInput, match="trials"):
        attention_stable_ranks(400, 1.0, 0, 0)


def test_stable_rank_first_order_and_its_measurement(cache_dir):
    e = math.e
    assert stable_rank_first_order(1.0, 1000) == pytest.approx(
        e * (1 + (0.5 - 2 * e * (e - 1)) / 1000)
    )
    assert stable_rank_first_order(0.0, 50) == pytest.approx(1.0)
    assert stable_rank_first_order(1.0, 10**9) == pytest.approx(stable_rank_limit(1.0), rel=1e-8)
    ranks = initial_stable_ranks(400, 1.0, 0, 5)
    mean, se = ranks.mean_se
    assert ranks.bidirectional.shape == (5,) and ranks.causal.shape == (5,)
    assert abs(ranks.z) < 4 and ranks.z == pytest.approx((mean - ranks.prediction) / se)
    causal, _ = ranks.causal_mean_se
    assert causal > mean  # causal random attention spreads over more directions
    with pytest.raises(InvalidInput, match="d"):
        stable_rank_first_order(1.0, 1)
