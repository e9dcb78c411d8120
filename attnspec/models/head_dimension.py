r"""Scores at a head dimension :math:`d_{qk} \ne d`, and their exact statistics (this book).

With input :math:`X = I_d` and :math:`W_Q, W_K \in \mathbb R^{d \times d_{qk}}` of independent
:math:`N(0, 1)` entries, :math:`S = W_Q W_K^\top/\sqrt{d_{qk}}` has rank :math:`d_{qk}` and entries
of variance 1 that are not Gaussian: given the query :math:`q_i`, row i is
:math:`N(0, \Sigma_K)`-distributed with the key Gram :math:`\Sigma_K = W_K W_K^\top/d_{qk}`, and
given its norm, :math:`S_{ij} \sim N(0, \xi_i)` with :math:`\xi_i = \lVert q_i \rVert^2/d_{qk} \sim
\chi^2_{d_{qk}}/d_{qk}`. Everything below follows from
:math:`E e^{t \xi_i} = (1 - 2t/d_{qk})^{-d_{qk}/2}` and is derived in this book. At
:math:`d_{qk} = d` the draws are those of :func:`attnspec.models.attention.draw_scores` (the first
two draws of a trial's generator).
"""

from __future__ import annotations

import math

import numpy as np

from ..core import validate
from ..core.errors import InvalidInput
from .attention import score_matrix


def draw_head_scores(d: int, d_qk: int, rng: np.random.Generator):
    r""":math:`W_Q, W_K` (:math:`d \times d_{qk}`, the first two draws of ``rng``) and
    :math:`S = W_Q W_K^\top/\sqrt{d_{qk}}`."""
    Wq = rng.standard_normal((d, d_qk))
    Wk = rng.standard_normal((d, d_qk))
    return Wq, Wk, score_matrix(Wq, Wk)


def _check(beta: float, d_qk: int, factor: float) -> tuple[float, int]:
    beta = validate.real("beta", beta, 0.0)
    d_qk = validate.integer("d_qk", d_qk, 1)
    if not factor * beta * beta < d_qk:
        raise InvalidInput(
            f"d_qk={d_qk} is out of range for beta={beta:g}: must be > {factor:g} beta^2 "
            "(the exponential moments of the scores diverge there)"
        )
    return beta, d_qk


def norm_mgf(t: float, d_qk: int) -> float:
    r""":math:`E e^{t r} = (1 - 2t/d_{qk})^{-d_{qk}/2}` for :math:`r \sim \chi^2_{d_{qk}}/d_{qk}`,
    :math:`2t < d_{qk}`; it is also :math:`E e^{\sqrt{2t}\, S_{ij}}`, the score's moment generating
    function :math:`(1 - s^2/d_{qk})^{-d_{qk}/2}` at :math:`s^2 = 2t`."""
    return math.exp(-0.5 * d_qk * math.log1p(-2.0 * t / d_qk))


def theta_exact_law(beta: float, d_qk: int) -> tuple[float, float]:
    r""":math:`(\theta_1, \theta_2)` of :math:`f_{d_{qk}}(x) = e^{\beta x}/E e^{\beta S} - 1`
    under the exact law of a score.

    With :math:`M(s) = E e^{sS} = (1 - s^2/d_{qk})^{-d_{qk}/2}`,
    :math:`\theta_1 = E f^2 = M(2\beta)/M(\beta)^2 - 1`, and :math:`\theta_2` is the square of
    the linear-projection coefficient :math:`E[f(S) S]/E S^2 = M'(\beta)/M(\beta) =
    \beta/(1 - \beta^2/d_{qk})`. For non-Gaussian scores it is not :math:`(E f')^2 = \beta^2`
    (Stein's identity needs Gaussian scores). Needs :math:`d_{qk} > 4\beta^2`. Tends to
    :math:`(e^{\beta^2} - 1, \beta^2)` as :math:`d_{qk} \to \infty`.
    """
    beta, d_qk = _check(beta, d_qk, 4.0)
    b2 = beta * beta
    log_ratio = math.log(norm_mgf(2.0 * b2, d_qk)) - 2.0 * math.log(norm_mgf(0.5 * b2, d_qk))
    return math.expm1(log_ratio), (beta / (1.0 - b2 / d_qk)) ** 2


