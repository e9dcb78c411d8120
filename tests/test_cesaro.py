"""Large-ell causal attention (attnspec.canonical.cesaro) and the adversarial search
(attnspec.canonical.causal_search)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnspec.canonical import causal, cesaro, model
from attnspec.canonical.causal_search import lower_bound_search, structured_families
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


def test_lower_bound_search_is_seeded_and_finds_the_cesaro_minimum():
    a = lower_bound_search(3, random_max_ell=8, draws=4, structured_ells=(64,))
    b = lower_bound_search(3, random_max_ell=8, draws=4, structured_ells=(64,))
    assert a == b
    assert a.minimum.value >= 1
    zero = [h for h in a.hits if h.family == r"$\Sigma = 0$"][0]
    sigma = causal.prefix_average_singular_values(64)
    assert zero.value == pytest.approx(np.min(3 * np.arange(1, 65) * sigma), rel=1e-9)
    with pytest.raises(InvalidInput, match="draws"):
        lower_bound_search(0, draws=0)


def test_structured_families_are_non_negative():
    for s in structured_families(50).values():
        assert s.shape == (50,) and np.all(s >= 0)


def test_search_ranking_breaks_ties_by_family_order():
    from attnspec.canonical.causal_search import LowerBoundSearch, SearchHit

    hits = (SearchHit(1.5 + 1e-13, "a", 8, 8), SearchHit(1.5, "b", 8, 8), SearchHit(1.2, "c", 4, 4))
    search = LowerBoundSearch(hits=hits, spectra=3)
    assert [h.family for h in search.ranked] == ["c", "a", "b"] and search.minimum.family == "c"
    tied = LowerBoundSearch(hits=hits[:2], spectra=2)
    assert tied.minimum.family == "a"
