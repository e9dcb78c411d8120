r"""Causal attention depends on the order of the scores along the diagonal.

The seed summary of the spectral-degeneration paper (its Appendix A): the causal results rest on
placing the score matrix's singular values on the diagonal in *descending* order before the mask
is applied. At :math:`\ell = 2` the diagonal scores :math:`(t, 0)` give the eigenvalues
:math:`1` and :math:`1/2`, while :math:`(0, t)` gives :math:`1` and :math:`e^t/(e^t + 1)`
(:func:`two_token_eigenvalues`). Bidirectional attention does not depend on the order (a
permutation of the diagonal is a similarity :math:`P A P^\top`); causal attention does, because
the mask is not permuted with it. :func:`order_point` compares the descending, ascending and a
seeded random order of the same scores at scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attnspec.canonical.causal import (
    causal_eigenvalues,
    causal_frobenius_sq,
    causal_operator_norm,
    causal_singular_values,
)
from attnspec.core.errors import InvalidInput
from attnspec.numerics.spectra import erank1

#: The orders compared, the paper's (descending) first.
ORDERS = ("descending", "ascending", "random")
#: Stream tag of the seeded random order (third entry of ``default_rng([seed, ell, tag])``).
ORDER_STREAM = 7


def two_token_eigenvalues(t: float) -> dict[str, np.ndarray]:
    r"""Causal eigenvalues of the diagonal scores :math:`(t, 0)` ("descending") and :math:`(0, t)`
    ("ascending"), descending: :math:`(1, 1/2)` and :math:`(1, e^t/(e^t + 1))`."""
    t = float(t)
    if not t >= 0 or not math.isfinite(t):
        raise InvalidInput(f"t={t!r} is out of range: must be finite and >= 0")
    return {
        "descending": causal_eigenvalues([t, 0.0]),
        "ascending": causal_eigenvalues([0.0, t]),
    }


def ordered(s, order: str, seed: int) -> np.ndarray:
    """The scores ``s`` sorted descending, ascending, or in a seeded random order."""
    s = np.sort(np.asarray(s, dtype=float))[::-1]
    if order == "descending":
        return s
    if order == "ascending":
        return s[::-1].copy()
    if order == "random":
        return s[np.random.default_rng([int(seed), s.size, ORDER_STREAM]).permutation(s.size)]
    raise InvalidInput(f"order={order!r} is out of range: must be one of {', '.join(ORDERS)}")


@dataclass(frozen=True)
class OrderPoint:
    r"""Causal attention of one score vector in one order.

    Attributes
    ----------
    ell : int
    order : str
    srank : float
        :math:`\|A\|_F^2/\|A\|^2` (Lanczos, any :math:`\ell`).
    erank1 : float or None
        :math:`\exp H(\sigma/\sum\sigma)` (dense, only when asked for).
    eigenvalues : numpy.ndarray
        The diagonal, descending.
    """

    ell: int
    order: str
    srank: float
    erank1: float | None
    eigenvalues: np.ndarray


def order_point(s, order: str, seed: int, dense: bool, sigma=None) -> OrderPoint:
    """Stable rank, eigenvalues and (if ``dense``) erank₁ of causal attention of ``s`` in
    ``order``; ``sigma`` are its singular values when already known."""
    t = ordered(s, order, seed)
    srank = causal_frobenius_sq(t) / causal_operator_norm(t) ** 2
    e1 = erank1(causal_singular_values(t) if sigma is None else sigma) if dense else None
    return OrderPoint(t.size, order, srank, e1, causal_eigenvalues(t))
