r"""Score matrix, numerically stable row softmax, and the row normalizers Z_i and D_i.

Setting of the Gaussian-equivalence paper (arXiv 2510.06685): input X = I_d and
ell = d = d_qk, so the score matrix is :math:`S = W_Q W_K^\top/\sqrt{d_{qk}}` and
:math:`A = \mathrm{softmax}(\beta S)` row-wise.
"""

from __future__ import annotations

import numpy as np


def draw_scores(d: int, rng: np.random.Generator) -> np.ndarray:
    r"""Draw :math:`W_Q, W_K` (d x d_qk, d_qk = d, entries i.i.d. N(0, 1)) and return S.

    These are the first two draws of a trial's generator; the independent W of the linear models
    is the third (see :func:`attnspec.experiments.trials.compute_trial`).
    """
    return score_matrix(rng.standard_normal((d, d)), rng.standard_normal((d, d)))


def score_matrix(Wq: np.ndarray, Wk: np.ndarray) -> np.ndarray:
    r"""Score matrix :math:`S = W_Q W_K^\top / \sqrt{d_{qk}}` (input X = I_d)."""
    return (Wq @ Wk.T) / np.sqrt(Wq.shape[1])


def row_softmax(x: np.ndarray) -> np.ndarray:
    r"""Row softmax :math:`A_{ij} = e^{x_{ij}} / \sum_k e^{x_{ik}}`, shifted by the row maximum.

    Finite for any finite input (no overflow at beta = 50); every row sums to 1.
    """
    e = np.exp(x - x.max(axis=1, keepdims=True))
    e /= e.sum(axis=1, keepdims=True)
    return e


def row_normalizers(beta_S: np.ndarray, beta: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Row normalizers :math:`Z_i = \sum_j e^{\beta S_{ij}}` and :math:`D_i = Z_i / (d\,
    e^{\beta^2/2})`.

    :math:`D_i \to 1` is the normalizer concentration that the paper's proof controls: the
    deterministic-normalizer approximation :math:`Z_i \approx d\, e^{\beta^2/2}`. Computed in the
    log domain.
    """
    d = beta_S.shape[1]
    row_max = beta_S.max(axis=1)
    log_Z = row_max + np.log(np.exp(beta_S - row_max[:, None]).sum(axis=1))
    return np.exp(log_Z), np.exp(log_Z - np.log(d) - 0.5 * beta**2)
