r"""The quartic shared by the Gaussian-equivalent laws: its root in :math:`H = 1/G`, and the moment
series.

For a unit law (:math:`\theta_1 = 1`) the inverse Cauchy transform :math:`H = 1/G` of the
symmetrized law solves :math:`H^4 - xH^3 + pH^2 + r x H - q = 0` at a real point x, and the
moment series :math:`M(y) = \sum_k E[\lambda^k] y^k` solves
:math:`M = 1 + a y M^2 + b y M^3 - e y^2 M^4`. The square case
(:class:`~attnspec.laws.gaussian_equivalent.GaussianEquivalentLaw`) has :math:`p = \sigma^2`,
:math:`r = \theta_2`, :math:`q = \sigma^2\theta_2`; a head dimension :math:`d_{qk} = c\,d`
(:class:`~attnspec.laws.head_dimension.HeadDimensionLaw`) has :math:`p = 1 - \theta_2/c`,
:math:`r = \theta_2/c`, :math:`q = \sigma^2\theta_2/c`.
"""

from __future__ import annotations

import numpy as np


def quartic_h(x: np.ndarray, p: float, r: float, q: float) -> np.ndarray:
    r"""The root H of :math:`H^4 - xH^3 + pH^2 + rxH - q = 0` with the largest imaginary part, at
    each real x.

    The roots are the eigenvalues of a batch of 4 x 4 companion matrices, polished by two Newton
    steps, each kept only where it lowers the residual.
    """
    n = x.size
    comp = np.zeros((n, 4, 4))
    comp[:, 0, 0] = x
    comp[:, 0, 1] = -p
    comp[:, 0, 2] = -r * x
    comp[:, 0, 3] = q
    comp[:, 1, 0] = comp[:, 2, 1] = comp[:, 3, 2] = 1.0
    roots = np.linalg.eigvals(comp)
    h = roots[np.arange(n), np.argmax(roots.imag, axis=1)].astype(complex)
    for _ in range(2):
        res = (((h - x) * h + p) * h + r * x) * h - q
        slope = ((4.0 * h - 3.0 * x) * h + 2.0 * p) * h + r * x
        with np.errstate(divide="ignore", invalid="ignore"):
            new = h - np.where(slope != 0, res / slope, 0.0)
        res_new = (((new - x) * new + p) * new + r * x) * new - q
        h = np.where(np.isfinite(new) & (np.abs(res_new) < np.abs(res)), new, h)
    return h


def series_moment(n: int, a: float, b: float, e: float) -> float:
    r"""The coefficient of :math:`y^n` of the power series M solving
    :math:`M = 1 + a y M^2 + b y M^3 - e y^2 M^4`, by fixed-point iteration."""
    m = np.zeros(n + 1)
    m[0] = 1.0
    for _ in range(n):
        m2 = np.convolve(m, m)[: n + 1]
        m3 = np.convolve(m2, m)[: n + 1]
        m4 = np.convolve(m3, m)[: n + 1]
        new = np.zeros(n + 1)
        new[0] = 1.0
        new[1:] += a * m2[:n] + b * m3[:n]
        new[2:] -= e * m4[: n - 1]
        m = new
    return float(m[n])
