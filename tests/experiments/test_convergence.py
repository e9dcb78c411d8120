"""Convergence series: distances with jackknife errors, rates, crossings, extrapolation, and the
linear model's distance against the rigidity scale log d/(d sqrt n)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnspec.core.config import Config
from attnspec.experiments.convergence import (
    DistanceSeries,
    crossing,
    distance_series,
    limit_law,
    pooled_distance,
    rigidity,
    rigidity_scale,
    trials_for_pooled,
)
from attnspec.experiments.trials import run_ladder
from attnspec.numerics.fitting import rate_fit
from attnspec.numerics.spectra import ks_to_law_below_quantile


def test_trials_for_pooled():
    assert trials_for_pooled([250, 500, 1000, 8000], 8000) == {250: 32, 500: 16, 1000: 8, 8000: 1}
    assert trials_for_pooled([10000], 8000, minimum=2) == {10000: 2}


def test_crossing():
    assert crossing([0.5, 1.0, 1.5], [0.01, 0.04, 0.16], 0.08) == pytest.approx(1.25)
    assert math.isnan(crossing([0.5, 1.0], [0.2, 0.3], 0.05))


def test_distance_series_and_pooled_distance(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNSPEC_CACHE", str(tmp_path))
    ladders = [run_ladder(Config(d=dv, trials=3, seed=2)) for dv in (40, 60, 90, 120)]
    s = distance_series(ladders, "Y_f_lin")
    law = limit_law("f", 40, 1.0, 2.0)
    assert s.ks[0] == ks_to_law_below_quantile(ladders[0].bulk("Y_f_lin"), law.cdf, law.ppf, 40, 3)
    assert s.d.tolist() == [40, 60, 90, 120] and s.trials.tolist() == [3, 3, 3, 3]
    assert (
        np.all(s.ks_se > 0)
        and s.fit.n_points == 4
        and np.isfinite(s.fit.se)
        and np.isfinite(s.fit.se_trials)
    )
    p = pooled_distance(ladders[0], "Y_f_lin")
    assert p.ks == s.ks[0] and p.se == s.ks_se[0]
    assert s.at(60) == s.ks[1] and math.isnan(s.at(61))
    q = distance_series(ladders, "Y_Q_lin", "q")
    assert np.all(np.isfinite(q.ks))
    assert limit_law("f", 40, 0.0, 2.0) is None


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
