"""Distances of angles to the uniform law on the circle (attnspec.real.circular)."""

import math

import numpy as np
import pytest
from scipy import stats

from attnspec.real import (
    circular,
)


def test_circular_w1_exact_values():
    for m in (1, 7, 50):
        phi = np.mod(np.arange(m) / m * 2 * math.pi + math.pi, 2 * math.pi) - math.pi
        assert circular.circular_w1_to_uniform(phi) == pytest.approx(math.pi / (2 * m), rel=1e-12)
    assert circular.circular_w1_to_uniform(np.zeros(9)) == pytest.approx(math.pi / 2, rel=1e-12)
    # rotation invariance on the circle
    rng = np.random.default_rng(1)
    x = rng.uniform(-math.pi, math.pi, 40) ** 3 / math.pi**2
    shifted = np.mod(x + 1.234 + math.pi, 2 * math.pi) - math.pi
    assert circular.circular_w1_to_uniform(shifted) == pytest.approx(
        circular.circular_w1_to_uniform(x), abs=1e-12
    )


def test_circular_w1_against_brute_force():
    rng = np.random.default_rng(2)
    for size in (3, 11, 60):
        x = rng.uniform(-math.pi, math.pi, size) ** 3 / math.pi**2  # clustered near 0
        t = np.sort(np.mod(x / (2 * math.pi), 1.0))
        grid = (np.arange(100_000) + 0.5) / 100_000
        g = np.searchsorted(t, grid, side="right") / size - grid
        best = min(np.mean(np.abs(g - a)) for a in np.linspace(g.min(), g.max(), 2001))
        assert circular.circular_w1_to_uniform(x) == pytest.approx(2 * math.pi * best, abs=2e-4)


def test_kolmogorov_matches_scipy_and_kl_limits():
    rng = np.random.default_rng(3)
    x = rng.uniform(-math.pi, math.pi, 200) ** 3 / math.pi**2
    expected = stats.kstest(x, stats.uniform(loc=-math.pi, scale=2 * math.pi).cdf).statistic
    assert circular.kolmogorov_to_uniform(x) == pytest.approx(expected, abs=1e-14)
    centres = np.mod(np.arange(50) * 2 * math.pi / 50 + math.pi, 2 * math.pi) - math.pi
    assert circular.kl_to_uniform(np.repeat(centres, 3), 50) == pytest.approx(0.0, abs=1e-14)
    # arcs are centred on 0 and pi: round-off around the atoms does not move them
    assert circular.kl_to_uniform(
        np.array([-1e-15, 0.0, 1e-15, math.pi, -math.pi]), 2
    ) == pytest.approx(0.6 * math.log(1.2) + 0.4 * math.log(0.8))
    assert circular.kl_to_uniform(np.zeros(10), 50) == pytest.approx(math.log(50), abs=1e-14)
    with pytest.raises(ValueError):
        circular.kl_to_uniform(np.array([4.0]))
    with pytest.raises(ValueError):
        circular.angle_discrepancies(np.array([]))
