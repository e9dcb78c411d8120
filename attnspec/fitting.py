"""Power-law fits with their uncertainty, for rates of convergence."""

from __future__ import annotations

import numpy as np


def power_law_fit(x, y) -> tuple[float, float, float]:
    r"""Least-squares fit of :math:`\log y = a + b \log x`; returns ``(b, a, se_b)``.

    ``se_b`` is the standard error of the slope from the residuals,
    :math:`\mathrm{se}(b) = \sqrt{\frac{\sum r_i^2/(n-2)}{\sum (\log x_i - \overline{\log x})^2}}`
    (0 with only two points).
    """
    lx, ly = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    (b, a), residuals, *_ = np.polyfit(lx, ly, 1, full=True)
    n = lx.size
    ss = float(residuals[0]) if residuals.size else 0.0
    se = float(np.sqrt(ss / (n - 2) / np.sum((lx - lx.mean()) ** 2))) if n > 2 else 0.0
    return float(b), float(a), se
