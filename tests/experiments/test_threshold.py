"""The (d, beta) plane with its bootstrap: resampled distances, crossings, exponents, rates and the
collapse, on synthetic planes with known answers and on small real ladders."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnspec.core.config import Config
from attnspec.experiments import normalizer_reference as nr
from attnspec.experiments import threshold as th
from attnspec.experiments.convergence import limit_law, pooled_distance, trial_bulks
from attnspec.experiments.trials import run_ladder
from attnspec.numerics.spectra import ks_to_law_below_quantile


@pytest.fixture(scope="module")
def ladders():
    """Small ladders on a 2 x 3 grid (the module's temporary cache, tests/conftest.py)."""
    return [
        run_ladder(Config(d=d, beta=b, trials=3, seed=4)) for d in (40, 80) for b in (0.5, 1.0, 1.5)
    ]


def test_resampled_distances_with_all_ones_and_leave_one_out_equal_the_plain_distance(ladders):
    L = ladders[1]
    law = limit_law("f", L.config.d, L.config.beta, L.config.c_poly)
    parts = trial_bulks(L, "Y_f")
    counts = np.array([[1, 1, 1], [0, 1, 1], [1, 0, 1], [2, 0, 1]], dtype=float)
    got = th.resampled_distances(parts, law.cdf, law.ppf, 40, 3, counts)
    assert got[0] == pytest.approx(
        ks_to_law_below_quantile(np.concatenate(parts), law.cdf, law.ppf, 40, 3), abs=1e-15
    )
    assert got[1] == pytest.approx(
        ks_to_law_below_quantile(np.concatenate(parts[1:]), law.cdf, law.ppf, 40, 3), abs=1e-15
    )
    assert got[2] == pytest.approx(
        ks_to_law_below_quantile(np.concatenate([parts[0], parts[2]]), law.cdf, law.ppf, 40, 3),
        abs=1e-15,
    )
    doubled = np.concatenate([parts[0], parts[0], parts[2]])
    assert got[3] == pytest.approx(
        ks_to_law_below_quantile(doubled, law.cdf, law.ppf, 40, 3), abs=1e-15
    )


def test_bootstrap_counts_are_seeded_per_size_and_sum_to_the_trials():
    a = th.bootstrap_counts(5, 7, seed=1, d=100)
    assert a.shape == (7, 5) and np.all(a.sum(axis=1) == 5)
    assert np.array_equal(a, th.bootstrap_counts(5, 7, seed=1, d=100))
    assert not np.array_equal(a, th.bootstrap_counts(5, 7, seed=1, d=200))
    assert th.bootstrap_counts(5, 0, seed=1, d=100).shape == (0, 5)


def test_distance_plane_matches_pooled_distances_and_has_a_bootstrap(ladders):
    plane = th.distance_plane(ladders, "sqrt_d_A_perp", resamples=20, seed=0)
    assert plane.d.tolist() == [40, 80] and plane.beta.tolist() == [0.5, 1.0, 1.5]
    assert plane.boot.shape == (2, 3, 20) and plane.trials.tolist() == [3, 3]
    for L in ladders:
        i, j = plane.row(L.config.d), plane.column(L.config.beta)
        assert plane.ks[i, j] == pytest.approx(pooled_distance(L, "sqrt_d_A_perp").ks, abs=1e-15)
    assert np.all(plane.se > 0)
    assert np.all(np.isnan(th.distance_plane(ladders, "Y_f_lin").se))
    rows = th.row_distances(ladders[:3], ["Y_f"])
    assert [p.ks for p in rows["Y_f"]] == [pooled_distance(L, "Y_f").ks for L in ladders[:3]]


def synthetic_plane(c: float, noise: float = 0.0, resamples: int = 50) -> th.Plane:
    """log D = G(beta^2 - c log d) exactly, with G increasing; replicates with relative noise."""
    d = np.array([250, 500, 1000, 2000])
    beta = np.linspace(0.5, 2.5, 17)
    x = beta[None, :] ** 2 - c * np.log(d.astype(float))[:, None]
    ks = 0.6 / (1 + np.exp(0.5 - x))
    rng = np.random.default_rng(0)
    boot = ks[..., None] * np.exp(noise * rng.standard_normal((*ks.shape, resamples)))
    return th.Plane("m", d, beta, np.full(4, 4), ks, boot)


def test_boundary_recovers_the_exponent_of_an_exact_collapse():
    plane = synthetic_plane(0.45, noise=0.01)
    for level in (0.05, 0.2):
        b = th.boundary(plane, level)
        assert b.gamma == pytest.approx(0.45, abs=5e-3)  # interpolation in beta only
        assert 0 < b.gamma_se < 0.05 and b.found == 1.0
        assert np.all(np.diff(b.beta) > 0)
    assert math.isnan(th.boundary(plane, 0.99).gamma)  # never crossed


def test_collapse_finds_c_and_the_spread_grows_away_from_it():
    plane = synthetic_plane(0.45, noise=0.01)
    use = np.ones(plane.ks.shape, bool)
    col = th.collapse(plane, use)
    assert col.c == pytest.approx(0.45, abs=0.01) and col.c_se < 0.05
    assert col.spread < 0.01 < col.spread_one and col.spread < col.spread_ratio
    assert col.noise == pytest.approx(math.sqrt(2) * 0.01, rel=0.3) and col.cells == use.size


def test_rates_in_d_of_power_laws():
    d = np.array([250, 500, 1000, 2000])
    beta = np.array([0.5, 1.0, 1.5])
    rho = np.array([0.9, 0.6, 0.3])
    ks = 3.0 * d[:, None].astype(float) ** (-rho[None, :])
    boot = ks[..., None] * np.ones(5)
    r = th.rates_in_d(th.Plane("m", d, beta, np.full(4, 2), ks, boot))
    assert r.rate == pytest.approx(rho) and np.allclose(r.se, 0)
    assert r.slope == pytest.approx(-0.6) and r.slope_se == pytest.approx(0, abs=1e-12)


def test_crossings_along_the_last_axis():
    ks = np.array([[0.01, 0.04, 0.16], [0.02, 0.08, 0.32]])
    got = th.crossings([0.5, 1.0, 1.5], ks, 0.08)
    assert got[0] == pytest.approx(1.25) and got[1] == pytest.approx(1.0)
    assert th.exponent([100, 1000], np.array([1.0, math.nan])) != th.exponent([100, 1000], [1, 2])


def test_linear_crossing_interpolates_the_distance_itself():
    ks = np.array([[0.01, 0.04, 0.16]])
    assert th.crossings([0.5, 1.0, 1.5], ks, 0.1, log=False)[0] == pytest.approx(1.25)
    assert th.crossings([0.5, 1.0, 1.5], ks, 0.08)[0] == pytest.approx(1.25)  # log: geometric


def test_boundary_models_recover_the_curve_that_made_the_points():
    d = np.array([250, 500, 1000, 2000])
    logd = np.log(d.astype(float))
    err = np.full(4, 0.01)
    line = th.Boundary(0.05, d, np.sqrt(0.47 * logd - 1.4), err, 0.47, 0.01, 1.0, 0 * err, 0.0)
    counter = th.Boundary(
        0.05, d, np.sqrt(logd - 2.7 * np.sqrt(logd) + 2.0), err, 0.47, 0.01, 1.0, 0 * err, 0.0
    )
    fit = th.fit_boundary(line)
    assert fit.params == pytest.approx((0.47, -1.4)) and fit.rms < 1e-12 and fit.dof == 2
    fit = th.fit_boundary(counter, counter=True)
    assert fit.params == pytest.approx((-2.7, 2.0)) and fit.rms < 1e-12 and fit.p == 1.0
    # the line misfits the counter-model's points: residuals far above errors of 1e-4
    tight = th.Boundary(0.05, d, counter.beta, err / 100, 0.5, 0.0, 1.0, 0 * err, 0.0)
    assert th.fit_boundary(tight).chi2 > 10 and th.fit_boundary(tight).p < 0.01
    assert np.allclose(tight.beta_err, 1e-4) and tight.gamma_err == pytest.approx(0.0)


def test_collapse_error_adds_the_spread_of_gamma_over_levels():
    col = th.Collapse(0.43, 0.03, 0.1, 0.7, 0.4, 0.05, 40)
    assert th.collapse_error(col, [0.4, 0.5]) == pytest.approx(math.hypot(0.03, math.sqrt(0.005)))
    assert math.isnan(th.collapse_error(col, [0.4]))


def test_normalizer_points_against_the_exact_spread(ladders):
    points = nr.normalizer_points(ladders)
    assert [(p.d, p.beta) for p in points] == [(d, b) for d in (40, 80) for b in (0.5, 1.0, 1.5)]
    for p in points:
        assert p.trials == 3 and p.se > 0 and p.exact == pytest.approx(nr.exact_std(p.beta, p.d))
        if p.beta <= 1.0:  # at beta = 1.5, d = 40 rare large terms carry the variance
            assert abs(p.z) < 4, p
    assert nr.exact_std(1.0, 4) == math.inf and nr.exact_std(1.0, 5) < math.inf
