"""The adversarial search for counterexamples to the causal lower bound
(attnspec.canonical.causal_search)."""

import numpy as np
import pytest

from attnspec.canonical import causal
from attnspec.canonical.causal_search import lower_bound_search, structured_families
from attnspec.core.errors import InvalidInput


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
