r"""Scaling claims (O, Θ, Ω, "tends to 0") tested by fitted exponents, never by a chosen constant.

A claim such as "the error is :math:`O(1/f(\ell))`" is a statement about how a quantity scales.
It is tested by the least-squares exponent :math:`b` of :math:`\log y` against :math:`\log x`
(with its standard error from the residuals, :func:`attnspec.numerics.fitting.power_law_fit`),
compared with the exponents that the claimed rate and its natural alternatives have *on the same
grid*: each candidate function is fitted the same way, so a slowly varying factor such as
:math:`\log\ell` is given the local exponent it really has over the range. The verdict:

- **Θ** (``"theta"``): ✓ when the claimed candidate is the nearest one to :math:`b`;
- **O** (``"O"``, an upper bound): ✓ when :math:`b` lies below the midpoint between the claimed
  exponent and the nearest *slower* candidate (the claim's natural failure);
- **Ω** (``"omega"``, a lower bound): the mirror image, against the nearest faster candidate;
- **→ 0** (``"zero"``): ✓ when :math:`b < 0`.

In every case the verdict is ○ (not resolvable) when :math:`b` lies within two standard errors of
the decision boundary; a ✗ also needs the candidates to be at least four standard errors apart
(else the grid is too narrow to separate them). The measured constant (the largest ratio of the
quantity to the claimed rate) is reported as a number beside the verdict, never tested against a
bound chosen after seeing it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attnspec.core.errors import InvalidInput
from attnspec.numerics.fitting import power_law_fit, slope_fit
from attnspec.numerics.intervals import interval_below

#: The kinds of scaling claim :func:`rate_test` decides.
KINDS = ("theta", "O", "omega", "zero")
#: Standard errors between the fitted exponent and a decision boundary before a verdict is given.
SE_MARGIN = 2.0


@dataclass(frozen=True)
class RateTest:
    r"""A fitted exponent against the exponents of the candidate rates on the same grid.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    claimed : str
        Name of the claimed candidate (a key of ``candidates``; empty for ``"zero"``).
    exponent, se : float
        Fitted exponent :math:`b` of the quantity and its standard error.
    candidates : dict
        Candidate name -> its fitted exponent on the same grid.
    constant : float
        Largest ratio of the quantity to the claimed rate over the grid (NaN for ``"zero"``).
    """

    kind: str
    claimed: str
    exponent: float
    se: float
    candidates: dict
    constant: float

    def decision(self) -> tuple[float, float] | None:
        """(signed distance of b from the decision boundary, positive on the side where the claim
        holds; gap between the candidates the boundary separates), or None."""
        b = self.exponent
        if self.kind == "zero":
            return -b, math.inf
        mine = self.candidates[self.claimed]
        others = [v for k, v in self.candidates.items() if k != self.claimed]
        if self.kind == "theta":
            gap = min(abs(v - mine) for v in others)
            return gap / 2 - abs(b - mine), gap
        side = [v for v in others if (v > mine if self.kind == "O" else v < mine)]
        if not side:
            return None
        nearest = min(side, key=lambda v: abs(v - mine))
        boundary = (mine + nearest) / 2
        return (boundary - b if self.kind == "O" else b - boundary), abs(nearest - mine)

    @property
    def holds(self) -> bool | None:
        """✓ / ✗ / ○ as the module docstring says (None: the grid cannot decide)."""
        if self.exponent == -math.inf:
            return False  # slope_test: the quantity does not grow
        found = self.decision()
        if found is None or not math.isfinite(self.exponent):
            return None
        distance, gap = found
        se = self.se if math.isfinite(self.se) else 0.0
        if distance > SE_MARGIN * se:
            return True
        if distance < -SE_MARGIN * se and gap >= 2 * SE_MARGIN * se:
            return False
        return None


def _mask(x, y) -> np.ndarray:
    """The points with finite positive x and y (their logarithms are fitted)."""
    if x.ndim != 1 or x.shape != y.shape:
        raise InvalidInput(f"x and y must be 1-d of equal size, got {x.shape} and {y.shape}")
    return np.isfinite(x) & (x > 0) & np.isfinite(y) & (y > 0)


def rate_test(x, y, candidates: dict | None = None, claimed: str = "", kind: str = "O") -> RateTest:
    r"""Test a scaling claim about ``y`` against ``x`` by its fitted exponent.

    Points where ``x`` or ``y`` is not finite and positive are left out; with fewer than three
    points left the verdict is ○ (nothing to fit).

    Parameters
    ----------
    x, y : array_like
        The grid (e.g. :math:`\ell`, :math:`f(\ell)` or :math:`\log\ell`) and the quantity.
    candidates : dict, optional
        Name -> values of each candidate rate on the grid; one of them is the claimed rate. Not
        used for ``kind="zero"``.
    claimed : str
        The key of the claimed rate in ``candidates``.
    kind : str
        One of :data:`KINDS`.
    """
    if kind not in KINDS:
        raise InvalidInput(f"kind={kind!r} is out of range: must be one of {', '.join(KINDS)}")
    if kind != "zero" and (not candidates or claimed not in candidates or len(candidates) < 2):
        raise InvalidInput(f"candidates must hold the claimed rate {claimed!r} and another")
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = _mask(x, y)
    cand = {k: np.asarray(v, dtype=float)[keep] for k, v in (candidates or {}).items()}
    if keep.sum() < 3:
        return RateTest(kind, claimed, math.nan, math.nan, dict.fromkeys(cand, math.nan), math.nan)
    x, y = x[keep], y[keep]
    b, _, se = power_law_fit(x, y)
    fitted = {k: power_law_fit(x, v)[0] for k, v in cand.items()}
    constant = float(np.max(y / cand[claimed])) if kind != "zero" else math.nan
    return RateTest(kind, claimed, b, se, fitted, constant)


def slope_test(ell, y, upper: float = 0.5) -> RateTest:
    r"""Θ(log ℓ) against bounded and Θ((log ℓ)²) growth, from the local slopes in :math:`\log\ell`.

    An additive constant hides a logarithmic law from a fitted exponent (:math:`a + b\log\ell`
    has a local exponent below 1 in :math:`\log\ell`), so the test looks at the slopes
    :math:`\Delta y/\Delta\log\ell` between successive points of the upper part of the grid
    (its last fraction ``upper`` in :math:`\log\ell`): constant for :math:`\Theta(\log\ell)`,
    growing like :math:`\log\ell` for :math:`\Theta((\log\ell)^2)`, falling (like
    :math:`1/\log\ell` or faster) for a bounded quantity. A slope that is not positive gives
    ✗ (no growth) directly.
    """
    L = np.log(np.asarray(ell, dtype=float))
    y = np.asarray(y, dtype=float)
    keep = L >= L[0] + (1 - upper) * (L[-1] - L[0])
    L, y = L[keep], y[keep]
    mid, slope = (L[1:] + L[:-1]) / 2, np.diff(y) / np.diff(L)
    candidates = {"bounded": 1 / mid, "log ℓ": np.ones_like(mid), "(log ℓ)²": mid}
    if mid.size >= 3 and np.any(slope <= 0):
        return RateTest(
            "theta", "log ℓ", -math.inf, math.nan, {k: math.nan for k in candidates}, math.nan
        )
    return rate_test(mid, slope, candidates, "log ℓ", "theta")


def log_slope(ell, y) -> tuple[float, float]:
    r"""Least-squares slope of ``y`` against :math:`\log\ell`, with its standard error
    (:func:`~attnspec.numerics.fitting.slope_fit`, reported from one degree of freedom)."""
    fit = slope_fit(np.log(np.asarray(ell, dtype=float)), y, min_dof=1)
    return fit.slope, fit.se


def above_zero(b: float, se: float) -> bool | None:
    r"""Is a fitted slope :math:`b` above 0? The one verdict rule
    (:func:`attnspec.numerics.intervals.interval_below`) on :math:`b \pm 2\,\mathrm{se}` against 0:
    ✓ above, ✗ below, ○ when the interval contains 0."""
    return interval_below((0.0, 0.0), (b - SE_MARGIN * se, b + SE_MARGIN * se))
