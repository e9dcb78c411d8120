r"""Empirical distribution functions on a grid, for comparing two spectra point by point.

The Kolmogorov distance :math:`\sup_x |F_a(x) - F_b(x)|` is one number; the difference
:math:`F_a(x) - F_b(x)` on a grid shows *where* two bulks differ, and against the same difference
for an independent repetition of the reference, whether the difference exceeds the noise.
"""

from __future__ import annotations

import numpy as np


def ecdf(values: np.ndarray, x: np.ndarray) -> np.ndarray:
    r"""Empirical distribution function :math:`F_n(x) = \#\{v_i \le x\}/n` at the points ``x``."""
    v = np.sort(np.asarray(values, dtype=float).ravel())
    return np.searchsorted(v, np.asarray(x, dtype=float), side="right") / v.size


def cdf_difference(values: np.ndarray, reference: np.ndarray, x: np.ndarray) -> np.ndarray:
    r""":math:`F_{\mathrm{values}}(x) - F_{\mathrm{reference}}(x)` on the grid ``x``."""
    return ecdf(values, x) - ecdf(reference, x)
