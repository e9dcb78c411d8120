r"""The seed summary's upper bound on causal singular values, and the smallest constant that makes
it hold.

The seed summary of the spectral-degeneration paper (causal singular values): with a bounded bulk
of constant B,

.. math::
    \sigma_{k+m}(A) \le C_B \min\Big\{1, \frac{\ell - k - m + 1}{k + m},
    \sqrt{\frac{\log(\ell + 1)}{m}}\Big\}, \qquad
    \#\{i > k : \sigma_i(A) > \varepsilon\} \le C_B \frac{\log(\ell + 1)}{\varepsilon^2},

hence :math:`\sigma_{k+m_\ell}(A) \to 0` whenever :math:`m_\ell/\log\ell \to \infty`. The summary
gives no value of :math:`C_B`. This module measures, for a score vector, the *smallest* constant
that makes each bound hold (:func:`smallest_constant`, :func:`smallest_count_constant`); nothing is
fixed beforehand. The second constant needs no threshold: the count exceeds :math:`j - 1` just below
:math:`\varepsilon = \sigma_{k+j}`, so the smallest constant over every :math:`\varepsilon` is
:math:`\max_j j\,\sigma_{k+j}^2/\log(\ell + 1)`, the square of the constant of the third term of the
first bound alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from attnspec.canonical.causal import causal_singular_values, prefix_average_singular_values
from attnspec.canonical.causal_search import structured_families
from attnspec.core import validate

#: The three terms of the bound, in the order of :func:`bound_profile`.
TERMS = ("1", "(ℓ − k − m + 1)/(k + m)", "√(log(ℓ + 1)/m)")


def bound_profile(ell: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    r"""The bound's shape :math:`b(m) = \min\{1, (\ell-k-m+1)/(k+m), \sqrt{\log(\ell+1)/m}\}`.

    Returns
    -------
    b, term : numpy.ndarray
        :math:`b(m)` for :math:`m = 1, \dots, \ell - k`, and the index into :data:`TERMS` of the
        term that attains the minimum.
    """
    ell = validate.integer("ell", ell, 2)
    k = validate.integer("k", k, 0, ell - 1)
    m = np.arange(1, ell - k + 1, dtype=float)
    terms = np.stack([np.ones_like(m), (ell - k - m + 1) / (k + m), np.sqrt(math.log(ell + 1) / m)])
    return terms.min(axis=0), terms.argmin(axis=0)


@dataclass(frozen=True)
class BoundConstant:
    r"""The smallest :math:`C` with :math:`\sigma_{k+m} \le C\,b(m)` for every m, and where.

    Attributes
    ----------
    constant : float
        :math:`\max_m \sigma_{k+m}/b(m)`.
    m : int
        The m that attains it.
    term : str
        The term of :data:`TERMS` active at that m.
    count_constant : float
        :math:`\max_j j\,\sigma_{k+j}^2/\log(\ell+1)`, the smallest constant of the count bound.
    """

    constant: float
    m: int
    term: str
    count_constant: float


def smallest_constant(sigma, k: int) -> BoundConstant:
    r"""The smallest constants of both bounds for the descending singular values ``sigma``."""
    sigma = np.asarray(sigma, dtype=float)
    ell = sigma.size
    b, term = bound_profile(ell, k)
    ratio = sigma[k:] / b
    j = int(np.argmax(ratio))
    m = np.arange(1, ell - k + 1)
    count = float(np.max(m * sigma[k:] ** 2) / math.log(ell + 1))
    return BoundConstant(float(ratio[j]), j + 1, TERMS[int(term[j])], count)


@dataclass(frozen=True)
class Family:
    r"""A family of causal score vectors: ``scores(ell)`` gives the diagonal, in position order.

    Attributes
    ----------
    name : str
    k : int
        Number of spikes (the bound's k).
    canonical : bool
        Whether the scores are descending (the canonical model's order).
    bulk_bounded : bool
        Whether the largest bulk score :math:`B` stays the same at every :math:`\ell` (the bound's
        premise); ramps to :math:`\log\ell` are not bounded.
    """

    name: str
    k: int
    scores: Callable[[int], np.ndarray]
    canonical: bool
    bulk_bounded: bool

    def bulk_max(self, ell: int) -> float:
        """The largest bulk score B at ``ell``."""
        return float(np.max(self.scores(ell)[self.k :]))


def constant_bulk_scores(ell: int, k: int, bulk: float) -> np.ndarray:
    r"""k spikes :math:`e^{s} = \ell\log\ell` over a constant bulk :math:`s_i = B`: descending."""
    spike = math.log(ell * math.log(ell))
    return np.concatenate([np.full(k, spike), np.full(ell - k, float(bulk))])


def structured_bound_families(k: int) -> list[Family]:
    """The structured families of the adversarial search (:mod:`attnspec.canonical.causal_search`),
    each with its number of spikes and whether it meets the bound's premises."""
    bounded = {r"$\Sigma = 0$", "constant 10", "alternating $0, 5$", r"4 spikes, $f = \ell$"}
    out = []
    for name in structured_families(8):
        spikes = min(4, k) if "spikes" in name else 0

        def scores(ell, name=name):
            return structured_families(ell)[name]

        probe = scores(64)
        out.append(Family(name, spikes, scores, bool(np.all(np.diff(probe) <= 0)), name in bounded))
    return out


def spectrum(family: Family, ell: int) -> np.ndarray:
    r"""Descending causal singular values of ``family`` at ``ell`` (dense; exact tridiagonal
    reduction at :math:`\Sigma = 0`)."""
    s = family.scores(ell)
    if not np.any(s):
        return prefix_average_singular_values(ell)
    return causal_singular_values(s)


def sigma_at_log_squared(sigma, k: int) -> tuple[int, float]:
    r""":math:`m_\ell = \lceil(\log\ell)^2\rceil` and :math:`\sigma_{k+m_\ell}` (0 past the end)."""
    sigma = np.asarray(sigma, dtype=float)
    m = math.ceil(math.log(sigma.size) ** 2)
    return m, float(sigma[k + m - 1]) if k + m <= sigma.size else 0.0
