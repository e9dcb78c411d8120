"""Tests of attnspec.laws.predictions: the Gaussian-equivalent limit law, Marchenko–Pastur,
normalizer_std."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.integrate import quad

from attnspec.core.errors import InvalidInput
from attnspec.laws.gaussian_equivalent import GaussianEquivalentLaw
from attnspec.laws.marchenko_pastur import MarchenkoPastur
from attnspec.laws.predictions import normalizer_std
from attnspec.models.nonlinearity import theta_f, theta_q

BETA1 = (math.e - 1.0, 1.0)  # theta_f(1)
PARAMS = [
    BETA1,
    (1.0, 0.0),
    (1.0, 1.0),
    (1.0, 0.5),
    (2.5, 0.1),
    (1.6860913, 0.9964998),
    (1.0, 1.0 - 1e-9),
]


def second_moment(theta1: float, theta2: float) -> float:
    r"""E lambda^2 = lim E tr (Y Y^T)^2 / d = 2 theta1^2 + theta2^2.

    By hand: write Y = a X + b V with a^2 = theta2, b^2 = sigma^2 = theta1 - theta2, X = W_Q
    W_K^T/d, V = W/sqrt(d). Expand tr(Y Y^T Y Y^T)/d; terms with an odd number of V vanish. Four X:
    3 a^4 (Fuss–Catalan moment 3). Four V: 2 b^4 (Marchenko–Pastur moment 2). Two X and two V: six
    placements; the four with adjacent V V^T or V^T V give tr(X X^T)/d -> 1 each, the two with V ...
    V separated by X^T give O(1/d). Total 3 theta2^2 + 2 sigma^4 + 4 theta2 sigma^2 = 2 theta1^2 +
    theta2^2. Free cumulants agree: kappa_2 = theta1, kappa_4 = theta2^2, and
    m_4 = kappa_4 + 2 kappa_2^2 for a symmetric law.
    """
    return 2.0 * theta1**2 + theta2**2


@pytest.fixture(scope="module")
def law() -> GaussianEquivalentLaw:
    return GaussianEquivalentLaw.for_f(1.0)


@pytest.fixture(scope="module")
def sample_beta1() -> np.ndarray:
    """Squared singular values of one 2000 x 2000 draw of Y at beta = 1 (fixed seed)."""
    d = 2000
    rng = np.random.default_rng(20240601)
    theta1, theta2 = theta_f(1.0)
    Wq = rng.standard_normal((d, d))
    Wk = rng.standard_normal((d, d))
    Y = (Wq @ Wk.T) * (math.sqrt(theta2) / d)
    del Wq, Wk
    Y += rng.standard_normal((d, d)) * math.sqrt((theta1 - theta2) / d)
    return np.sort(np.linalg.eigvalsh(Y @ Y.T))


def kolmogorov(sorted_sample: np.ndarray, cdf) -> float:
    n = sorted_sample.size
    F = cdf(sorted_sample)
    i = np.arange(1, n + 1)
    return float(max(np.max(i / n - F), np.max(F - (i - 1) / n)))


# ---- the Gaussian-equivalent law -----------------------------------------------------------


def test_edge_at_beta_1(law):
    assert law.edge == pytest.approx(9.00954, abs=1e-4)
    assert math.sqrt(law.edge) == pytest.approx(3.0016, abs=1e-4)
    assert law.support() == (0.0, law.edge)
    assert law.theta1 == pytest.approx(math.e - 1) and law.theta2 == 1.0


def test_edge_limits():
    assert GaussianEquivalentLaw(2.0, 0.0).edge == pytest.approx(8.0, rel=1e-14)  # 4 theta1
    assert GaussianEquivalentLaw(2.0, 2.0).edge == pytest.approx(
        27.0 / 2.0, rel=1e-14
    )  # 27 theta/4


@pytest.mark.parametrize("theta", PARAMS)
def test_edge_is_where_density_vanishes(theta):
    g = GaussianEquivalentLaw(*theta)
    lam = g.edge * (1.0 - np.array([1e-4, 1e-6]))
    dens = g.pdf(lam)
    assert np.all(dens > 0)
    # square-root edge: density ratio sqrt(100) = 10 between the two distances
    assert dens[0] / dens[1] == pytest.approx(10.0, rel=2e-3)
    assert g.pdf(g.edge * (1 + 1e-9)) == 0.0


@pytest.mark.parametrize("theta", PARAMS)
def test_density_integrates_to_one(theta):
    g = GaussianEquivalentLaw(*theta)
    assert g.quadrature_mass == pytest.approx(1.0, abs=1e-10)
    # independently of the Chebyshev quadrature: scipy quad with lambda = t^3 (removes the
    # lambda^{-1/2} or lambda^{-2/3} singularity at 0)
    top = g.edge ** (1 / 3)
    total, _ = quad(
        lambda t: 3 * t * t * g.pdf(t**3), 0.0, top, limit=400, epsabs=1e-12, epsrel=1e-12
    )
    assert total == pytest.approx(1.0, abs=1e-8)


@pytest.mark.parametrize("theta", PARAMS)
def test_moments_from_density(theta):
    g = GaussianEquivalentLaw(*theta)
    t1, t2 = theta
    assert g.expect(lambda x: x) == pytest.approx(t1, rel=1e-10)
    assert g.mean() == t1
    assert g.expect(lambda x: x**2) == pytest.approx(second_moment(t1, t2), rel=1e-10)
    assert g.var() == pytest.approx(second_moment(t1, t2) - t1**2, rel=1e-14)
    assert g.expect(lambda x: x**3) == pytest.approx(5 * t1**3 + 6 * t1 * t2**2 + t2**3, rel=1e-10)
    for k in range(6):
        assert g.expect(lambda x, k=k: x**k) == pytest.approx(g.moment(k), rel=1e-9)


def test_moment_series():
    g = GaussianEquivalentLaw(*BETA1)
    t1, t2 = BETA1
    assert g.moment(0) == 1.0
    assert g.moment(1) == pytest.approx(t1, rel=1e-15)
    assert g.moment(2) == pytest.approx(second_moment(t1, t2), rel=1e-15)
    assert g.moment(3) == pytest.approx(5 * t1**3 + 6 * t1 * t2**2 + t2**3, rel=1e-14)
    with pytest.raises(ValueError, match="order=-1"):
        g.moment(-1)


def test_cdf_matches_independent_quadrature(law):
    for lam in [1e-6, 0.01, 0.5, 2.0, 5.0, 8.9, 9.0]:
        ref, _ = quad(
            lambda t: 2 * t * law.pdf(t * t),
            0.0,
            math.sqrt(lam),
            limit=400,
            epsabs=1e-13,
            epsrel=1e-13,
        )
        assert law.cdf(lam) == pytest.approx(ref, abs=1e-9)


def test_pdf_is_derivative_of_cdf(law):
    x = np.linspace(0.1, 8.9, 60)
    h = 1e-5
    numeric = (law.cdf(x + h) - law.cdf(x - h)) / (2 * h)
    assert np.max(np.abs(numeric - law.pdf(x))) < 1e-7


def test_pdf_solves_the_quartic(law):
    """G(x + i0) from the density and the quartic of GaussianEquivalentLaw's Notes, by np.roots."""
    t1, t2 = law.theta1, law.theta2
    for x in [0.3, 1.0, 2.0, 2.9]:
        roots = np.roots([(t1 - t2) * t2, -t2 * x, -(t1 - t2), x, -1.0])
        G = roots[np.argmin(roots.imag)]
        assert G.imag < 0
        assert law.pdf(x * x) == pytest.approx(-G.imag / (math.pi * x), rel=1e-10)


