r"""The limit laws of squared singular values as :class:`scipy.stats.rv_continuous` distributions.

:class:`SquaredSingularValueLaw` is a law on :math:`[0, \lambda_+]` (``edge`` = :math:`\lambda_+`),
a :class:`~scipy.stats.rv_continuous` without shape parameters: each instance is one law, and
scipy gives ``pdf``, ``cdf``, ``sf``, ``ppf``, ``interval``, ``median``, ``std``, ``rvs``… from
the hooks a law implements:

- ``_pdf(lam)``: the density at points :math:`0 < \lambda < \lambda_+` (required);
- ``_cdf(lam)``, ``_ppf(p)``: the distribution and quantile functions inside the support, where a
  closed form exists; by default they come from a :class:`~attnspec.numerics.smooth_cdf.SmoothCDF`
  of the density in the variable u with :math:`\lambda = \lambda_+ s(u)^2`, :math:`s(u) = u^3 (4 -
  3u)`, in which a density with a :math:`\lambda^{-1/2}` or :math:`\lambda^{-2/3}` singularity at 0
  and a square-root edge becomes smooth;
- ``_stats()`` (mean and variance) and ``_munp(n)`` (the moment :math:`E\lambda^n`), exact.

A law's ``__init__`` sets ``edge`` and then calls ``super().__init__()``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

import numpy as np
from scipy import stats

from ..core import validate
from ..core.errors import InvalidInput
from ..numerics.smooth_cdf import SmoothCDF, smap, smap_derivative, smap_inverse


def positive_real(name: str, value, high: float | None = None) -> float:
    """``value`` as a finite float with ``0 < value <= high`` (the lower bound is strict).

    :func:`attnspec.core.validate.real` checks the type and finiteness; it has no strict bound.
    """
    rule = "must be a finite real > 0" + (f" and <= {high}" if high is not None else "")
    value = validate.real(name, value)
    if value <= 0.0 or (high is not None and value > high):
        raise InvalidInput(f"{name}={value!r} is out of range: {rule}")
    return value


class SquaredSingularValueLaw(stats.rv_continuous):
    r"""Base of the laws on :math:`[0, \lambda_+]`, from the hooks ``_pdf`` (and ``_cdf``,
    ``_ppf``, ``_stats``, ``_munp``).

    Vectorized: array in, array out; a scalar in gives a scalar out. NaN maps to NaN. The density
    is ``inf`` at 0 (an integrable singularity); the hooks see points strictly inside the support.
    """

    edge: float

    def __init__(self) -> None:
        super().__init__(a=0.0, b=float(self.edge), name=type(self).__name__)

    # ---- hooks -------------------------------------------------------------------------------

    def _pdf(self, lam: np.ndarray) -> np.ndarray:
        """Density at points strictly inside the support."""
        raise NotImplementedError

    def _cdf(self, lam: np.ndarray) -> np.ndarray:
        """Distribution function at points strictly inside the support."""
        return np.clip(self._smooth.cdf(self._to_u(lam)), 0.0, 1.0)

    def _ppf(self, p: np.ndarray) -> np.ndarray:
        """Quantile at levels 0 < p < 1."""
        return self._from_u(self._smooth.ppf(p))

    def _support_mask(self, x):
        """The open support: the density's hooks never see 0 or the edge."""
        return self._open_support_mask(x)

    def _quadrature(self, func: Callable[[np.ndarray], np.ndarray]) -> float:
        r""":math:`E[\mathrm{func}(\lambda)]` by Chebyshev (Fejér) quadrature in the variable u."""
        return self._smooth.expect(func(self._from_u(self._smooth.nodes)))

    def _munp(self, n: int) -> float:
        r""":math:`E\lambda^n` by :meth:`_quadrature`; a law with a closed form overrides it."""
        return self._quadrature(lambda lam: lam**n)

    def _cdf_integrand(self, u: np.ndarray) -> np.ndarray:
        r"""Density of u: :math:`q(\lambda_+ s^2)\, 2\lambda_+ s\, s'(u)`; a law may simplify it."""
        s = smap(u)
        return self._pdf(self.edge * s**2) * 2.0 * self.edge * s * smap_derivative(u)

    # ---- the smoothing variable --------------------------------------------------------------

    @cached_property
    def _smooth(self) -> SmoothCDF:
        return SmoothCDF(self._cdf_integrand)

    def _to_u(self, lam: np.ndarray) -> np.ndarray:
        return smap_inverse(np.sqrt(np.clip(lam / self.edge, 0.0, 1.0)))

    def _from_u(self, u: np.ndarray) -> np.ndarray:
        return self.edge * smap(u) ** 2

    @property
    def quadrature_mass(self) -> float:
        """Mass of the interpolated density before normalization (1 up to quadrature error)."""
        return self._smooth.mass

    @property
    def quadrature_tail(self) -> float:
        """Size of the last Chebyshev coefficients of the interpolated density."""
        return self._smooth.tail

    # ---- where the law differs from rv_continuous --------------------------------------------

    def pdf(self, x, *args, **kwds):
        """Density; ``inf`` at 0 (an integrable singularity), 0 outside the support."""
        out = super().pdf(x, *args, **kwds)
        return np.where(np.asarray(x) == 0, np.inf, out)[()]

    def moment(self, order, *args, **kwds) -> float:
        r"""The exact moment :math:`E\lambda^n`, ``n = order`` an integer >= 0."""
        return float(self._munp(validate.integer("order", order, 0)))

    def expect(self, func=None, args=(), loc=0, scale=1, lb=None, ub=None, conditional=False, **kw):
        r""":math:`E[\mathrm{func}(\lambda)]`; with ``func`` alone, by quadrature in a variable in
        which the density is smooth (``func`` is called once with an array of points in
        :math:`(0, \lambda_+)`; accurate for smooth ``func``), else as
        :meth:`scipy.stats.rv_continuous.expect`."""
        if args or loc != 0 or scale != 1 or lb is not None or ub is not None or conditional or kw:
            return super().expect(func, args, loc, scale, lb, ub, conditional, **kw)
        return float(self._quadrature(func if func is not None else (lambda lam: lam)))
