"""Closed forms of the ranks at Sigma = 0 (attnspec.canonical.rank_study)."""

import math

import numpy as np
import pytest

from attnspec.canonical import causal
from attnspec.canonical.rank_study import harmonic_erank1, sigma0_erank2
from attnspec.numerics.spectra import erank1, erank2


def test_sigma0_closed_forms():
    for ell in (10, 300, 2000):
        sigma = causal.prefix_average_singular_values(ell)
        assert sigma0_erank2(ell) == pytest.approx(erank2(sigma), rel=1e-9)
    assert harmonic_erank1(500) == pytest.approx(erank1(1 / np.arange(1, 501)), rel=1e-12)
    h = math.log(1e12) + np.euler_gamma
    assert sigma0_erank2(1e12) == pytest.approx(h * h / (2 * h - math.pi**2 / 6), rel=1e-9)
