"""Tests of attnspec.numerics.smooth_cdf against closed forms (Marchenko–Pastur, polynomials)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnspec.laws.marchenko_pastur import MarchenkoPastur
from attnspec.numerics.smooth_cdf import (
    SmoothCDF,
    bisect_increasing,
    smap,
    smap_derivative,
    smap_inverse,
)


def mp_density_in_u(scale: float):
    """Marchenko–Pastur density of u with lambda = 4 s smap(u)^2, from the closed-form pdf."""
    mp = MarchenkoPastur(scale)

    def density(u):
        s = smap(u)
        return mp.pdf(mp.edge * s**2) * 2.0 * mp.edge * s * smap_derivative(u)

    return mp, density


@pytest.mark.parametrize("scale", [1.0, 2.5])
def test_cdf_and_ppf_match_marchenko_pastur_closed_form(scale):
    mp, density = mp_density_in_u(scale)
    smooth = SmoothCDF(density)
    assert smooth.mass == pytest.approx(1.0, abs=1e-12)
    assert smooth.tail < 1e-14
    u = np.linspace(0.0, 1.0, 2001)
    lam = mp.edge * smap(u) ** 2
    assert np.max(np.abs(smooth.cdf(u) - mp.cdf(lam))) < 1e-13
    p = np.linspace(0.001, 0.999, 999)
    u_p = smooth.ppf(p)
    assert np.max(np.abs(mp.edge * smap(u_p) ** 2 - mp.ppf(p))) < 1e-11 * mp.edge
    assert np.max(np.abs(smooth.cdf(u_p) - p)) < 1e-14


def test_expect_matches_catalan_moments():
    mp, density = mp_density_in_u(1.0)
    smooth = SmoothCDF(density)
    lam = mp.edge * smap(smooth.nodes) ** 2
    for k, catalan in enumerate([1, 1, 2, 5, 14, 42]):
        assert smooth.expect(lam**k) == pytest.approx(catalan, rel=1e-13)


def test_expect_is_fejer_rule_for_polynomials():
    """With density 1 on [0, 1]: int_0^1 u^k du = 1/(k + 1), exact for degree < number of nodes."""
    smooth = SmoothCDF(np.ones_like)
    assert smooth.nodes.size == 64 and smooth.mass == pytest.approx(1.0, rel=1e-15)
    for k in (0, 1, 2, 7, 30, 63):
        assert smooth.expect(smooth.nodes**k) == pytest.approx(1.0 / (k + 1), rel=1e-13)
    assert smooth.cdf(np.array([0.0, 0.25, 1.0])) == pytest.approx([0.0, 0.25, 1.0], abs=1e-15)


def test_degree_grows_for_a_less_smooth_density():
    smooth = SmoothCDF(lambda u: 1.0 / (1.0 + 400.0 * (u - 0.5) ** 2))
    assert smooth.nodes.size > 64
    u = np.linspace(0, 1, 101)
    exact = (np.arctan(20 * (u - 0.5)) + math.atan(10)) / (2 * math.atan(10))
    assert np.max(np.abs(smooth.cdf(u) - exact)) < 1e-13


def test_substitution_and_bisection():
    u = np.linspace(0.0, 1.0, 1001)
    assert smap(0.0) == 0.0 and smap(1.0) == 1.0
    assert np.all(np.diff(smap(u)) > 0)
    # s'(1) = 0, so near u = 1 the inverse is ill-conditioned: check it in s there
    assert np.max(np.abs(smap_inverse(smap(u[:990])) - u[:990])) < 1e-13
    assert np.max(np.abs(smap(smap_inverse(smap(u))) - smap(u))) < 1e-15
    h = 1e-6
    numeric = (smap(u[1:-1] + h) - smap(u[1:-1] - h)) / (2 * h)
    assert np.max(np.abs(numeric - smap_derivative(u[1:-1]))) < 1e-8
    root = bisect_increasing(np.exp, np.array([1.0, math.e]), -5.0, 5.0)
    assert root == pytest.approx([0.0, 1.0], abs=1e-14)


def test_dct2_is_scipys_type_2_dct():
    from scipy.fft import dct

    from attnspec.numerics.smooth_cdf import dct2

    for n in (1, 2, 7, 64, 1000):
        x = np.random.default_rng(n).standard_normal(n)
        assert np.allclose(dct2(x), dct(x, type=2), rtol=0, atol=1e-12 * max(1, n))


def test_bisect_root_agrees_with_brentq_to_round_off():
    from scipy.optimize import brentq

    from attnspec.numerics.smooth_cdf import bisect_root

    def p(w):
        return w**3 - 2.0 * w - 5.0

    root = bisect_root(p, 0.0, 3.0)
    assert root == pytest.approx(brentq(p, 0.0, 3.0, xtol=1e-300), rel=4e-16)
    assert abs(p(root)) < 1e-13
