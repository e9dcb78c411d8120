r"""Causal attention of the canonical diagonal score model (Part III).

Row :math:`i` of the causal softmax of :math:`\Sigma = \operatorname{diag}(s_1, \dots, s_\ell)`
attends to :math:`j \le i`: :math:`A = \operatorname{diag}(z) T + \operatorname{diag}(d)` with T the
lower-triangular matrix of ones. Exact spectra, the :math:`O(\ell)` Gram operator for the leading
values, and the :math:`\Sigma = 0` (prefix-averaging) case; the model itself is
:mod:`attnspec.canonical.model`.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import LinearOperator, eigsh

from attnspec.canonical.model import checked_scores
from attnspec.core import validate
from attnspec.core.errors import InvalidInput
from attnspec.models.attention import row_softmax
from attnspec.numerics.spectra import squared_singular_values_of_gram

#: The paper's bound :math:`\|A\|_{op} \le \sqrt{5}` for causal attention.
CAUSAL_NORM_BOUND = math.sqrt(5.0)


def _check_ell(ell: int) -> int:
    return validate.integer("ell", ell, 2)


def causal_parts(s) -> tuple[np.ndarray, np.ndarray]:
    r"""Causal softmax of :math:`\Sigma`: :math:`A = \operatorname{diag}(z) T +
    \operatorname{diag}(d)`.

    Row i attends to :math:`j \le i` (T is the lower-triangular matrix of ones):
    :math:`A_{ii} = e^{s_i} / Z_i`, :math:`A_{ij} = 1 / Z_i` for :math:`j < i`, with
    :math:`Z_i = e^{s_i} + i - 1`; :math:`z_i = 1/Z_i`, :math:`d_i = A_{ii} - z_i`.

    Returns
    -------
    d, z : numpy.ndarray
    """
    s = checked_scores(s)
    with np.errstate(divide="ignore"):
        log_Z = np.logaddexp(s, np.log(np.arange(s.size)))
    z = np.exp(-log_Z)
    return np.exp(s - log_Z) - z, z


def causal_attention(s) -> np.ndarray:
    r"""The dense causal matrix :math:`A` of :func:`causal_parts`, lower triangular, rows summing
    to 1."""
    d, z = causal_parts(s)
    A = np.tril(np.repeat(z[:, None], z.size, axis=1))
    A[np.diag_indices_from(A)] += d
    return A


def causal_spike_gaps(leading) -> np.ndarray:
    r""":math:`1 - \lambda_i = \sum_{j < i} A_{ij}` for :math:`i \le m`, from the causal row
    softmax itself, given the leading scores :math:`s_1, \dots, s_m`.

    Row :math:`i` of the causal softmax of :math:`\Sigma` sees only :math:`j \le i`, so rows
    :math:`1, \dots, m` are the row softmax of the masked leading :math:`m \times m` block, at any
    :math:`\ell`; the eigenvalue :math:`\lambda_i = A_{ii}` (A is triangular) and its gap to 1 is
    the row's mass off the diagonal, summed without cancellation.
    """
    s = np.asarray(leading, dtype=float)
    if s.ndim != 1 or s.size < 1 or not np.all(np.isfinite(s)):
        raise InvalidInput(f"leading must be a 1-d array of finite scores, got shape {s.shape}")
    block = np.diag(s) + np.triu(np.full((s.size, s.size), -np.inf), 1)
    return np.tril(row_softmax(block), -1).sum(axis=1)


def causal_eigenvalues(s) -> np.ndarray:
    r"""Causal eigenvalues, exactly the diagonal :math:`A_{ii} = e^{s_i}/(e^{s_i} + i - 1)`,
    descending.

    A is triangular (the paper's causal eigenvalues); :math:`\lambda = 1` from row 1.
    """
    d, z = causal_parts(s)
    return np.sort(d + z)[::-1]


def causal_gram(s) -> np.ndarray:
    r"""The Gram matrix :math:`G = A A^\top` of causal attention in :math:`O(\ell^2)`, without a
    product.

    Row i of A sums to 1 and row :math:`j > i` is constant (:math:`z_j`) on the support of row i, so

    .. math::
        G_{ij} = z_{\max(i, j)} \ (i \ne j), \qquad G_{ii} = A_{ii}^2 + (i - 1) z_i^2.
    """
    d, z = causal_parts(s)
    index = np.arange(z.size)
    G = z[np.maximum.outer(index, index)]
    G[np.diag_indices_from(G)] = (d + z) ** 2 + index * z**2
    return G


def causal_singular_values(s) -> np.ndarray:
    r"""Singular values of causal attention, descending: :math:`\sqrt{\lambda_i(A A^\top)}`.

    Dense symmetric eigenproblem of :func:`causal_gram`; absolute error of order :math:`10^{-8}` on
    the smallest values. For :math:`\Sigma = 0` use the faster
    :func:`prefix_average_singular_values`.
    """
    return np.sqrt(squared_singular_values_of_gram(causal_gram(s)))


def causal_frobenius_sq(s) -> float:
    r""":math:`\|A\|_F^2 = \sum_i A_{ii}^2 + (i - 1) z_i^2` for causal attention.

    At :math:`\Sigma = 0` it is the harmonic number :math:`H_\ell` (:func:`harmonic_number`).
    """
    d, z = causal_parts(s)
    return float(np.sum((d + z) ** 2 + np.arange(z.size) * z**2))


def causal_gram_frobenius_sq(s) -> float:
    r""":math:`\|A A^\top\|_F^2 = \sum_i \sigma_i^4` of causal attention, exact in :math:`O(\ell)`.

    From :func:`causal_gram`: :math:`G_{ij} = z_{\max(i, j)}` off the diagonal, so each
    :math:`z_j` appears :math:`2(j - 1)` times and
    :math:`\|G\|_F^2 = \sum_i G_{ii}^2 + 2 \sum_j (j - 1) z_j^2`.
    """
    d, z = causal_parts(s)
    index = np.arange(z.size)
    diagonal = (d + z) ** 2 + index * z**2
    return float(np.sum(diagonal**2) + 2 * np.sum(index * z**2))


def causal_erank2(s) -> float:
    r"""Rényi-2 effective rank :math:`\|A\|_F^4 / \|A A^\top\|_F^2` of causal attention in
    :math:`O(\ell)`.

    Equals :func:`attnspec.numerics.spectra.erank2` of the singular values
    (:func:`causal_frobenius_sq`, :func:`causal_gram_frobenius_sq`), at any :math:`\ell`.
    """
    return causal_frobenius_sq(s) ** 2 / causal_gram_frobenius_sq(s)


class CausalGramOperator(LinearOperator):
    r"""The Gram operator :math:`x \mapsto A^\top A x` of causal attention, :math:`O(\ell)` per
    product.

    With :math:`A = \operatorname{diag}(z) T + \operatorname{diag}(d)` (:func:`causal_parts`; T the
    lower-triangular matrix of ones), :math:`A x = z \odot \operatorname{cumsum}(x) + d \odot x` and
    :math:`A^\top y = \operatorname{revcumsum}(z \odot y) + d \odot y`. Only the non-zero entries
    of d are used (d vanishes at every zero score), and the products reuse two buffers.
    """

    def __init__(self, d: np.ndarray, z: np.ndarray):
        super().__init__(dtype=np.dtype(float), shape=(z.size, z.size))
        self.z = z
        self.support = np.flatnonzero(d)
        self.d_support = d[self.support]
        self._y = np.empty(z.size)
        self._out = np.empty(z.size)

    def _product(self, x: np.ndarray, out: np.ndarray) -> np.ndarray:
        """:math:`A^\top A x` written into ``out`` (no new array)."""
        y, idx = self._y, self.support
        np.cumsum(x, out=y)
        y *= self.z
        y[idx] += self.d_support * x[idx]
        np.multiply(self.z, y, out=out)
        np.cumsum(out[::-1], out=out[::-1])
        out[idx] += self.d_support * y[idx]
        return out

    def _matvec(self, x):
        return self._product(np.asarray(x, dtype=float).ravel(), self._out).copy()

    def top_eigenvalues(self, n: int) -> np.ndarray:
        """The n largest eigenvalues of :math:`A^\top A`, descending (ARPACK from the start
        vector of ones)."""
        top = eigsh(
            self, k=int(n), which="LA", tol=0, v0=np.ones(self.shape[0]), return_eigenvectors=False
        )
        return np.sort(top)[::-1]

    def top_eigenvalue(self, rtol: float = 1e-13, max_steps: int = 200) -> float:
        r"""The largest eigenvalue of :math:`A^\top A` by the Lanczos three-term recurrence.

        Starts from the vector of ones; stops when the residual bound :math:`\beta_m |y_m|` of the
        top Ritz pair is below ``rtol`` times the Ritz value (the eigenvalue is then within that
        bound of it), or when the Krylov space is invariant. Without reorthogonalization the top
        Ritz value still converges to the top eigenvalue (lost orthogonality only adds copies of
        converged values). Deterministic; three vectors of memory.
        """
        size = self.shape[0]
        v_prev, v, w = np.zeros(size), np.full(size, 1.0 / math.sqrt(size)), np.empty(size)
        alpha, beta = [], []
        b_prev, theta = 0.0, 0.0
        for m in range(min(max_steps, size)):
            self._product(v, w)
            alpha.append(float(v @ w))
            w -= alpha[-1] * v
            w -= b_prev * v_prev
            b = float(np.linalg.norm(w))
            ritz, vectors = linalg.eigh_tridiagonal(
                np.array(alpha), np.array(beta), select="i", select_range=(m, m)
            )
            theta = float(ritz[-1])
            if b * abs(vectors[-1, -1]) <= rtol * theta or b <= rtol * theta:
                break
            beta.append(b)
            w /= b
            v_prev, v, w = v, w, v_prev
            b_prev = b
        return theta


def causal_operator_norm(s) -> float:
    r""":math:`\|A\|_{op}` of causal attention by Lanczos on :math:`A^\top A`
    (:class:`CausalGramOperator`).

    Lanczos from a fixed start vector (:meth:`CausalGramOperator.top_eigenvalue`), so the result is
    reproducible; :math:`O(\ell)` time per product.
    """
    return float(math.sqrt(CausalGramOperator(*causal_parts(s)).top_eigenvalue()))


def causal_top_singular_values(s, n: int) -> np.ndarray:
    r"""The n largest singular values of causal attention, descending, by Lanczos in :math:`O(\ell)`
    memory.

    The n largest eigenvalues of :class:`CausalGramOperator`, then square roots; agrees with
    :func:`causal_singular_values` to round-off. Falls back to the dense computation when
    :math:`n \ge \ell - 1` (ARPACK needs :math:`n < \ell`).

    Parameters
    ----------
    s : array_like
        Scores, in the order of the diagonal.
    n : int
        How many values, :math:`1 \le n \le \ell`.
    """
    d, z = causal_parts(s)
    n = validate.integer("n", n, 1, z.size)
    if n >= z.size - 1:
        return causal_singular_values(s)[:n]
    return np.sqrt(np.maximum(CausalGramOperator(d, z).top_eigenvalues(n), 0.0))


def causal_top_until(s, eps: float, start: int, cap: int) -> tuple[np.ndarray, bool]:
    r"""Leading causal singular values, doubling their number until one is :math:`\le \varepsilon`.

    Starts with ``start`` values and stops at ``cap`` (or :math:`\ell`). Returns the values and
    whether the last one is below ``eps`` (or all were computed); ``False`` means the count of
    values above ``eps`` is only a lower bound.
    """
    size = np.asarray(s).size
    n = min(start, size, cap)
    while True:
        top = causal_top_singular_values(s, n)
        if top[-1] <= eps or n == size:
            return top, True
        if n == cap:
            return top, False
        n = min(2 * n, size, cap)


def causal_stable_rank(s) -> float:
    r"""Stable rank :math:`\|A\|_F^2 / \|A\|_{op}^2` of causal attention, in :math:`O(\ell)` memory.

    The seed summary states :math:`\Theta_B(\log \ell)`; at :math:`\Sigma = 0` see
    :mod:`attnspec.canonical.cesaro`.
    """
    return causal_frobenius_sq(s) / causal_operator_norm(s) ** 2


def prefix_average_singular_values(ell: int) -> np.ndarray:
    r"""Singular values of causal attention at :math:`\Sigma = 0` (prefix averaging), descending.

    :math:`A_{ij} = \mathbb 1\{j \le i\}/i` and :math:`(A A^\top)_{ij} = z_{\max(i,j)}`,
    :math:`z_i = 1/i`. Writing :math:`w_m = z_m - z_{m+1}` (:math:`z_{\ell+1} = 0`),
    :math:`A A^\top = U \operatorname{diag}(w) U^\top` with U upper triangular of ones, so
    :math:`(A A^\top)^{-1} = (I - N)^\top \operatorname{diag}(1/w) (I - N)` (N the upper shift) is
    tridiagonal: diagonal :math:`1/w_j + 1/w_{j-1}`, off-diagonal :math:`-1/w_j`. The singular
    values are :math:`\mu_i^{-1/2}` for its eigenvalues :math:`\mu_i`: :math:`O(\ell^2)`, relative
    error of order :math:`10^{-10}` against a dense SVD.
    """
    ell = _check_ell(ell)
    z = 1.0 / np.arange(1, ell + 1)
    inv_w = 1.0 / (z - np.append(z[1:], 0.0))
    mu = linalg.eigvalsh_tridiagonal(inv_w + np.append(0.0, inv_w[:-1]), -inv_w[:-1])
    return 1.0 / np.sqrt(mu)


def causal_norm_maximizer_scores(ell: int, depth: float = 50.0) -> np.ndarray:
    r"""Signed scores :math:`(0, -\delta, \dots, -\delta)` where causal :math:`\|A\|_{op}` was
    largest in a search.

    For :math:`\delta` = ``depth`` large, row :math:`i \ge 2` averages tokens :math:`1, \dots, i-1`
    (:math:`A_{ii} \approx e^{-\delta}/(i-1)`), so
    :math:`\|A x\|^2 = x_1^2 + \sum_{m < \ell} (\tfrac1m \sum_{j \le m} x_j)^2 \le 5 \|x\|^2`
    by Hardy's inequality (the prefix-averaging matrix has norm at most 2), which is
    :data:`CAUSAL_NORM_BOUND`. Gradient ascent of :math:`\|A\|_{op}` from random signed scores
    converges to this family. The scores are negative, so the family lies outside the canonical
    model (an extension to signed diagonal scores).
    """
    if not depth > 0 or not math.isfinite(depth):
        raise InvalidInput(f"depth={depth!r} is out of range: must be finite and > 0")
    return np.concatenate([[0.0], np.full(_check_ell(ell) - 1, -float(depth))])


def causal_singular_lower_bound(ell: int) -> np.ndarray:
    r"""The paper's causal bound :math:`\sigma_i(A) \ge 1/(3i)`, :math:`i = 1, \dots, \ell`.

    Stated for the canonical model (:math:`s \ge 0`); :mod:`attnspec.canonical.causal_search` looks
    for counterexamples. With signed scores it can fail (two almost equal rows when :math:`s_2 \ll
    0`).
    """
    return 1.0 / (3.0 * np.arange(1, _check_ell(ell) + 1))


def harmonic_number(ell: int) -> float:
    r""":math:`H_\ell = \sum_{i=1}^\ell 1/i`: :math:`\|A\|_F^2` of causal attention at
    :math:`\Sigma = 0`."""
    return float(np.sum(1.0 / np.arange(1, _check_ell(ell) + 1)))
