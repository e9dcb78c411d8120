r"""The top singular value of softmax attention, :math:`s_1(A)`, per trial, without the rest of the
spectrum.

Every row of :math:`A = \mathrm{softmax}(\beta S)` sums to one, so :math:`A\mathbf 1 = \mathbf 1`
and
:math:`s_1(A) \ge 1`; the rank-one chapter measures the excess :math:`s_1(A) - 1` across :math:`d`.
The top singular value is separated from the second by a factor of order :math:`\sqrt d`, so power
iteration on :math:`A^\top A` started from :math:`\mathbf 1` converges in a few steps and costs
:math:`O(d^2)` per step, far less than the ladder's full spectra.
"""

from __future__ import annotations

import numpy as np

from ..core import cache
from ..core.errors import InvalidInput
from ..models.attention import draw_scores, row_softmax
from .trials import trial_rng


def top_singular_value(M: np.ndarray, tol: float = 1e-15, max_iter: int = 500) -> float:
    r"""Largest singular value :math:`s_1(M)` by power iteration on :math:`M^\top M` from
    :math:`\mathbf 1`.

    Stops when the estimate changes by less than ``tol`` relatively. The start vector
    :math:`\mathbf 1/\sqrt d` is canonical, so the result does not depend on a random start.

    Raises
    ------
    attnspec.core.errors.InvalidInput
        If ``M`` is not a non-empty 2-d array.
    """
    M = np.asarray(M, dtype=float)
    if M.ndim != 2 or M.size == 0:
        raise InvalidInput(f"M has shape {M.shape}: must be a non-empty 2-d array")
    v = np.full(M.shape[1], 1.0 / np.sqrt(M.shape[1]))
    s = 0.0
    for _ in range(max_iter):
        w = M @ v
        s_new = float(np.linalg.norm(w))
        if s_new == 0.0:
            return 0.0
        v = M.T @ (w / s_new)
        v /= np.linalg.norm(v)
        if abs(s_new - s) <= tol * s_new:
            return s_new
        s = s_new
    return s


def attention_s1(d: int, beta: float, seed: int, trials: int) -> np.ndarray:
    r""":math:`s_1(A)` of trials ``0 .. trials-1``: the same score matrices as the ladder's trials.

    Trial k draws :math:`S` from child k of ``SeedSequence(seed)`` exactly as
    :func:`attnspec.experiments.trials.compute_trial` does; results are cached on disk per trial.
    """
    if int(d) < 2:
        raise InvalidInput(f"d={d} is out of range: must be an integer >= 2")
    if int(trials) < 1:
        raise InvalidInput(f"trials={trials} is out of range: must be an integer >= 1")

    def one(k: int) -> float:
        params = {"d": int(d), "beta": float(beta), "seed": int(seed), "k": int(k)}

        def compute():
            A = row_softmax(float(beta) * draw_scores(int(d), trial_rng(int(seed), int(k))))
            return {"s1": np.array([top_singular_value(A)])}

        return float(cache.cached("s1_A", params, compute, expected={"s1": (1,)})["s1"][0])

    return np.array([one(k) for k in range(int(trials))])
