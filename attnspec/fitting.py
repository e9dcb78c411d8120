"""Power-law fits with their uncertainty, for rates of convergence."""

from __future__ import annotations

import math
from dataclasses import dataclass

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


@dataclass(frozen=True)
class LineFit:
    """Least-squares line :math:`y = a + b x`: slope b, intercept a, largest absolute residual."""

    slope: float
    intercept: float
    max_residual: float


def line_fit(x, y) -> LineFit:
    r"""Least-squares line :math:`y = a + b x`; NaN fields with fewer than two distinct x."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if np.unique(x).size < 2:
        return LineFit(math.nan, math.nan, math.nan)
    b, a = np.polyfit(x, y, 1)
    return LineFit(float(b), float(a), float(np.max(np.abs(y - (a + b * x)))))
