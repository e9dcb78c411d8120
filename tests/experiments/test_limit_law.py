"""The limit-law chapters' computations: distances to the three laws, the two forms of the law,
the slider's frames, the CDF differences and the localized outliers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnspec.core.config import Config
from attnspec.experiments import limit_law as ll
from attnspec.experiments.trials import run_ladder
from attnspec.laws.gaussian_equivalent import GaussianEquivalentLaw
from attnspec.models.ladder import MODEL_NAMES, REFERENCE
from attnspec.numerics.spectra import ks_to_law_below_quantile


@pytest.fixture(scope="module")
def result():
    return run_ladder(Config(d=60, beta=1.0, trials=3, seed=3))


def test_law_distances_of_every_rung_to_the_three_laws(result):
    dist = ll.law_distances(result, quantile_points=2000, grid_points=2001)
    assert set(dist.ks) == {"f", "q", "mp"} and set(dist.ks["f"]) == set(MODEL_NAMES)
    law = dist.laws["f"]
    assert dist.ks["f"][REFERENCE] == ks_to_law_below_quantile(
        result.bulk(REFERENCE), law.cdf, law.ppf, 60, 3
    )
    assert dist.at_target("Y_Q_lin") == dist.ks["q"]["Y_Q_lin"]
    assert dist.at_target("Y_f") == dist.ks["f"]["Y_f"]
    assert 0 < dist.ks_laws["q"] < dist.ks_laws["mp"] < 1 and dist.values == 3 * 57
    assert ll.finite_d_law("Y_Q") == "q" and ll.finite_d_law(REFERENCE) == "f"


def test_the_two_forms_of_the_density_agree_to_round_off():
    forms = ll.forms_agreement([0.5, 1.0, 2.0], points=50)
    assert forms.max_rel < 1e-10 and forms.max_abs < 1e-10 and forms.points == 50
    assert forms.betas == (0.5, 1.0, 2.0)
    assert ll.DOUBLE_ROOT_ACCURACY == pytest.approx(1.49e-8, rel=1e-2)


def test_slider_frames_in_units_of_theta1(result):
    ladders = ll.pair_ladders(result.config, [1.5, 0.5], 2, (REFERENCE, "Y_f_lin"))
    assert [L.config.beta for L in ladders] == [1.5, 0.5] and ladders[0].models == [
        REFERENCE,
        "Y_f_lin",
    ]
    frames = ll.slider_frames(ladders, bins=35)
    assert [f.beta for f in frames] == [0.5, 1.5]
    for fr in frames:
        law = GaussianEquivalentLaw.for_f(fr.beta)
        dx, tail = fr.x[1] - fr.x[0], fr.x > 1
        # densities in x = s^2/theta_1: their mass beyond x = 1 is the laws' beyond s^2 = theta_1
        assert np.sum(fr.law[tail]) * dx == pytest.approx(law.sf(law.theta1), abs=0.01)
        assert np.sum(fr.mp[tail]) * dx == pytest.approx(
            ll.MarchenkoPastur(law.theta1).sf(law.theta1), abs=0.01
        )
        assert fr.edge == pytest.approx(law.edge / law.theta1) and fr.edge < ll.SLIDER_X_MAX
        mass = np.sum(fr.hist * np.diff(fr.edges))  # counted out of d per trial
        assert mass <= 1.0 and mass == pytest.approx(57 / 60, abs=0.05)
        assert 0 < fr.ks < fr.ks_mp <= 1 or fr.beta > 1
    # the reference at beta = 0.5 follows the Fuss–Catalan-like law better than Marchenko–Pastur
    assert frames[0].ks < frames[0].ks_mp


def test_cdf_differences_end_at_the_quantile(result):
    laws = ll.ladder_laws(result)
    cdf = ll.cdf_differences(result, laws, points=101)
    assert cdf.x[-1] == pytest.approx(laws["f"].ppf(1 - 3 / 60))
    ks = ll.law_distances(result, 100, 2001).ks["f"]
    for n in MODEL_NAMES:
        assert np.max(np.abs(cdf.rungs[n])) <= ks[n] + 1e-12
        assert cdf.x[0] <= cdf.at[n] <= cdf.x[-1]
    assert np.max(np.abs(cdf.gap)) <= 0.1


def test_localized_outliers_redraw_the_ladders_scores(result):
    out = ll.localized_outliers(result.config, result)
    assert out.max_score.shape == (3,) and np.all(out.weight <= 1) and np.all(out.weight >= 0)
    assert np.array_equal(out.top_f, result.s2("Y_f")[:, 0])
    assert out.delocalized_max == pytest.approx(2 * math.log(60) / 60)
    assert math.isfinite(out.spearman) and 0 <= out.p_value <= 1
    two = run_ladder(Config(d=60, beta=1.0, trials=2, seed=3))
    assert math.isnan(ll.localized_outliers(two.config, two).spearman)
