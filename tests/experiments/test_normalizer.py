"""The row normalizer: its exact mean, statistics over trials, and the powered test of the mean."""

import math

import numpy as np
import pytest

from attnspec.core.errors import InvalidInput
from attnspec.experiments.normalizer import (
    POWERED_D,
    mean_test,
    normalizer_mean,
    normalizer_stats,
    powered_mean_test,
    trial_mean_sd,
    trials_to_resolve,
)
from attnspec.experiments.trials import normalizers


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
