"""Large-ell causal attention (attnspec.canonical.cesaro)."""

import math

import numpy as np
import pytest

from attnspec.canonical import causal, cesaro, model
from attnspec.core.errors import InvalidInput


def test_cesaro_point_against_dense_and_tridiagonal():
    for ell in (64, 1000):
        p = cesaro.cesaro_point(ell)
        sigma = causal.prefix_average_singular_values(ell)
        assert p.norm == pytest.approx(
            sigma[0], rel=1e-9
        )  # the tridiagonal route: relative error ~1e-10
        assert p.frobenius_sq == pytest.approx(np.sum(sigma**2), rel=1e-10)
        assert p.srank == pytest.approx(p.frobenius_sq / sigma[0] ** 2, rel=1e-9)
        assert p.srank_law == pytest.approx(p.frobenius_sq / 4)


@pytest.mark.parametrize("ell, norm, srank", [(2**12, 1.79478, 2.7614), (2**16, 1.85575, 3.3880)])
def test_cesaro_reference_values(ell, norm, srank):
    p = cesaro.cesaro_point(ell)
    assert p.norm == pytest.approx(norm, abs=5e-6) and p.srank == pytest.approx(srank, abs=5e-5)
    assert p.norm < cesaro.HARDY_LIMIT


def test_large_ell_stable_rank_matches_dense():
    s = model.spike_bulk_scores(300, 4, f=float(300))
    srank, norm = cesaro.large_ell_stable_rank(s)
    sigma = causal.causal_singular_values(s)
    assert norm == pytest.approx(sigma[0], rel=1e-12)
    assert srank == pytest.approx(np.sum(sigma**2) / sigma[0] ** 2, rel=1e-10)


def test_stable_rank_crossing_small():
    # causal srank of k = 1 spike (f = ell) crosses 2 somewhere in a small bracket; check the root
    k, target = 1, 2.0
    values = {
        ell: cesaro.large_ell_stable_rank(model.spike_bulk_scores(ell, k, f=float(ell)))[0]
        for ell in (16, 4096)
    }
    assert values[16] < target < values[4096]
    crossing = cesaro.stable_rank_crossing(k, float, target, 16, 4096, rtol=1e-3)
    assert 16 < crossing.ell < 4096 and crossing.srank_lower < target < crossing.srank_upper
    below = cesaro.large_ell_stable_rank(
        model.spike_bulk_scores(math.floor(crossing.ell * 0.99), k, f=float)
    )[0]
    above = cesaro.large_ell_stable_rank(
        model.spike_bulk_scores(math.ceil(crossing.ell * 1.01), k, f=float)
    )[0]
    assert below < target < above


def test_crossing_rejects_unbracketed_target():
    with pytest.raises(InvalidInput, match="target"):
        cesaro.stable_rank_crossing(1, float, 100.0, 16, 64)
    with pytest.raises(InvalidInput, match="lower"):
        cesaro.stable_rank_crossing(1, float, 2.0, 64, 16)
    with pytest.raises(InvalidInput, match="ell"):
        cesaro.cesaro_point(1)


def test_crossing_bracket_halves_doubles_and_gives_up():
    from attnspec.canonical import cesaro

    srank = {
        e: cesaro.large_ell_stable_rank(model.spike_bulk_scores(e, 1, f=float(e)))[0]
        for e in (64, 128, 256, 512)
    }
    target = (srank[128] + srank[256]) / 2
    low, high, known = cesaro.crossing_bracket(1, float, target, 64, 4096)
    assert (low, high) == (128, 256) and dict(known)[128] == pytest.approx(srank[128])
    assert cesaro.crossing_bracket(1, float, target, 512, 4096)[:2] == (128, 256)
    assert cesaro.crossing_bracket(1, float, 1e3, 64, 1024) is None