def normalizer_std_exact(beta: float, d_qk: int, d: int | None = None) -> float:
    r"""Exact standard deviation of :math:`D_i = Z_i/(d\, e^{\beta^2/2})`,
    :math:`Z_i = \sum_j e^{\beta S_{ij}}`; ``d=None`` gives its limit as :math:`d \to \infty`.

    Given :math:`\xi_i`, the d terms of :math:`Z_i` are independent with
    :math:`E[e^{\beta S_{ij}} \mid \xi_i] = e^{\beta^2 \xi_i/2}`, so with
    :math:`m(t) = E e^{t r}` (:func:`norm_mgf`)

    .. math::

        \operatorname{Var} D_i = e^{-\beta^2}\Bigl[m(\beta^2) - m(\beta^2/2)^2
        + \frac{m(2\beta^2) - m(\beta^2)}{d}\Bigr].

    The first part, from the query norms, tends to :math:`\beta^4/(2 d_{qk})` and does not vanish
    as :math:`d \to \infty` at fixed :math:`d_{qk}`; for :math:`d_{qk} = d` the sum is
    :math:`(e^{\beta^2} - 1 + \beta^4/2)/d` to first order. Needs :math:`d_{qk} > 4\beta^2`.
    """
    beta, d_qk = _check(beta, d_qk, 4.0)
    b2 = beta * beta
    m1, m_half, m2 = (norm_mgf(t, d_qk) for t in (b2, 0.5 * b2, 2.0 * b2))
    rows = 0.0 if d is None else (m2 - m1) / validate.integer("d", d, 1)
    return math.sqrt(math.exp(-b2) * (m1 - m_half**2 + rows))


def key_gram(Wk: np.ndarray) -> np.ndarray:
    r"""The key Gram :math:`\Sigma_K = W_K W_K^\top/d_{qk}`, the covariance of a score row given
    the keys."""
    return (Wk @ Wk.T) / Wk.shape[1]


def row_covariance(sigma_k: np.ndarray, beta: float, key_norms: bool = True) -> np.ndarray:
    r"""Covariance of a row of :math:`f(S)`, :math:`f(x) = e^{\beta x - \beta^2/2} - 1`, given the
    keys:

    .. math::

        (\Sigma_f)_{jl} = e^{\beta^2((\Sigma_K)_{jj} + (\Sigma_K)_{ll} - 2)/2}\,
        (e^{\beta^2(\Sigma_K)_{jl}} - 1),

    the Gaussian moment generating function of a score row :math:`N(0, \Sigma_K)`. With
    ``key_norms=False`` the key-norm factor :math:`e^{\beta^2((\Sigma_K)_{jj} - 1)/2}` is
    dropped, leaving :math:`e^{\beta^2\Sigma_K} - 1` (entrywise), the sum of the Hadamard powers
    :math:`\beta^{2n}\Sigma_K^{\circ n}/n!`, each of rank at most
    :math:`\binom{d_{qk} + n - 1}{n}`.
    """
    out = np.expm1(beta**2 * sigma_k)
    if key_norms:
        scale = np.exp(0.5 * beta**2 * (np.diag(sigma_k) - 1.0))
        out *= scale[:, None] * scale[None, :]
    return out


def linear_covariance(sigma_k: np.ndarray, theta: tuple[float, float]) -> np.ndarray:
    r""":math:`\Sigma_G = \theta_2 \Sigma_K + (\theta_1 - \theta_2) I`: the covariance of a row of
    the linear model :math:`\sqrt{\theta_2}\, S + \sqrt{\theta_1 - \theta_2}\, W` given the
    keys."""
    theta1, theta2 = theta
    out = theta2 * sigma_k
    out[np.diag_indices_from(out)] += theta1 - theta2
    return out


def participation_ratio(M: np.ndarray) -> float:
    r"""Effective rank :math:`(\operatorname{tr} M)^2/\operatorname{tr}(M^2) =
    (\sum_i \lambda_i)^2/\sum_i \lambda_i^2` of a symmetric positive semi-definite M: d for a
    multiple of :math:`I_d`, r for r equal eigenvalues. Computed from the entries
    (:math:`\operatorname{tr} M^2 = \lVert M\rVert_F^2`), so basis-independent by construction."""
    return float(np.trace(M) ** 2 / np.sum(M * M))
