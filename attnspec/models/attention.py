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


def draw_iid_scores(d: int, rng: np.random.Generator) -> np.ndarray:
    r"""Scores with independent entries :math:`s_{ij} \sim N(0, 1)`, :math:`i, j = 1..d`.

    Each entry has the law of an entry of :math:`S = W_Q W_K^\top/\sqrt{d}`, but the matrix has
    no bilinear (rank-:math:`d_{qk}`) structure: the model of random attention with i.i.d. scores.
    """
    return rng.standard_normal((d, d))


def centred_attention(S: np.ndarray, beta: float) -> np.ndarray:
    r""":math:`\sqrt d\,A_\perp = \sqrt d\,(A - \mathbf 1\mathbf 1^\top/d)` with
    :math:`A = \mathrm{softmax}(\beta S)` row-wise.

    Entrywise :math:`\sqrt d\,(A_{ij} - 1/d) = (e^{\beta s_{ij} - \beta^2/2}/D_i - 1)/\sqrt d`,
    with :math:`D_i` of :func:`row_normalizers`. For i.i.d. scores (:func:`draw_iid_scores`) and
    :math:`D_i \to 1` the entries tend to :math:`f(s_{ij})/\sqrt d`,
    :math:`f(x) = e^{\beta x - \beta^2/2} - 1`: independent, mean 0 and variance
    :math:`\theta_1/d` with :math:`\theta_1 = e^{\beta^2} - 1`, so the squared singular values
    follow Marchenko–Pastur of mean :math:`\theta_1`.
    """
    M = row_softmax(beta * S)
    M *= np.sqrt(S.shape[1])
    M -= 1.0 / np.sqrt(S.shape[1])
    return M


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
