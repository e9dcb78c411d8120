r"""Attention spectra of one head against its canonical counterpart.

The spectral-degeneration paper (2025) compares each real head with the canonical map built from
the same score singular values: :math:`\operatorname{softmax}(\Sigma)` with
:math:`\Sigma = \operatorname{diag}(\sigma_1(S), \dots, \sigma_r(S), 0, \dots, 0)`, without a mask
(encoder) or with the causal mask (decoder), from :mod:`attnspec.canonical.model`.
"""

from __future__ import annotations

import numpy as np

from attnspec.canonical import model
from attnspec.canonical.causal import causal_singular_values
from attnspec.core.errors import InvalidInput
from attnspec.numerics.spectra import squared_singular_values, wasserstein1


def singular_values(A: np.ndarray) -> np.ndarray:
    r"""Singular values :math:`\sigma_i(A)`, descending, from :math:`\operatorname{eigvalsh}(A
    A^\top)`.

    Computed in float64 (:func:`attnspec.numerics.spectra.squared_singular_values`).
    """
    return np.sqrt(squared_singular_values(np.asarray(A, dtype=float)))


def canonical_scores(sigma_S, n: int) -> np.ndarray:
    r"""The canonical diagonal :math:`(\sigma_1(S), \dots, \sigma_r(S), 0, \dots, 0)` of length n.

    The nonzero singular values of the score matrix, descending, followed by :math:`n - r` zeros
    (the exact singular values of a rank-r matrix; float32 round-off is not carried over).
    """
    sigma = np.sort(np.asarray(sigma_S, dtype=float))[::-1]
    if sigma.ndim != 1 or sigma.size > n or np.any(sigma < 0):
        raise InvalidInput(
            f"sigma_S must hold at most n = {n} non-negative values, got shape {sigma.shape}"
        )
    return np.concatenate([sigma, np.zeros(n - sigma.size)])


def canonical_singular_values(sigma_S, n: int, causal: bool) -> np.ndarray:
    r"""Singular values of the canonical attention of a head, descending.

    :math:`\operatorname{softmax}(\Sigma)` with :math:`\Sigma = \operatorname{diag}` of
    :func:`canonical_scores`, row-wise, with the causal mask if ``causal``: the real against
    canonical comparison of the spectral-degeneration paper ("Spectral Degeneration of
    Self-Attention under Isotropic Score Geometry"). Bidirectional: exact reduction by distinct
    scores (:func:`attnspec.canonical.model.bidirectional_singular_values`, :math:`O(r^3)`); causal:
    dense Gram eigenproblem (:func:`attnspec.canonical.causal.causal_singular_values`,
    :math:`O(n^3)`).
    """
    s = canonical_scores(sigma_S, n)
    if causal:
        return causal_singular_values(s)
    return model.bidirectional_singular_values(s)


def spectrum_w1(a, b) -> float:
    r"""Wasserstein-1 distance :math:`\frac1n \sum_i |a_{(i)} - b_{(i)}|` between two spectra of
    equal size n.

    For samples of equal size the optimal coupling matches order statistics, so this equals
    :func:`attnspec.numerics.spectra.wasserstein1`. :math:`n W_1` is the :math:`\ell_1` distance
    between the sorted spectra.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or a.size == 0:
        raise InvalidInput(f"spectra must be 1-d of equal size, got {a.shape} and {b.shape}")
    return wasserstein1(a, b)


def averaging_singular_values(n: int) -> np.ndarray:
    r"""Singular values :math:`(1, 0, \dots, 0)` of uniform averaging :math:`\mathbf 1 \mathbf
    1^\top / n`.

    The rank-one reference with no free parameter.
    """
    return np.concatenate([[1.0], np.zeros(int(n) - 1)])
