r"""Pennington and Worah's form of the Gaussian-equivalent law, at :math:`\phi = \psi = 1`.

Pennington and Worah ("Nonlinear random matrix theory for deep learning", NeurIPS 2017) give the
limiting spectral law of :math:`M = YY^\top/m`, :math:`Y = f(WX)`, through its Stieltjes transform
:math:`G(z) = P(1/z)/z`, where

.. math::

    P = 1 + (\eta - \zeta)\, t P_\phi P_\psi + \frac{P_\phi P_\psi\, t\zeta}{1 - P_\phi P_\psi\,
    t\zeta}, \qquad P_\phi = 1 + (P - 1)\phi,

and in their notation the Gaussian-equivalent linear model of the Gaussian-equivalence paper is
:math:`\sqrt\zeta\, WX/\sqrt{n_0} + \sqrt{\eta - \zeta}\, Z`. The law is theirs (proved for
Gaussian :math:`W, X`; Péché, Electron. Commun. Probab. 24, 2019, shows that it is the limit law
of the linear-plus-noise model above; Benigni and Péché, Electron. J. Probab. 26, 2021, extend it
to sub-Gaussian entries and real-analytic :math:`f`). At :math:`\phi = \psi = 1`, with
:math:`\eta = \theta_1` and :math:`\zeta = \theta_2`, clearing the denominator gives a quartic in
:math:`P` (:math:`t = 1/\lambda`):

.. math::

    (\eta - \zeta)\zeta\, t^2 P^4 - \zeta t P^3 - (\eta - \zeta)\, t P^2 + P - 1 = 0 .

Inside the support it has one pair of complex-conjugate roots, and the density of the squared
singular values is :math:`q(\lambda) = |\operatorname{Im} G(\lambda)|/\pi =
|\operatorname{Im} P|/(\pi\lambda)`. This form is independent of the free-probability derivation
of :class:`~attnspec.laws.gaussian_equivalent.GaussianEquivalentLaw`; chapter *The limit law*
compares the two.
"""

from __future__ import annotations

import numpy as np

from ..core import validate
from ..core.errors import InvalidInput


def pennington_worah_pdf(lam, eta: float, zeta: float) -> np.ndarray:
    r"""Density :math:`q(\lambda)` of Pennington and Worah's law at :math:`\phi = \psi = 1`.

    Parameters
    ----------
    lam : float or array_like
        Points :math:`\lambda > 0`.
    eta, zeta : float
        :math:`\eta = \theta_1 > 0` and :math:`0 \le \zeta = \theta_2 \le \eta`.

    Returns
    -------
    numpy.ndarray
        The density at each point (0 outside the support).
    """
    eta = validate.real("eta", eta)
    zeta = validate.real("zeta", zeta)
    if not 0 < eta or not 0 <= zeta <= eta:
        raise InvalidInput(
            f"eta={eta!r}, zeta={zeta!r} are out of range: need 0 <= zeta <= eta, eta > 0"
        )
    points = np.atleast_1d(np.asarray(lam, dtype=float))
    if not np.all(np.isfinite(points)) or np.any(points <= 0):
        raise InvalidInput("lam is out of range: every point must be a finite real > 0")
    a = eta - zeta
    out = np.zeros(points.shape)
    for i, x in enumerate(points):
        t = 1.0 / x
        roots = np.roots([a * zeta * t * t, -zeta * t, -a * t, 1.0, -1.0])
        out[i] = np.max(np.abs(roots.imag)) * t / np.pi
    return out
