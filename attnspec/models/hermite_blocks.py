r"""The Hermite-block Gaussian equivalents :math:`Y_k` of attention at a head dimension (this book).

With :math:`f(x) = e^{\beta x - \beta^2/2} - 1 = \sum_{j \ge 1} (\beta^j/j!)\,\mathrm{He}_j(x)`
(probabilists' Hermite polynomials, :math:`E\,\mathrm{He}_j(\chi)^2 = j!`) and
:math:`S = W_Q W_K^\top/\sqrt{d_{qk}}`,

.. math::

    Y_k = \frac{1}{\sqrt d}\Bigl(\sum_{j \le k} \frac{\beta^j}{j!}\,\mathrm{He}_j(S)
    + \sqrt{\theta_1 - \textstyle\sum_{j \le k} a_j}\; G\Bigr), \qquad a_j = \beta^{2j}/j!,

keeps the first k blocks of f(S) and replaces the others by white noise of the power they carry
(:math:`\theta_1 = e^{\beta^2} - 1 = \sum_j a_j`). :math:`Y_1` is the linear model. The block
:math:`\mathrm{He}_j(S)` is, up to lower-degree terms, a product of two :math:`d \times r_j` feature
matrices, :math:`r_j = \binom{d_{qk} + j - 1}{j}` (symmetric tensors of degree j).
"""

from __future__ import annotations

import math

import numpy as np

from ..core import validate


def hermite_blocks(S: np.ndarray, k: int) -> list[np.ndarray]:
    r""":math:`\mathrm{He}_1(S), \dots, \mathrm{He}_k(S)` entrywise, by the recursion
    :math:`\mathrm{He}_{j+1}(x) = x\,\mathrm{He}_j(x) - j\,\mathrm{He}_{j-1}(x)`."""
    k = validate.integer("k", k, 1)
    out = [S]
    previous = np.ones_like(S)
    for j in range(1, k):
        nxt = S * out[-1] - j * previous
        previous = out[-1]
        out.append(nxt)
    return out


def block_powers(beta: float, k: int) -> list[float]:
    r"""The blocks' powers :math:`a_j = \beta^{2j}/j!`, j = 1..k (:math:`\sum_{j \ge 1} a_j =
    \theta_1`)."""
    return [beta ** (2 * j) / math.factorial(j) for j in range(1, k + 1)]


def noise_power(beta: float, k: int) -> float:
    r""":math:`\sigma_k^2 = \theta_1 - \sum_{j \le k} a_j = \sum_{j > k} \beta^{2j}/j!`, summed
    from its tail (no cancellation)."""
    b2 = beta * beta
    term, total, j = b2 ** (k + 1) / math.factorial(k + 1), 0.0, k + 1
    while term > 1e-18 * max(total, 1e-300):
        total += term
        j += 1
        term *= b2 / j
    return total


def block_rank(d_qk: int, j: int) -> int:
    r""":math:`r_j = \binom{d_{qk} + j - 1}{j}`, the dimension of the symmetric tensors of degree
    j: about the rank of :math:`\mathrm{He}_j(S)`."""
    return math.comb(int(d_qk) + int(j) - 1, int(j))


def block_ratios(d: int, d_qk: int, k: int) -> list[float]:
    r"""The ratios :math:`c_j = r_j/d`, j = 1..k."""
    return [block_rank(d_qk, j) / d for j in range(1, k + 1)]


def hermite_model(S: np.ndarray, G: np.ndarray, beta: float, k: int) -> np.ndarray:
    r""":math:`Y_k` from the scores S and a matrix G of independent :math:`N(0, 1)` entries (the
    same G for every k)."""
    d = S.shape[0]
    Y = math.sqrt(noise_power(beta, k)) * G
    for j, block in enumerate(hermite_blocks(S, k), start=1):
        Y += (beta**j / math.factorial(j)) * block
    return Y / math.sqrt(d)
