r"""The right edge of a squared-singular-value law at finite :math:`d`: its square-root constant and
the scale of the largest eigenvalue's fluctuations.

Near a soft right edge :math:`\lambda_+` the density vanishes like a square root,
:math:`q(\lambda) \approx a \sqrt{\lambda_+ - \lambda}`. Of :math:`d` values, the expected number
above :math:`\lambda_+ - \varepsilon` is :math:`d \int_0^\varepsilon a\sqrt t\,dt = \tfrac23 a d
\varepsilon^{3/2}`; it equals one at

.. math:: \varepsilon_d = \Bigl(\frac{3}{2 a d}\Bigr)^{2/3} \propto d^{-2/3},

the spacing of the largest values. For Wigner and Wishart matrices the largest eigenvalue, centred
at the edge and scaled by a constant times :math:`d^{-2/3}`, has the Tracy–Widom limit law (Tracy
& Widom 1994 for the Gaussian unitary ensemble; later work extends it); for the models of this
book that scale is used by analogy, not as a theorem. A top value a fraction of
:math:`\varepsilon_d` above :math:`\lambda_+` is then read as an edge fluctuation, not an outlier.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import validate
from ..numerics.fitting import slope_fit


@dataclass(frozen=True)
class EdgeScale:
    r"""The edge :math:`\lambda_+`, the square-root constant :math:`a` and :math:`\varepsilon_d`."""

    edge: float
    sqrt_constant: float
    d: int
    spacing: float

    def in_spacings(self, values) -> np.ndarray:
        r""":math:`(x - \lambda_+)/\varepsilon_d`: how far ``values`` lie beyond the edge.

        In units of the edge spacing :math:`\varepsilon_d`.
        """
        return (np.asarray(values, dtype=float) - self.edge) / self.spacing


def edge_scale(law, d: int, rel_offsets=(1e-3, 2e-3, 4e-3)) -> EdgeScale:
    r"""The edge scale of ``law`` (any object with ``pdf`` and ``support()``) for ``d`` values.

    :math:`a` is extrapolated to the edge from :math:`q(\lambda_+ - \delta)/\sqrt\delta` at the
    offsets :math:`\delta = \lambda_+ \cdot` ``rel_offsets`` (linear in :math:`\delta`, so the
    next term of the expansion, of order :math:`\delta`, drops out).
    """
    d = validate.integer("d", d, 1)
    edge = float(law.support()[1])
    delta = edge * np.asarray(rel_offsets, dtype=float)
    ratios = np.asarray(law.pdf(edge - delta), dtype=float) / np.sqrt(delta)
    a = slope_fit(delta, ratios).intercept
    return EdgeScale(edge, a, d, float((3.0 / (2.0 * a * d)) ** (2.0 / 3.0)))
