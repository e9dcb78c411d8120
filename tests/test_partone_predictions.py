"""The first-order predictions of Part I and the tests that use them: the tilt of the top singular
vector, the stable rank at initialization, the powered test of the normalizer's mean, the excess
scan, rankings resolved by the noise floor, and independent Monte-Carlo estimates of theta_1^Q."""

import math

import numpy as np
import pytest

from attnspec.core.errors import InvalidInput
from attnspec.experiments.noise import resolved_order
from attnspec.experiments.normalizer import (
    POWERED_D,
    mean_test,
    normalizer_mean,
    powered_mean_test,
    trial_mean_sd,
    trials_to_resolve,
)
from attnspec.experiments.rank_one import (
    attention_s1,
    excess_scan,
    top_right_vector_deficit,
    uniform_mode_deficit_first_order,
    uniform_mode_deficits,
)
from attnspec.experiments.stable_rank import (
    initial_stable_ranks,
    stable_rank_first_order,
    stable_rank_limit,
)
from attnspec.experiments.trials import normalizers
from attnspec.laws.predictions import s1_excess
from attnspec.models.attention import draw_scores, row_softmax
from attnspec.models.ladder import LADDER
from attnspec.models.nonlinearity import theta_q, theta_q1_estimates, theta_q_monte_carlo


def test_top_right_vector_deficit_matches_the_svd_and_ignores_the_sign():
    rng = np.random.default_rng(5)
    A = row_softmax(draw_scores(80, rng))
    v = np.linalg.svd(A)[2][0]
    expected = 1 - (v.sum() / np.sqrt(80)) ** 2
    assert top_right_vector_deficit(A) == pytest.approx(expected, rel=1e-9)
    assert top_right_vector_deficit(-A) == pytest.approx(expected, rel=1e-9)
    # a matrix whose top right singular vector is exactly the uniform one
    assert top_right_vector_deficit(np.full((5, 5), 0.2)) <= 1e-24
    with pytest.raises(InvalidInput, match="shape"):
        top_right_vector_deficit(np.ones(3))


def test_the_tilt_of_the_uniform_mode_is_twice_the_excess_and_matches_trials(cache_dir):
    assert uniform_mode_deficit_first_order(1.0, 500) == pytest.approx(2 * s1_excess(1.0, 500))
    deficits = uniform_mode_deficits(300, 1.0, 0, 6)
    assert set(deficits) == {"sqrt_d_A", "Y"}
    pred = uniform_mode_deficit_first_order(1.0, 300)
    for values in deficits.values():
        se = values.std(ddof=1) / np.sqrt(values.size)
        assert abs(values.mean() - pred) < 4 * se + 0.05 * pred  # first order, at small d
    again = uniform_mode_deficits(300, 1.0, 0, 6)  # cached per trial, same values
    assert all(np.array_equal(again[k], deficits[k]) for k in deficits)


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


def test_trial_mean_sd_predicts_the_spread_of_trial_means():
    d, beta, trials = 60, 1.0, 400
    per = normalizers(d, beta, 3, trials).reshape(trials, -1).mean(axis=1)
    assert per.std(ddof=1) == pytest.approx(trial_mean_sd(beta, d), rel=0.2)


def test_the_powered_mean_test_resolves_the_excess(cache_dir):
    # the number of trials does not depend on d to first order, and grows as beta falls
    assert trials_to_resolve(1.0, 100) == pytest.approx(trials_to_resolve(1.0, 1000), rel=0.05)
    assert trials_to_resolve(0.5, 100) > trials_to_resolve(1.0, 100) > trials_to_resolve(2.0, 100)
    with pytest.raises(InvalidInput, match="beta"):
        trials_to_resolve(0.0, 100)
    test = powered_mean_test(1.5, 0, 1000)
    assert test.d == POWERED_D and test.trials == trials_to_resolve(1.5, POWERED_D)
    assert test.exact == normalizer_mean(1.5, POWERED_D)
    assert abs(test.z_exact) < 4 and test.detectable < test.deviation and test.z_one > 2
    assert powered_mean_test(0.0, 0, 1000) is None  # no excess at beta = 0
    assert powered_mean_test(11.0, 0, 1000) is None  # beta^2 >= the test's size
    assert powered_mean_test(1.0, 0, 50).d == 50
    one = mean_test(1.0, 30, 0, 1)
    assert one.trials == 1 and math.isnan(one.se)


def test_excess_scan_fits_the_power_law_and_reuses_known_trials(cache_dir):
    known = attention_s1(200, 1.0, 0, 3)
    scan = excess_scan([400, 100, 200, 50], 1.0, 0, 3, known={200: known})
    assert scan.d_values == [50, 100, 200, 400] and scan.dof == 2 and scan.slope_ok
    assert scan.excess[2] == pytest.approx(known.mean() - 1)
    assert abs(scan.slope + 1) < 0.2
    d_worst, z_worst = scan.worst
    assert d_worst in scan.d_values and z_worst == pytest.approx(np.max(np.abs(scan.z)))
    assert not excess_scan([50, 100], 1.0, 0, 2).slope_ok
    with pytest.raises(InvalidInput, match="trials"):
        excess_scan([50, 100, 200, 400], 1.0, 0, 1)


@pytest.mark.parametrize(
    "distances, verdict",
    [
        ({"a": 0.1, "b": 0.2, "c": 0.5}, True),  # c is farther than a and b by more than 0.1
        ({"a": 0.1, "b": 0.45, "c": 0.5}, None),  # b and c cannot be told apart
        ({"a": 0.1, "b": 0.9, "c": 0.5}, False),  # b is farther than c, resolved
    ],
)
def test_resolved_order(distances, verdict):
    assert resolved_order(distances, ["a", "b"], ["c"], 0.1) is verdict


def test_independent_monte_carlo_estimates_are_not_the_seed_draw():
    estimates = theta_q1_estimates(1.0, 8, 2000, 0, count=5)
    assert estimates.shape == (5,) and len(set(estimates)) == 5
    assert np.array_equal(estimates, theta_q1_estimates(1.0, 8, 2000, 0, count=5))
    seed_draw = theta_q_monte_carlo(1.0, 8, 2000, np.random.default_rng(0))[0][0]
    assert seed_draw not in estimates
    big = theta_q1_estimates(1.0, 8, 20000, 1, count=8)
    se = big.std(ddof=1) / np.sqrt(big.size)
    assert abs(big.mean() - theta_q(1.0, 8)[0]) < 4 * se


def test_ladder_roles_typeset_their_formulas():
    for model in LADDER.values():
        outside_math = model.role.split("$")[::2]
        assert not any(ch in part for part in outside_math for ch in "^_θβ"), model.role
