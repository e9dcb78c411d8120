"""Squared singular values, bulk, histograms and distances."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from attnspec.spectra import (
    bulk,
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
