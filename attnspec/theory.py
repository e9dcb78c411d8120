r"""Limit laws of the spectra, and the predicted spread of the row normalizers.

- :class:`GaussianEquivalentLaw`: the exact large-d law of the squared singular values of the linear
  Gaussian-equivalent model of the Gaussian-equivalence paper (arXiv 2510.06685, Sec. 3), obtained by
  free probability. It is the law that the bulk of :math:`\sqrt d\,(A - u)` approaches, and it makes
  exact the paper's remark that this bulk deviates from Marchenko–Pastur.
- :class:`MarchenkoPastur`: the Marchenko–Pastur law of ratio 1, the reference the paper contrasts.
- :func:`normalizer_std`: the predicted standard deviation of the normalizer diagnostic :math:`D_i`.

Both laws follow the ``scipy.stats`` interface: ``pdf``, ``cdf``, ``sf``, ``ppf``, ``support``,
``mean``, ``var``, ``std``, ``median``, ``moment``, ``expect``, ``rvs``; the functions are vectorized
over NumPy arrays.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable

import numpy as np
from numpy.polynomial import chebyshev as _cheb
from scipy.fft import dct
from scipy.optimize import brentq

from .errors import InvalidInput
from .nonlinearity import theta_f, theta_q

#: largest theta1: the variance theta1^2 + theta2^2 of the law is then a finite float
THETA1_MAX = math.sqrt(np.finfo(float).max / 2)
#: largest beta whose theta1 = e^{beta^2} - 1 is at most :data:`THETA1_MAX` (about 18.82)
BETA_MAX_F = math.sqrt(math.log1p(THETA1_MAX))


# --------------------------------------------------------------------------------------------
# validation helpers
# --------------------------------------------------------------------------------------------


def _real(name: str, value, range_text: str) -> float:
    """``value`` as a finite float, else InvalidInput naming the parameter and the valid range."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise InvalidInput(f"{name}={value!r} must be a real number ({range_text})")
    value = float(value)
    if not math.isfinite(value):
        raise InvalidInput(f"{name}={value!r} must be finite ({range_text})")
    return value


def _real_array(name: str, value, range_text: str) -> np.ndarray:
    """``value`` as a float array of finite numbers, else InvalidInput naming the parameter."""
    try:
        if isinstance(value, (bool, str, bytes)):
            raise TypeError
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise InvalidInput(
            f"{name}={value!r} must be a real number or an array of them ({range_text})"
        ) from None
    if not np.all(np.isfinite(arr)):
        raise InvalidInput(f"{name}={value!r} must be finite ({range_text})")
    return arr


def _check_thetas(theta1, theta2) -> tuple[float, float]:
    text = (
        f"> 0 and <= {THETA1_MAX:.4g}, so that the variance theta1^2 + theta2^2 is a finite float"
    )
    theta1 = _real("theta1", theta1, text)
    if not 0.0 < theta1 <= THETA1_MAX:
        raise InvalidInput(f"theta1={theta1!r} is out of range: must be {text}")
    text = f">= 0 and <= theta1 = {theta1!r}"
    theta2 = _real("theta2", theta2, text)
    if not 0.0 <= theta2 <= theta1:
        raise InvalidInput(f"theta2={theta2!r} is out of range: must be {text}")
    return theta1, theta2


def _check_beta(beta, high: float | None = None) -> float:
    text = "> 0" + (f" and <= {high!r}" if high is not None else "")
    beta = _real("beta", beta, text)
    if beta <= 0.0 or (high is not None and beta > high):
        raise InvalidInput(f"beta={beta!r} is out of range: must be {text}")
    return beta


# --------------------------------------------------------------------------------------------
# numerical helpers
# --------------------------------------------------------------------------------------------


