"""The linear model's distance against the rigidity scale log d/(d sqrt n)."""

import math

import numpy as np
import pytest

from attnspec.experiments.convergence import DistanceSeries, rigidity, rigidity_scale
from attnspec.numerics.fitting import rate_fit


def test_rigidity_scale_and_a_series_that_follows_it():
    d = np.array([250, 500, 1000, 2000])
    n = np.array([4, 4, 4, 4])
    assert rigidity_scale(1000, 4) == pytest.approx(math.log(1000) / 2000)
    ks = 0.5 * rigidity_scale(d, n) * (1 + 1e-3 * np.array([1, -1, 1, -1]))
    s = DistanceSeries("Y_f_lin", "f", d, n, ks, ks * 0.1, rate_fit(d, ks))
    rig = rigidity(s)
    assert rig.ratio == pytest.approx(0.5, rel=2e-3)
    assert abs(rig.exponent) < 2 * rig.se and rig.se < 0.01
    assert rig.scale_rate == pytest.approx(rate_fit(d, rigidity_scale(d, n)).rate)
    biased = DistanceSeries("Y_f_lin", "f", d, n, ks + 1e-3, ks * 0.1, rate_fit(d, ks + 1e-3))
    assert rigidity(biased).exponent > 2 * rigidity(biased).se  # a floor shows as a drift
