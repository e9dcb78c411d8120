r"""The top singular value of softmax attention, :math:`s_1(A)`, per trial, without the rest of the
spectrum.

Every row of :math:`A = \mathrm{softmax}(\beta S)` sums to one, so :math:`A\mathbf 1 = \mathbf 1`
and
:math:`s_1(A) \ge 1`; the rank-one chapter measures the excess :math:`s_1(A) - 1` across :math:`d`.
The top singular value is separated from the second by a factor of order :math:`\sqrt d`, so power
iteration on :math:`A^\top A` started from :math:`\mathbf 1` converges in a few steps and costs
:math:`O(d^2)` per step, far less than the ladder's full spectra.

:func:`uniform_mode_deficits` measures how far the top right singular vector :math:`v_1` of
:math:`A` (and of :math:`Y`) is from :math:`u_d = \mathbf 1/\sqrt d`:
:math:`1 - \langle v_1, u_d\rangle^2`, which does not depend on the sign LAPACK or
the iteration gives :math:`v_1` (:math:`v_1` is unique up to sign, its singular value being
separated from the rest).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import cache
from ..core.errors import InvalidInput
from ..laws.predictions import s1_excess
from ..models.attention import draw_scores, row_softmax
from ..numerics.fitting import power_law_fit
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


def _check_size_and_trials(d: int, trials: int) -> None:
    """InvalidInput unless d >= 2 and trials >= 1."""
    if int(d) < 2:
        raise InvalidInput(f"d={d} is out of range: must be an integer >= 2")
    if int(trials) < 1:
        raise InvalidInput(f"trials={trials} is out of range: must be an integer >= 1")


def attention_s1(d: int, beta: float, seed: int, trials: int) -> np.ndarray:
    r""":math:`s_1(A)` of trials ``0 .. trials-1``: the same score matrices as the ladder's trials.

    Trial k draws :math:`S` from child k of ``SeedSequence(seed)`` exactly as
    :func:`attnspec.experiments.trials.compute_trial` does; results are cached on disk per trial.
    """
    _check_size_and_trials(d, trials)

    def one(k: int) -> float:
        params = {"d": int(d), "beta": float(beta), "seed": int(seed), "k": int(k)}

        def compute():
            A = row_softmax(float(beta) * draw_scores(int(d), trial_rng(int(seed), int(k))))
            return {"s1": np.array([top_singular_value(A)])}

        return float(cache.cached("s1_A", params, compute, expected={"s1": (1,)})["s1"][0])

    return np.array([one(k) for k in range(int(trials))])


def top_right_vector_deficit(M: np.ndarray, tol: float = 1e-15, max_iter: int = 500) -> float:
    r""":math:`1 - \langle v_1, u_d\rangle^2` for the top right singular vector
    :math:`v_1` of ``M``, :math:`u_d = \mathbf 1/\sqrt d`.

    Power iteration on :math:`M^\top M` from :math:`u_d` (a canonical start), stopped
    when :math:`v` moves by less than ``tol``. The deficit is computed as the squared norm of the
    part of :math:`v_1` orthogonal to :math:`u_d`, so it keeps its digits when small;
    it is invariant under :math:`v_1 \to -v_1`.
    """
    M = np.asarray(M, dtype=float)
    if M.ndim != 2 or M.size == 0:
        raise InvalidInput(f"M has shape {M.shape}: must be a non-empty 2-d array")
    one = np.full(M.shape[1], 1.0 / np.sqrt(M.shape[1]))
    v = one.copy()
    for _ in range(max_iter):
        w = M.T @ (M @ v)
        norm = float(np.linalg.norm(w))
        if norm == 0.0:
            break
        w /= norm
        moved = float(np.linalg.norm(w - v))
        v = w
        if moved <= tol:
            break
    perp = v - (v @ one) * one
    return float(perp @ perp)


def uniform_mode_deficit_first_order(beta: float, d: int) -> float:
    r"""First-order :math:`1 - \langle v_1, u_d\rangle^2` of :math:`A` and of
    :math:`Y`: :math:`(e^{\beta^2} - 1 + \beta^4/2)/d = 2\,(s_1(A) - 1)`.

    Derived in this book. Write :math:`A = u_d u_d^\top + A_\perp` with :math:`A_\perp u_d = 0`
    (rows of :math:`A` sum to one). Then :math:`A^\top A = u_d u_d^\top + u_d h^\top + h\,u_d^\top
    + A_\perp^\top A_\perp` with :math:`h = A_\perp^\top u_d \perp u_d`,
    :math:`h_j = ((A^\top \mathbf 1)_j - 1)/\sqrt d`, and :math:`A_\perp^\top A_\perp` of norm
    :math:`O(1/d)`. So :math:`v_1 \propto u_d + h + O(d^{-3/2})` and
    :math:`1 - \langle v_1, u_d\rangle^2 \approx \lVert h\rVert^2`, the column-sum variance of
    :func:`attnspec.laws.predictions.s1_excess` (there :math:`s_1(A)^2 \approx 1 + \lVert h
    \rVert^2`). For :math:`Y = \sqrt d\,u_d u_d^\top + Y_f` the same first order holds with
    :math:`h = Y_f^\top u_d/\sqrt d`, whose entries are column means of :math:`f(S)`.
    """
    return 2.0 * s1_excess(beta, d)


def uniform_mode_deficits(d: int, beta: float, seed: int, trials: int) -> dict[str, np.ndarray]:
    r""":func:`top_right_vector_deficit` of :math:`A` and of :math:`Y = e^{\beta S}/(e^{\beta^2/2}
    \sqrt d)` for trials ``0 .. trials-1``, keyed ``"sqrt_d_A"`` and ``"Y"`` (the rungs with the
    order-d outlier; the scale :math:`\sqrt d` does not change a singular vector). The same score
    matrices as the ladder's trials; cached per trial."""
    _check_size_and_trials(d, trials)

    def one(k: int) -> dict:
        params = {"d": int(d), "beta": float(beta), "seed": int(seed), "k": int(k)}

        def compute():
            b = float(beta)
            S = draw_scores(int(d), trial_rng(int(seed), int(k)))
            A = row_softmax(b * S)
            out = {"sqrt_d_A": np.array([top_right_vector_deficit(A)])}
            del A
            Y = np.exp(b * S - 0.5 * b * b - 0.5 * np.log(int(d)))
            out["Y"] = np.array([top_right_vector_deficit(Y)])
            return out

        shapes = {"sqrt_d_A": (1,), "Y": (1,)}
        return cache.cached("uniform_deficit", params, compute, expected=shapes)

    found = [one(k) for k in range(int(trials))]
    return {name: np.array([float(t[name][0]) for t in found]) for name in ("sqrt_d_A", "Y")}


