r"""The canonical diagonal score model of the spectral-degeneration paper (Part III).

The spectral-degeneration paper ("Spectral Degeneration of Self-Attention under Isotropic Score
Geometry") replaces the score matrix by the diagonal matrix
:math:`\Sigma = \operatorname{diag}(s_1, \dots, s_\ell)` of its singular values, in descending order
(Assumption 1), so every :math:`s_i \ge 0`, and applies softmax row-wise, without a mask
(bidirectional attention) or with a causal mask. Spike–bulk separation (Assumption 2): k spikes with
:math:`e^{s_i} \ge \ell f(\ell)`, a bulk with :math:`e^{s_i} \le \ell / g(\ell)`, where
:math:`f, g \to \infty`, :math:`g(\ell) = o(\ell)`, and no score lies in the gap.

Every spectrum below is exact up to round-off and returned in descending order. The functions also
accept signed scores (an extension outside the model, used for remarks only). Causal attention is
in :mod:`attnspec.canonical.causal`. The rank measures
(stable and effective ranks) are generic and live in :mod:`attnspec.numerics.spectra`; the
:math:`\Sigma = 0` causal asymptotics and the large-:math:`\ell` stable rank are in
:mod:`attnspec.canonical.cesaro`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy import linalg

from attnspec.core import validate
from attnspec.core.errors import InvalidInput
from attnspec.models.attention import row_softmax
from attnspec.numerics.spectra import squared_singular_values

# --- scores -------------------------------------------------------------------------------------


def checked_scores(s) -> np.ndarray:
    """``s`` as a 1-d float array of at least 2 finite scores; :class:`InvalidInput` otherwise."""
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
    return np.diag(checked_scores(s))


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
    s = checked_scores(s)
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
