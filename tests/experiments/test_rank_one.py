"""The rank-one mode of attention: its top singular value, the tilt of its top right vector, and
the excess scan."""

import numpy as np
import pytest

from attnspec.core.errors import InvalidInput
from attnspec.experiments.rank_one import (
    attention_s1,
    excess_scan,
    top_right_vector_deficit,
    top_singular_value,
    uniform_mode_deficit_first_order,
    uniform_mode_deficits,
)
from attnspec.experiments.trials import run_ladder
from attnspec.laws.predictions import s1_excess
from attnspec.models.attention import draw_scores, row_softmax


def test_top_singular_value_matches_svd():
    rng = np.random.default_rng(3)
    A = row_softmax(draw_scores(60, rng))
    assert top_singular_value(A) == pytest.approx(np.linalg.svd(A, compute_uv=False)[0], rel=1e-12)
    M = rng.standard_normal((30, 20))
    assert top_singular_value(M) == pytest.approx(np.linalg.svd(M, compute_uv=False)[0], rel=1e-9)
    with pytest.raises(InvalidInput, match="M has shape"):
        top_singular_value(np.ones(3))


def test_attention_s1_uses_the_ladder_trials(cache_dir):
    s1 = attention_s1(40, 1.0, 5, 3)
    assert s1.shape == (3,) and np.all(s1 >= 1 - 1e-12)
    assert np.allclose(s1, run_ladder(d=40, beta=1.0, trials=3, seed=5).s1_A, rtol=1e-10)
    assert np.array_equal(attention_s1(40, 1.0, 5, 3), s1)  # read back from the cache
    with pytest.raises(InvalidInput, match="trials=0"):
        attention_s1(40, 1.0, 5, 0)


def test_top_right_vector_deficit_matches_the_svd_and_ignores_the_sign():
    rng = np.random.default_rng(5)
    A = row_softmax(draw_scores(80, rng))
    v = np.linalg.svd(A)[2][0]
    expected = 1 - (v.sum() / np.sqrt(80)) ** 2
    assert top_right_vector_deficit(A) == pytest.approx(expected, rel=1e-9)
    assert top_right_vector_deficit(-A) == pytest.approx(expected, rel=1e-9)
    # a matrix whose top right singular vector is exactly the uniform one
    assert top_right_vector_deficit(np.full((5, 5), 0.2)) <= 1e-24
    with pytest.raises(InvalidInput, match="shape"):
        top_right_vector_deficit(np.ones(3))


def test_the_tilt_of_the_uniform_mode_is_twice_the_excess_and_matches_trials(cache_dir):
    assert uniform_mode_deficit_first_order(1.0, 500) == pytest.approx(2 * s1_excess(1.0, 500))
    deficits = uniform_mode_deficits(300, 1.0, 0, 6)
    assert set(deficits) == {"sqrt_d_A", "Y"}
    pred = uniform_mode_deficit_first_order(1.0, 300)
    for values in deficits.values():
        se = values.std(ddof=1) / np.sqrt(values.size)
        assert abs(values.mean() - pred) < 4 * se + 0.05 * pred  # first order, at small d
    again = uniform_mode_deficits(300, 1.0, 0, 6)  # cached per trial, same values
    assert all(np.array_equal(again[k], deficits[k]) for k in deficits)


def test_excess_scan_fits_the_power_law_and_reuses_known_trials(cache_dir):
    known = attention_s1(200, 1.0, 0, 3)
    scan = excess_scan([400, 100, 200, 50], 1.0, 0, 3, known={200: known})
    assert scan.d_values == [50, 100, 200, 400] and scan.dof == 2 and scan.slope_ok
    assert scan.excess[2] == pytest.approx(known.mean() - 1)
    assert abs(scan.slope + 1) < 0.2
    d_worst, z_worst = scan.worst
    assert d_worst in scan.d_values and z_worst == pytest.approx(np.max(np.abs(scan.z)))
    assert not excess_scan([50, 100], 1.0, 0, 2).slope_ok
    with pytest.raises(InvalidInput, match="trials"):
        excess_scan([50, 100, 200, 400], 1.0, 0, 1)
