"""Squared singular values, bulk, histograms and distances."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from attnspec.core.errors import InvalidInput
from attnspec.numerics.spectra import (
    METRICS,
    bulk,
    cdf_difference,
    ecdf,
    histogram_density,
    ks_distance,
    ks_to_cdf,
    l1_distance,
    squared_singular_values,
    squared_singular_values_of_gram,
    wasserstein1,
)


@pytest.mark.parametrize("d", [50, 200])
@pytest.mark.parametrize("kind", ["gaussian", "spiked", "low_rank", "softmax"])
def test_squared_singular_values_equal_svd(d, kind):
    rng = np.random.default_rng(d)
    M = rng.standard_normal((d, d)) / np.sqrt(d)
    if kind == "spiked":
        M += 30.0 / d  # a rank-one outlier with s1^2 ~ 900 over a bulk of order 1
    elif kind == "low_rank":
        M = M[:, :5] @ M[:5, :]  # rank 5: d - 5 zeros, exposed to round-off negatives
    elif kind == "softmax":
        e = np.exp(M * np.sqrt(d))
        M = np.sqrt(d) * e / e.sum(axis=1, keepdims=True)
    s2 = np.linalg.svd(M, compute_uv=False) ** 2
    got = squared_singular_values(M)
    assert got.shape == (d,)
    assert np.all(got >= 0)
    assert np.all(np.diff(got) <= 0)
    assert np.max(np.abs(got - s2)) <= 1e-9 * s2[0]


def test_of_gram_clips_negatives_and_sorts_descending():
    G = np.diag([-1e-16, 3.0, 1.0])
    np.testing.assert_array_equal(squared_singular_values_of_gram(G), [3.0, 1.0, 0.0])


def test_bulk():
    s2 = np.array([9.0, 5.0, 3.0, 2.0, 1.0])
    np.testing.assert_array_equal(bulk(s2, 0), s2)
    np.testing.assert_array_equal(bulk(s2, 3), [2.0, 1.0])


def test_histogram_density_integrates_to_one():
    values = np.random.default_rng(0).uniform(0, 8, 5000)
    h, edges = histogram_density(values, 40, (0.0, 8.0))
    assert h.shape == (40,) and edges.shape == (41,)
    assert np.sum(h * np.diff(edges)) == pytest.approx(1.0)


def test_l1_distance():
    rng = np.random.default_rng(1)
    a = rng.uniform(0, 4, 4000)
    assert l1_distance(a, a, 50, (0.0, 8.0)) == 0.0
    assert l1_distance(a, a + 4.0, 50, (0.0, 8.0)) == pytest.approx(2.0)  # disjoint supports
    b = rng.uniform(0, 4, 4000)
    assert 0 < l1_distance(a, b, 50, (0.0, 8.0)) < 0.2
    assert l1_distance(a, b, 50, (0.0, 8.0)) == pytest.approx(l1_distance(b, a, 50, (0.0, 8.0)))


def test_ks_distance_matches_scipy():
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal(700), rng.standard_normal(900) + 0.1
    assert ks_distance(a, b) == pytest.approx(stats.ks_2samp(a, b).statistic, abs=1e-12)
    assert ks_distance(a, a) == 0.0
    assert ks_distance(a, a + 100) == 1.0


def test_wasserstein1_of_a_shift():
    a = np.random.default_rng(3).standard_normal(1000)
    assert wasserstein1(a, a + 0.25) == pytest.approx(0.25)


def test_ks_to_cdf():
    a = np.random.default_rng(4).standard_normal(4000)
    assert ks_to_cdf(a, stats.norm.cdf) < 0.03
    assert ks_to_cdf(a + 1.0, stats.norm.cdf) > 0.3


def _law_sample(rng, size):
    """Squared singular values of a square Gaussian matrix (Marchenko–Pastur, ratio 1)."""
    M = rng.standard_normal((size, size)) / np.sqrt(size)
    return squared_singular_values(M)


@pytest.mark.parametrize("removed", [0, 3, 20])
def test_ks_below_quantile_of_a_sample_from_the_law_is_at_noise_level(removed):
    from attnspec.laws.marchenko_pastur import MarchenkoPastur
    from attnspec.numerics.spectra import ks_to_law_below_quantile

    law = MarchenkoPastur(1.0)
    rng = np.random.default_rng(7)
    d, n = 400, 20000
    x = np.sort(law.ppf(rng.random(n)))[::-1]  # i.i.d. sample of the law, descending
    full = ks_to_cdf(x, law.cdf)
    right = ks_to_law_below_quantile(x[removed:], law.cdf, law.ppf, n, removed)
    noise = 1.36 / np.sqrt(n)  # 95 % Kolmogorov quantile
    assert right <= full + 1e-12 and right < noise
    # pooled spectra of d values each, with r of each removed: renormalizing adds about r/d
    spectra = [np.sort(law.ppf(rng.random(d)))[::-1] for _ in range(20)]
    pooled = np.concatenate([s[removed:] for s in spectra])
    right = ks_to_law_below_quantile(pooled, law.cdf, law.ppf, d, removed)
    assert right < 1.36 / np.sqrt(20 * d)
    if removed == 20:  # renormalizing over the d - r kept values instead is off by about r/d = 0.05
        assert ks_to_cdf(pooled, law.cdf) > removed / d - 1.36 / np.sqrt(pooled.size) > right
    if removed >= 20:
        assert ks_to_cdf(pooled, law.cdf) > 0.8 * removed / d > right


def test_ks_below_quantile_without_removal_is_the_ordinary_distance():
    from attnspec.laws.marchenko_pastur import MarchenkoPastur
    from attnspec.numerics.spectra import ks_to_law_below_quantile

    law = MarchenkoPastur(1.0)
    s2 = _law_sample(np.random.default_rng(1), 300)
    assert ks_to_law_below_quantile(s2, law.cdf, law.ppf, 300, 0) == pytest.approx(
        ks_to_cdf(s2, law.cdf), abs=1e-15
    )


def test_ks_below_quantile_rejects_a_bulk_that_is_not_whole_spectra():
    from attnspec.numerics.spectra import ks_to_law_below_quantile

    with pytest.raises(InvalidInput, match="removed=3"):
        ks_to_law_below_quantile(np.ones(10), stats.norm.cdf, stats.norm.ppf, 10, 3)
    with pytest.raises(InvalidInput):
        ks_to_law_below_quantile(np.ones(10), stats.norm.cdf, stats.norm.ppf, 10, 10)


def test_metric_registry():
    from attnspec.numerics.spectra import distance

    rng = np.random.default_rng(3)
    a, b = rng.standard_normal(500), rng.standard_normal(400) + 0.3
    assert set(METRICS) == {"l1", "ks", "w1"}
    assert distance("ks", a, b) == ks_distance(a, b)
    assert distance("w1", a, b) == wasserstein1(a, b)
    assert distance("l1", a, b, bins=20, value_range=(-4, 4)) == l1_distance(a, b, 20, (-4, 4))
    with pytest.raises(InvalidInput, match="metric='kl'"):
        distance("kl", a, b)
    with pytest.raises(InvalidInput, match="bins"):
        distance("l1", a, b)


def test_ecdf_and_cdf_difference():
    x = np.array([0.0, 1.0, 2.5, 10.0])
    assert ecdf([1.0, 2.0, 3.0, 4.0], x).tolist() == [0.0, 0.25, 0.5, 1.0]
    assert cdf_difference([1.0, 2.0], [1.0, 2.0], x).tolist() == [0.0] * 4
    assert cdf_difference([0.5], [1.5], np.array([1.0]))[0] == 1.0
