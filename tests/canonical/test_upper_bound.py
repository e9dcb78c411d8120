"""The causal upper bound and its smallest constant (attnspec.canonical.upper_bound)."""

import math

import numpy as np
import pytest

from attnspec.canonical import causal, upper_bound


def test_bound_profile_and_smallest_constant():
    b, term = upper_bound.bound_profile(100, 4)
    assert b.size == 96 and b[0] == 1 and term[0] == 0 and term[-1] == 1
    sigma = np.r_[np.ones(4), 0.5 * b]
    c = upper_bound.smallest_constant(sigma, 4)
    assert c.constant == pytest.approx(0.5) and 1 <= c.m <= 96
    m = np.arange(1, 97)
    assert c.count_constant == pytest.approx(np.max(m * (0.5 * b) ** 2) / math.log(101))


def test_constant_bulk_needs_a_constant_near_e_to_the_b():
    for bulk in (1.0, 2.0):
        s = upper_bound.constant_bulk_scores(512, 4, bulk)
        c = upper_bound.smallest_constant(causal.causal_singular_values(s), 4)
        assert 0.7 * math.exp(bulk) < c.constant < math.exp(bulk)
        assert c.term == upper_bound.TERMS[1]


def test_structured_families_flags():
    fams = {f.name: f for f in upper_bound.structured_bound_families(4)}
    assert fams[r"$\Sigma = 0$"].canonical and fams[r"$\Sigma = 0$"].bulk_bounded
    assert not fams[r"ramp $0 \to \log\ell$"].canonical
    assert not fams[r"ramp $\log\ell \to 0$"].bulk_bounded
