r"""The limit law of the Gaussian-equivalent model at a head dimension :math:`d_{qk} = c\,d`.

This book's derivation; at :math:`c = 1` it is
:class:`~attnspec.laws.gaussian_equivalent.GaussianEquivalentLaw`. In Pennington and Worah's
notation it is their law at :math:`\phi = \psi = c`
(:mod:`attnspec.laws.pennington_worah_general`).
"""

from __future__ import annotations

import math

import numpy as np

from ..core import validate
from ..core.errors import InvalidInput
from ..numerics.smooth_cdf import SmoothCDF, smap, smap_derivative, smap_inverse
from .base import SquaredSingularValueLaw, positive_real
from .gaussian_equivalent import THETA1_MAX
from .quartic import quartic_h, series_moment


class HeadDimensionLaw(SquaredSingularValueLaw):
    r"""Limit law of the squared singular values of
    :math:`Y = \sqrt{\theta_2}\, S/\sqrt d + \sqrt{\theta_1 - \theta_2}\, W/\sqrt d`,
    :math:`S = W_Q W_K^\top/\sqrt{d_{qk}}`, as :math:`d \to \infty` with :math:`d_{qk}/d \to c`.

    Parameters
    ----------
    theta1 : float
        :math:`\theta_1 > 0`, the mean of the law.
    theta2 : float
        :math:`0 \le \theta_2 \le \theta_1`; :math:`\theta_2 < \theta_1` when :math:`c < 1` (else
        the law has an atom at 0).
    ratio : float
        :math:`c = d_{qk}/d`, :math:`0 < c \le 1`.

    Attributes
    ----------
    edge : float
        The right end :math:`\lambda_+` of the support.
    intervals : list of (float, float)
        The support, :math:`[0, \lambda_1] \cup [\lambda_2, \lambda_+]` once the score part splits
        off as a band (small c), else :math:`[0, \lambda_+]`.

    Notes
    -----
    **Derivation.** :math:`X = S/\sqrt d = c^{-1/2}(W_Q/\sqrt d)(W_K/\sqrt d)^\top` is R-diagonal
    and free from :math:`W/\sqrt d`, as in the square case. The nonzero eigenvalues of
    :math:`XX^\top` are those of :math:`c^{-1} P_K P_Q` with :math:`P = W^\top W/d`
    (:math:`d_{qk} \times d_{qk}`), free Marchenko–Pastur matrices of S-transform
    :math:`1/(1 + cw)`; with the :math:`1 - c` zeros, the squared singular values of X have the
    S-transform :math:`S(w) = c/((1 + w)(c + w))` (:math:`1/(1 + w)^2`, Fuss–Catalan, at c = 1),
    so their moment series B solves :math:`x B^2 (c - 1 + B) = c (B - 1)`. With the subordination
    :math:`G(z) = G_X(z - \sigma^2 G)`, :math:`\sigma^2 = \theta_1 - \theta_2`, the Cauchy transform
    G of the symmetrized law solves the quartic

    .. math::

        -\theta_2\sigma^2 G^4 + \theta_2 z G^3 + \bigl(\theta_2 (c - 1) + c\sigma^2\bigr) G^2
        - c z G + c = 0,

    and :math:`q(\lambda) = -\operatorname{Im} G(\sqrt\lambda + i0)/(\pi\sqrt\lambda)`. In
    :math:`H = 1/G`, with :math:`r = \theta_2/c`: :math:`H^4 - zH^3 + (\theta_1 - r)H^2 + rzH -
    \sigma^2 r = 0`. The inverse is :math:`z = K(G) = \sigma^2 G + (c + \theta_2(c - 1)G^2)/(G(c -
    \theta_2 G^2))`; the support's edges are :math:`K(\sqrt w)` at the positive roots of the cubic
    :math:`\sigma^2\theta_2^2 w^3 + (\theta_2^2(c - 1) - 2c\sigma^2\theta_2) w^2 + (c^2\sigma^2 +
    c(c + 2)\theta_2) w - c^2` (:math:`K' = 0`).

    **Moments.** :math:`M(y) = \sum_k E[\lambda^k] y^k` solves
    :math:`M = 1 + (\theta_1 - r) y M^2 + r y M^3 - \sigma^2 r y^2 M^4`, so
    :math:`E\lambda = \theta_1` and :math:`\operatorname{Var}\lambda = \theta_1^2 + \theta_2^2/c`.

    **Numerics.** The distribution function adds one Chebyshev interpolant per interval of the
    support (:class:`~attnspec.numerics.smooth_cdf.SmoothCDF`): in :math:`x = x_1 s(u)` with
    :math:`s(u) = u^3(4 - 3u)` on the first, in :math:`x = a + (b - a)(1 - \cos \pi u)/2` on a band
    :math:`[a, b]`; both make the density smooth in u at the square-root edges.
    """

    def __init__(self, theta1: float, theta2: float, ratio: float) -> None:
        self.theta1 = positive_real("theta1", theta1, THETA1_MAX)
        self.theta2 = validate.real("theta2", theta2, 0.0, self.theta1)
        self.ratio = positive_real("ratio", ratio, 1.0)
        if self.ratio < 1.0 and self.theta2 == self.theta1:
            raise InvalidInput(
                f"theta2={theta2!r} is out of range for ratio={ratio!r}: must be < theta1 "
                "when ratio < 1 (the law would have an atom at 0)"
            )
        # the unit law: theta1 = 1, theta2 = t, sigma^2 = s2
        self._t = self.theta2 / self.theta1
        self._s2 = 1.0 - self._t
        self._x = unit_edges(self._t, self.ratio)  # of the unit symmetrized law: x_1 [, x_2, x_+]
        self.intervals = [
            (self.theta1 * a * a, self.theta1 * b * b)
            for a, b in zip((0.0, *self._x[1::2]), self._x[::2], strict=True)
        ]
        self.edge = self.intervals[-1][1]
        self._pieces = [self._piece(j) for j in range(len(self.intervals))]
        self._mass = np.array([p.mass for p in self._pieces])
        self._cum = np.concatenate([[0.0], np.cumsum(self._mass) / self._mass.sum()])
        super().__init__()

    def __repr__(self) -> str:
        return (
            f"HeadDimensionLaw(theta1={self.theta1!r}, theta2={self.theta2!r}, "
            f"ratio={self.ratio!r})"
        )

    # ---- one smooth piece per interval -------------------------------------------------------

    def _unit_rho(self, x: np.ndarray) -> np.ndarray:
        return unit_density(x, self._t, self.ratio)

    def _ends(self, j: int) -> tuple[float, float]:
        """Interval j of the unit symmetrized law's support in x."""
        ends = (0.0, *self._x)
        return ends[2 * j], ends[2 * j + 1]

    def _piece(self, j: int) -> SmoothCDF:
        """The mass of interval j in the variable u of its map (first interval: smap)."""
        a, b = self._ends(j)
        if j == 0:
            return SmoothCDF(lambda u: 2.0 * self._unit_rho(b * smap(u)) * b * smap_derivative(u))
        half = 0.5 * (b - a)
        return SmoothCDF(
            lambda u: (
                2.0
                * self._unit_rho(a + half * (1.0 - np.cos(np.pi * u)))
                * half
                * np.pi
                * np.sin(np.pi * u)
            )
        )

    def _to_u(self, j: int, lam: np.ndarray) -> np.ndarray:
        a, b = self._ends(j)
        x = np.clip(np.sqrt(lam / self.theta1), a, b)
        if j == 0:
            return smap_inverse(x / b)
        return np.arccos(np.clip(1.0 - 2.0 * (x - a) / (b - a), -1.0, 1.0)) / np.pi

    def _from_u(self, j: int, u: np.ndarray) -> np.ndarray:
        a, b = self._ends(j)
        x = b * smap(u) if j == 0 else a + 0.5 * (b - a) * (1.0 - np.cos(np.pi * u))
        return self.theta1 * x * x

    # ---- hooks of SquaredSingularValueLaw ----------------------------------------------------

    def _pdf(self, lam: np.ndarray) -> np.ndarray:
        xs = np.sqrt(lam / self.theta1)
        return self._unit_rho(xs) / xs / self.theta1

    def _cdf(self, lam: np.ndarray) -> np.ndarray:
        out = np.zeros(lam.shape)
        for j, piece in enumerate(self._pieces):
            lo, hi = self.intervals[j]
            mass = self._cum[j + 1] - self._cum[j]
            out[lam >= hi] += mass
            part = (lam > lo) & (lam < hi)
            out[part] += mass * piece.cdf(self._to_u(j, lam[part]))
        return out

    def _ppf(self, p: np.ndarray) -> np.ndarray:
        out = np.empty(p.shape)
        j_of = np.clip(np.searchsorted(self._cum, p, side="right") - 1, 0, len(self._pieces) - 1)
        for j, piece in enumerate(self._pieces):
            hit = j_of == j
            if np.any(hit):
                local = (p[hit] - self._cum[j]) / (self._cum[j + 1] - self._cum[j])
                out[hit] = self._from_u(j, piece.ppf(np.clip(local, 1e-300, 1.0 - 1e-16)))
        return out

    @property
    def quadrature_mass(self) -> float:
        """Total mass of the interpolated density before normalization (1 up to quadrature)."""
        return float(self._mass.sum())

    @property
    def quadrature_tail(self) -> float:
        """Largest size of the last Chebyshev coefficients over the pieces."""
        return max(p.tail for p in self._pieces)

    def interior(self, n: int = 40) -> np.ndarray:
        """``n`` evenly spaced points strictly inside each interval of the support."""
        return np.concatenate([np.linspace(lo, hi, n + 2)[1:-1] for lo, hi in self.intervals])

    def interval_masses(self) -> np.ndarray:
        """The probability of each interval of :attr:`intervals` (the band holds c once split)."""
        return np.diff(self._cum)

    def _quadrature(self, func) -> float:
        r""":math:`E[\mathrm{func}(\lambda)]`, by Fejér quadrature on each interval."""
        return float(
            sum(
                (self._cum[j + 1] - self._cum[j]) * piece.expect(func(self._from_u(j, piece.nodes)))
                for j, piece in enumerate(self._pieces)
            )
        )

    def _stats(self):
        r"""Mean :math:`\theta_1` and variance :math:`\theta_1^2 + \theta_2^2/c`."""
        return self.theta1, self.theta1**2 + self.theta2**2 / self.ratio, None, None

    def _munp(self, n: int) -> float:
        r"""Exact :math:`E[\lambda^n]` from the power series of
        :math:`M = 1 + (\theta_1 - r) y M^2 + r y M^3 - \sigma^2 r y^2 M^4`."""
        r = self.theta2 / self.ratio
        return series_moment(n, self.theta1 - r, r, (self.theta1 - self.theta2) * r)


