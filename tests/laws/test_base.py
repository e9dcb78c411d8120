"""Tests of attnspec.laws.base: the shared interface, driven by the _pdf hook alone."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnspec.core.errors import InvalidInput
from attnspec.laws.base import SquaredSingularValueLaw, positive_real
from attnspec.laws.marchenko_pastur import MarchenkoPastur


class PdfOnlyMarchenkoPastur(SquaredSingularValueLaw):
    """Marchenko–Pastur of scale s with only the density: cdf, ppf, expect from the base class."""

    def __init__(self, scale: float) -> None:
        self.scale, self.edge = scale, 4.0 * scale
        super().__init__()

    def _pdf(self, lam):
        return np.sqrt(lam * (self.edge - lam)) / (2.0 * np.pi * self.scale * lam)


@pytest.fixture(scope="module")
def pair():
    return PdfOnlyMarchenkoPastur(1.5), MarchenkoPastur(1.5)


def test_generic_cdf_ppf_expect_match_closed_forms(pair):
    law, mp = pair
    x = np.linspace(-1.0, 7.0, 4001)
    assert np.max(np.abs(law.cdf(x) - mp.cdf(x))) < 1e-13
    assert np.array_equal(law.pdf(x), mp.pdf(x))
    p = np.linspace(0.0, 1.0, 1001)
    assert np.max(np.abs(law.ppf(p) - mp.ppf(p))) < 1e-11
    for k in range(5):
        assert law.expect(lambda t, k=k: t**k) == pytest.approx(mp.moment(k), rel=1e-12)
    assert law.quadrature_mass == pytest.approx(1.0, abs=1e-12)
    assert law.median() == pytest.approx(mp.median(), rel=1e-12)


def test_arrays_scalars_nan_and_support(pair):
    law, _ = pair
    assert law.support() == (0.0, 6.0)
    assert isinstance(law.pdf(1.0), float) and isinstance(law.cdf(1.0), float)
    assert isinstance(law.ppf(0.3), float)
    assert law.cdf(np.ones((3, 4))).shape == (3, 4)
    assert np.isinf(law.pdf(0.0)) and law.pdf(-1.0) == 0.0 and law.pdf(6.0) == 0.0
    assert law.cdf(0.0) == 0.0 and law.cdf(-2.0) == 0.0 and law.cdf(6.0) == 1.0
    assert np.isnan(law.pdf(np.nan)) and np.isnan(law.cdf(np.nan)) and np.isnan(law.ppf(np.nan))
    assert law.ppf(0.0) == 0.0 and law.ppf(1.0) == 6.0
    assert np.all(np.isnan(law.ppf([-0.1, 1.1])))
    assert law.sf(2.0) == pytest.approx(1.0 - law.cdf(2.0))
    draws = law.rvs(size=(2, 3), random_state=4)
    assert draws.shape == (2, 3) and np.array_equal(draws, law.rvs(size=(2, 3), random_state=4))


def test_a_law_without_pdf_is_incomplete():
    class NoPdf(SquaredSingularValueLaw):
        edge = 1.0

    with pytest.raises(NotImplementedError):
        NoPdf().pdf(0.5)


def test_order_check(pair):
    law, _ = pair
    with pytest.raises(InvalidInput, match="order=-1 is out of range: must be an int >= 0"):
        law.moment(-1)
    with pytest.raises(InvalidInput, match="order=1.5 is not an integer"):
        law.moment(1.5)


@pytest.mark.parametrize(
    "value, high, text",
    [
        (0.0, None, "value=0.0 is out of range: must be a finite real > 0"),
        (-1.0, None, "value=-1.0 is out of range"),
        (3.0, 2.0, "value=3.0 is out of range: must be a finite real > 0 and <= 2.0"),
        (math.nan, None, "value=nan is not finite"),
        ("1", None, "value='1' is not a real number"),
        (True, None, "value=True is not a real number"),
    ],
)
def test_positive_real_rejects(value, high, text):
    with pytest.raises(InvalidInput) as info:
        positive_real("value", value, high)
    assert text in str(info.value) and "\n" not in str(info.value)


def test_positive_real_accepts():
    assert positive_real("value", np.float32(0.5)) == 0.5
    assert positive_real("value", 2, 2.0) == 2.0


@pytest.mark.parametrize(
    "law", [MarchenkoPastur(1.5), PdfOnlyMarchenkoPastur(1.5)], ids=["closed", "from_pdf"]
)
def test_scipy_methods_agree_with_the_moments(law):
    """What rv_continuous adds (rvs, interval, expect with bounds, stats) agrees with the law."""
    mean, var = law.stats(moments="mv")
    assert mean == pytest.approx(1.5, rel=1e-12) and var == pytest.approx(2.25, rel=1e-12)
    draws = law.rvs(size=40_000, random_state=np.random.default_rng(3))
    assert np.all((draws >= 0) & (draws <= 6.0))
    assert abs(draws.mean() - 1.5) < 5 * math.sqrt(2.25 / draws.size)
    assert abs(np.mean(draws**2) - law.moment(2)) < 5 * math.sqrt(law.moment(4) / draws.size)
    lo, hi = law.interval(0.9)
    assert law.cdf(hi) - law.cdf(lo) == pytest.approx(0.9, abs=1e-12)
    assert law.expect(lambda x: x**3) == pytest.approx(law.moment(3), rel=1e-12)
    whole = law.expect(lambda x: x**2, lb=0.0, ub=6.0)  # scipy's own quadrature
    assert whole == pytest.approx(law.moment(2), rel=1e-7)
    assert law.expect(lb=0.0, ub=lo, conditional=True) < lo
