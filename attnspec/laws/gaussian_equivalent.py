r"""The Gaussian-equivalent limit law: the quartic for its Cauchy transform, its edge and moments.

The large-d law of the squared singular values of the linear Gaussian-equivalent model. It is
Pennington and Worah's limiting law of nonlinear random-matrix theory ("Nonlinear random matrix
theory for deep learning", NeurIPS 2017) at :math:`\phi = \psi = 1`, :math:`\eta = \theta_1`,
:math:`\zeta = \theta_2` (their form: :mod:`attnspec.laws.pennington_worah`); Péché (2019) shows
that it is the limit law of the linear model, Benigni and Péché (2021) extend it to sub-Gaussian
entries and real-analytic nonlinearities. This module computes it from a quartic that this book
re-derives independently by free probability; the ``scipy.stats``-like interface comes from
:class:`~attnspec.laws.base.SquaredSingularValueLaw`. What the Gaussian-equivalence paper (arXiv
2510.06685) adds is that softmax attention, which is not an entrywise map, has this law.
"""

from __future__ import annotations

import math

import numpy as np

from ..core import validate
from ..core.errors import InvalidInput
from ..models.nonlinearity import theta_f, theta_q
from ..numerics.smooth_cdf import bisect_root, smap, smap_derivative
from .base import SquaredSingularValueLaw, positive_real
from .quartic import quartic_h, series_moment

#: largest :math:`\theta_1`: the variance :math:`\theta_1^2 + \theta_2^2` of the law is then a
#: finite float
THETA1_MAX = math.sqrt(np.finfo(float).max / 2)
#: largest :math:`\beta` whose :math:`\theta_1 = e^{\beta^2} - 1` is at most :data:`THETA1_MAX`
#: (about 18.82)
BETA_MAX_F = math.sqrt(math.log1p(THETA1_MAX))


