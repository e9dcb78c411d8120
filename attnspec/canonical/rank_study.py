r"""Closed forms of the ranks of canonical attention (derived here).

At :math:`\Sigma = 0`, :math:`\|A_c\|_F^2 = H_\ell` and
:math:`\|A_c A_c^\top\|_F^2 = 2H_\ell - H^{(2)}_\ell` (:func:`sigma0_erank2`), so
:math:`\operatorname{erank}_2(A_c) = H_\ell^2/(2H_\ell - H^{(2)}_\ell) \sim (\log\ell)/2`; and for
singular values exactly proportional to :math:`1/i`, :math:`\operatorname{erank}_1 = H_\ell
\exp(S_\ell/H_\ell)` with :math:`S_\ell = \sum_{i \le \ell} (\log i)/i` (:func:`harmonic_erank1`),
which grows like :math:`\sqrt\ell\,\log\ell` since :math:`S_\ell \approx (\log\ell)^2/2`.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special


def sigma0_erank2(ell: float) -> float:
    r""":math:`\operatorname{erank}_2` of causal attention at :math:`\Sigma = 0`, closed form.

    :math:`H_\ell^2/(2H_\ell - H^{(2)}_\ell)` with :math:`H_\ell = \psi(\ell + 1) + \gamma` and
    :math:`H^{(2)}_\ell = \zeta(2) - \psi'(\ell + 1)`: from
    :func:`attnspec.canonical.causal.causal_gram`
    with :math:`z_i = 1/i`, :math:`G_{ii} = 1/i` and :math:`\|G\|_F^2 = \sum_i i^{-2} + 2\sum_j
    (j - 1)/j^2`. Valid for any (real) :math:`\ell`.
    """
    h = float(special.digamma(ell + 1) + np.euler_gamma)
    h2 = float(math.pi**2 / 6 - special.polygamma(1, ell + 1))
    return h * h / (2 * h - h2)


def harmonic_erank1(ell: int) -> float:
    r""":math:`\operatorname{erank}_1` of :math:`\sigma_i = 1/i`, :math:`i \le \ell`:
    :math:`H_\ell\exp(S_\ell/H_\ell)`.

    With :math:`p_i = 1/(i H_\ell)`, :math:`-\log p_i = \log i + \log H_\ell`, so the entropy is
    :math:`S_\ell/H_\ell + \log H_\ell`.
    """
    i = np.arange(1, int(ell) + 1, dtype=float)
    h, s = float(np.sum(1 / i)), float(np.sum(np.log(i) / i))
    return h * math.exp(s / h)
