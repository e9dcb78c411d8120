r"""The limit law of the Hermite-block model :math:`Y_k` (:mod:`attnspec.models.hermite_blocks`)
when every block ratio :math:`c_j = r_j/d` is held fixed (this book's conjecture, checked
numerically; at k = 1 it is Pennington and Worah's law at :math:`\phi = \psi = c_1`,
:class:`~attnspec.laws.head_dimension.HeadDimensionLaw`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..core import validate
from ..core.errors import InvalidInput
from .base import SquaredSingularValueLaw, positive_real

#: Points of the grid in x = sqrt(lambda) on which the density is computed.
GRID = 4001
#: The path z = x + i eta from eta = ETA_START * scale down to ETA_END * scale, in ETA_STEPS steps
#: (scale: the square root of the law's mean), with NEWTON Newton steps at each.
ETA_START, ETA_END, ETA_STEPS, NEWTON = 10.0, 1e-9, 80, 4


class HermiteBlockLaw(SquaredSingularValueLaw):
    r"""Law of the squared singular values of :math:`\sum_j \sqrt{a_j}\,X_j + \sigma\,W/\sqrt d`
    with free blocks :math:`X_j = c_j^{-1/2}(U_j/\sqrt d)(V_j/\sqrt d)^\top`
    (:math:`U_j, V_j` of size :math:`d \times c_j d`) and a Ginibre W.

    Parameters
    ----------
    powers : sequence of float
        :math:`a_j > 0`, the blocks' powers (:math:`\beta^{2j}/j!` for :math:`Y_k`).
    ratios : sequence of float
        :math:`c_j > 0`, the blocks' ratios :math:`r_j/d` (any size: :math:`c_j > 1` too).
    noise : float
        :math:`\sigma^2 \ge 0`, the white noise's power.

    Notes
    -----
    Each block is R-diagonal, with squared singular values of S-transform
    :math:`c/((1 + w)(c + w))` (a product of Marchenko–Pastur laws of ratios 1 and 1/c, valid for
    every c > 0); the symmetrized law of :math:`\sqrt a X_c` has the inverse Cauchy transform
    :math:`K(g) = (c + a(c - 1)g^2)/(g(c - a g^2))`, the one of
    :class:`~attnspec.laws.head_dimension.HeadDimensionLaw`, so its R-transform is
    :math:`R_j(g) = a_j g/(1 - a_j g^2/c_j)`. Free R-diagonal elements add their symmetrized laws
    by free additive convolution, whose R-transforms add (the subordination of the square case,
    one term per block):

    .. math::

        z = \frac1G + \sigma^2 G + \sum_j \frac{a_j G}{1 - a_j G^2/c_j},

    a polynomial equation of degree 2k + 2 in G. It is solved at :math:`z = x + i\eta` along a
    path from :math:`\eta` large (where :math:`G \approx 1/z`) to :math:`\eta \approx 0`, by
    Newton's method from the last step's root; the symmetrized density is
    :math:`-\operatorname{Im} G/\pi` and :math:`F(\lambda) = 2\int_0^{\sqrt\lambda}\rho`
    (trapezoids on :data:`GRID` points). Mean :math:`\sum a_j + \sigma^2`, variance
    :math:`(\sum a_j + \sigma^2)^2 + \sum_j a_j^2/c_j` (the free cumulants :math:`\kappa_2`,
    :math:`\kappa_4`).
    """

    def __init__(self, powers: Sequence[float], ratios: Sequence[float], noise: float) -> None:
        if len(powers) != len(ratios) or not powers:
            raise InvalidInput(
                f"powers={list(powers)!r} and ratios={list(ratios)!r} are out of range: "
                "must be non-empty and of the same length"
            )
        self.powers = [positive_real("powers", a) for a in powers]
        self.ratios = [positive_real("ratios", c) for c in ratios]
        self.noise = validate.real("noise", noise, 0.0)
        self.total = sum(self.powers) + self.noise
        bound = 2.0 * math.sqrt(self.noise) + sum(
            2.0 * math.sqrt(a) * (1.0 + 1.0 / math.sqrt(c))
            for a, c in zip(self.powers, self.ratios, strict=True)
        )
        self._x = np.linspace(0.0, 1.05 * bound, GRID)
        rho = self.symmetrized_density(self._x)
        cum = np.concatenate([[0.0], np.cumsum(0.5 * (rho[1:] + rho[:-1]) * np.diff(self._x))])
        self.grid_mass = float(2.0 * cum[-1])  # 1 up to the quadrature and the path's eta
        self._cdf_grid = 2.0 * cum / self.grid_mass
        inside = np.nonzero(rho > 1e-6 * rho.max())[0]
        self.edge = float(self._x[min(inside[-1] + 1, GRID - 1)] ** 2)
        super().__init__()

    def __repr__(self) -> str:
        return (
            f"HermiteBlockLaw(powers={self.powers!r}, ratios={self.ratios!r}, noise={self.noise!r})"
        )

    def inverse_cauchy(self, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        r""":math:`K(g) = 1/g + \sigma^2 g + \sum_j a_j g/(1 - b_j g^2)`, :math:`b_j = a_j/c_j`, and
        its derivative :math:`K'(g)`."""
        a = np.array(self.powers)[:, None]
        b = a / np.array(self.ratios)[:, None]
        den = 1.0 - b * g * g
        k = 1.0 / g + self.noise * g + np.sum(a * g / den, axis=0)
        dk = -1.0 / (g * g) + self.noise + np.sum(a * (1.0 + b * g * g) / (den * den), axis=0)
        return k, dk

    def cauchy(self, x: np.ndarray) -> np.ndarray:
        r""":math:`G(x + i0)` of the symmetrized law at real points x: Newton's method on
        :math:`K(G) = z` along the path :math:`z = x + i\eta` (see Notes), from :math:`G = 1/z`;
        a root that leaves the lower half-plane is replaced by its conjugate (the other root of
        the pair, as the equation's coefficients are real)."""
        x = np.asarray(x, dtype=float)
        scale = math.sqrt(self.total)
        g = None
        for eta in np.geomspace(ETA_START * scale, ETA_END * scale, ETA_STEPS):
            z = x + 1j * eta
            g = 1.0 / z if g is None else g
            for _ in range(NEWTON):
                k, dk = self.inverse_cauchy(g)
                g = g - (k - z) / dk
            g = np.where(g.imag > 0, g.conj(), g)
        return g

    def symmetrized_density(self, x) -> np.ndarray:
        r""":math:`\rho(x) = -\operatorname{Im} G(x + i0)/\pi` of the symmetrized law."""
        return np.maximum(-self.cauchy(np.atleast_1d(x)).imag, 0.0) / math.pi

    # ---- hooks of SquaredSingularValueLaw ----------------------------------------------------

    def _pdf(self, lam: np.ndarray) -> np.ndarray:
        x = np.sqrt(lam)
        return self.symmetrized_density(x) / x / self.grid_mass

    def _cdf(self, lam: np.ndarray) -> np.ndarray:
        return np.interp(np.sqrt(lam), self._x, self._cdf_grid)

    def _ppf(self, p: np.ndarray) -> np.ndarray:
        keep = np.concatenate([[True], np.diff(self._cdf_grid) > 0])
        return np.interp(p, self._cdf_grid[keep], self._x[keep]) ** 2

    def _stats(self):
        r"""Mean :math:`\sum_j a_j + \sigma^2`, variance
        :math:`(\sum_j a_j + \sigma^2)^2 + \sum_j a_j^2/c_j`."""
        spread = sum(a * a / c for a, c in zip(self.powers, self.ratios, strict=True))
        return self.total, self.total**2 + spread, None, None
