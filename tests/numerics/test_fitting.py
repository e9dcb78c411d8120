"""Power-law fits, rate fits and the jackknife."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from attnspec.numerics.fitting import (
    jackknife_se,
    leave_one_out,
    power_law_fit,
    rate_fit,
    rate_fit_jackknife,
)


@pytest.mark.parametrize("n", [4, 5, 9])
def test_power_law_fit_equals_linregress(n):
    rng = np.random.default_rng(n)
    x = np.geomspace(100, 10000, n)
    y = 3.0 * x**-0.8 * np.exp(0.05 * rng.standard_normal(n))
    b, a, se = power_law_fit(x, y)
    ref = stats.linregress(np.log(x), np.log(y))
    assert b == pytest.approx(ref.slope, rel=1e-12)
    assert a == pytest.approx(ref.intercept, rel=1e-10)
    assert se == pytest.approx(ref.stderr, rel=1e-10)


@pytest.mark.parametrize("n", [2, 3])
def test_no_standard_error_without_two_degrees_of_freedom(n):
    x = np.array([100.0, 200.0, 400.0][:n])
    b, a, se = power_law_fit(x, x**-1.0 * (1 + 0.01 * np.arange(n)))
    assert np.isnan(se) and np.isfinite(b)


def test_rate_fit_skips_points_that_are_not_positive():
    fit = rate_fit([1, 2, 4, 8, 16], [1.0, 0.5, float("nan"), 0.0, 1 / 16])
    assert fit.n_points == 3 and fit.rate == pytest.approx(1.0) and np.isnan(fit.se)
    assert np.allclose(fit.predict([2.0]), 0.5)
    assert np.isnan(rate_fit([1, 2], [1.0, -1.0]).rate)


def test_jackknife_of_the_mean_is_the_standard_error():
    rng = np.random.default_rng(0)
    v = rng.standard_normal(30)
    loo = [np.mean(p) for p in leave_one_out([np.array([x]) for x in v])]
    assert jackknife_se(loo) == pytest.approx(v.std(ddof=1) / np.sqrt(v.size), rel=1e-12)
    assert leave_one_out([np.ones(2)]) == [] and np.isnan(jackknife_se([1.0]))


def test_rate_fit_jackknife_keeps_single_trial_sizes():
    rng = np.random.default_rng(2)
    x = [100, 200, 400, 800]
    parts = [[rng.random(5) / d for _ in range(3)] for d in x[:3]] + [[rng.random(5) / 800]]
    fit = rate_fit_jackknife(x, parts, lambda i, v: float(v.mean()))
    assert fit.n_points == 4 and fit.rate == pytest.approx(1.0, abs=0.3)
    assert np.isfinite(fit.se_trials) and fit.se_trials > 0
