"""Crossed bootstrap intervals over texts and heads (attnspec.real.uncertainty)."""

import numpy as np
import pytest

from attnspec.real import (
    uncertainty,
)


def test_crossed_bootstrap_median_interval():
    rng = np.random.default_rng(24)
    table = rng.standard_normal((6, 50)) + 3.0
    iv = uncertainty.median_interval(table, np.random.default_rng(0))
    assert iv.low < iv.value < iv.high and iv.low < 3.0 < iv.high
    assert (iv.n_texts, iv.n_heads) == (6, 50) and iv.excludes(0.0) and not iv.excludes(3.0)
    # a text effect widens the interval: resampling texts matters
    shifted = table + np.arange(6)[:, None]
    wide = uncertainty.median_interval(shifted, np.random.default_rng(0))
    assert wide.high - wide.low > 2 * (iv.high - iv.low)
    with pytest.raises(ValueError):
        uncertainty.median_interval(np.ones(3), rng)


def test_slope_interval_recovers_a_known_slope():
    rng = np.random.default_rng(25)
    x = np.log([16, 32, 64, 128])
    values = 0.5 * x[:, None, None] + 0.05 * rng.standard_normal((4, 4, 30))
    iv = uncertainty.slope_interval(values, x, np.random.default_rng(1))
    assert iv.low < 0.5 < iv.high and iv.value == pytest.approx(0.5, abs=0.02)
    flat = uncertainty.slope_replicates(
        values * 0 + rng.standard_normal((4, 4, 30)), x, np.random.default_rng(2)
    )
    diff = uncertainty.difference_interval(
        uncertainty.slope_replicates(values, x, np.random.default_rng(3)), flat
    )
    assert diff.low > 0