def test_cdf_exact_at_ends_and_monotone(law):
    assert law.cdf(0.0) == 0.0 and law.cdf(-1.0) == 0.0
    assert law.cdf(law.edge) == 1.0 and law.cdf(100.0) == 1.0
    x = np.linspace(0, law.edge, 5001)
    assert np.all(np.diff(law.cdf(x)) >= -1e-15)
    assert np.isinf(law.pdf(0.0)) and law.pdf(-1.0) == 0.0 and law.pdf(10.0) == 0.0
    assert np.isnan(law.cdf(np.nan)) and np.isnan(law.pdf(np.nan))
    assert law.sf(2.0) == pytest.approx(1 - law.cdf(2.0))


def test_vectorized(law):
    x = np.linspace(0.0, 10.0, 2000)
    pdf, cdf = law.pdf(x), law.cdf(x)
    assert pdf.shape == cdf.shape == (2000,)
    scalars = np.array([law.pdf(float(v)) for v in x[1:50:7]])
    assert np.allclose(scalars, pdf[1:50:7], rtol=1e-12, atol=0)
    grid = law.cdf(x.reshape(40, 50))
    assert grid.shape == (40, 50) and np.array_equal(grid.ravel(), cdf)
    assert isinstance(law.cdf(1.0), float)


@pytest.mark.parametrize("theta", [BETA1, (1.0, 0.0), (1.0, 1.0)])
def test_ppf_inverts_cdf(theta):
    g = GaussianEquivalentLaw(*theta)
    p = np.linspace(0.0, 1.0, 1001)
    x = g.ppf(p)
    assert x[0] == 0.0 and x[-1] == g.edge
    assert np.max(np.abs(g.cdf(x) - p)) < 1e-12
    lam = np.linspace(0.01, 0.99, 99) * g.edge
    assert np.allclose(g.ppf(g.cdf(lam)), lam, rtol=1e-9)
    assert np.all(np.isnan(g.ppf([-0.1, 1.1])))
    assert g.median() == pytest.approx(float(g.ppf(0.5)))


