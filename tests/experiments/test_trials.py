"""Trials: seeding independent of the number of trials, caching transparency, aggregates, and
statistical checks of the paper's first two claims at d = 1000."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnspec.core.config import PARAMETERS, Config
from attnspec.experiments.trials import LadderResult, compute_trial, run_ladder, trial, trial_rng
from attnspec.models.ladder import MODEL_NAMES, REFERENCE
from attnspec.models.nonlinearity import poly_degree, theta_f, theta_q, theta_q_monte_carlo


@pytest.mark.parametrize("seed, n", [(0, 5), (12345, 3), (2**32 - 1, 7)])
def test_trial_rng_is_child_k_of_the_seed_sequence(seed, n):
    children = np.random.SeedSequence(seed).spawn(n)
    for k in range(n):
        expected = np.random.default_rng(children[k]).standard_normal(8)
        np.testing.assert_array_equal(trial_rng(seed, k).standard_normal(8), expected)
    assert not np.array_equal(
        trial_rng(seed, 0).standard_normal(8), trial_rng(seed, 1).standard_normal(8)
    )


def test_trial_k_does_not_depend_on_the_number_of_trials(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNSPEC_CACHE", str(tmp_path / "three"))
    three = run_ladder(d=48, trials=3, seed=4)
    monkeypatch.setenv("ATTNSPEC_CACHE", str(tmp_path / "five"))  # no shared cache entries
    five = run_ladder(d=48, trials=5, seed=4)
    assert len(three.trials) == 3 and len(five.trials) == 5
    for k in range(3):
        assert three.trials[k].keys() == five.trials[k].keys()
        for name in three.trials[k]:
            np.testing.assert_array_equal(three.trials[k][name], five.trials[k][name])
    assert not np.array_equal(five.trials[3]["Y"], five.trials[4]["Y"])


def test_cached_trial_equals_uncached():
    direct = compute_trial(40, 1.0, 2.0, 9, 2)
    for _ in range(2):  # computed and stored, then read back
        got = trial(40, 1.0, 2.0, 9, 2)
        assert got.keys() == direct.keys()
        for name in direct:
            np.testing.assert_array_equal(got[name], direct[name])


def test_different_seed_beta_or_c_give_different_trials():
    base = compute_trial(32, 1.0, 2.0, 0, 0)
    assert not np.array_equal(base["Y_f"], compute_trial(32, 1.0, 2.0, 1, 0)["Y_f"])
    assert not np.array_equal(base["Y_f"], compute_trial(32, 1.5, 2.0, 0, 0)["Y_f"])
    assert not np.array_equal(base["Y_Q"], compute_trial(32, 1.0, 4.0, 0, 0)["Y_Q"])
    np.testing.assert_array_equal(base["Y_f"], compute_trial(32, 1.0, 4.0, 0, 0)["Y_f"])


def test_ladder_result_aggregates():
    cfg = Config(d=40, trials=3, seed=1, remove_top_k=2, mc_samples=1000)
    res = run_ladder(cfg)
    assert res.config is cfg
    for name in MODEL_NAMES:
        assert res.s2(name).shape == (3, 40)
        assert res.bulk(name).shape == (3 * 38,)
        np.testing.assert_array_equal(res.bulk(name)[:38], res.trials[0][name][2:])
        np.testing.assert_allclose(res.top_sq(name), res.s2(name)[:, :5].mean(axis=0))
    np.testing.assert_allclose(res.s1_A, np.sqrt(res.s2("sqrt_d_A")[:, 0] / 40))
    assert res.D.shape == (120,)
    assert res.poly_degree == poly_degree(40, 2.0)
    assert res.theta_f == theta_f(1.0) and res.theta_q == theta_q(1.0, res.poly_degree)
    assert res.theta_q_mc == theta_q_monte_carlo(
        1.0, res.poly_degree, 1000, np.random.default_rng(1)
    )
    for metric in ("l1", "ks", "w1"):
        dist = res.distances(metric)
        assert set(dist) == set(MODEL_NAMES)
        assert dist[REFERENCE] == 0.0
        assert all(v >= 0 and math.isfinite(v) for v in dist.values())
    s = res.summary()
    assert s["d"] == 40 and s["trials"] == 3 and s["seed"] == 1 and s["remove_top_k"] == 2
    assert s["l1"] == res.distances("l1")
    assert s["D_mean"] == pytest.approx(res.D.mean())


def test_run_ladder_validates():
    with pytest.raises(ValueError, match="d=1 "):
        run_ladder(d=1)


def test_largest_valid_beta_gives_finite_spectra():
    out = compute_trial(32, PARAMETERS["beta"].high, 2.0, 0, 0)
    for name, values in out.items():
        assert np.isfinite(values).all(), name


# ---- statistics at d = 1000 (a handful of trials, computed once, uncached) ----------------

D_STAT, TRIALS_STAT, BETA_STAT = 1000, 5, 1.0


@pytest.fixture(scope="module")
def ladder_1000():
    cfg = Config(d=D_STAT, beta=BETA_STAT, trials=TRIALS_STAT)
    return LadderResult(
        cfg, [compute_trial(D_STAT, BETA_STAT, 2.0, 0, k) for k in range(TRIALS_STAT)]
    )


def test_s1_of_A_is_at_least_one_and_close_to_one(ladder_1000):
    # A is row-stochastic: A 1 = 1, so s1(A) >= |A 1| / |1| = 1 (up to round-off).
    s1 = ladder_1000.s1_A
    assert s1.shape == (TRIALS_STAT,)
    assert np.all(s1 >= 1 - 1e-12)
    assert np.all(s1 - 1 < 0.01)


def test_normalizers_concentrate_at_one(ladder_1000):
    D = ladder_1000.D
    assert D.shape == (D_STAT * TRIALS_STAT,)
    assert abs(D.mean() - 1.0) < 0.01


def test_normalizer_spread_matches_design_fact_4(ladder_1000):
    b = BETA_STAT
    predicted = math.sqrt((math.exp(b**2) - 1 + b**4 / 2) / D_STAT)  # 0.0471
    assert predicted == pytest.approx(0.0471, abs=1e-4)
    assert ladder_1000.D.std() == pytest.approx(predicted, rel=0.05)


def test_rank_one_outlier_and_bulk_scale(ladder_1000):
    # sqrt(d) A has s1^2 ~ d; removing the uniform mode leaves no order-d outlier. The
    # Gaussian-equivalent model's top value sits at the edge of its limit law, 9.00954 at beta = 1
    # (GaussianEquivalentLaw.for_f(1).edge), up to edge fluctuations of order d^{-2/3}.
    assert ladder_1000.top_sq("sqrt_d_A")[0] == pytest.approx(D_STAT, rel=0.01)
    assert ladder_1000.top_sq("sqrt_d_A_perp")[0] < 20
    assert ladder_1000.top_sq("Y_f_lin")[0] == pytest.approx(9.00954, rel=0.05)


def test_a_subset_of_rungs_has_the_full_trials_spectra(tmp_path, monkeypatch):
    from attnspec.core.errors import InvalidInput
    from attnspec.experiments.trials import cached_trial, trial_arrays, trial_entry, trial_key

    monkeypatch.setenv("ATTNSPEC_CACHE", str(tmp_path))
    full = compute_trial(36, 1.0, 2.0, 5, 1)
    pair = ("Y_f_lin", "sqrt_d_A_perp")
    sub = trial(36, 1.0, 2.0, 5, 1, models=pair)
    assert set(sub) == trial_arrays(pair) == {"D", "sqrt_d_A_perp", "Y_f_lin"}
    for name in sub:
        np.testing.assert_array_equal(sub[name], full[name])
    assert trial_key(36, 1.0, 2.0, 5, 1, pair)["models"] == "sqrt_d_A_perp,Y_f_lin"
    assert "models" not in trial_key(36, 1.0, 2.0, 5, 1, MODEL_NAMES)
    assert (
        trial_entry(36, 1.0, 2.0, 5, 1, pair).exists()
        and not trial_entry(36, 1.0, 2.0, 5, 1).exists()
    )
    assert cached_trial(36, 1.0, 2.0, 5, 1) is None  # a subset does not serve the full ladder
    trial(36, 1.0, 2.0, 5, 2)  # a full trial serves any subset
    assert set(cached_trial(36, 1.0, 2.0, 5, 2, ("Y",))) == {"D", "Y"}
    with pytest.raises(InvalidInput, match="models"):
        trial_key(36, 1.0, 2.0, 5, 1, ("Z",))
    res = LadderResult(Config(d=36, trials=1), [sub])
    assert res.models == ["sqrt_d_A_perp", "Y_f_lin"] and np.isnan(res.s1_A).all()
    assert set(res.distances("ks")) == {"sqrt_d_A_perp", "Y_f_lin"}
