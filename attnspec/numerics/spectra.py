"""Squared singular values, bulk, histogram densities, empirical CDFs, and distances between
spectra."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..core.errors import InvalidInput
from .lapack import eigvalsh


def squared_singular_values_of_gram(G: np.ndarray) -> np.ndarray:
    r"""Eigenvalues of the Gram matrix :math:`G = M M^\top`, i.e. :math:`s_i(M)^2`, in descending
    order.

    Round-off negatives are clipped to 0. Large matrices go through LAPACK's two-stage driver
    (:func:`attnspec.numerics.lapack.eigvalsh`).
    """
    ev = eigvalsh(G)[::-1]
    return np.maximum(ev, 0.0)


def squared_singular_values(M: np.ndarray) -> np.ndarray:
    r""":math:`s_i(M)^2` in descending order, via ``eigvalsh(M @ M.T)``.

    Agrees with ``np.linalg.svd(M, compute_uv=False)**2`` up to round-off relative to :math:`s_1^2`,
    and is faster (one Gram product and a symmetric eigenvalue problem; see ``benchmarks/``).
    """
    return squared_singular_values_of_gram(M @ M.T)


def bulk(s2_desc: np.ndarray, remove_top_k: int) -> np.ndarray:
    """The bulk: squared singular values without the ``remove_top_k`` largest (input descending)."""
    return s2_desc[remove_top_k:]


def histogram_density(values: np.ndarray, bins: int, value_range: tuple[float, float]):
    """Histogram density on a fixed grid; returns ``(density, edges)``."""
    return np.histogram(values, bins=bins, range=value_range, density=True)


def ecdf(values: np.ndarray, x: np.ndarray) -> np.ndarray:
    r"""Empirical distribution function :math:`F_n(x) = \#\{v_i \le x\}/n` at the points ``x``."""
    v = np.sort(np.asarray(values, dtype=float).ravel())
    return np.searchsorted(v, np.asarray(x, dtype=float), side="right") / v.size


def cdf_difference(values: np.ndarray, reference: np.ndarray, x: np.ndarray) -> np.ndarray:
    r""":math:`F_{\mathrm{values}}(x) - F_{\mathrm{reference}}(x)` on the grid ``x``."""
    return ecdf(values, x) - ecdf(reference, x)


def l1_distance(a: np.ndarray, b: np.ndarray, bins: int, value_range: tuple[float, float]) -> float:
    r"""The seed's metric: :math:`\sum_b |h^a_b - h^b_b|\,\Delta` of histogram densities on a
    common grid."""
    ha, edges = histogram_density(a, bins, value_range)
    hb, _ = histogram_density(b, bins, value_range)
    return float(np.sum(np.abs(ha - hb)) * (edges[1] - edges[0]))


def ks_distance(a: np.ndarray, b: np.ndarray) -> float:
    r"""Kolmogorov distance :math:`\sup_x |F_a(x) - F_b(x)|` between two empirical laws."""
    a, b = np.sort(a), np.sort(b)
    x = np.concatenate([a, b])
    Fa = np.searchsorted(a, x, side="right") / a.size
    Fb = np.searchsorted(b, x, side="right") / b.size
    return float(np.max(np.abs(Fa - Fb)))


def wasserstein1(a: np.ndarray, b: np.ndarray) -> float:
    r"""Wasserstein-1 distance :math:`\int |F_a - F_b|\,dx` between two empirical laws."""
    from scipy import stats  # 1-2 s to import: only where a distance needs it

    return float(stats.wasserstein_distance(a, b))


def ks_to_cdf(values: np.ndarray, cdf) -> float:
    r"""Kolmogorov distance :math:`\sup_x |F_n(x) - F(x)|` of a sample to a law with distribution
    ``cdf``."""
    from scipy import stats

    return float(stats.kstest(values, cdf).statistic)


# --- rank measures of a spectrum ----------------------------------------------------------------


def stable_rank(sigma) -> float:
    r"""Stable rank :math:`\operatorname{srank} = \sum_i \sigma_i^2 / \sigma_1^2 =
    \|A\|_F^2/\|A\|_{op}^2`.

    ``sigma`` are the singular values of A (any order); n for the identity of size n, 1 for a
    rank-one matrix.
    """
    sigma = np.asarray(sigma, dtype=float)
    return float(np.sum(sigma**2) / np.max(sigma) ** 2)


def erank1(sigma) -> float:
    r"""Entropy effective rank :math:`\exp H(p)`, :math:`p = \sigma / \sum_j \sigma_j` (Roy and
    Vetterli).

    :math:`H(p) = -\sum_i p_i \log p_i` with :math:`0 \log 0 = 0`: n for the identity of size n,
    1 for a rank-one matrix.
    """
    p = np.asarray(sigma, dtype=float)
    p = p[p > 0] / np.sum(p)
    return float(np.exp(-np.sum(p * np.log(p))))


def erank2(sigma) -> float:
    r"""Rényi-2 effective rank of the energy distribution: :math:`(\sum_i \sigma_i^2)^2 / \sum_i
    \sigma_i^4`.

    :math:`\exp H_2(q) = 1/\sum_i q_i^2` with :math:`q = \sigma^2/\sum_j \sigma_j^2` (the normalized
    squared spectrum, the eigenvalues of :math:`A A^\top / \|A\|_F^2`); equivalently
    :math:`\|A\|_F^4 / \|A A^\top\|_F^2`. It satisfies
    :math:`\operatorname{srank} \le \operatorname{erank}_2 \le \operatorname{rank}`: n for the
    identity of size n, 1 for a rank-one matrix. This is the reading of the spectral-degeneration
    paper's :math:`\operatorname{erank}_2` under which both of its statements about it hold (see
    :mod:`attnspec.canonical.model`).
    """
    s2 = np.asarray(sigma, dtype=float) ** 2
    return float(np.sum(s2) ** 2 / np.sum(s2**2))


def erank2_amplitude(sigma) -> float:
    r"""The other reading of :math:`\operatorname{erank}_2`: :math:`(\sum_i \sigma_i)^2 / \sum_i
    \sigma_i^2`.

    :math:`\exp H_2(p) = 1/\sum_i p_i^2` for :math:`p = \sigma/\sum_j \sigma_j`, the distribution
    that :func:`erank1` uses: n for the identity of size n, 1 for a rank-one matrix.
    """
    sigma = np.asarray(sigma, dtype=float)
    return float(np.sum(sigma) ** 2 / np.sum(sigma**2))


def ks_to_law_below_quantile(bulk_values: np.ndarray, cdf, ppf, d: int, removed: int) -> float:
    r"""Kolmogorov distance of a bulk with its top ``removed`` of ``d`` values taken out, to a full
    law.

    When the top :math:`r` of :math:`d` values of each spectrum are removed, renormalizing the
    bulk's empirical distribution over :math:`d - r` values moves it by about :math:`r/d` against
    the full law :math:`F`. Here the bulk is compared with like: its values are counted out of
    :math:`d` per spectrum (``bulk_values`` pools :math:`T` spectra, so :math:`N = T d`),

    .. math:: F_N(x) = \#\{v \le x\} / N,

    and the supremum is taken only below the law's :math:`(1 - r/d)` quantile
    :math:`q = F^{-1}(1 - r/d)`, where the removed values (almost surely) are not:

    .. math:: D = \sup_{x < q} |F_N(x) - F(x)|,

    including the left limit at :math:`q`. Comparing the bulk's renormalized distribution with the
    law conditioned below :math:`q` gives the same value up to the factor :math:`1 - r/d`. For
    ``removed = 0`` this is the ordinary Kolmogorov distance of the whole spectrum.

    Parameters
    ----------
    bulk_values : array
        the pooled bulk, :math:`T (d - r)` values.
    cdf, ppf : callables
        distribution function and quantile function of the law.
    d, removed : int
        values per spectrum before removal, and values removed per spectrum (:math:`0 \le r < d`).
    """
    v = np.sort(np.asarray(bulk_values, dtype=float))
    if not 0 <= removed < d or v.size % (d - removed):
        raise InvalidInput(
            f"removed={removed} with d={d} and {v.size} bulk values: need 0 <= removed < d "
            "and a whole number of spectra of d - removed values"
        )
    n = v.size // (d - removed) * d
    q = float(ppf(1.0 - removed / d)) if removed else np.inf
    below = v[v < q]
    F = np.asarray(cdf(below), dtype=float)
    i = np.arange(1, below.size + 1)
    gaps = [np.abs(i / n - F), np.abs((i - 1) / n - F)]
    tail = abs(below.size / n - (1.0 - removed / d)) if removed else 0.0
    return float(max([tail, *(float(g.max()) for g in gaps if g.size)]))


@dataclass(frozen=True)
class Metric:
    r"""A distance between two samples of squared singular values.

    Attributes
    ----------
    name : str
        the key in :data:`METRICS` and the column name in tables.
    latex : str
        the math label for figures and table headers.
    between : callable
        ``between(a, b, bins, value_range) -> float``; ``bins`` and ``value_range`` are used by the
        histogram metric only.
    """

    name: str
    latex: str
    between: Callable[[np.ndarray, np.ndarray, int | None, tuple[float, float] | None], float]


#: The one registry of distances between spectra: name -> :class:`Metric`.
METRICS: dict[str, Metric] = {
    m.name: m
    for m in [
        Metric("l1", r"L^1", lambda a, b, bins, value_range: l1_distance(a, b, bins, value_range)),
        Metric("ks", r"D_{\mathrm{KS}}", lambda a, b, bins, value_range: ks_distance(a, b)),
        Metric("w1", r"W_1", lambda a, b, bins, value_range: wasserstein1(a, b)),
    ]
}


def distance(
    metric: str,
    a: np.ndarray,
    b: np.ndarray,
    *,
    bins: int | None = None,
    value_range: tuple[float, float] | None = None,
) -> float:
    """Distance ``metric`` (a key of :data:`METRICS`) between samples ``a`` and ``b``."""
    if metric not in METRICS:
        raise InvalidInput(
            f"metric={metric!r} is out of range: must be one of {', '.join(METRICS)}"
        )
    if metric == "l1" and (bins is None or value_range is None):
        raise InvalidInput("metric='l1' needs bins and value_range (a histogram grid)")
    return METRICS[metric].between(a, b, bins, value_range)
