"""How the bulk depends on the scores' model: the i.i.d.-score spectra, the split noise floor, and
both models against both laws."""

from __future__ import annotations

import numpy as np
import pytest

from attnspec.core.config import Config
from attnspec.experiments import score_dependence as sd
from attnspec.experiments.limit_law import ladder_laws
from attnspec.experiments.trials import run_ladder, trial
from attnspec.models.attention import centred_attention
from attnspec.models.ladder import REFERENCE
from attnspec.numerics.spectra import ks_to_law_below_quantile, squared_singular_values


def test_iid_scores_spectra_are_their_own_stream_and_cached():
    s2 = sd.iid_scores_s2(40, 1.0, 3, 1)
    rng = np.random.default_rng(np.random.SeedSequence(3, spawn_key=(1, 0)))
    expected = squared_singular_values(centred_attention(rng.standard_normal((40, 40)), 1.0))
    np.testing.assert_allclose(s2, expected, rtol=1e-12)
    np.testing.assert_array_equal(s2, sd.iid_scores_s2(40, 1.0, 3, 1))  # read back
    assert np.all(np.diff(s2) <= 0)
    # not the ladder's trial: its scores are W_Q W_K^T / sqrt(d), drawn from trial_rng(3, 1)
    assert not np.allclose(s2, trial(40, 1.0, 2.0, 3, 1, (REFERENCE,))[REFERENCE])


def test_split_floor_compares_the_two_halves_counted_out_of_d():
    s = np.array([[9.0, 3.0, 2.0, 1.0], [9.0, 3.0, 2.0, 1.0]])
    assert sd.split_floor(s, 1) == 0.0  # identical halves
    assert sd.split_floor(s[:1], 1) == 1.0  # one trial: nothing to compare
    s = np.array([[9.0, 3.0, 2.0, 1.0], [9.0, 6.0, 5.0, 4.0]])
    # first half's bulk {1, 2, 3}, second's {4, 5, 6}, each out of 4: at x = 3, 3/4 against 0
    assert sd.split_floor(s, 1) == 0.75
    # three trials: one against two, counted out of d and of 2d
    s = np.array([[5.0, 1.0], [5.0, 2.0], [5.0, 3.0]])
    assert sd.split_floor(s, 1) == pytest.approx(0.5)


def test_score_dependence_tells_the_two_models_apart():
    # at beta = 0.5 the two laws are far apart (theta_2/theta_1 = 0.88): even d = 150 and two
    # trials separate them by many noise floors
    cfg = Config(d=150, beta=0.5, trials=2, seed=0, remove_top_k=3)
    ladder = run_ladder(cfg)
    laws = ladder_laws(ladder)
    dep = sd.score_dependence(cfg, ladder.s2(REFERENCE), laws)
    np.testing.assert_array_equal(dep.bulks["bilinear"], ladder.bulk(REFERENCE))
    assert set(dep.ks) == set(sd.SCORE_MODELS) and set(dep.ks["iid"]) == {"pw", "mp"}
    pw = laws["f"]
    assert dep.ks["bilinear"]["pw"] == ks_to_law_below_quantile(
        ladder.bulk(REFERENCE), pw.cdf, pw.ppf, 150, 3
    )
    for model in sd.SCORE_MODELS:  # a floor counts whole values out of d (one trial per half)
        assert 0 < dep.floor[model] < 0.1
        assert dep.floor[model] * 150 == pytest.approx(round(dep.floor[model] * 150), abs=1e-9)
    iid, bil = dep.interval("iid", "mp"), dep.interval("iid", "pw")
    assert iid[1] < bil[0]  # i.i.d. scores: Marchenko–Pastur
    assert dep.interval("bilinear", "pw")[1] < dep.interval("bilinear", "mp")[0]