class GaussianEquivalentLaw(SquaredSingularValueLaw):
    r"""Limit law of the squared singular values of the linear Gaussian-equivalent model.

    The linear model of the Gaussian-equivalence paper (arXiv 2510.06685) is

    .. math::

        Y = \sqrt{\theta_2}\,\frac{S}{\sqrt d} + \sqrt{\theta_1 - \theta_2}\,\frac{W}{\sqrt d},
        \qquad S = \frac{W_Q W_K^\top}{\sqrt d},

    with :math:`W_Q, W_K, W` square :math:`d \times d` matrices of independent :math:`N(0, 1)`
    entries. As :math:`d \to \infty` the empirical law of the squared singular values of :math:`Y`
    converges to the law implemented here: Pennington and Worah's law at :math:`\phi = \psi = 1`
    (in their notation this model is :math:`\sqrt\zeta\, WX/\sqrt{n_0} + \sqrt{\eta - \zeta}\, Z`,
    with :math:`\eta = \theta_1`, :math:`\zeta = \theta_2`). At :math:`\beta = 1`
    (:math:`\theta_1 = e - 1`, :math:`\theta_2 = 1`) its support ends at
    :math:`\lambda_+ = 9.00954`, so the law's largest singular value is
    :math:`\sqrt{\lambda_+} = 3.0016` (a property of the limit law, not a measured norm), whereas
    Marchenko–Pastur with the same mean ends at :math:`4\theta_1 = 6.873`: the deviation from
    Marchenko–Pastur that the paper's abstract announces.

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
    attnspec.laws.marchenko_pastur.MarchenkoPastur : the case :math:`\theta_2 = 0`, with scale
    :math:`\theta_1`.

    Notes
    -----
    **Derivation** (this book's, an independent re-derivation of Pennington and Worah's law; the
    two forms agree to 1e-10, see :func:`attnspec.laws.pennington_worah.pennington_worah_pdf`).
    Write :math:`\sigma^2 = \theta_1 - \theta_2` and
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
    :math:`M = 1 + \sigma^2 y M^2 + \theta_2 y M^3 - \sigma^2 \theta_2 y^2 M^4`
    (see :meth:`moment`).

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
    exactly (:class:`~attnspec.numerics.smooth_cdf.SmoothCDF`), gives the cdf to about the size of
    its last coefficients, :attr:`quadrature_tail`. The cdf is exactly 0 at 0 and 1 at
    :math:`\lambda_+`.
    """

    def __init__(self, theta1: float, theta2: float) -> None:
        self.theta1 = positive_real("theta1", theta1, THETA1_MAX)
        self.theta2 = validate.real("theta2", theta2, 0.0, self.theta1)
        # unit law: theta1 = 1, theta2 = r, sigma^2 = s2
        self._r = self.theta2 / self.theta1
        self._s2 = (self.theta1 - self.theta2) / self.theta1
        self._xp = self._unit_norm()
        self.edge = self.theta1 * self._xp**2
        super().__init__()

    # ---- constructors ----------------------------------------------------------------------

    @classmethod
    def for_f(cls, beta: float) -> GaussianEquivalentLaw:
        r"""The law for :math:`f(x) = e^{\beta x - \beta^2/2} - 1`.

        Its statistics are :math:`\theta = (e^{\beta^2} - 1, \beta^2)`.

        Parameters
        ----------
        beta : float
            Inverse temperature, > 0 and at most :data:`BETA_MAX_F` (about 18.82; beyond it
            :math:`\theta_1^2` overflows).
        """
        beta = positive_real("beta", beta, BETA_MAX_F)
        return cls(*theta_f(beta))

    @classmethod
    def for_q(cls, beta: float, n: int) -> GaussianEquivalentLaw:
        r"""The law for the Taylor nonlinearity :math:`Q_n`.

        Its statistics are the exact :math:`\theta^Q` of
        :func:`~attnspec.models.nonlinearity.theta_q`.

        Parameters
        ----------
        beta : float
            Inverse temperature, > 0.
        n : int
            Number of Taylor terms, >= 2.
        """
        beta = positive_real("beta", beta)
        n = validate.integer("n", n, 2)
        try:
            theta = theta_q(beta, n)
        except OverflowError:
            raise InvalidInput(
                f"beta={beta!r} is out of range for n={n}: theta^Q overflows"
            ) from None
        return cls(*theta)

    def __repr__(self) -> str:
        return f"GaussianEquivalentLaw(theta1={self.theta1!r}, theta2={self.theta2!r})"

    # ---- the quartic -----------------------------------------------------------------------

    def _unit_norm(self) -> float:
        r"""Operator norm :math:`\sqrt{\lambda_+}` of the unit law: the minimum of K on
        :math:`(0, r^{-1/2})`."""
        r, s2 = self._r, self._s2
        if r == 0.0:
            return 2.0
        if s2 == 0.0:
            return 1.5 * math.sqrt(3.0 / r)

        def p(w: float) -> float:
            return -((1.0 - r * w) ** 2) + s2 * w * (1.0 - r * w) ** 2 + r * w * (1.0 + r * w)

        upper = min(1.0 / r, 1.0 / s2)
        w = bisect_root(p, 0.0, upper)
        g = math.sqrt(w)
        return 1.0 / g + s2 * g + r * g / (1.0 - r * w)

    def _unit_h(self, x: np.ndarray) -> np.ndarray:
        """Root :math:`H = 1/G` (Im H >= 0) of the unit quartic at real points 0 < x < x_+."""
        return quartic_h(x, self._s2, self._r, self._s2 * self._r)

    def _unit_rho(self, x: np.ndarray) -> np.ndarray:
        r"""Symmetrized density at 0 < x < x_+,
        :math:`\rho(x) = -\operatorname{Im} G/\pi = \operatorname{Im} H/(\pi|H|^2)`."""
        h = self._unit_h(x)
        return np.maximum(h.imag, 0.0) / (np.pi * np.abs(h) ** 2)

    # ---- hooks of SquaredSingularValueLaw ---------------------------------------------------

    def _pdf(self, lam: np.ndarray) -> np.ndarray:
        r""":math:`q(\lambda) = -\operatorname{Im} G(\sqrt\lambda + i0)/(\pi\sqrt\lambda)`."""
        xs = np.sqrt(lam / self.theta1)
        return self._unit_rho(xs) / xs / self.theta1

    def _cdf_integrand(self, u: np.ndarray) -> np.ndarray:
        r"""Density of u, :math:`2\rho(x_+ s(u))\, x_+ s'(u)` (the Jacobian simplified)."""
        return 2.0 * self._unit_rho(self._xp * smap(u)) * self._xp * smap_derivative(u)

    def _stats(self):
        r"""Mean :math:`\theta_1` and variance :math:`\theta_1^2 + \theta_2^2` (from the free
        cumulants; ``inf``, not OverflowError, if the parameters are huge)."""
        return self.theta1, self.theta1 * self.theta1 + self.theta2 * self.theta2, None, None

    def _munp(self, n: int) -> float:
        r"""Exact moment :math:`E[\lambda^n]`.

        The generating function :math:`M(y) = \sum_k E[\lambda^k]\, y^k` solves
        :math:`M = 1 + \sigma^2 y M^2 + \theta_2 y M^3 - \sigma^2\theta_2 y^2 M^4`
        (the quartic with :math:`G = M/z`, :math:`y = z^{-2}`); the power series is found by
        fixed-point iteration.
        """
        s2, t2 = self.theta1 - self.theta2, self.theta2
        return series_moment(n, s2, t2, s2 * t2)
