"""Singular values of a head and of its canonical counterpart (attnspec.real.head_spectra)."""

import numpy as np
import pytest

from attnspec.models.attention import row_softmax
from attnspec.numerics import spectra
from attnspec.numerics.spectra import wasserstein1
from attnspec.real import (
    head_spectra,
)
from attnspec.real.ops import attention_softmax


def test_canonical_singular_values_match_dense_softmax():
    rng = np.random.default_rng(12)
    sigma = np.sort(rng.uniform(0, 8, 5))[::-1]
    n = 40
    s = head_spectra.canonical_scores(sigma, n)
    dense_bi = np.linalg.svd(row_softmax(np.diag(s)), compute_uv=False)
    dense_ca = np.linalg.svd(attention_softmax(np.diag(s), causal=True), compute_uv=False)
    assert np.allclose(
        head_spectra.canonical_singular_values(sigma, n, causal=False), dense_bi, atol=1e-7
    )
    assert np.allclose(
        head_spectra.canonical_singular_values(sigma, n, causal=True), dense_ca, atol=1e-7
    )
    with pytest.raises(ValueError):
        head_spectra.canonical_scores(np.ones(5), 4)


def test_spectrum_w1_and_ranks_of_known_matrices():
    rng = np.random.default_rng(13)
    a, b = rng.uniform(size=30), rng.uniform(size=30)
    assert head_spectra.spectrum_w1(a, b) == pytest.approx(wasserstein1(a, b), rel=1e-12)
    n = 16
    ones = head_spectra.singular_values(np.full((n, n), 1.0 / n))
    assert np.allclose(ones, head_spectra.averaging_singular_values(n), atol=1e-7)
    assert spectra.stable_rank(ones) == pytest.approx(1.0, rel=1e-6)
    eye = head_spectra.singular_values(np.eye(n))
    assert spectra.stable_rank(eye) == pytest.approx(n) and spectra.erank1(eye) == pytest.approx(n)
    diag = head_spectra.singular_values(np.diag([3.0, 1.0, 1.0, 0.0]))
    assert spectra.stable_rank(diag) == pytest.approx(11 / 9)
