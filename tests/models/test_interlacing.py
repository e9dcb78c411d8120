"""Interlacing of the spectra under a rank-one change."""

import numpy as np
import pytest

from attnspec.core.errors import InvalidInput
from attnspec.models.interlacing import rank_one_interlacing_violation


def test_interlacing_holds_for_a_rank_one_change_and_fails_otherwise():
    rng = np.random.default_rng(0)
    M = rng.standard_normal((30, 30))
    R = np.outer(rng.standard_normal(30), rng.standard_normal(30))

    def s2(X):
        return np.linalg.svd(X, compute_uv=False)[None, :] ** 2

    assert rank_one_interlacing_violation(s2(M), s2(M + R)) < 1e-10
    assert rank_one_interlacing_violation(s2(M), s2(3 * M)) > 0.1
    with pytest.raises(InvalidInput):
        rank_one_interlacing_violation(np.ones((2, 3)), np.ones((2, 4)))
