r"""The stable rank of softmax attention at random initialization, bidirectional and causal.

:math:`\operatorname{srank}(A) = \lVert A\rVert_F^2 / \lVert A\rVert^2` puts random attention on the
same rank scale as the canonical model and trained heads (Part III). For bidirectional attention
at initialization (this book's derivation): the rows of :math:`A_\perp = A - \mathbf 1\mathbf
1^\top/d` sum to zero, so :math:`\lVert A\rVert_F^2 = 1 + \lVert A_\perp\rVert_F^2`, and
:math:`\lVert A_\perp\rVert_F^2` is the mean squared singular value of :math:`\sqrt d A_\perp`,
which tends to the limit law's mean :math:`\theta_1 = e^{\beta^2} - 1`; with
:math:`\lVert A\rVert \to 1` (chapter *The rank-one mode*),

.. math:: \operatorname{srank}(A) \to e^{\beta^2}.

Causal attention (row :math:`i` attends to :math:`j \le i`) is measured, not predicted. Trial k uses
the score matrix of the ladder's trial k (child k of ``SeedSequence(seed)``).
"""

from __future__ import annotations

import math

import numpy as np

from ..core import cache, validate
from ..models.attention import draw_scores, row_softmax
from .trials import trial_rng


def stable_rank_limit(beta: float) -> float:
    r"""Large-d stable rank of bidirectional attention at initialization, :math:`e^{\beta^2}`."""
    beta = validate.real("beta", beta)
    return math.exp(beta * beta)


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