def test_theta2_zero_is_marchenko_pastur():
    g, mp = GaussianEquivalentLaw(1.7, 0.0), MarchenkoPastur(1.7)
    assert g.edge == pytest.approx(mp.edge, rel=1e-14)
    x = np.linspace(0.001, 7.0, 2000)
    assert np.allclose(g.pdf(x), mp.pdf(x), rtol=1e-10, atol=1e-14)
    assert np.max(np.abs(g.cdf(x) - mp.cdf(x))) < 1e-12
    # and the limit theta2 -> 0 is continuous (deviation O(theta2^2): kappa_4 = theta2^2)
    near = GaussianEquivalentLaw(1.7, 1e-6)
    assert np.max(np.abs(near.cdf(x) - mp.cdf(x))) < 1e-9


def test_theta1_equal_theta2_is_fuss_catalan():
    """Squared singular values of X = W_Q W_K^T/d: Fuss–Catalan moments 1, 3, 12, 55 (x theta^k)."""
    for theta in (1.0, 2.0):
        g = GaussianEquivalentLaw(theta, theta)
        for k, fc in enumerate([1, 1, 3, 12, 55], start=0):
            assert g.expect(lambda x, k=k: x**k) == pytest.approx(fc * theta**k, rel=1e-10)
            assert g.moment(k) == pytest.approx(fc * theta**k, rel=1e-14)
        assert g.edge == pytest.approx(27 * theta / 4, rel=1e-14)
        # lambda^{-2/3} singularity at 0
        ratio = g.pdf(1e-9) / g.pdf(1e-12)
        assert ratio == pytest.approx(10.0 ** (-2.0), rel=0.02)


def test_singularity_at_zero_for_mixed_law(law):
    ratio = law.pdf(1e-8) / law.pdf(1e-10)
    assert ratio == pytest.approx(0.1, rel=1e-3)  # lambda^{-1/2}


def test_kolmogorov_distance_to_random_matrices(law, sample_beta1):
    ks = kolmogorov(sample_beta1, law.cdf)
    assert ks < 0.005
    assert sample_beta1[-1] == pytest.approx(law.edge, abs=0.3)
    assert np.mean(sample_beta1) == pytest.approx(law.theta1, rel=0.01)
    assert np.mean(sample_beta1**2) == pytest.approx(second_moment(*BETA1), rel=0.02)
    # the law is not Marchenko–Pastur with the same mean
    assert kolmogorov(sample_beta1, MarchenkoPastur(law.theta1).cdf) > 0.02


def test_second_moment_finite_d():
    """E tr (Y Y^T)^2 / d at d = 600, averaged over draws: 2 theta1^2 + theta2^2 + O(1/d)."""
    theta1, theta2 = 1.3, 0.8
    d, draws = 600, 4
    rng = np.random.default_rng(7)
    vals = []
    for _ in range(draws):
        Y = (rng.standard_normal((d, d)) @ rng.standard_normal((d, d)).T) * (math.sqrt(theta2) / d)
        Y += rng.standard_normal((d, d)) * math.sqrt((theta1 - theta2) / d)
        M = Y @ Y.T
        vals.append(np.sum(M * M) / d)
    assert np.mean(vals) == pytest.approx(second_moment(theta1, theta2), rel=0.02)
    assert GaussianEquivalentLaw(theta1, theta2).moment(2) == pytest.approx(
        second_moment(theta1, theta2)
    )


def test_constructors():
    g = GaussianEquivalentLaw.for_f(0.7)
    assert (g.theta1, g.theta2) == pytest.approx(theta_f(0.7))
    q = GaussianEquivalentLaw.for_q(1.0, 8)
    assert (q.theta1, q.theta2) == pytest.approx((1.6860913, 0.9964998), abs=1e-7)
    assert (q.theta1, q.theta2) == pytest.approx(theta_q(1.0, 8))
    assert "theta1" in repr(g)


