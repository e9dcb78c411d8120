"""The reference distribution of the pooled spread of the normalizers
(:mod:`attnspec.experiments.normalizer_reference`) and the threshold chapter's family test on it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from attnspec.chapters.convergence_threshold.claims import _normalizers
from attnspec.core.errors import InvalidInput
from attnspec.experiments.normalizer_reference import (
    NORM_ALPHA,
    NormalizerPoint,
    draw_rows,
    exact_std,
    law_std,
    normalizer_test,
    pooled_std_reference,
)


def brute_rows(beta: float, d: int, rows: int, rng) -> np.ndarray:
    """D_i from its definition: d Gaussian scores of variance r_i, r_i ~ chi2_d/d."""
    a = beta * np.sqrt(rng.chisquare(d, rows) / d)
    return np.exp(a[:, None] * rng.standard_normal((rows, d)) - beta * beta / 2).mean(axis=1)


@pytest.mark.parametrize("beta", [0.5, 1.5, 2.5])
def test_the_split_draws_match_direct_draws_of_a_row(beta):
    d, rows = 200, 20_000
    fast = draw_rows(beta, d, rows, np.random.default_rng(1))
    slow = brute_rows(beta, d, rows, np.random.default_rng(2))
    # means within their errors, quantiles within 2 % (the 99th percentile, from 200 rows of a heavy
    # tail, within 6 %); the sample spread only below beta = 2, where no few rare rows carry it
    se = np.hypot(fast.std(), slow.std()) / np.sqrt(rows)
    assert abs(fast.mean() - slow.mean()) < 4 * se
    for q, rel in ((0.1, 0.02), (0.5, 0.02), (0.9, 0.02), (0.99, 0.06)):
        assert np.quantile(fast, q) == pytest.approx(np.quantile(slow, q), rel=rel)
    if beta < 2:
        assert fast.std() == pytest.approx(slow.std(), rel=0.05)
    assert law_std(beta, d) == pytest.approx(exact_std(beta, d), rel=1e-6)


def test_the_reference_centres_on_the_exact_spread_and_is_skewed_at_large_beta():
    d, trials = 250, 8
    light = pooled_std_reference(0.5, d, trials, 200, 0) / exact_std(0.5, d)
    heavy = pooled_std_reference(2.5, d, trials, 200, 0) / exact_std(2.5, d)
    assert np.median(light) == pytest.approx(1, abs=0.01)
    assert np.median(heavy) < 0.9 < np.quantile(heavy, 0.95)  # a spread from few trials falls short
    assert np.array_equal(pooled_std_reference(2.5, d, trials, 200, 0) / exact_std(2.5, d), heavy)
    with pytest.raises(InvalidInput, match="replicates"):
        pooled_std_reference(1.0, d, trials, 0, 0)


def null_points(seed: int) -> list[NormalizerPoint]:
    """Points whose measured spread is itself a draw from the exact law."""
    out = []
    for d, trials in ((100, 8), (200, 4)):
        for beta in (0.5, 1.5, 2.0):
            s = float(pooled_std_reference(beta, d, trials, 1, 10_000 + seed)[0])
            out.append(NormalizerPoint(d, beta, trials, s, 0.01, exact_std(beta, d)))
    return out


def test_the_family_test_passes_the_exact_law_and_fails_a_wrong_formula():
    rejected = [normalizer_test(null_points(s), 100, 0).outside != [] for s in range(20)]
    assert sum(rejected) <= 4  # nominal NORM_ALPHA = 5 %: at most 4 of 20 by chance (p < 0.02)
    assert NORM_ALPHA == 0.05
    points = null_points(0)
    wrong = [dataclasses.replace(p, exact=p.exact * 1.3) for p in points]
    test = normalizer_test(wrong, 100, 0)
    assert test.outside and _normalizers(test).holds is False
    assert _normalizers(normalizer_test(points, 100, 0)).holds is True
