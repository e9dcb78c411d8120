"""Head dimension d_qk != d: exact score statistics, the limit law at d_qk = c d, Pennington and
Worah's form at (phi, psi), the trials and gaps, the study's points (the chapter's tables, values
and claims: tests/chapters/test_head_dimension.py)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from scipy import special, stats

from attnspec.chapters.parameters import declared
from attnspec.core.errors import InvalidInput
from attnspec.experiments import head_dimension as hd
from attnspec.experiments.convergence import trials_for_pooled
from attnspec.experiments.trials import compute_trial
from attnspec.laws.gaussian_equivalent import GaussianEquivalentLaw
from attnspec.laws.head_dimension import HeadDimensionLaw, band_threshold
from attnspec.laws.pennington_worah import pennington_worah_pdf
from attnspec.laws.pennington_worah_general import pennington_worah_general_pdf
from attnspec.models.attention import draw_scores
from attnspec.models.head_dimension import (
    draw_head_scores,
    key_gram,
    linear_covariance,
    norm_mgf,
    normalizer_std_exact,
    participation_ratio,
    row_covariance,
    theta_exact_law,
)
from attnspec.models.nonlinearity import f, theta_f
from attnspec.numerics.spectra import ks_to_law_below_quantile, squared_singular_values
from tests.helpers import in_this_process

THETA = theta_f(1.0)


# ---- exact statistics of the scores -----------------------------------------------------------


def test_square_heads_draw_the_ladders_scores():
    a = draw_scores(30, np.random.default_rng(4))
    b = draw_head_scores(30, 30, np.random.default_rng(4))[2]
    assert np.array_equal(a, b)


def _over_norms(g, k: int, n: int = 60) -> float:
    """E g(r) for r ~ chi^2_k / k, by generalized Gauss-Laguerre quadrature."""
    x, w = special.roots_genlaguerre(n, k / 2 - 1)
    return float(np.sum(w * g(2 * x / k)) / math.gamma(k / 2))


@pytest.mark.parametrize("k", [8, 16, 64])
def test_theta_of_the_exact_law_by_quadrature(k):
    beta = 1.0
    # E e^{s S} = E_r e^{s^2 r / 2}; the centred f_k = e^{beta x}/M(beta) - 1
    m1 = _over_norms(lambda r: np.exp(beta**2 * r / 2), k)
    m2 = _over_norms(lambda r: np.exp(2 * beta**2 * r), k)
    assert norm_mgf(beta**2 / 2, k) == pytest.approx(m1, rel=1e-12)
    theta1, theta2 = theta_exact_law(beta, k)
    assert theta1 == pytest.approx(m2 / m1**2 - 1, rel=1e-10)
    # the projection coefficient E[f(S) S] / E S^2 = E[S e^{beta S}] / M(beta), with
    # E[S e^{beta S} | r] = beta r e^{beta^2 r / 2}; not E f' = beta for non-Gaussian scores
    projection = _over_norms(lambda r: beta * r * np.exp(beta**2 * r / 2), k) / m1
    assert theta2 == pytest.approx(projection**2, rel=1e-10)
    assert theta2 > beta**2
    big = theta_exact_law(beta, 10**7)
    assert big == pytest.approx(THETA, rel=1e-5)


def test_exact_statistics_refuse_a_head_too_narrow_for_their_moments():
    with pytest.raises(InvalidInput, match="d_qk=4 is out of range"):
        theta_exact_law(1.0, 4)
    with pytest.raises(InvalidInput, match="d_qk=16"):
        normalizer_std_exact(2.0, 16, 100)


def test_normalizer_spread_is_exact_against_simulation():
    d, k, beta, trials = 300, 16, 1.0, 40
    rng = np.random.default_rng(1)
    D = []
    for _ in range(trials):
        S = draw_head_scores(d, k, rng)[2]
        D.append(np.exp(beta * S).sum(axis=1) / (d * np.exp(beta**2 / 2)))
    per_trial = np.array([x.std() for x in D])
    measured = float(np.concatenate(D).std())
    exact = normalizer_std_exact(beta, k, d)
    assert abs(measured - exact) < 4 * per_trial.std(ddof=1) / math.sqrt(trials)
    # square heads: the first-order formula of the normalizer chapter
    first = math.sqrt((math.e - 1 + 0.5) / 1000)
    assert normalizer_std_exact(1.0, 1000, 1000) == pytest.approx(first, rel=0.01)
    assert normalizer_std_exact(1.0, 64) == pytest.approx(math.sqrt(1 / (2 * 64)), rel=0.05)


def test_row_covariance_is_the_covariance_of_f_rows_given_the_keys():
    d, k, beta = 6, 4, 0.8
    rng = np.random.default_rng(2)
    Wk = rng.standard_normal((d, k))
    rho = key_gram(Wk)
    q = rng.standard_normal((200_000, k))
    rows = f(q @ Wk.T / math.sqrt(k), beta)
    assert np.allclose(np.cov(rows.T), row_covariance(rho, beta), rtol=0.05, atol=0.01)
    sigma = linear_covariance(rho, THETA)
    assert np.allclose(np.diag(sigma), THETA[1] * np.diag(rho) + THETA[0] - THETA[1])
    # without the key-norm factor: the rows of e^{beta q.k / sqrt k - beta^2 |k|^2 / (2k)} - 1
    norms = np.diag(rho)
    unit = np.exp(beta * q @ Wk.T / math.sqrt(k) - 0.5 * beta**2 * norms) - 1
    exact = row_covariance(rho, beta, key_norms=False)
    assert np.allclose(np.cov(unit.T), exact, rtol=0.05, atol=0.01)


def test_participation_ratio_counts_even_eigenvalues():
    assert participation_ratio(np.eye(7)) == pytest.approx(7.0)
    assert participation_ratio(np.diag([2.0, 2.0, 0.0, 0.0])) == pytest.approx(2.0)
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((5, 5)))[0]
    M = Q @ np.diag([3.0, 1.0, 1.0, 0.5, 0.0]) @ Q.T
    lam = np.linalg.eigvalsh(M)
    assert participation_ratio(M) == pytest.approx(lam.sum() ** 2 / np.sum(lam**2))


def test_hadamard_square_is_full_rank_but_uneven_at_a_narrow_head():
    with in_this_process():
        sq = hd.hadamard_square(120, 12, 0, 2)
    # rank <= binom(13, 2) = 78 < 120: rank-deficient here; at d_qk = 24 (binom 300) full
    assert list(sq.rank) == [78, 78]
    full = hd.hadamard_square(120, 24, 0, 2)
    assert list(full.rank) == [120, 120]
    # (tr H)^2 / tr H^2 with H_jl = (k_j.k_l / d_qk)^2: about d / (1 + 3 d / d_qk^2) plus the mean
    assert np.all(full.participation < 120) and np.all(full.participation > 20)


# ---- the limit law ----------------------------------------------------------------------------


def test_ratio_one_is_the_square_law():
    law, square = HeadDimensionLaw(*THETA, 1.0), GaussianEquivalentLaw(*THETA)
    x = np.linspace(0.05, 9.0, 60)
    assert law.edge == pytest.approx(square.edge, rel=1e-12)
    assert np.max(np.abs(law.pdf(x) - square.pdf(x))) < 1e-10
    assert np.max(np.abs(law.cdf(x) - square.cdf(x))) < 1e-10


@pytest.mark.parametrize("c", [0.5, 0.25, 1 / 16, 1 / 64])
def test_moments_masses_and_quantiles(c):
    law = HeadDimensionLaw(*THETA, c)
    assert law.quadrature_mass == pytest.approx(1.0, abs=1e-10)
    assert law.expect(lambda x: x) == pytest.approx(THETA[0], rel=1e-10)
    assert law.moment(2) - THETA[0] ** 2 == pytest.approx(law.var(), rel=1e-12)
    assert law.var() == pytest.approx(THETA[0] ** 2 + THETA[1] ** 2 / c)
    for n in (2, 3, 4):
        assert law.expect(lambda x, n=n: x**n) == pytest.approx(law.moment(n), rel=1e-9)
    p = np.array([1e-6, 0.1, 0.5, 0.93, 0.99, 1 - 1e-6])
    assert np.max(np.abs(law.cdf(law.ppf(p)) - p)) < 1e-10
    if c < band_threshold(*THETA):
        assert len(law.intervals) == 2 and law.interval_masses()[1] == pytest.approx(c, abs=1e-9)
        gap = 0.5 * (law.intervals[0][1] + law.intervals[1][0])
        assert law.pdf(gap) == 0.0 and law.cdf(gap) == pytest.approx(1 - c, abs=1e-9)
    else:
        assert len(law.intervals) == 1


def test_the_band_splits_off_at_the_threshold():
    c_star = band_threshold(*THETA)
    assert 0.19 < c_star < 0.21
    assert len(HeadDimensionLaw(*THETA, c_star * 0.98).intervals) == 2
    assert len(HeadDimensionLaw(*THETA, c_star * 1.02).intervals) == 1
    assert math.isnan(band_threshold(1.0, 0.0))  # Marchenko-Pastur never splits


def test_the_law_is_that_of_samples_of_the_linear_model():
    d, k = 800, 50
    rng = np.random.default_rng(3)
    values = []
    for _ in range(2):
        S = draw_head_scores(d, k, rng)[2]
        W = rng.standard_normal((d, d))
        M = (math.sqrt(THETA[1]) * S + math.sqrt(THETA[0] - THETA[1]) * W) / math.sqrt(d)
        values.append(squared_singular_values(M))
    law = HeadDimensionLaw(*THETA, k / d)
    ks = ks_to_law_below_quantile(np.concatenate(values), law.cdf, law.ppf, d, 0)
    assert ks < 0.01  # 1.36 / sqrt(1600) = 0.034 for independent values
    in_band = [int(np.sum(v > law.intervals[0][1])) for v in values]
    assert all(abs(n - k) <= 2 for n in in_band)  # the band's d_qk, up to the edges' fluctuations


def test_law_arguments_are_checked():
    with pytest.raises(InvalidInput, match="ratio"):
        HeadDimensionLaw(1.0, 0.5, 1.5)
    with pytest.raises(InvalidInput, match="atom at 0"):
        HeadDimensionLaw(1.0, 1.0, 0.5)
    assert len(HeadDimensionLaw(1.0, 1.0, 1.0).intervals) == 1  # Fuss-Catalan


# ---- Pennington and Worah's form --------------------------------------------------------------


@pytest.mark.parametrize("c", [1.0, 0.25, 1 / 16])
def test_pennington_worah_at_phi_psi_c_is_the_law(c):
    law = HeadDimensionLaw(*THETA, c)
    x = law.interior(15)
    assert np.max(np.abs(pennington_worah_general_pdf(x, *THETA, c, c) / law.pdf(x) - 1)) < 1e-8
    # the square case's reading: psi^-2 q(lambda / psi), mass 1/psi
    unscaled = pennington_worah_general_pdf(c * x, *THETA, c, c, reading="unscaled")
    assert np.allclose(unscaled, law.pdf(x) / c**2, rtol=1e-8)


def test_pennington_worah_general_at_one_is_the_square_form():
    x = np.array([0.5, 2.0, 6.0])
    assert np.allclose(
        pennington_worah_general_pdf(x, *THETA, 1.0, 1.0), pennington_worah_pdf(x, *THETA)
    )
    with pytest.raises(InvalidInput, match="phi"):
        pennington_worah_general_pdf(x, *THETA, 0.0, 1.0)
    with pytest.raises(InvalidInput, match="reading"):
        pennington_worah_general_pdf(x, *THETA, 1.0, 1.0, reading="other")


# ---- trials, gaps, the study ------------------------------------------------------------------


def test_square_trials_are_the_ladders_trials():
    d, beta = 40, 1.0
    ladder = compute_trial(d, beta, 2.0, 5, 1, models=["sqrt_d_A_perp", "Y_f_lin"])
    head = hd.compute_head_trial(d, d, beta, 5, 1, ("ref", "lin"))
    assert np.allclose(head["ref"], ladder["sqrt_d_A_perp"], atol=1e-10)
    assert np.allclose(head["lin"], ladder["Y_f_lin"], atol=1e-10)
    assert np.allclose(head["D"], ladder["D"])


def test_cached_trial_and_two_sample_jackknife():
    first = hd.head_trial(30, 6, 1.0, 0, 0, hd.MODELS)
    again = hd.head_trial(30, 6, 1.0, 0, 0, hd.MODELS)
    assert set(first) == {*hd.MODELS, "D"}
    assert all(np.array_equal(first[m], again[m]) for m in first)
    a = [np.arange(10.0), np.arange(10.0) + 0.5]
    same = hd.two_sample(a, a)
    assert same.ks == 0.0 and same.se == 0.0
    apart = hd.two_sample(a, [x + 100 for x in a])
    assert apart.ks == 1.0 and apart.se == 0.0


def test_outside_support_counts_values_in_gaps_and_beyond_the_edge():
    law = HeadDimensionLaw(*THETA, 1 / 16)
    (lo, hi), (lo2, hi2) = law.intervals
    values = np.array([0.5 * hi, 0.5 * (hi + lo2), 0.5 * (lo2 + hi2), 2 * hi2])
    assert hd.outside_support(values, law) == 2


def test_series_sizes_and_trials():
    sizes = hd.series_sizes([256, 512], [1.0, 0.0625], 64)
    assert sizes[("ratio", 0.0625)] == [(256, 16), (512, 32)]
    assert sizes[("d_qk", 64.0)] == [(256, 64), (512, 64)]
    assert trials_for_pooled([2048, 256, 8000], 4000, minimum=2) == {2048: 2, 256: 16, 8000: 2}


#: The study's small parameters (the chapter's test adds those of its scan over alpha).
SMALL = dict(
    d=96,
    d_qk_values=[96, 24, 12],
    beta=1.0,
    betas=[0.5, 1.0],
    trials=2,
    d_values=[48, 96],
    head_ratios=[1.0, 0.25],
    d_qk=12,
    pooled_values=96,
    seed=0,
    remove_top_k=1,
)


@pytest.fixture
def study():
    with in_this_process():
        return hd.run_study(**SMALL)


def test_study_maps_and_points(study):
    assert [q.d_qk for q in study.maps[1.0]] == [96, 24, 12]
    assert set(study.maps) == {0.5, 1.0} and study.point(12).exact is not None
    assert study.point(12, 0.5).exact is None and study.point(12, 0.5).chain == {}


# ---- parameters -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "values, message",
    [
        ({"d": 500, "d_qk_values": [1000]}, "d_qk_values=[1000] and d_qk=64 are out of range"),
        ({"d_qk": 300, "d_values": [256, 512]}, "d_qk=300 is out of range"),
        ({"head_ratios": [0.001], "d_values": [256]}, "head_ratios=[0.001] is out of range"),
        ({"beta": 2.0, "d_qk_values": [16]}, "must be > 4 beta^2"),
        ({"betas": [0.0, 1.0]}, "betas=[0.0, 1.0] is out of range"),
        ({"head_ratios": [1.5]}, "head_ratios=1.5 is out of range"),
    ],
)
def test_head_dimension_rules(values, message):
    with pytest.raises(InvalidInput, match=re.escape(message)):
        declared("head-dimension").validate(values)


def test_scores_are_not_gaussian_at_a_narrow_head():
    S = draw_head_scores(400, 8, np.random.default_rng(0))[2]
    # kurtosis 3 (1 + 2 / d_qk): excess 6 / d_qk
    assert stats.kurtosis(S.ravel()) == pytest.approx(6 / 8, abs=0.15)