@pytest.mark.parametrize(
    "args, name, text",
    [
        ((1.0, 2.0), "theta2", "<= 1.0"),
        ((1.0, -0.5), "theta2", ">= 0"),
        ((-1.0, 0.0), "theta1", "> 0"),
        ((0.0, 0.0), "theta1", "> 0"),
        ((math.nan, 0.5), "theta1", "not finite"),
        ((math.inf, 0.5), "theta1", "not finite"),
        ((1.0, math.nan), "theta2", "not finite"),
        (("1", 0.5), "theta1", "not a real number"),
        ((1e200, 0.0), "theta1", "out of range"),
    ],
)
def test_invalid_theta(args, name, text):
    with pytest.raises(ValueError, match=name) as info:
        GaussianEquivalentLaw(*args)
    assert text in str(info.value)


def test_invalid_constructor_arguments():
    with pytest.raises(InvalidInput, match="beta=0.0 .*> 0"):
        GaussianEquivalentLaw.for_f(0.0)
    with pytest.raises(ValueError, match="beta=30"):
        GaussianEquivalentLaw.for_f(30.0)
    with pytest.raises(ValueError, match="n=1 is out of range: must be an int >= 2"):
        GaussianEquivalentLaw.for_q(1.0, 1)
    with pytest.raises(InvalidInput, match="n=8.0 is not an integer"):
        GaussianEquivalentLaw.for_q(1.0, 8.0)
    with pytest.raises(ValueError, match="beta"):
        GaussianEquivalentLaw.for_q(math.nan, 8)


# ---- Marchenko–Pastur ----------------------------------------------------------------------


def test_marchenko_pastur():
    mp = MarchenkoPastur(2.0)
    assert mp.support() == (0.0, 8.0)
    assert mp.mean() == 2.0 and mp.var() == 4.0 and mp.std() == 2.0
    total, _ = quad(lambda t: 2 * t * mp.pdf(t * t), 0, math.sqrt(8.0), epsabs=1e-13)
    assert total == pytest.approx(1.0, abs=1e-10)
    assert mp.expect(lambda x: x) == pytest.approx(2.0, rel=1e-13)
    assert mp.expect(lambda x: x**2) == pytest.approx(mp.moment(2), rel=1e-13)
    assert [MarchenkoPastur(1.0).moment(k) for k in range(5)] == [1, 1, 2, 5, 14]
    for lam in [0.1, 1.0, 4.0, 7.9]:
        ref, _ = quad(lambda t: 2 * t * mp.pdf(t * t), 0, math.sqrt(lam), epsabs=1e-13)
        assert mp.cdf(lam) == pytest.approx(ref, abs=1e-10)
    p = np.linspace(0, 1, 1001)
    assert np.max(np.abs(mp.cdf(mp.ppf(p)) - p)) < 1e-13
    assert mp.cdf(0.0) == 0.0 and mp.cdf(8.0) == 1.0 and mp.pdf(9.0) == 0.0
    assert mp.pdf(np.linspace(0, 9, 2000)).shape == (2000,)


@pytest.mark.parametrize("scale", [0.0, -1.0, math.nan, math.inf])
def test_marchenko_pastur_invalid(scale):
    with pytest.raises(ValueError, match="scale"):
        MarchenkoPastur(scale)


def test_rvs_reproducible():
    g = GaussianEquivalentLaw(*BETA1)
    a, b = g.rvs(size=5000, random_state=3), g.rvs(size=5000, random_state=3)
    assert np.array_equal(a, b)
    assert kolmogorov(np.sort(a), g.cdf) < 0.03


# ---- normalizer spread ---------------------------------------------------------------------


def test_normalizer_std():
    assert normalizer_std(1.0, 1000) == pytest.approx(0.0471, abs=5e-5)
    assert normalizer_std(1.0, 1000) == pytest.approx(
        math.sqrt((math.e - 1 + 0.5) / 1000), rel=1e-14
    )
    assert normalizer_std(0.0, 10) == 0.0
    out = normalizer_std(np.array([0.5, 1.0]), 1000)
    assert out.shape == (2,) and out[1] == pytest.approx(normalizer_std(1.0, 1000))


def test_normalizer_std_matches_simulation():
    """std of D_i over rows of one draw at d = 1000, beta = 1: the prediction within 5 %."""
    d, beta = 1000, 1.0
    rng = np.random.default_rng(11)
    S = rng.standard_normal((d, d)) @ rng.standard_normal((d, d)).T / math.sqrt(d)
    D = np.exp(beta * S - 0.5 * beta**2).mean(axis=1)  # D_i = Z_i / (d e^{beta^2/2})
    assert np.std(D) == pytest.approx(normalizer_std(beta, d), rel=0.05)


@pytest.mark.parametrize(
    "beta, d, name", [(-1.0, 10, "beta"), (math.nan, 10, "beta"), (1.0, 0, "d"), (1.0, "x", "d")]
)
def test_normalizer_std_invalid(beta, d, name):
    with pytest.raises(ValueError, match=f"^{name}="):
        normalizer_std(beta, d)
