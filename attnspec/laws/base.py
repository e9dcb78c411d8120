r"""The ``scipy.stats``-like interface shared by the limit laws of squared singular values.

:class:`SquaredSingularValueLaw` is a law on :math:`[0, \lambda_+]` (``edge`` = :math:`\lambda_+`).
It handles arrays, scalars, NaN and the support once; a law implements the hooks

- ``_pdf(lam)``: the density at points :math:`0 < \lambda < \lambda_+` (required);
- ``_cdf(lam)``, ``_ppf(p)``: the distribution and quantile functions inside the support, where a
  closed form exists; by default they come from a :class:`~attnspec.numerics.smooth_cdf.SmoothCDF`
  of the density in the variable u with :math:`\lambda = \lambda_+ s(u)^2`, :math:`s(u) = u^3 (4 -
  3u)`, in which a density with a :math:`\lambda^{-1/2}` or :math:`\lambda^{-2/3}` singularity at 0
  and a square-root edge becomes smooth;
- ``mean``, ``var``, ``moment``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cached_property

import numpy as np

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


def _as_array(x) -> tuple[np.ndarray, bool]:
    arr = np.asarray(x, dtype=float)
    return arr, arr.ndim == 0


def _out(arr: np.ndarray, scalar: bool):
    return arr[()] if scalar else arr


class SquaredSingularValueLaw:
    r"""Base of the laws on :math:`[0, \lambda_+]`: ``pdf``, ``cdf``, ``sf``, ``ppf``, ``support``,
    ``std``, ``median``, ``expect``, ``rvs`` from the hooks ``_pdf`` (and ``_cdf``, ``_ppf``).

    Vectorized: array in, array out; a scalar in gives a scalar out. NaN maps to NaN.
    """

    edge: float

    # ---- hooks -------------------------------------------------------------------------------

    def _pdf(self, lam: np.ndarray) -> np.ndarray:
        """Density at points strictly inside the support."""
        raise NotImplementedError

    def _cdf(self, lam: np.ndarray) -> np.ndarray:
        """Distribution function at points strictly inside the support."""
        return self._smooth.cdf(self._to_u(lam))

    def _ppf(self, p: np.ndarray) -> np.ndarray:
        """Quantile at levels 0 < p < 1."""
        return self._from_u(self._smooth.ppf(p))

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

    # ---- public interface --------------------------------------------------------------------

    def support(self) -> tuple[float, float]:
        r"""The support :math:`(0, \lambda_+)`."""
        return 0.0, float(self.edge)

    def pdf(self, x):
        """Density; ``inf`` at 0 (an integrable singularity), 0 outside the support."""
        lam, scalar = _as_array(x)
        out = np.zeros(lam.shape)
        inside = (lam > 0) & (lam < self.edge)
        if np.any(inside):
            out[inside] = self._pdf(lam[inside])
        out[lam == 0] = np.inf
        out[np.isnan(lam)] = np.nan
        return _out(out, scalar)

    def cdf(self, x):
        r"""Distribution function; exactly 0 at and below 0, 1 at and above :math:`\lambda_+`."""
        lam, scalar = _as_array(x)
        out = np.where(lam >= self.edge, 1.0, 0.0)
        inside = (lam > 0) & (lam < self.edge)
        if np.any(inside):
            out[inside] = np.clip(self._cdf(lam[inside]), 0.0, 1.0)
        out[np.isnan(lam)] = np.nan
        return _out(out, scalar)

    def sf(self, x):
        """Survival function ``1 - cdf(x)``."""
        return 1.0 - self.cdf(x)

    def ppf(self, q):
        r"""Quantile function, the inverse of :meth:`cdf`; ``nan`` outside [0, 1]."""
        p, scalar = _as_array(q)
        out = np.full(p.shape, np.nan)
        out[p == 0] = 0.0
        out[p == 1] = self.edge
        inside = (p > 0) & (p < 1)
        if np.any(inside):
            out[inside] = self._ppf(p[inside])
        return _out(out, scalar)

    def median(self) -> float:
        """The median ``ppf(0.5)``."""
        return float(self.ppf(0.5))

    def std(self) -> float:
        """Standard deviation, the square root of ``var()``."""
        return math.sqrt(self.var())

    def expect(self, func: Callable[[np.ndarray], np.ndarray]) -> float:
        r""":math:`E[\mathrm{func}(\lambda)]` by Chebyshev (Fejér) quadrature in the variable u.

        ``func`` is called once with an array of points in :math:`(0, \lambda_+)`. Accurate for
        smooth ``func``; see :class:`~attnspec.numerics.smooth_cdf.SmoothCDF`.
        """
        return self._smooth.expect(func(self._from_u(self._smooth.nodes)))

    def rvs(self, size=None, random_state=None):
        """Random variates by inversion, ``ppf(U)`` with U uniform on [0, 1).

        ``random_state`` is a seed or a :class:`numpy.random.Generator` (as in ``scipy.stats``).
        """
        rng = np.random.default_rng(random_state)
        return self.ppf(rng.random(size))

    def _check_order(self, n) -> int:
        return validate.integer("n", n, 0)