def _bisect_increasing(
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


def _smap(u: np.ndarray) -> np.ndarray:
    r"""Quadrature substitution :math:`s(u) = u^3 (4 - 3u)`: increasing from 0 to 1 on [0, 1]."""
    return u**3 * (4.0 - 3.0 * u)


def _smap_derivative(u: np.ndarray) -> np.ndarray:
    return 12.0 * u**2 * (1.0 - u)


def _smap_inverse(s: np.ndarray) -> np.ndarray:
    return _bisect_increasing(_smap, s, 0.0, 1.0, iterations=56)


def _as_array(x) -> tuple[np.ndarray, bool]:
    arr = np.asarray(x, dtype=float)
    return arr, arr.ndim == 0


def _out(arr: np.ndarray, scalar: bool):
    return arr[()] if scalar else arr


class _SquaredSingularValueLaw:
    """Shared part of the scipy.stats-like interface of the laws on :math:`[0, \\lambda_+]`."""

    edge: float

    def support(self) -> tuple[float, float]:
        r"""The support :math:`(0, \lambda_+)`."""
        return 0.0, float(self.edge)

    def std(self) -> float:
        """Standard deviation, the square root of :meth:`var`."""
        return math.sqrt(self.var())

    def sf(self, x):
        """Survival function ``1 - cdf(x)``."""
        return 1.0 - self.cdf(x)

    def median(self) -> float:
        """The median ``ppf(0.5)``."""
        return float(self.ppf(0.5))

    def rvs(self, size=None, random_state=None):
        """Random variates by inversion, ``ppf(U)`` with U uniform on [0, 1).

        ``random_state`` is a seed or a :class:`numpy.random.Generator` (as in ``scipy.stats``).
        """
        rng = np.random.default_rng(random_state)
        return self.ppf(rng.random(size))

    def _check_order(self, n) -> int:
        if isinstance(n, bool) or not isinstance(n, (numbers.Integral, np.integer)) or n < 0:
            raise InvalidInput(f"n={n!r} is out of range: must be an int >= 0")
        return int(n)


# --------------------------------------------------------------------------------------------
# the Gaussian-equivalent law
# --------------------------------------------------------------------------------------------


class GaussianEquivalentLaw(_SquaredSingularValueLaw):
    r"""Limit law of the squared singular values of the linear Gaussian-equivalent model.

    The model of the Gaussian-equivalence paper (arXiv 2510.06685, Sec. 3) is

    .. math::

        Y = \sqrt{\theta_2}\,\frac{S}{\sqrt d} + \sqrt{\theta_1 - \theta_2}\,\frac{W}{\sqrt d},
        \qquad S = \frac{W_Q W_K^\top}{\sqrt d},

    with :math:`W_Q, W_K, W` square :math:`d \times d` matrices of independent :math:`N(0, 1)`
    entries. As :math:`d \to \infty` the empirical law of the squared singular values of :math:`Y`
    converges to the law implemented here. At :math:`\beta = 1`
    (:math:`\theta_1 = e - 1`, :math:`\theta_2 = 1`) its support ends at
    :math:`\lambda_+ = 9.00954` (operator norm 3.0016), whereas Marchenko–Pastur with the same mean
    ends at :math:`4\theta_1 = 6.873`: the deviation from Marchenko–Pastur that the paper announces.

    Parameters
    ----------
    theta1 : float
        :math:`\theta_1 = E[f(\chi)^2]`, the mean squared singular value; finite and > 0.
    theta2 : float
        :math:`\theta_2 = (E[f'(\chi)])^2`, the weight of the score part;
        :math:`0 \le \theta_2 \le \theta_1`.

    Attributes
    ----------
    theta1, theta2 : float
        The parameters.
    edge : float
        The right end :math:`\lambda_+` of the support.

    Raises
    ------
    ValueError
        If a parameter is not a finite real number in its range; the message names it.

    See Also
    --------
    MarchenkoPastur : the case :math:`\theta_2 = 0`, with scale :math:`\theta_1`.

    Notes
    -----
    **Derivation.** Write :math:`\sigma^2 = \theta_1 - \theta_2` and
    :math:`X = W_Q W_K^\top / d = S/\sqrt d`, so that
    :math:`Y = \sqrt{\theta_2}\, X + \sigma\, W/\sqrt d`.

    1. :math:`W_Q/\sqrt d`, :math:`W_K/\sqrt d` and :math:`W/\sqrt d` are asymptotically free
       circular elements. Hence :math:`X` and :math:`W/\sqrt d` are free R-diagonal elements.
    2. For free R-diagonal elements the symmetrized singular-value laws (the law of
       :math:`\pm s` for a singular value :math:`s`) add by free additive convolution
       :math:`\boxplus` (Nica and Speicher, *Lectures on the Combinatorics of Free
       Probability*, 2006, Lecture 15).
    3. The symmetrized singular-value law of :math:`\sigma W/\sqrt d` (quarter-circle singular
       values) is the semicircle of variance :math:`\sigma^2`. Free convolution with a semicircle
       is a subordination: the Cauchy transform :math:`G` of the symmetrized law of :math:`Y` solves
       :math:`G(z) = G_X\bigl(z - \sigma^2 G(z)\bigr)`, with :math:`G_X` that of
       :math:`\sqrt{\theta_2}\, X`.
    4. The squared singular values of :math:`X` follow the Fuss–Catalan law with :math:`s = 2`:
       moments 1, 1, 3, 12, 55, ..., whose generating function :math:`B(x)` solves
       :math:`B = 1 + x B^3`. The symmetrized law of :math:`\sqrt{\theta_2}\, X` has the Cauchy
       transform :math:`G_X(\zeta) = B(\theta_2/\zeta^2)/\zeta`, so
       :math:`\zeta\, G_X\, (1 - \theta_2 G_X^2) = 1`.
    5. Substituting :math:`\zeta = z - \sigma^2 G` gives the quartic

       .. math::

           \bigl(z - (\theta_1 - \theta_2)\, G\bigr)\, G\, \bigl(1 - \theta_2 G^2\bigr) = 1,

       where :math:`G(z)` is the root with :math:`\operatorname{Im} G < 0` for
       :math:`\operatorname{Im} z > 0`. The symmetrized density is
       :math:`\rho(x) = -\operatorname{Im} G(x + i0)/\pi`, so the squared singular values have the
       density

       .. math::

           q(\lambda) = -\frac{\operatorname{Im} G(\sqrt\lambda + i0)}{\pi \sqrt\lambda},
           \qquad 0 < \lambda < \lambda_+.

    **Edge.** Inverting the quartic,
    :math:`z = K(G) = 1/G + \sigma^2 G + \theta_2 G/(1 - \theta_2 G^2)`, which is convex on
    :math:`0 < G < \theta_2^{-1/2}`; the operator norm is :math:`\sqrt{\lambda_+} = \min K`. The
    minimizer :math:`G_*^2 = w` is the root in :math:`(0, 1/\theta_2)` of the cubic
    :math:`-(1 - \theta_2 w)^2 + \sigma^2 w (1 - \theta_2 w)^2 + \theta_2 w (1 + \theta_2 w)`.
    For :math:`\theta_2 = 0` this is :math:`\lambda_+ = 4\theta_1` (Marchenko–Pastur), for
    :math:`\theta_2 = \theta_1` it is :math:`\lambda_+ = 27\theta_1/4` (Fuss–Catalan).

    **Moments.** :math:`K(G) - 1/G` is the R-transform, so the free cumulants of the symmetrized
    law are :math:`\kappa_2 = \theta_1` and :math:`\kappa_{2k} = \theta_2^k` for :math:`k \ge 2`
    (all odd ones vanish). The moment-cumulant formula gives

    .. math::

        E\lambda = \theta_1, \qquad
        E\lambda^2 = 2\theta_1^2 + \theta_2^2, \qquad
        E\lambda^3 = 5\theta_1^3 + 6\theta_1\theta_2^2 + \theta_2^3,

    hence :math:`\operatorname{Var}\lambda = \theta_1^2 + \theta_2^2`. In general
    :math:`M(y) = \sum_k E[\lambda^k]\, y^k` solves
    :math:`M = 1 + \sigma^2 y M^2 + \theta_2 y M^3 - \sigma^2 \theta_2 y^2 M^4` (see :meth:`moment`).

    **Singularity at 0.** For :math:`\sigma^2 > 0` the symmetrized density is bounded and positive
    at 0, so :math:`q(\lambda) \sim c\,\lambda^{-1/2}`; for :math:`\theta_1 = \theta_2` (pure
    Fuss–Catalan) :math:`q(\lambda) \sim c\,\lambda^{-2/3}`. At the edge
    :math:`q(\lambda) \sim c\,(\lambda_+ - \lambda)^{1/2}`.

    **Numerics.** Everything is computed for the unit-mean law (:math:`\theta_1 = 1`,
    :math:`\theta_2/\theta_1`) and rescaled. The quartic is solved in :math:`H = 1/G`, where it
    is monic with bounded coefficients (:math:`H^4 - xH^3 + \sigma^2 H^2 + \theta_2 x H -
    \sigma^2\theta_2 = 0` for the unit law), by the eigenvalues of a batch of 4 x 4 companion
    matrices, taking the root with the largest :math:`\operatorname{Im} H`, then polished by
    Newton steps. The cdf is :math:`F(\lambda) = \int_0^{\sqrt\lambda} 2\rho(x)\,dx`; the
    substitution :math:`x = \sqrt{\lambda_+/\theta_1}\, u^3 (4 - 3u)` makes the integrand smooth
    in :math:`u \in [0, 1]` at both ends (it removes the :math:`x^{-1/3}` singularity at 0 and the
    square root at the edge), so a Chebyshev interpolant of adaptively chosen degree, integrated
    exactly, gives the cdf to about 1e-12. The cdf is exactly 0 at 0 and 1 at :math:`\lambda_+`.
    """

    def __init__(self, theta1: float, theta2: float) -> None:
        self.theta1, self.theta2 = _check_thetas(theta1, theta2)
        # unit law: theta1 = 1, theta2 = r, sigma^2 = s2
        self._r = self.theta2 / self.theta1
        self._s2 = (self.theta1 - self.theta2) / self.theta1
        self._xp = self._unit_norm()
        self.edge = self.theta1 * self._xp**2
        self._build_cdf()

    # ---- constructors ----------------------------------------------------------------------

    @classmethod
    def for_f(cls, beta: float) -> GaussianEquivalentLaw:
        r"""The law for :math:`f(x) = e^{\beta x - \beta^2/2} - 1`: :math:`\theta = (e^{\beta^2} - 1, \beta^2)`.

        Parameters
        ----------
        beta : float
            Inverse temperature, > 0 and at most :data:`BETA_MAX_F` (about 18.82; beyond it
            :math:`\theta_1^2` overflows).
        """
        beta = _check_beta(beta, BETA_MAX_F)
        return cls(*theta_f(beta))

    @classmethod
    def for_q(cls, beta: float, n: int) -> GaussianEquivalentLaw:
        r"""The law for the Taylor nonlinearity :math:`Q_n` (exact :math:`\theta^Q`, see ``theta_q``).

        Parameters
        ----------
        beta : float
            Inverse temperature, > 0.
        n : int
            Number of Taylor terms, >= 2.
        """
        beta = _check_beta(beta)
        if isinstance(n, bool) or not isinstance(n, (numbers.Integral, np.integer)) or n < 2:
            raise InvalidInput(f"n={n!r} is out of range: must be an int >= 2")
        try:
            theta = theta_q(beta, int(n))
        except OverflowError:
            raise InvalidInput(
                f"beta={beta!r} is out of range for n={n}: theta^Q overflows"
            ) from None
        return cls(*theta)

    def __repr__(self) -> str:
        return f"GaussianEquivalentLaw(theta1={self.theta1!r}, theta2={self.theta2!r})"

    # ---- the quartic -----------------------------------------------------------------------

    def _unit_norm(self) -> float:
        """Operator norm :math:`\\sqrt{\\lambda_+}` of the unit law: the minimum of K on (0, r^-1/2)."""
        r, s2 = self._r, self._s2
        if r == 0.0:
            return 2.0
        if s2 == 0.0:
            return 1.5 * math.sqrt(3.0 / r)

        def p(w: float) -> float:
            return -((1.0 - r * w) ** 2) + s2 * w * (1.0 - r * w) ** 2 + r * w * (1.0 + r * w)

        upper = min(1.0 / r, 1.0 / s2)
        w = brentq(p, 0.0, upper, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)
        g = math.sqrt(w)
        return 1.0 / g + s2 * g + r * g / (1.0 - r * w)

    def _unit_h(self, x: np.ndarray) -> np.ndarray:
        """Root :math:`H = 1/G` (Im H >= 0) of the unit quartic at real points 0 < x < x_+."""
        r, s2 = self._r, self._s2
        n = x.size
        comp = np.zeros((n, 4, 4))
        comp[:, 0, 0] = x
        comp[:, 0, 1] = -s2
        comp[:, 0, 2] = -r * x
        comp[:, 0, 3] = s2 * r
        comp[:, 1, 0] = comp[:, 2, 1] = comp[:, 3, 2] = 1.0
        roots = np.linalg.eigvals(comp)
        h = roots[np.arange(n), np.argmax(roots.imag, axis=1)].astype(complex)
        for _ in range(2):  # Newton polish, kept only where it lowers the residual
            p = (((h - x) * h + s2) * h + r * x) * h - s2 * r
            dp = ((4.0 * h - 3.0 * x) * h + 2.0 * s2) * h + r * x
            with np.errstate(divide="ignore", invalid="ignore"):
                step = np.where(dp != 0, p / dp, 0.0)
            new = h - step
            p_new = (((new - x) * new + s2) * new + r * x) * new - s2 * r
            h = np.where(np.isfinite(new) & (np.abs(p_new) < np.abs(p)), new, h)
        return h

    def _unit_rho(self, x: np.ndarray) -> np.ndarray:
        """Symmetrized density :math:`\\rho(x) = -\\operatorname{Im} G/\\pi = \\operatorname{Im} H/(\\pi|H|^2)` for 0 < x < x_+."""
        h = self._unit_h(x)
        return np.maximum(h.imag, 0.0) / (np.pi * np.abs(h) ** 2)

    # ---- cdf by Chebyshev quadrature in u ---------------------------------------------------

    def _g(self, u: np.ndarray) -> np.ndarray:
        """Integrand of the cdf in u: 2 rho(x_+ s(u)) x_+ s'(u), smooth on [0, 1]."""
        return 2.0 * self._unit_rho(self._xp * _smap(u)) * self._xp * _smap_derivative(u)

    def _build_cdf(self) -> None:
        tail = np.inf
        for n in (64, 128, 256, 512, 1024, 2048, 4096, 8192):
            t = np.cos(np.pi * (np.arange(n) + 0.5) / n)  # Chebyshev points of the first kind
            u = 0.5 * (t + 1.0)
            g = self._g(u)
            c = dct(g, type=2) / n
            c[0] /= 2.0
            tail = float(np.max(np.abs(c[-(n // 8) :])))
            if tail < 1e-14:
                break
        self._nodes_u, self._nodes_g = u, g
        keep = np.nonzero(np.abs(c) > 1e-17)[0]
        c = c[: keep[-1] + 1] if keep.size else c[:1]
        self._g_coef = c
        big = _cheb.chebint(c, lbnd=-1, scl=0.5)  # d/du = 2 d/dt
        #: total mass before normalization (1 up to the quadrature error)
        self.quadrature_mass = float(_cheb.chebval(1.0, big))
        #: size of the last Chebyshev coefficients: the accuracy of the cdf
        self.quadrature_tail = tail
        self._cdf_coef = big / self.quadrature_mass
        self._g_coef = c / self.quadrature_mass
        table_u = np.linspace(0.0, 1.0, 1025)
        table_c = np.maximum.accumulate(
            np.clip(_cheb.chebval(2.0 * table_u - 1.0, self._cdf_coef), 0.0, 1.0)
        )
        table_c[0], table_c[-1] = 0.0, 1.0
        self._table_u, self._table_c = table_u, table_c

    def _cdf_u(self, u: np.ndarray) -> np.ndarray:
        return _cheb.chebval(2.0 * u - 1.0, self._cdf_coef)

    def _to_u(self, lam: np.ndarray) -> np.ndarray:
        s = np.sqrt(np.clip(lam / self.edge, 0.0, 1.0))
        return _smap_inverse(s)

    def _from_u(self, u: np.ndarray) -> np.ndarray:
        return self.edge * _smap(u) ** 2

    # ---- public interface ------------------------------------------------------------------

    def pdf(self, x):
        r"""Density :math:`q(\lambda) = -\operatorname{Im} G(\sqrt\lambda + i0)/(\pi\sqrt\lambda)`.

        Zero outside :math:`[0, \lambda_+]`, ``inf`` at 0 (an integrable singularity).
        """
        lam, scalar = _as_array(x)
        out = np.zeros(lam.shape)
        inside = (lam > 0) & (lam < self.edge)
        if np.any(inside):
            xs = np.sqrt(lam[inside] / self.theta1)
            out[inside] = self._unit_rho(xs) / xs / self.theta1
        out[lam == 0] = np.inf
        out[np.isnan(lam)] = np.nan
        return _out(out, scalar)

    def cdf(self, x):
        r"""Distribution function :math:`F(\lambda) = \int_0^\lambda q`; exactly 0 at 0 and 1 at :math:`\lambda_+`."""
        lam, scalar = _as_array(x)
        out = np.where(lam >= self.edge, 1.0, 0.0)
        inside = (lam > 0) & (lam < self.edge)
        if np.any(inside):
            out[inside] = np.clip(self._cdf_u(self._to_u(lam[inside])), 0.0, 1.0)
        out[np.isnan(lam)] = np.nan
        return _out(out, scalar)

    def ppf(self, q):
        r"""Quantile function, the inverse of :meth:`cdf`; ``nan`` outside [0, 1]."""
        p, scalar = _as_array(q)
        out = np.full(p.shape, np.nan)
        out[p == 0] = 0.0
        out[p == 1] = self.edge
        inside = (p > 0) & (p < 1)
        if np.any(inside):
            out[inside] = self._from_u(self._ppf_u(p[inside]))
        return _out(out, scalar)

    def _ppf_u(self, p: np.ndarray) -> np.ndarray:
        """Solve C(u) = p by Newton on log C (p <= 1/2) or log(1 - C) (p > 1/2), kept in a bracket."""
        k = np.clip(np.searchsorted(self._table_c, p, side="right") - 1, 0, self._table_u.size - 2)
        lo, hi = self._table_u[k].copy(), self._table_u[k + 1].copy()
        c_lo, c_hi = self._table_c[k], self._table_c[k + 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            frac = np.where(c_hi > c_lo, (p - c_lo) / (c_hi - c_lo), 0.5)
        u = lo + np.clip(frac, 0.0, 1.0) * (hi - lo)
        lower = p <= 0.5
        for _ in range(60):
            c = self._cdf_u(u)
            g = _cheb.chebval(2.0 * u - 1.0, self._g_coef)
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

    def mean(self) -> float:
        r""":math:`E\lambda = \theta_1`."""
        return self.theta1

    def var(self) -> float:
        r""":math:`\operatorname{Var}\lambda = \theta_1^2 + \theta_2^2` (from the free cumulants)."""
        return (
            self.theta1 * self.theta1 + self.theta2 * self.theta2
        )  # inf, not OverflowError, if huge

    def moment(self, n: int) -> float:
        r"""Exact moment :math:`E[\lambda^n]`.

        The generating function :math:`M(y) = \sum_k E[\lambda^k]\, y^k` solves
        :math:`M = 1 + \sigma^2 y M^2 + \theta_2 y M^3 - \sigma^2\theta_2 y^2 M^4`
        (the quartic with :math:`G = M/z`, :math:`y = z^{-2}`); the power series is found by
        fixed-point iteration.
        """
        n = self._check_order(n)
        s2, t2 = self.theta1 - self.theta2, self.theta2
        m = np.zeros(n + 1)
        m[0] = 1.0
        for _ in range(n):
            m2 = np.convolve(m, m)[: n + 1]
            m3 = np.convolve(m2, m)[: n + 1]
            m4 = np.convolve(m3, m)[: n + 1]
            new = np.zeros(n + 1)
            new[0] = 1.0
            new[1:] += s2 * m2[:n] + t2 * m3[:n]
            new[2:] -= s2 * t2 * m4[: n - 1]
            m = new
        return float(m[n])

    def expect(self, func: Callable[[np.ndarray], np.ndarray]) -> float:
        r""":math:`E[\mathrm{func}(\lambda)]` by Chebyshev (Fejér) quadrature in the smoothing variable u.

        ``func`` is called once with an array of points in :math:`(0, \lambda_+)`. Accurate for
        smooth ``func``; for example ``expect(lambda x: x**2)`` reproduces :meth:`moment` (2).
        """
        u, g = self._nodes_u, self._nodes_g
        vals = np.asarray(func(self._from_u(u)), dtype=float) * g / self.quadrature_mass
        n = u.size
        y = dct(vals, type=2)
        j = np.arange(0, n, 2)
        return float(0.5 / n * (0.5 * y[0] * 2.0 + np.sum(y[j[1:]] * 2.0 / (1.0 - j[1:] ** 2))))


# --------------------------------------------------------------------------------------------
# Marchenko–Pastur, ratio 1
# --------------------------------------------------------------------------------------------


class MarchenkoPastur(_SquaredSingularValueLaw):
    r"""Marchenko–Pastur law of ratio 1: squared singular values of :math:`\sqrt{s}\, W/\sqrt d`.

    For a square :math:`d \times d` matrix :math:`W` of independent :math:`N(0, 1)` entries the
    squared singular values of :math:`\sqrt s\, W/\sqrt d` have, as :math:`d \to \infty`, the density

    .. math::

        q(\lambda) = \frac{\sqrt{\lambda (4s - \lambda)}}{2\pi s \lambda}, \qquad 0 < \lambda < 4s,

    and the distribution function
    :math:`F(\lambda) = \bigl(\psi + \sin\psi\bigr)/\pi` with
    :math:`\psi = 2 \arcsin\sqrt{\lambda/(4s)}`. Moments :math:`E\lambda^k = s^k C_k` (Catalan
    numbers), so the mean is :math:`s` and the variance :math:`s^2`. It is the case
    :math:`\theta_2 = 0` of :class:`GaussianEquivalentLaw`; the Gaussian-equivalence paper
    (arXiv 2510.06685) shows that attention spectra deviate from it.

    Parameters
    ----------
    scale : float
        The scale :math:`s`, finite and > 0; the mean of the law.

    Raises
    ------
    ValueError
        If ``scale`` is not a finite real number > 0.
    """

    def __init__(self, scale: float) -> None:
        scale = _real("scale", scale, "finite and > 0")
        if scale <= 0.0:
            raise InvalidInput(f"scale={scale!r} is out of range: must be finite and > 0")
        self.scale = scale
        self.edge = 4.0 * scale

    def __repr__(self) -> str:
        return f"MarchenkoPastur(scale={self.scale!r})"

    def pdf(self, x):
        r"""Density :math:`\sqrt{\lambda(4s - \lambda)}/(2\pi s\lambda)`, ``inf`` at 0, 0 outside the support."""
        lam, scalar = _as_array(x)
        out = np.zeros(lam.shape)
        inside = (lam > 0) & (lam < self.edge)
        li = lam[inside]
        out[inside] = np.sqrt(li * (self.edge - li)) / (2.0 * np.pi * self.scale * li)
        out[lam == 0] = np.inf
        out[np.isnan(lam)] = np.nan
        return _out(out, scalar)

    def cdf(self, x):
        r""":math:`F(\lambda) = (\psi + \sin\psi)/\pi`, :math:`\psi = 2\arcsin\sqrt{\lambda/(4s)}`."""
        lam, scalar = _as_array(x)
        psi = 2.0 * np.arcsin(np.sqrt(np.clip(lam / self.edge, 0.0, 1.0)))
        out = np.where(lam >= self.edge, 1.0, np.where(lam <= 0, 0.0, (psi + np.sin(psi)) / np.pi))
        out[np.isnan(lam)] = np.nan
        return _out(out, scalar)

    def ppf(self, q):
        r"""Quantile: solves :math:`\psi + \sin\psi = \pi p` by bisection; ``nan`` outside [0, 1]."""
        p, scalar = _as_array(q)
        out = np.full(p.shape, np.nan)
        ok = (p >= 0) & (p <= 1)
        psi = _bisect_increasing(lambda t: t + np.sin(t), np.pi * p[ok], 0.0, np.pi)
        out[ok] = self.edge * np.sin(0.5 * psi) ** 2
        out[p == 0] = 0.0
        out[p == 1] = self.edge
        return _out(out, scalar)

    def mean(self) -> float:
        """Mean :math:`s`."""
        return self.scale

    def var(self) -> float:
        """Variance :math:`s^2`."""
        return self.scale * self.scale

    def moment(self, n: int) -> float:
        r""":math:`E\lambda^n = s^n C_n` with the Catalan number :math:`C_n = \binom{2n}{n}/(n+1)`."""
        n = self._check_order(n)
        return self.scale**n * math.comb(2 * n, n) / (n + 1)

    def expect(self, func: Callable[[np.ndarray], np.ndarray], points: int = 256) -> float:
        r""":math:`E[\mathrm{func}(\lambda)]` by Gauss–Chebyshev quadrature of the second kind.

        With :math:`\lambda = x^2`, x semicircular on :math:`[-2\sqrt s, 2\sqrt s]`; exact for
        polynomials of degree < ``points``.
        """
        k = np.arange(1, points + 1)
        angle = k * np.pi / (points + 1)
        weights = 2.0 / (points + 1) * np.sin(angle) ** 2
        lam = self.edge * np.cos(angle) ** 2
        return float(np.sum(weights * np.asarray(func(lam), dtype=float)))


# --------------------------------------------------------------------------------------------
# the normalizer spread
# --------------------------------------------------------------------------------------------


def normalizer_std(beta, d):
    r"""Predicted standard deviation of the normalizer diagnostic :math:`D_i = Z_i/(d\, e^{\beta^2/2})`.

    .. math::

        \operatorname{std}(D_i) \approx \sqrt{\frac{e^{\beta^2} - 1 + \beta^4/2}{d}},

    0.0471 at :math:`d = 1000`, :math:`\beta = 1` (measured 0.0469). Vectorized over ``beta``
    and ``d``.

    Parameters
    ----------
    beta : float or array_like
        Inverse temperature, finite and >= 0.
    d : float or array_like
        Matrix size :math:`d = \ell = d_{qk}`, finite and > 0.

    Returns
    -------
    float or numpy.ndarray
        The predicted standard deviation.

    Raises
    ------
    ValueError
        If ``beta`` or ``d`` is out of range; the message names it.

    Notes
    -----
    Normalizer concentration of the Gaussian-equivalence paper (arXiv 2510.06685, Sec. 3), with
    its leading fluctuation made explicit. Row i of the scores is
    :math:`S_{ij} = q_i \cdot k_j/\sqrt d`; given :math:`q_i` the :math:`S_{ij}` are independent
    :math:`N(0, r_i)` with :math:`r_i = |q_i|^2/d`. Hence
    :math:`E[e^{\beta S_{ij}} \mid q_i] = e^{\beta^2 r_i/2}` and

    .. math::

        D_i = \frac{1}{d}\sum_j e^{\beta S_{ij} - \beta^2/2}
        = e^{\beta^2 (r_i - 1)/2}\,(1 + \varepsilon_i),

    where :math:`\varepsilon_i` is the relative error of an average of d independent
    log-normals, :math:`\operatorname{Var}\varepsilon_i = (e^{\beta^2 r_i} - 1)/d \approx
    (e^{\beta^2} - 1)/d`, uncorrelated with :math:`r_i`. Since
    :math:`\operatorname{Var} r_i = 2/d`, the first factor contributes
    :math:`(\beta^2/2)^2 \cdot 2/d = \beta^4/(2d)`. The two add to the formula above, up to
    :math:`O(d^{-2})`; it needs :math:`e^{\beta^2} \ll d`.
    """
    b = _real_array("beta", beta, "finite and >= 0")
    if np.any(b < 0):
        raise InvalidInput(f"beta={beta!r} is out of range: must be finite and >= 0")
    dd = _real_array("d", d, "finite and > 0")
    if np.any(dd <= 0):
        raise InvalidInput(f"d={d!r} is out of range: must be finite and > 0")
    with np.errstate(over="ignore"):
        out = np.sqrt((np.expm1(b**2) + 0.5 * b**4) / dd)
    return float(out) if out.ndim == 0 else out


def s1_excess(beta: float, d: int) -> float:
    r"""First-order excess of the top singular value of attention, :math:`s_1(A) - 1`.

    .. math::

        s_1(A) - 1 \approx \frac{e^{\beta^2} - 1 + \beta^4/2}{2d} = \tfrac12 \operatorname{std}(D_i)^2 .

    Derived in this book (chapter *The rank-one mode*): :math:`s_1(A)^2 \ge \lVert A^\top u\rVert^2
    = \frac1d \sum_j c_j^2` with column sums :math:`c_j = \sum_i A_{ij} = 1 + \delta_j`, and to first
    order :math:`\operatorname{Var}\delta_j = (e^{\beta^2} - 1 + \beta^4/2)/d` by the argument of
    :func:`normalizer_std` applied to the keys; the bound is attained to this order.
    """
    return 0.5 * float(normalizer_std(beta, d)) ** 2
