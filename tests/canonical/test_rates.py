"""Rate tests of measured sequences (attnspec.canonical.rates)."""

import numpy as np
import pytest

from attnspec.canonical import rates
from attnspec.core.errors import InvalidInput


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
