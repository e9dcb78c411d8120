"""The Hermite-block models Y_k, their limit law, and attention against them at small sizes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.polynomial import hermite_e

from attnspec.chapters.parameters import declared
from attnspec.core.errors import InvalidInput
from attnspec.experiments.head_dimension_blocks import run_block_series
from attnspec.laws.head_dimension import HeadDimensionLaw
from attnspec.laws.hermite_blocks import HermiteBlockLaw
from attnspec.models.head_dimension import draw_head_scores
from attnspec.models.hermite_blocks import (
    block_powers,
    block_rank,
    block_ratios,
    hermite_blocks,
    hermite_model,
    noise_power,
)
from attnspec.models.ladder import gaussian_equivalent
from attnspec.models.nonlinearity import theta_f
from tests.helpers import in_this_process


def test_hermite_blocks_are_the_probabilists_polynomials():
    x = np.linspace(-3, 3, 13)[None, :]
    for j, block in enumerate(hermite_blocks(x, 4), start=1):
        assert np.allclose(block, hermite_e.hermeval(x, [0] * j + [1]), atol=1e-12)


@pytest.mark.parametrize("beta", [0.5, 1.0, 1.5])
def test_the_blocks_powers_and_the_noise_add_up_to_theta1(beta):
    for k in (1, 2, 3):
        total = sum(block_powers(beta, k)) + noise_power(beta, k)
        assert total == pytest.approx(theta_f(beta)[0], rel=1e-13)


def test_block_ranks():
    assert [block_rank(64, j) for j in (1, 2, 3)] == [64, 2080, 45760]
    assert block_ratios(1024, 32, 2) == [32 / 1024, 528 / 1024]


def test_y1_is_the_linear_model():
    rng = np.random.default_rng(1)
    _, _, S = draw_head_scores(40, 8, rng)
    W = rng.standard_normal((40, 40))
    assert np.allclose(hermite_model(S, W, 1.0, 1), gaussian_equivalent(S, W, theta_f(1.0)))


@pytest.mark.parametrize("ratio", [1.0, 0.25, 0.0625])
def test_the_law_at_one_block_is_the_head_dimension_law(ratio):
    theta1, theta2 = theta_f(1.0)
    law = HermiteBlockLaw([theta2], [ratio], theta1 - theta2)
    exact = HeadDimensionLaw(theta1, theta2, ratio)
    lam = np.linspace(0.01, 1.2 * exact.edge, 300)
    assert np.max(np.abs(law.cdf(lam) - exact.cdf(lam))) < 2e-5
    assert law.edge == pytest.approx(exact.edge, rel=2e-3)


def test_the_law_has_its_mean_and_variance():
    # block ratios of d = 1024, d_qk = 32: c_1 < 1 < c_3
    law = HermiteBlockLaw(block_powers(1.0, 3), block_ratios(1024, 32, 3), noise_power(1.0, 3))
    lam = law._x**2
    tail = 1.0 - law.cdf(lam)
    mean = np.trapezoid(tail, lam)
    second = np.trapezoid(2 * lam * tail, lam)
    assert law.grid_mass == pytest.approx(1.0, abs=1e-5)
    assert mean == pytest.approx(law.mean(), rel=1e-4)
    assert second - mean**2 == pytest.approx(law.var(), rel=1e-3)
    assert law.ppf(law.cdf(4.0)) == pytest.approx(4.0, rel=1e-6)


def test_bad_input_names_the_parameter():
    with pytest.raises(InvalidInput, match="powers"):
        HermiteBlockLaw([1.0, 0.5], [1.0], 0.5)
    with pytest.raises(InvalidInput, match="ratios"):
        HermiteBlockLaw([1.0], [0.0], 0.5)
    with pytest.raises(InvalidInput, match="noise"):
        HermiteBlockLaw([1.0], [1.0], -0.5)


def test_the_law_describes_sampled_y1_and_attention_is_nearer_y3():
    with in_this_process():
        series = run_block_series([6, 8, 10], 0.5, 1.0, 3, 0, 200, 2, 1)
    last = series.points[-1]
    assert [p.d for p in series.points] == [36, 64, 100]
    assert last.check[1].ks <= last.floor[1].ks + 2 * last.floor[1].se
    assert last.to_law[3].ks < last.to_law[1].ks
    assert math.isfinite(series.rates[3].rate)


@pytest.mark.parametrize(
    "values, message",
    [
        ({"half_heads": [16, 32, 32]}, "needs at least 3 distinct head dimensions"),
        ({"fifth_heads": [9, 10]}, "needs at least 2 distinct perfect squares"),
        ({"fifth_heads": [2, 9]}, "fifth_heads=2 is out of range"),
        ({"k_max": 5}, "k_max=5 is out of range"),
    ],
)
def test_the_series_parameters_are_checked(values, message):
    with pytest.raises(InvalidInput, match=message.replace("[", r"\[").replace("]", r"\]")):
        declared("head-dimension").validate(values)
