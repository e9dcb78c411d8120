r"""Pennington and Worah's law at general :math:`(\phi, \psi)`, and which ratios attention needs.

Pennington and Worah ("Nonlinear random matrix theory for deep learning", NeurIPS 2017) take
:math:`W \in \mathbb R^{n_1 \times n_0}` with entries :math:`N(0, \sigma_w^2/n_0)`,
:math:`X \in \mathbb R^{n_0 \times m}` with entries :math:`N(0, \sigma_x^2)`, :math:`Y = f(WX)`,
:math:`M = YY^\top/m`, and the ratios :math:`\phi = n_0/m`, :math:`\psi = n_0/n_1`. The Stieltjes
transform of the limiting law of M is

.. math::

    G(z) = \frac{\psi}{z} P\Bigl(\frac{1}{z\psi}\Bigr) + \frac{1 - \psi}{z}, \qquad
    P = 1 + (\eta - \zeta)\, t P_\phi P_\psi + \frac{P_\phi P_\psi\, t\zeta}{1 - P_\phi P_\psi
    t\zeta}, \quad P_\phi = 1 + (P - 1)\phi,

with :math:`\eta = \theta_1` and :math:`\zeta = \theta_2` at :math:`\sigma_w\sigma_x = 1`. For the
attention scores :math:`f(S)/\sqrt d`, :math:`S = W_Q W_K^\top/\sqrt{d_{qk}}`, the roles are
:math:`W = W_Q/\sqrt{d_{qk}}` (:math:`n_1 = d`, :math:`n_0 = d_{qk}`), :math:`X = W_K^\top`
(:math:`m = d`), so :math:`\phi = \psi = d_{qk}/d`. Read through :math:`G(z) = P(1/z)/z`, the form
that agrees at :math:`\psi = 1` only, the same P gives no probability law at
:math:`\psi < 1` (``reading="unscaled"``). The check against
:class:`~attnspec.laws.head_dimension.HeadDimensionLaw` is this book's.
"""

from __future__ import annotations

import numpy as np
from numpy.polynomial import polynomial as poly

from ..core import validate
from ..core.errors import InvalidInput


def p_roots(t: float, eta: float, zeta: float, phi: float, psi: float) -> np.ndarray:
    r"""The roots P of Pennington and Worah's equation at :math:`t`, cleared of its denominator:
    :math:`(P - 1)(1 - \zeta t A) = (\eta - \zeta) t A (1 - \zeta t A) + \zeta t A`,
    :math:`A = P_\phi P_\psi`, a quartic in P."""
    a = poly.polymul([1.0 - phi, phi], [1.0 - psi, psi])
    one_minus = poly.polysub([1.0], zeta * t * a)
    lhs = poly.polymul([-1.0, 1.0], one_minus)
    rhs = poly.polyadd((eta - zeta) * t * poly.polymul(a, one_minus), zeta * t * a)
    return np.roots(poly.polysub(lhs, rhs)[::-1])


def pennington_worah_general_pdf(
    lam, eta: float, zeta: float, phi: float, psi: float, reading: str = "paper"
) -> np.ndarray:
    r"""Density of Pennington and Worah's law at :math:`\lambda > 0`.

    ``reading="paper"``: :math:`q(\lambda) = \psi\,|\operatorname{Im} P(1/(\lambda\psi))|/(\pi
    \lambda)`, from their :math:`G(z) = (\psi/z) P(1/(z\psi)) + (1 - \psi)/z`;
    ``reading="unscaled"``: :math:`|\operatorname{Im} P(1/\lambda)|/(\pi\lambda)`, the form of
    :func:`attnspec.laws.pennington_worah.pennington_worah_pdf` (:math:`\phi = \psi = 1`).
    """
    eta, zeta = validate.real("eta", eta), validate.real("zeta", zeta)
    phi, psi = validate.real("phi", phi), validate.real("psi", psi)
    validate.choice("reading", reading, ("paper", "unscaled"))
    if not (0 < eta and 0 <= zeta <= eta and phi > 0 and psi > 0):
        raise InvalidInput(
            f"eta={eta!r}, zeta={zeta!r}, phi={phi!r}, psi={psi!r} are out of range: "
            "need 0 <= zeta <= eta, eta > 0, phi > 0, psi > 0"
        )
    points = np.atleast_1d(np.asarray(lam, dtype=float))
    if not np.all(np.isfinite(points)) or np.any(points <= 0):
        raise InvalidInput("lam is out of range: every point must be a finite real > 0")
    scale = psi if reading == "paper" else 1.0
    out = np.array(
        [
            scale * np.max(np.abs(p_roots(1.0 / (x * scale), eta, zeta, phi, psi).imag))
            for x in points
        ]
    )
    return out / (np.pi * points)