def _unit_k(g: float, t: float, c: float) -> float:
    """The inverse :math:`K(G)` of the unit law's Cauchy transform (theta1 = 1, theta2 = t)."""
    return (1.0 - t) * g + (c + t * (c - 1.0) * g * g) / (g * (c - t * g * g))


def unit_density(x, t: float, c: float) -> np.ndarray:
    r"""Symmetrized density :math:`\operatorname{Im} H/(\pi|H|^2)` of the unit law
    (:math:`\theta_1 = 1`, :math:`\theta_2 = t`, ratio c) at real x > 0; 0 outside the support."""
    r = t / c
    h = quartic_h(np.atleast_1d(np.asarray(x, dtype=float)), 1.0 - r, r, (1.0 - t) * r)
    out = np.maximum(h.imag, 0.0) / (np.pi * np.abs(h) ** 2)
    return np.where(out > 1e-13, out, 0.0)


def unit_edges(t: float, c: float) -> np.ndarray:
    """Edges of the unit symmetrized law's support on x > 0: its outer edge, preceded by the two
    edges of the gap below the score band when the density vanishes between them."""
    s2 = 1.0 - t
    if t == 0.0:  # Marchenko-Pastur
        return np.array([2.0])
    if s2 == 0.0:  # c = 1 and no noise: Fuss-Catalan
        return np.array([1.5 * math.sqrt(3.0 / t)])
    cubic = [s2 * t * t, t * t * (c - 1.0) - 2.0 * c * s2 * t, c * c * s2 + c * (c + 2) * t]
    w = np.roots([*cubic, -c * c])
    roots = [r.real for r in w if abs(r.imag) <= 1e-9 * abs(r) and r.real > 0]
    edges = sorted(x for x in (_unit_k(math.sqrt(r), t, c) for r in roots) if x > 0)
    gap = len(edges) == 3 and unit_density(0.5 * (edges[0] + edges[1]), t, c)[0] == 0
    return np.array(edges if gap else edges[-1:])


def band_threshold(theta1: float, theta2: float) -> float:
    r"""The ratio :math:`c^*` below which the score part splits off as a band of mass c, by
    bisection (NaN if the support never splits for :math:`0 < c \le 1`)."""
    t = validate.real("theta2", theta2, 0.0) / positive_real("theta1", theta1, THETA1_MAX)
    if not 0.0 < t < 1.0:
        return float("nan")
    lo, hi = 1e-6, 1.0
    if len(unit_edges(t, lo)) == 1:
        return float("nan")
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if len(unit_edges(t, mid)) == 3 else (lo, mid)
    return 0.5 * (lo + hi)