@dataclass(frozen=True)
class ExcessScan:
    r"""The excess :math:`s_1(A) - 1` across matrix sizes: per-size mean and standard error over
    trials, the first-order value, and the fitted power law :math:`s_1(A) - 1 \propto d^{\nu}`."""

    d_values: list[int]
    excess: np.ndarray
    se: np.ndarray
    predicted: np.ndarray
    slope: float
    intercept: float
    slope_se: float

    @property
    def z(self) -> np.ndarray:
        """(measured - first-order) / standard error, per size."""
        return (self.excess - self.predicted) / self.se

    @property
    def dof(self) -> int:
        """Degrees of freedom of the fit: sizes minus two."""
        return len(self.d_values) - 2

    @property
    def slope_ok(self) -> bool:
        """Whether the fit has an uncertainty: at least two degrees of freedom and a positive se."""
        return self.dof >= 2 and bool(np.isfinite(self.slope_se)) and self.slope_se > 0

    @property
    def worst(self) -> tuple[int, float]:
        """The size with the largest absolute z, and that absolute z."""
        i = int(np.argmax(np.abs(self.z)))
        return int(self.d_values[i]), float(abs(self.z[i]))


def excess_scan(
    d_values, beta: float, seed: int, trials: int, known: dict[int, np.ndarray] | None = None
) -> ExcessScan:
    r""":class:`ExcessScan` of :func:`attention_s1` at each size of ``d_values`` (sorted).

    ``known`` maps a size to per-trial :math:`s_1(A)` already computed (e.g. from the ladder's
    trials), used instead of recomputing. Needs at least two trials per size.
    """
    d_values = sorted(int(v) for v in d_values)
    trials = int(trials)
    if trials < 2:
        raise InvalidInput(f"trials={trials} is out of range: the scan needs at least 2")
    known = known or {}
    s1 = [np.asarray(known.get(d, attention_s1(d, beta, seed, trials)), float) for d in d_values]
    excess = np.array([v.mean() - 1.0 for v in s1])
    se = np.array([v.std(ddof=1) / np.sqrt(v.size) for v in s1])
    predicted = np.array([s1_excess(beta, d) for d in d_values])
    slope, intercept, slope_se = power_law_fit(d_values, excess)
    return ExcessScan(d_values, excess, se, predicted, slope, intercept, slope_se)
