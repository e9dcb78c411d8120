r"""A distribution function on [0, 1] from a smooth density, by Chebyshev interpolation.

:class:`SmoothCDF` takes a density :math:`g(u)` on :math:`u \in [0, 1]` that is smooth up to both
ends (a law with a singular density is first brought to such a variable, see :func:`smap`). It
interpolates :math:`g` at Chebyshev points of adaptively chosen degree, integrates the interpolant
exactly for the distribution function, inverts it for quantiles and integrates other functions
against it (Fejér's first rule). The limit laws of :mod:`attnspec.laws.predictions` use it for the
quantities that have no closed form.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.polynomial import chebyshev as cheb

#: interpolation degrees tried in turn, until the last eighth of the coefficients is below TAIL
DEGREES = (64, 128, 256, 512, 1024, 2048, 4096, 8192)
#: size of the last Chebyshev coefficients at which the interpolant is accepted
TAIL = 1e-14
#: coefficients below this size are dropped from the end of the series
NEGLIGIBLE = 1e-17
#: number of intervals of the table that brackets the quantile search
TABLE_INTERVALS = 1024


def bisect_increasing(
    func: Callable[[np.ndarray], np.ndarray],
    target: np.ndarray,
    lo: float,
    hi: float,
    iterations: int = 60,
) -> np.ndarray:
    """Solve ``func(u) = target`` elementwise for an increasing ``func`` on ``[lo, hi]``."""
    a = np.full(target.shape, lo, dtype=float)
    b = np.full(target.shape, hi, dtype=float)
    for _ in range(iterations):
        m = 0.5 * (a + b)
        below = func(m) < target
        a = np.where(below, m, a)
        b = np.where(below, b, m)
    return 0.5 * (a + b)


def bisect_root(func: Callable[[float], float], lo: float, hi: float) -> float:
    """A root of ``func`` in ``[lo, hi]``, where ``func(lo) < 0 < func(hi)``, by bisection until the
    bracket cannot shrink (full double precision)."""
    while True:
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            return mid
        if func(mid) < 0.0:
            lo = mid
        else:
            hi = mid


def smap(u: np.ndarray) -> np.ndarray:
    r"""Quadrature substitution :math:`s(u) = u^3 (4 - 3u)`, increasing from 0 to 1 on [0, 1].

    :math:`s'(u) = 12 u^2 (1 - u)` vanishes to second order at 0 and to first order at 1, so a
    density with an :math:`s^{-2/3}` singularity at 0 or a square-root edge at 1 becomes smooth
    in u.
    """
    return u**3 * (4.0 - 3.0 * u)


def smap_derivative(u: np.ndarray) -> np.ndarray:
    r"""The derivative :math:`s'(u) = 12 u^2 (1 - u)` of :func:`smap`."""
    return 12.0 * u**2 * (1.0 - u)


def smap_inverse(s: np.ndarray) -> np.ndarray:
    """The inverse of :func:`smap` on [0, 1], by bisection."""
    return bisect_increasing(smap, s, 0.0, 1.0, iterations=56)


class SmoothCDF:
    r"""Distribution function, quantile and expectations of a smooth density on [0, 1].

    Parameters
    ----------
    density : callable
        :math:`g(u)`, vectorized, smooth on [0, 1]; called at interior points only. It need not
        integrate to exactly 1: it is normalized by its computed total mass.

    Attributes
    ----------
    mass : float
        :math:`\int_0^1 g` before normalization.
    tail : float
        Largest of the last eighth of the Chebyshev coefficients of g: the accuracy of the
        interpolant.
    nodes : numpy.ndarray
        The Chebyshev points :math:`u_k` of the accepted degree.

    Notes
    -----
    With :math:`t = 2u - 1` and the Chebyshev points of the first kind
    :math:`t_k = \cos(\pi (k + 1/2)/n)`, the coefficients of
    :math:`g \approx \sum_j c_j T_j(t)` are :math:`c_j = (2/n) \sum_k g(u_k) \cos(\pi j (k +
    1/2)/n)`, halved for :math:`j = 0` (a DCT-II). The degree n is doubled until the last eighth of
    the coefficients is below :data:`TAIL`. The distribution function is the exact integral of the
    interpolant, divided by the mass. Expectations use the same coefficients (Fejér's first rule):
    since :math:`\int_0^1 T_j(2u - 1)\,du = 1/(1 - j^2)` for even j and 0 for odd j,

    .. math::

        \int_0^1 h(u)\, g(u)\, du \approx \sum_{j \text{ even}} \frac{c_j[h g]}{1 - j^2},

    with :math:`c_j[hg]` the coefficients of the product sampled at the same nodes.
    """

    def __init__(self, density: Callable[[np.ndarray], np.ndarray]) -> None:
        tail = np.inf
        for n in DEGREES:
            u = 0.5 * (np.cos(np.pi * (np.arange(n) + 0.5) / n) + 1.0)
            g = density(u)
            c = _coefficients(g)
            tail = float(np.max(np.abs(c[-(n // 8) :])))
            if tail < TAIL:
                break
        self.nodes, self._values = u, g
        keep = np.nonzero(np.abs(c) > NEGLIGIBLE)[0]
        c = c[: keep[-1] + 1] if keep.size else c[:1]
        integral = cheb.chebint(c, lbnd=-1, scl=0.5)  # d/du = 2 d/dt
        self.mass = float(cheb.chebval(1.0, integral))
        self.tail = tail
        self._cdf_coef = integral / self.mass
        self._density_coef = c / self.mass
        table_u = np.linspace(0.0, 1.0, TABLE_INTERVALS + 1)
        table_c = np.maximum.accumulate(np.clip(self.cdf(table_u), 0.0, 1.0))
        table_c[0], table_c[-1] = 0.0, 1.0
        self._table_u, self._table_c = table_u, table_c

    def density(self, u: np.ndarray) -> np.ndarray:
        """The normalized interpolant of the density at ``u``."""
        return cheb.chebval(2.0 * u - 1.0, self._density_coef)

    def cdf(self, u: np.ndarray) -> np.ndarray:
        r""":math:`C(u) = \int_0^u g / \text{mass}` (not clipped to [0, 1])."""
        return cheb.chebval(2.0 * u - 1.0, self._cdf_coef)

    def ppf(self, p: np.ndarray) -> np.ndarray:
        """Solve C(u) = p for 0 < p < 1.

        Newton steps on log C (p <= 1/2) or log(1 - C) (p > 1/2), which are nearly linear near
        the ends, kept inside a bracket that starts from a table of C and shrinks at every step.
        """
        k = np.clip(np.searchsorted(self._table_c, p, side="right") - 1, 0, TABLE_INTERVALS - 1)
        lo, hi = self._table_u[k].copy(), self._table_u[k + 1].copy()
        c_lo, c_hi = self._table_c[k], self._table_c[k + 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            frac = np.where(c_hi > c_lo, (p - c_lo) / (c_hi - c_lo), 0.5)
        u = lo + np.clip(frac, 0.0, 1.0) * (hi - lo)
        lower = p <= 0.5
        for _ in range(60):
            c = self.cdf(u)
            g = self.density(u)
            below = c < p
            lo = np.where(below, u, lo)
            hi = np.where(below, hi, u)
            with np.errstate(divide="ignore", invalid="ignore"):
                step = np.where(
                    lower,
                    (np.log(c) - np.log(p)) * c / g,
                    -(np.log1p(-c) - np.log1p(-p)) * (1.0 - c) / g,
                )
            new = u - step
            ok = np.isfinite(new) & (new > lo) & (new < hi)
            new = np.where(ok, new, 0.5 * (lo + hi))
            if np.max(np.abs(new - u)) <= 4 * np.finfo(float).eps:
                u = new
                break
            u = new
        return u

    def expect(self, values: np.ndarray) -> float:
        r""":math:`\int_0^1 h\, g / \text{mass}` from ``values`` :math:`h(u_k)` at the nodes."""
        c = _coefficients(np.asarray(values, dtype=float) * self._values / self.mass)
        j = np.arange(0, c.size, 2)
        return float(np.sum(c[j] / (1.0 - j**2)))


def dct2(x: np.ndarray) -> np.ndarray:
    r"""Unnormalized DCT-II, :math:`y_k = 2 \sum_{n<N} x_n \cos(\pi k (2n + 1) / 2N)`, by one FFT.

    Makhoul's reordering :math:`v = (x_0, x_2, x_4, \dots, x_5, x_3, x_1)` gives
    :math:`y_k = 2 \operatorname{Re}(e^{-i\pi k/2N} \hat v_k)`; the same transform as
    ``scipy.fft.dct(x, type=2)``, without importing scipy.
    """
    n = x.size
    v = np.concatenate([x[::2], x[1::2][::-1]])
    return 2.0 * np.real(np.exp(-0.5j * np.pi * np.arange(n) / n) * np.fft.fft(v))


def _coefficients(values: np.ndarray) -> np.ndarray:
    """Chebyshev coefficients of the interpolant through values at the first-kind points."""
    c = dct2(values) / values.size
    c[0] /= 2.0
    return c
