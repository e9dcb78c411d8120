"""f, the Taylor polynomial Q_n, exact theta statistics against Gauss-Hermite quadrature, and the
Monte-Carlo estimator against the exact values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.polynomial.hermite_e import hermegauss

from attnspec.models.nonlinearity import (
    Q,
    f,
    gaussian_moment,
    poly_degree,
    taylor_exp,
    theta_f,
    theta_q,
    theta_q1_estimates,
    theta_q_monte_carlo,
)

# E[g(chi)], chi ~ N(0, 1), by Gauss-Hermite quadrature (probabilists' weight e^{-x^2/2}).
_X, _W = hermegauss(200)
_W = _W / math.sqrt(2 * math.pi)


def gauss_mean(values: np.ndarray) -> float:
    return float(_W @ values)


def quadrature_thetas(g) -> tuple[float, float]:
    """(E[g^2], (E[g'])^2) with E[g'] = E[chi g] (Stein's lemma), so no derivative is needed."""
    v = g(_X)
    return gauss_mean(v**2), gauss_mean(_X * v) ** 2


def test_quadrature_is_exact_on_moments():
    for k in range(0, 30):
        scale = gaussian_moment(
            k + k % 2
        )  # odd moments vanish up to the even neighbour's round-off
        assert abs(gauss_mean(_X**k) - gaussian_moment(k)) <= 1e-12 * scale


def test_gaussian_moment():
    assert [gaussian_moment(k) for k in range(9)] == [1, 0, 1, 0, 3, 0, 15, 0, 105]


@pytest.mark.parametrize("beta", [0.25, 0.5, 1.0, 1.5, 2.0, 3.0])
def test_theta_f_against_quadrature(beta):
    t1, t2 = quadrature_thetas(lambda x: f(x, beta))
    e1, e2 = theta_f(beta)
    assert e1 == pytest.approx(t1, rel=1e-10)
    assert e2 == pytest.approx(t2, rel=1e-10)
    assert abs(gauss_mean(f(_X, beta))) < 1e-12 * math.exp(beta**2)  # f is centred


@pytest.mark.parametrize("beta", [0.3, 0.7, 1.0, 1.5, 2.0, 3.0])
@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 12, 20])
def test_theta_q_against_quadrature(beta, n):
    t1, t2 = quadrature_thetas(lambda x: Q(x, beta, n))
    e1, e2 = theta_q(beta, n)
    scale = max(t1, 1e-300)
    assert abs(e1 - t1) <= 1e-10 * scale
    assert abs(e2 - t2) <= 1e-10 * scale
    assert abs(gauss_mean(Q(_X, beta, n))) <= 1e-10 * math.sqrt(scale) + 1e-15  # Q_n is centred


def test_theta_q_design_values():
    t1, t2 = theta_q(1.0, 8)
    assert t1 == pytest.approx(1.6860913, abs=1e-7)
    assert t2 == pytest.approx(0.9964998, abs=1e-7)


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
def test_theta_q_converges_to_theta_f(beta):
    assert theta_q(beta, 40) == pytest.approx(theta_f(beta), rel=1e-8)


def test_theta2_at_most_theta1_on_a_grid():
    # Cauchy-Schwarz: (E[chi g])^2 <= E[chi^2] E[g^2]; equality for n = 2 (Q_2 is linear).
    for beta in np.linspace(0.0, 4.0, 17):
        t1, t2 = theta_f(beta)
        assert t2 <= t1 * (1 + 1e-12)
        for n in range(1, 16):
            t1, t2 = theta_q(beta, n)
            assert t1 >= 0 and t2 >= 0
            assert t2 <= t1 * (1 + 1e-12) + 1e-300, (beta, n, t1, t2)


def test_poly_degree():
    assert poly_degree(1000, 2) == 8
    assert poly_degree(1000, 2.0) == 8
    assert poly_degree(64, 2) == math.ceil(2 * math.log(64) / math.log(math.log(64)))
    for d in (2, 3, 10, 15, 16, 20000):
        assert poly_degree(d, 0.01) >= 2
    degrees = [poly_degree(d, 2) for d in (16, 64, 256, 1000, 4000, 20000)]
    assert degrees == sorted(degrees)


def test_taylor_exp():
    x = np.linspace(-3, 3, 13)
    for n in (1, 2, 5, 9):
        expected = sum(x**k / math.factorial(k) for k in range(n))
        np.testing.assert_allclose(taylor_exp(x, n), expected, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(taylor_exp(x, 40), np.exp(x), rtol=1e-13)
    np.testing.assert_array_equal(taylor_exp(x, 0), np.zeros_like(x))


def test_q_converges_to_f():
    x = np.linspace(-4, 4, 33)
    np.testing.assert_allclose(Q(x, 1.0, 40), f(x, 1.0), atol=1e-12)


@pytest.mark.parametrize("beta, n", [(1.0, 8), (0.5, 6), (1.5, 10)])
@pytest.mark.parametrize("seed", [0, 1])
def test_monte_carlo_within_four_standard_errors(beta, n, seed):
    (m1, m2), (s1, s2) = theta_q_monte_carlo(beta, n, 200_000, np.random.default_rng(seed))
    e1, e2 = theta_q(beta, n)
    assert s1 > 0 and s2 > 0
    assert abs(m1 - e1) < 4 * s1, (m1, e1, s1)
    assert abs(m2 - e2) < 4 * s2, (m2, e2, s2)


def _exact_standard_deviations(beta: float, n: int) -> tuple[float, float]:
    """sd(Q_n^2) and the delta-method sd 2 |E Q_n'| sd(Q_n'), by quadrature (se: these/sqrt N)."""
    q = Q(_X, beta, n)
    dq = math.exp(-0.5 * beta**2) * beta * taylor_exp(beta * _X, n - 1)
    sd1 = math.sqrt(gauss_mean(q**4) - gauss_mean(q**2) ** 2)
    mean_dq = gauss_mean(dq)
    sd2 = 2 * abs(mean_dq) * math.sqrt(gauss_mean(dq**2) - mean_dq**2)
    return sd1, sd2


def test_monte_carlo_standard_error_shrinks_like_inverse_sqrt_n():
    beta, n = 1.0, 8
    sd1, sd2 = _exact_standard_deviations(beta, n)
    for seed in range(3):
        se_small = theta_q_monte_carlo(beta, n, 10_000, np.random.default_rng(seed))[1]
        se_large = theta_q_monte_carlo(beta, n, 160_000, np.random.default_rng(seed))[1]
        # theta_2: Q_n' is light-tailed, its sample sd is accurate: se * sqrt(N) -> sd2.
        assert se_small[1] * math.sqrt(10_000) == pytest.approx(sd2, rel=0.12)
        assert se_large[1] * math.sqrt(160_000) == pytest.approx(sd2, rel=0.04)
        assert se_small[1] / se_large[1] == pytest.approx(4.0, rel=0.15)
        # theta_1: Q_n^2 is heavy-tailed (a degree-14 polynomial of chi), its sample sd is noisy
        # and biased low at small N; at N = 160000 it is within a factor 1.6 of the exact one.
        assert 1 / 1.6 < se_large[0] * math.sqrt(160_000) / sd1 < 1.6
        assert se_large[0] < se_small[0]


def test_monte_carlo_is_reproducible():
    a = theta_q_monte_carlo(1.0, 8, 1000, np.random.default_rng(3))
    b = theta_q_monte_carlo(1.0, 8, 1000, np.random.default_rng(3))
    assert a == b


def test_independent_monte_carlo_estimates_are_not_the_seed_draw():
    estimates = theta_q1_estimates(1.0, 8, 2000, 0, count=5)
    assert estimates.shape == (5,) and len(set(estimates)) == 5
    assert np.array_equal(estimates, theta_q1_estimates(1.0, 8, 2000, 0, count=5))
    seed_draw = theta_q_monte_carlo(1.0, 8, 2000, np.random.default_rng(0))[0][0]
    assert seed_draw not in estimates
    big = theta_q1_estimates(1.0, 8, 20000, 1, count=8)
    se = big.std(ddof=1) / np.sqrt(big.size)
    assert abs(big.mean() - theta_q(1.0, 8)[0]) < 4 * se
