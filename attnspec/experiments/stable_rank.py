r"""The stable rank of softmax attention at random initialization, bidirectional and causal.

:math:`\operatorname{srank}(A) = \lVert A\rVert_F^2 / \lVert A\rVert^2` puts random attention on the
same rank scale as the canonical model and trained heads (Part III). For bidirectional attention
at initialization (this book's derivation): the rows of :math:`A_\perp = A - \mathbf 1\mathbf
1^\top/d` sum to zero, so :math:`\lVert A\rVert_F^2 = 1 + \lVert A_\perp\rVert_F^2` exactly, and
:math:`\lVert A_\perp\rVert_F^2` is the mean squared singular value of :math:`\sqrt d A_\perp`,
which tends to the limit law's mean :math:`\theta_1 = e^{\beta^2} - 1`; with
:math:`\lVert A\rVert \to 1` (chapter *The rank-one mode*),

.. math:: \operatorname{srank}(A) \to e^{\beta^2},

with the first-order correction of :func:`stable_rank_first_order`. Causal attention (row
:math:`i` attends to :math:`j \le i`) is measured, not predicted. Trial k uses the score matrix of
the ladder's trial k (child k of ``SeedSequence(seed)``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core import cache, validate
from ..models.attention import draw_scores, row_softmax
from .trials import trial_rng


def stable_rank_limit(beta: float) -> float:
    r"""Large-d stable rank of bidirectional attention at initialization, :math:`e^{\beta^2}`."""
    beta = validate.real("beta", beta)
    return math.exp(beta * beta)


def stable_rank_first_order(beta: float, d: int) -> float:
    r"""Stable rank of bidirectional attention at initialization to first order in :math:`1/d`.

    .. math::

        \operatorname{srank}(A) \approx e^{\beta^2}\Bigl(1 + \frac{\beta^4/2
        - 2 e^{\beta^2}(e^{\beta^2} - 1)}{d}\Bigr),

    2.6942 at :math:`d = 1000`, :math:`\beta = 1` (limit :math:`e = 2.7183`). Derived in this
    book: given the query :math:`q_i`, the weights :math:`w_j = e^{\beta S_{ij}}` are independent
    log-normals, so a row's :math:`\sum_j A_{ij}^2 = \sum_j w_j^2/(\sum_j w_j)^2` has mean
    :math:`\frac{e^{\beta^2 \xi_i}}{d}\bigl(1 + [3(e^{\beta^2} - 1) - 2(e^{2\beta^2} - 1)]/d\bigr)`
    (second-order delta method, :math:`\xi_i = \lVert q_i\rVert^2/d`), and averaging
    :math:`e^{\beta^2 \xi_i}` over :math:`d\,\xi_i \sim \chi^2_d` adds the factor
    :math:`1 + \beta^4/d`. Dividing by :math:`\lVert A\rVert^2 = s_1(A)^2 \approx 1 +
    (e^{\beta^2} - 1 + \beta^4/2)/d` (:func:`attnspec.laws.predictions.s1_excess`) gives the
    formula; the neglected terms are of order :math:`1/d^2`, with coefficients that grow quickly
    with :math:`\beta`.
    """
    beta = validate.real("beta", beta)
    d = validate.integer("d", d, 2)
    e = math.exp(beta * beta)
    return e * (1.0 + (0.5 * beta**4 - 2.0 * e * (e - 1.0)) / d)


def causal_softmax(x: np.ndarray) -> np.ndarray:
    r"""Row softmax over :math:`j \le i` only, 0 above the diagonal:
    :math:`A_{ij} = e^{x_{ij}}/\sum_{k \le i} e^{x_{ik}}`."""
    masked = np.where(np.tri(*x.shape, dtype=bool), x, -np.inf)
    return row_softmax(masked)


def attention_stable_ranks(
    d: int, beta: float, seed: int, trials: int, causal: bool = False
) -> np.ndarray:
    r""":math:`\operatorname{srank}(A)` of trials ``0 .. trials-1``, cached per trial.

    The operator norm is the largest singular value from LAPACK (values only); the Frobenius norm
    is exact up to round-off.
    """
    d = validate.integer("d", d, 2)
    beta = validate.real("beta", beta)
    seed = validate.integer("seed", seed, 0)
    trials = validate.integer("trials", trials, 1)

    def one(k: int) -> float:
        params = {"d": d, "beta": beta, "seed": seed, "k": k, "causal": bool(causal)}

        def compute():
            x = beta * draw_scores(d, trial_rng(seed, k))
            A = causal_softmax(x) if causal else row_softmax(x)
            top = np.linalg.svd(A, compute_uv=False)[0]
            return {"srank": np.array([np.sum(A * A) / top**2])}

        found = cache.cached("srank_A", params, compute, expected={"srank": (1,)})
        return float(found["srank"][0])

    return np.array([one(k) for k in range(trials)])


@dataclass(frozen=True)
class InitialStableRanks:
    """Stable ranks of bidirectional and causal attention at initialization, one per trial."""

    d: int
    beta: float
    bidirectional: np.ndarray
    causal: np.ndarray

    @staticmethod
    def _mean_se(values: np.ndarray) -> tuple[float, float]:
        se = float(values.std(ddof=1) / math.sqrt(values.size)) if values.size > 1 else math.nan
        return float(values.mean()), se

    @property
    def mean_se(self) -> tuple[float, float]:
        """Mean bidirectional stable rank over the trials, and its standard error."""
        return self._mean_se(self.bidirectional)

    @property
    def causal_mean_se(self) -> tuple[float, float]:
        """Mean causal stable rank over the trials, and its standard error."""
        return self._mean_se(self.causal)

    @property
    def prediction(self) -> float:
        """:func:`stable_rank_first_order` at this size and temperature."""
        return stable_rank_first_order(self.beta, self.d)

    @property
    def limit(self) -> float:
        """:func:`stable_rank_limit`, the large-d value."""
        return stable_rank_limit(self.beta)

    @property
    def z(self) -> float:
        """(mean - first-order prediction) / standard error of the bidirectional mean."""
        mean, se = self.mean_se
        return (mean - self.prediction) / se


def initial_stable_ranks(d: int, beta: float, seed: int, trials: int) -> InitialStableRanks:
    """:func:`attention_stable_ranks` of the same trials, bidirectional and causal."""
    return InitialStableRanks(
        int(d),
        float(beta),
        attention_stable_ranks(d, beta, seed, trials),
        attention_stable_ranks(d, beta, seed, trials, causal=True),
    )
