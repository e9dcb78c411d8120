r"""The canonical diagonal score model of the spectral-degeneration paper (Part III).

The spectral-degeneration paper ("Spectral Degeneration of Self-Attention under Isotropic Score
Geometry") replaces the score matrix by the diagonal matrix
:math:`\Sigma = \operatorname{diag}(s_1, \dots, s_\ell)` of its singular values, in descending order
(Assumption 1), so every :math:`s_i \ge 0`, and applies softmax row-wise, without a mask
(bidirectional attention) or with a causal mask. Spike–bulk separation (Assumption 2): k spikes with
:math:`e^{s_i} \ge \ell f(\ell)`, a bulk with :math:`e^{s_i} \le \ell / g(\ell)`, where
:math:`f, g \to \infty`, :math:`g(\ell) = o(\ell)`, and no score lies in the gap.

Every spectrum below is exact up to round-off and returned in descending order. The functions also
accept signed scores (an extension outside the model, used for remarks only). The rank measures
(stable and effective ranks) are generic and live in :mod:`attnspec.numerics.spectra`; the
:math:`\Sigma = 0` causal asymptotics and the large-:math:`\ell` stable rank are in
:mod:`attnspec.canonical.cesaro`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import LinearOperator, eigsh

from attnspec.core import validate
from attnspec.core.errors import InvalidInput
from attnspec.models.attention import row_softmax
from attnspec.numerics.spectra import squared_singular_values, squared_singular_values_of_gram

#: The paper's bound :math:`\|A\|_{op} \le \sqrt{5}` for causal attention.
CAUSAL_NORM_BOUND = math.sqrt(5.0)


# --- scores -------------------------------------------------------------------------------------


def _check_scores(s) -> np.ndarray:
    s = np.asarray(s, dtype=float)
    if s.ndim != 1 or s.size < 2 or not np.all(np.isfinite(s)):
        raise InvalidInput(
            f"s must be a 1-d array of at least 2 finite scores, got shape {s.shape}"
        )
    return s


def _check_ell(ell: int) -> int:
    return validate.integer("ell", ell, 2)


def _check_k(k: int, ell: int) -> int:
    return validate.integer("k", k, 0, ell)


def score_matrix(s) -> np.ndarray:
    r"""The canonical score matrix :math:`\Sigma = \operatorname{diag}(s_1, \dots, s_\ell)`.

    The spectral-degeneration paper, Assumption 1 (as its seed summary states it): a score matrix
    is replaced by the diagonal matrix with the same singular values, in descending order along
    the diagonal.
    """
    return np.diag(_check_scores(s))


def spike_score(ell: int, f: Callable[[float], float] | float) -> float:
    r"""Spike score :math:`s = \log(\ell f(\ell))`, i.e. :math:`e^{s} = \ell f(\ell)`.

    Parameters
    ----------
    ell : int
        Context length, at least 2.
    f : callable or float
        The spike margin: a function of :math:`\ell` (e.g. ``math.log`` or ``lambda l: l``) or its
        value; it must be positive.
    """
    ell = _check_ell(ell)
    value = float(f(ell)) if callable(f) else float(f)
    if not value > 0 or not math.isfinite(value):
        raise InvalidInput(f"f(ell)={value!r} is out of range: must be finite and > 0")
    return math.log(ell) + math.log(value)


def spike_bulk_scores(
    ell: int,
    k: int,
    f: Callable[[float], float] | float = math.log,
    bulk_max: float = 0.0,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    r"""Spike–bulk scores in descending order (Assumption 2 of the spectral-degeneration paper, as
    its seed summary states it).

    k spikes with :math:`e^{s_i} = \ell f(\ell)` (:func:`spike_score`), then :math:`\ell - k` bulk
    scores: exactly 0 when ``bulk_max`` is 0, else drawn uniformly in :math:`[0, B]`,
    :math:`B` = ``bulk_max``, so that :math:`e^{s_i} \le \ell / g(\ell)` with
    :math:`g(\ell) = \ell e^{-B}`.

    Parameters
    ----------
    ell : int
        Context length, at least 2.
    k : int
        Number of spikes, :math:`0 \le k \le \ell`.
    f : callable or float
        Spike margin, see :func:`spike_score`.
    bulk_max : float
        Upper end :math:`B \ge 0` of the bulk scores; :math:`e^B < \ell f(\ell)` (a strict gap).
    rng : numpy.random.Generator, optional
        Required when ``bulk_max`` > 0.

    Returns
    -------
    numpy.ndarray
        The score vector s, descending.
    """
    ell, spike = _check_ell(ell), spike_score(ell, f)
    k = _check_k(k, ell)
    if not 0.0 <= bulk_max < spike:
        raise InvalidInput(
            f"bulk_max={bulk_max!r} is out of range: must be >= 0 and < log(ell f(ell)) = {spike:g}"
        )
    if bulk_max > 0 and rng is None:
        raise InvalidInput("rng is required when bulk_max > 0")
    bulk = np.zeros(ell - k) if bulk_max == 0 else rng.uniform(0.0, bulk_max, ell - k)
    return np.concatenate([np.full(k, spike), np.sort(bulk)[::-1]])


# --- bidirectional attention --------------------------------------------------------------------


def bidirectional_parts(s) -> tuple[np.ndarray, np.ndarray]:
    r"""The decomposition :math:`A = \operatorname{softmax}(\Sigma) = D + z \mathbf 1^\top`.

    Row i of :math:`A` is :math:`e^{s_i}` at the diagonal and 1 elsewhere, divided by
    :math:`Z_i = e^{s_i} + \ell - 1`. Hence :math:`z_i = 1/Z_i` and

    .. math::
        d_i = A_{ii} - z_i = \frac{e^{s_i} - 1}{Z_i} = 1 - \ell z_i
            = \frac{\ell A_{ii} - 1}{\ell - 1}

    (the paper's two forms agree). :math:`d_i \in (-1/(\ell-1), 1)`, and :math:`d_i \ge 0` iff
    :math:`s_i \ge 0`. Computed in the log domain, so large scores do not overflow.

    Returns
    -------
    d, z : numpy.ndarray
        The diagonal of D and the vector z.
    """
    s = _check_scores(s)
    log_Z = np.logaddexp(s, math.log(s.size - 1))
    z = np.exp(-log_Z)
    return np.exp(s - log_Z) - z, z


def bidirectional_attention(s) -> np.ndarray:
    r"""The dense matrix :math:`A = \operatorname{softmax}(\Sigma) = D + z \mathbf 1^\top`, rows
    summing to 1."""
    d, z = bidirectional_parts(s)
    A = np.repeat(z[:, None], z.size, axis=1)
    A[np.diag_indices_from(A)] += d
    return A


def symmetrized(s) -> np.ndarray:
    r"""The symmetric matrix :math:`D + \sqrt z \sqrt z^\top`, similar to :math:`A = D + z \mathbf
    1^\top`.

    With :math:`W = \operatorname{diag}(\sqrt z)`,
    :math:`W^{-1} A W = D + \sqrt z \sqrt z^\top`: the eigenvalues of :math:`A` are real, and they
    interlace with the :math:`d_i` (a positive rank-one update of a diagonal matrix).
    """
    d, z = bidirectional_parts(s)
    r = np.sqrt(z)
    return np.diag(d) + np.outer(r, r)


def _grouped(s) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Distinct scores: their :math:`d_g`, :math:`z_g` and multiplicities :math:`n_g`."""
    d, z = bidirectional_parts(s)
    _, first, counts = np.unique(s, return_index=True, return_counts=True)
    return d[first], z[first], counts


def bidirectional_eigenvalues(s) -> np.ndarray:
    r"""Eigenvalues of :math:`A = \operatorname{softmax}(\Sigma)`, real, descending,
    :math:`\lambda_1 = 1`.

    Exact reduction by distinct scores (m groups of sizes :math:`n_g`): vectors supported on one
    group and summing to zero are eigenvectors with eigenvalue :math:`d_g` (multiplicity
    :math:`n_g - 1`); the group indicators span an invariant subspace on which :math:`A` acts as
    :math:`\operatorname{diag}(d_g) + (z_g \sqrt{n_g})(\sqrt{n_h})^\top`, similar to the symmetric
    :math:`\operatorname{diag}(d_g) + w w^\top`, :math:`w_g = \sqrt{z_g n_g}`. Cost
    :math:`O(m^3)`: instant for spike–bulk scores with a constant bulk.

    The secular equation :math:`\sum_i z_i / (\lambda - d_i) = 1` has the root
    :math:`\lambda = 1` because :math:`1 - d_i = \ell z_i`; it is the largest root since all
    :math:`d_i < 1` (the paper's bidirectional eigenvalue statement).
    """
    d, z, n = _grouped(s)
    w = np.sqrt(z * n)
    core = linalg.eigvalsh(np.diag(d) + np.outer(w, w))
    return np.sort(np.concatenate([core, np.repeat(d, n - 1)]))[::-1]


def bidirectional_singular_values(s) -> np.ndarray:
    r"""Singular values of :math:`A = \operatorname{softmax}(\Sigma)`, descending.

    Same exact reduction as :func:`bidirectional_eigenvalues`: :math:`A` and :math:`A^\top` both
    preserve the span of the group indicators and act as :math:`\operatorname{diag}(d_g)` on its
    complement, so the singular values are :math:`|d_g|` (multiplicity :math:`n_g - 1`) and those of
    the :math:`m \times m` matrix :math:`\operatorname{diag}(d_g) + (z_g
    \sqrt{n_g})(\sqrt{n_h})^\top`, taken from its Gram matrix
    (:func:`attnspec.numerics.spectra.squared_singular_values`; absolute error of order
    :math:`10^{-8}` on values near 0). With equal spikes and a constant bulk, m = 2; with all scores
    distinct (random bulk) this costs one dense eigenproblem of size :math:`\ell`.
    """
    d, z, n = _grouped(s)
    core = np.sqrt(squared_singular_values(np.diag(d) + np.outer(z * np.sqrt(n), np.sqrt(n))))
    return np.sort(np.concatenate([core, np.repeat(np.abs(d), n - 1)]))[::-1]


def bidirectional_frobenius_sq(s) -> float:
    r""":math:`\|A\|_F^2 = \sum_i z_i^2 (e^{2 s_i} + \ell - 1)` for :math:`A =
    \operatorname{softmax}(\Sigma)`."""
    d, z = bidirectional_parts(s)
    return float(np.sum((d + z) ** 2 + (z.size - 1) * z**2))


def interlacing_bounds(s) -> tuple[np.ndarray, np.ndarray]:
    r"""Bounds :math:`L_i \le \lambda_i(A) \le U_i` for the descending eigenvalues of the
    bidirectional A.

    With the diagonal sorted so that :math:`A_{11} \ge \dots \ge A_{\ell\ell}` (descending scores),

    .. math::
        \frac{\ell A_{ii} - 1}{\ell - 1} \le \lambda_i(A) \le \frac{\ell A_{i-1,i-1} - 1}{\ell - 1},
        \qquad 2 \le i \le \ell,

    that is :math:`d_i \le \lambda_i \le d_{i-1}` (the paper's bidirectional eigenvalue bounds; the
    indices refer to the descending order). :math:`L_1 = U_1 = 1` since :math:`\lambda_1 = 1`.

    Returns
    -------
    lower, upper : numpy.ndarray
    """
    d = np.sort(bidirectional_parts(s)[0])[::-1]
    return np.concatenate([[1.0], d[1:]]), np.concatenate([[1.0], d[:-1]])


# --- causal attention ---------------------------------------------------------------------------


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
    s = _check_scores(s)
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


# --- closed forms -------------------------------------------------------------------------------


def alpha_plus(x):
    r""":math:`\alpha_+(x) = \sqrt{1 - x/2 + \sqrt{x - \tfrac34 x^2}}`, :math:`x \in [0, 1]`."""
    x = np.asarray(x, dtype=float)
    return np.sqrt(1 - x / 2 + np.sqrt(x - 0.75 * x**2))


def alpha_minus(x):
    r""":math:`\alpha_-(x) = \sqrt{1 - x/2 - \sqrt{x - \tfrac34 x^2}}`, :math:`x \in [0, 1]`.

    :math:`\alpha_\pm(c)^2` are the eigenvalues of
    :math:`\begin{pmatrix} 1 & \sqrt{c(1-c)} \\ \sqrt{c(1-c)} & 1 - c \end{pmatrix}`, the Gram
    matrix of the limit :math:`A = [I_k, 0; \mathbf 1 \mathbf 1^\top/\ell]` on the spike mean and
    the bulk mean.
    """
    x = np.asarray(x, dtype=float)
    return np.sqrt(np.maximum(1 - x / 2 - np.sqrt(x - 0.75 * x**2), 0.0))


def bidirectional_profile(ell: int, k: int) -> np.ndarray:
    r"""Predicted singular values of bidirectional attention with k spikes, :math:`c = k/\ell`.

    .. math::
        (\alpha_+(c), \underbrace{1, \dots, 1}_{k-1}, \alpha_-(c), 0, \dots, 0),

    with the endpoints :math:`(1, 0, \dots, 0)` for :math:`k = 0` and :math:`(1, \dots, 1)` for
    :math:`k = \ell` (the paper's bidirectional singular-value profile). The error is
    :math:`\Theta(1/f(\ell))` for spikes :math:`e^s = \ell f(\ell)` and a zero bulk.
    """
    ell = _check_ell(ell)
    k = _check_k(k, ell)
    profile = np.zeros(ell)
    if k == 0:
        profile[0] = 1.0
    elif k == ell:
        profile[:] = 1.0
    else:
        c = k / ell
        profile[: k + 1] = np.concatenate([[alpha_plus(c)], np.ones(k - 1), [alpha_minus(c)]])
    return profile


def middle_singular_value(ell: int, f: Callable[[float], float] | float) -> float:
    r"""The k − 1 middle singular values :math:`(\ell f - 1)/(\ell f + \ell - 1)`, exact.

    For k equal spikes :math:`e^s = \ell f` and a zero bulk they equal
    :math:`d_{\text{spike}} = (e^s - 1)/Z` (see :func:`bidirectional_singular_values`).
    """
    e_s = math.exp(spike_score(ell, f))
    return (e_s - 1) / (e_s + ell - 1)


def profile_error(s, k: int) -> float:
    r"""Uniform error :math:`\max_i |\sigma_i(A) - p_i|` of bidirectional attention.

    :math:`p` is :func:`bidirectional_profile` with k spikes; ``s`` are the scores.
    """
    sigma = bidirectional_singular_values(s)
    return float(np.max(np.abs(sigma - bidirectional_profile(sigma.size, k))))


def stable_rank_limit(k: int, ell: int) -> float:
    r"""Limit of the bidirectional stable rank: :math:`(k + 1 - c)/\alpha_+(c)^2`, :math:`c =
    k/\ell`.

    From the profile: :math:`\|A\|_F^2 \to k - 1 + \alpha_+^2 + \alpha_-^2 = k + 1 - c` and
    :math:`\|A\|_{op} \to \alpha_+(c)`. Since :math:`\alpha_+(c)^2 = 1 + \sqrt c + O(c)`, the
    limit is :math:`(k + 1)(1 - \sqrt c + O(c))`: the ratio to :math:`k + 1` tends to 1 when
    :math:`k/\ell \to 0`, the difference tends to 0 only when :math:`k = o(\ell^{1/3})`.
    """
    ell = _check_ell(ell)
    c = _check_k(k, ell) / ell
    return float((k + 1 - c) / alpha_plus(c) ** 2)


# --- appendix counterexample --------------------------------------------------------------------


def counterexample_attention(ell: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Softmax of two score matrices with equal singular values :math:`(t, 0, \dots, 0)`, :math:`t
    = 2\log\ell`.

    The seed summary of the spectral-degeneration paper (its Appendix A):
    :math:`\Sigma = t e_1 e_1^\top` and :math:`S = (t/\ell) \mathbf 1 \mathbf 1^\top`.
    :math:`\operatorname{softmax}(S) = \mathbf 1 \mathbf 1^\top/\ell` has rank one, while
    :math:`\operatorname{softmax}(\Sigma)` (one spike with :math:`f(\ell) = \ell`) has two
    singular values near 1, :math:`\alpha_\pm(1/\ell) = 1 \pm 1/(2\sqrt\ell) + O(1/\ell)`.
    Both are computed with the generic
    :func:`attnspec.models.attention.row_softmax`; for large :math:`\ell` use
    :func:`bidirectional_singular_values` on the scores :math:`(t, 0, \dots, 0)`.

    Returns
    -------
    A_sigma, A_s : numpy.ndarray
        :math:`\operatorname{softmax}(\Sigma)` and :math:`\operatorname{softmax}(S)`.
    """
    ell = _check_ell(ell)
    t = 2 * math.log(ell)
    Sigma = np.zeros((ell, ell))
    Sigma[0, 0] = t
    return row_softmax(Sigma), row_softmax(np.full((ell, ell), t / ell))
