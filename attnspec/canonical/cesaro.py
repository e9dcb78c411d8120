r"""Causal attention at large context length: the Cesàro matrix and the stable-rank crossing.

At :math:`\Sigma = 0` causal attention is the Cesàro (prefix-averaging) matrix
:math:`A_{ij} = \mathbb 1\{j \le i\}/i`. Its Frobenius norm is exact,
:math:`\|A\|_F^2 = H_\ell = \sum_{i \le \ell} 1/i`, and Hardy's inequality
(Hardy, Littlewood and Pólya) gives :math:`\|A\|_{op} \le 2` with :math:`\|A\|_{op} \to 2`, so

.. math::
    \operatorname{srank}(A) = \frac{H_\ell}{\|A\|_{op}^2} \sim \frac{\log \ell}{4} .

The convergence of the norm is slow, so finite-:math:`\ell` values are computed exactly with the
:math:`O(\ell)` Lanczos operator :class:`attnspec.canonical.causal.CausalGramOperator` (the products
are cumulative sums), not extrapolated. The same operator gives the causal stable rank of spike–bulk
scores at any :math:`\ell`, and :func:`stable_rank_crossing` finds where it reaches a target by
bracketing root finding on :math:`\log \ell`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

from attnspec.canonical.causal import (
    CausalGramOperator,
    causal_frobenius_sq,
    causal_parts,
    harmonic_number,
)
from attnspec.canonical.model import spike_bulk_scores
from attnspec.core import validate
from attnspec.core.errors import InvalidInput

#: :math:`\lim_{\ell\to\infty} \|A\|_{op}` of the Cesàro matrix (Hardy's inequality).
HARDY_LIMIT = 2.0


@dataclass(frozen=True)
class CesaroPoint:
    r"""Causal attention at :math:`\Sigma = 0` and one context length.

    Attributes
    ----------
    ell : int
    norm : float
        :math:`\|A\|_{op}`, exact to round-off (Lanczos).
    frobenius_sq : float
        :math:`\|A\|_F^2 = H_\ell`.
    """

    ell: int
    norm: float
    frobenius_sq: float

    @property
    def srank(self) -> float:
        r""":math:`H_\ell / \|A\|_{op}^2`."""
        return self.frobenius_sq / self.norm**2

    @property
    def srank_law(self) -> float:
        r"""The asymptotic law :math:`H_\ell / 4` (the norm at its limit 2)."""
        return self.frobenius_sq / HARDY_LIMIT**2


def _check_ell(ell) -> int:
    return validate.integer("ell", ell, 2)


def large_ell_stable_rank(s) -> tuple[float, float]:
    r"""``(srank, norm)`` of causal attention with scores ``s``: :math:`\|A\|_F^2/\|A\|_{op}^2` and
    :math:`\|A\|_{op}`.

    :math:`O(\ell)` memory and time per Lanczos product; exact to round-off.
    """
    d, z = causal_parts(s)
    norm = math.sqrt(CausalGramOperator(d, z).top_eigenvalue())
    return causal_frobenius_sq(s) / norm**2, norm


def cesaro_point(ell: int) -> CesaroPoint:
    r"""Norm and Frobenius norm of the Cesàro matrix of size :math:`\ell` (causal attention at
    :math:`\Sigma = 0`)."""
    ell = _check_ell(ell)
    _, norm = large_ell_stable_rank(np.zeros(ell))
    return CesaroPoint(ell=ell, norm=norm, frobenius_sq=harmonic_number(ell))


@dataclass(frozen=True)
class Crossing:
    r"""Where the causal stable rank of spike–bulk scores reaches a target value.

    Attributes
    ----------
    ell : float
        The crossing length (real-valued root in :math:`\log \ell`, to the tolerance asked for).
    target : float
    lower, upper : int
        The bracket :math:`[\ell_-, \ell_+]` searched.
    srank_lower, srank_upper : float
        The stable rank at the bracket's ends (below and above the target).
    evaluations : tuple of (int, float)
        Every :math:`(\ell, \operatorname{srank})` evaluated, in order.
    """

    ell: float
    target: float
    lower: int
    upper: int
    srank_lower: float
    srank_upper: float
    evaluations: tuple


def crossing_bracket(
    k: int, f: Callable[[float], float], target: float, start: int, cap: int
) -> tuple[int, int, tuple] | None:
    r"""Powers of two :math:`\ell_- < \ell_+ = 2\ell_-` with the causal stable rank (k spikes,
    zero bulk) below ``target`` at :math:`\ell_-` and at least it at :math:`\ell_+`.

    Starts at ``start`` and halves or doubles; returns ``(lower, upper, evaluations)``, or None
    when the stable rank stays below ``target`` up to ``cap`` (then ``evaluations`` are lost: use
    :func:`large_ell_stable_rank` at ``cap`` for the value reached).
    """
    value = {}

    def srank(ell: int) -> float:
        if ell not in value:
            value[ell] = large_ell_stable_rank(spike_bulk_scores(ell, k, f=f))[0]
        return value[ell]

    ell = _check_ell(start)
    while srank(ell) >= target and ell > 2 * k + 2:
        ell //= 2
    while srank(2 * ell) < target:
        ell *= 2
        if 2 * ell > cap:
            return None
    return ell, 2 * ell, tuple(value.items())


def stable_rank_crossing(
    k: int,
    f: Callable[[float], float],
    target: float,
    lower: int,
    upper: int,
    rtol: float = 0.005,
    known: tuple = (),
) -> Crossing:
    r"""Smallest :math:`\ell` in :math:`[\ell_-, \ell_+]` where causal srank with k spikes (zero
    bulk) reaches ``target``.

    The stable rank is evaluated exactly at integer :math:`\ell` (:func:`large_ell_stable_rank`) and
    the root of :math:`\operatorname{srank}(\ell) - \text{target}` is bracketed in :math:`\log \ell`
    and refined by Brent's method (bisection safeguarded by interpolation) until the bracket is
    narrower than a relative ``rtol`` in :math:`\ell`. No fit is extrapolated. ``known`` holds
    :math:`(\ell, \operatorname{srank})` pairs already evaluated (e.g. by :func:`crossing_bracket`).

    Raises
    ------
    InvalidInput
        If the target is not bracketed by ``lower`` and ``upper``.
    """
    lower, upper = _check_ell(lower), _check_ell(upper)
    if not lower < upper:
        raise InvalidInput(f"lower={lower} is out of range: must be < upper = {upper}")
    evaluations: dict[int, float] = dict(known)  # (ell, srank) pairs already evaluated

    def excess(log_ell: float) -> float:
        ell = int(round(math.exp(log_ell)))
        if ell not in evaluations:
            evaluations[ell] = large_ell_stable_rank(spike_bulk_scores(ell, k, f=f))[0]
        return evaluations[ell] - target

    lo, hi = excess(math.log(lower)), excess(math.log(upper))
    if not lo < 0 < hi:
        raise InvalidInput(
            f"target={target!r} is out of range: srank is {lo + target:.4f} at ell={lower} "
            f"and {hi + target:.4f} at ell={upper}, which do not bracket it"
        )
    root = brentq(excess, math.log(lower), math.log(upper), xtol=rtol, rtol=1e-12)
    return Crossing(
        ell=math.exp(root),
        target=float(target),
        lower=lower,
        upper=upper,
        srank_lower=lo + target,
        srank_upper=hi + target,
        evaluations=tuple(evaluations.items()),
    )
