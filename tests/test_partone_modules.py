"""The small modules behind the Part I chapters: rank_one, compare, quadrature, interlacing,
normalizer, noise, notation."""

import math

import numpy as np
import pytest

from attnspec.core.config import Config
from attnspec.core.errors import InvalidInput
from attnspec.experiments.noise import noise_floor, reference_bulk
from attnspec.experiments.normalizer import normalizer_mean, normalizer_stats
from attnspec.experiments.rank_one import attention_s1, top_singular_value
from attnspec.experiments.trials import run_ladder
from attnspec.models.attention import draw_scores, row_softmax
from attnspec.models.interlacing import rank_one_interlacing_violation
from attnspec.models.ladder import MODEL_NAMES, REFERENCE
from attnspec.models.nonlinearity import Q, f, taylor_exp, theta_f, theta_q
from attnspec.models.notation import SYMBOLS, symbol
from attnspec.models.quadrature import gaussian_expectation, thetas
from attnspec.numerics.spectra import METRICS, cdf_difference, ecdf


def test_top_singular_value_matches_svd():
    rng = np.random.default_rng(3)
    A = row_softmax(draw_scores(60, rng))
    assert top_singular_value(A) == pytest.approx(np.linalg.svd(A, compute_uv=False)[0], rel=1e-12)
    M = rng.standard_normal((30, 20))
    assert top_singular_value(M) == pytest.approx(np.linalg.svd(M, compute_uv=False)[0], rel=1e-9)
    with pytest.raises(InvalidInput, match="M has shape"):
        top_singular_value(np.ones(3))


def test_attention_s1_uses_the_ladder_trials(cache_dir):
    s1 = attention_s1(40, 1.0, 5, 3)
    assert s1.shape == (3,) and np.all(s1 >= 1 - 1e-12)
    assert np.allclose(s1, run_ladder(d=40, beta=1.0, trials=3, seed=5).s1_A, rtol=1e-10)
    assert np.array_equal(attention_s1(40, 1.0, 5, 3), s1)  # read back from the cache
    with pytest.raises(InvalidInput, match="trials=0"):
        attention_s1(40, 1.0, 5, 0)


def test_ecdf_and_cdf_difference():
    x = np.array([0.0, 1.0, 2.5, 10.0])
    assert ecdf([1.0, 2.0, 3.0, 4.0], x).tolist() == [0.0, 0.25, 0.5, 1.0]
    assert cdf_difference([1.0, 2.0], [1.0, 2.0], x).tolist() == [0.0] * 4
    assert cdf_difference([0.5], [1.5], np.array([1.0]))[0] == 1.0


def test_quadrature_reproduces_the_closed_forms():
    b, n = 1.0, 8
    assert thetas(lambda x: f(x, b), lambda x: b * np.exp(b * x - b * b / 2)) == pytest.approx(
        theta_f(b), abs=1e-12
    )

    def dq(x):
        return math.exp(-b * b / 2) * b * taylor_exp(b * x, n - 1)

    assert thetas(lambda x: Q(x, b, n), dq) == pytest.approx(theta_q(b, n), abs=1e-12)
    assert gaussian_expectation(lambda x: x**4) == pytest.approx(3.0)
    with pytest.raises(InvalidInput, match="nodes=0"):
        gaussian_expectation(lambda x: x, nodes=0)


def test_interlacing_holds_for_a_rank_one_change_and_fails_otherwise():
    rng = np.random.default_rng(0)
    M = rng.standard_normal((30, 30))
    R = np.outer(rng.standard_normal(30), rng.standard_normal(30))

    def s2(X):
        return np.linalg.svd(X, compute_uv=False)[None, :] ** 2

    assert rank_one_interlacing_violation(s2(M), s2(M + R)) < 1e-10
    assert rank_one_interlacing_violation(s2(M), s2(3 * M)) > 0.1
    with pytest.raises(InvalidInput):
        rank_one_interlacing_violation(np.ones((2, 3)), np.ones((2, 4)))


def test_normalizer_mean_is_exact_and_stats_use_trials():
    assert normalizer_mean(0.0, 100) == 1.0
    assert normalizer_mean(1.0, 1000) == pytest.approx(1 + 1 / 4000, rel=1e-6)
    rng = np.random.default_rng(1)  # Monte Carlo check of the exact mean at a small d
    d, beta = 20, 1.0
    D = [
        np.exp(beta * (rng.standard_normal(d) @ rng.standard_normal((d, 50))) / np.sqrt(d)).mean()
        / np.exp(beta**2 / 2)
        for _ in range(4000)
    ]
    assert np.mean(D) == pytest.approx(
        normalizer_mean(beta, d), abs=4 * np.std(D) / np.sqrt(len(D))
    )
    with pytest.raises(InvalidInput, match="beta"):
        normalizer_mean(5.0, 10)
    st = normalizer_stats(np.array([1.0, 1.0, 2.0, 2.0]), 2)
    assert (st.mean, st.std, st.max_dev, st.std_se) == (1.5, 0.5, 1.0, 0.0)
    assert st.mean_se == pytest.approx(0.5)
    with pytest.raises(InvalidInput, match="trials=3"):
        normalizer_stats(np.ones(4), 3)


def test_noise_floor_repeats_the_reference_from_other_seeds(cache_dir):
    config = Config(d=40, trials=2, seed=7)
    ref = run_ladder(config).bulk(REFERENCE)
    assert np.allclose(np.sort(reference_bulk(config, 7)), np.sort(ref), atol=1e-10)
    floor = noise_floor(config, ref, repetitions=2)
    assert floor.values["ks"].shape == (2,) and np.all(floor.values["ks"] > 0)
    assert floor.max("w1") >= floor.mean("w1") > 0
    assert set(floor.values) == set(METRICS)


def test_every_rung_has_a_symbol():
    assert set(SYMBOLS) == set(MODEL_NAMES)
    assert symbol("Y_f_lin") == r"$Y_f^{\mathrm{lin}}$"
    with pytest.raises(InvalidInput, match="not a rung"):
        symbol("A")
