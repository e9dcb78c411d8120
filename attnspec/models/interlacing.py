r"""Interlacing of singular values under a rank-one change, a check on the ladder's rank-one steps.

If :math:`R` has rank one, :math:`s_{i+1}(M) \le s_i(M + R) \le s_{i-1}(M)` for every :math:`i`
(Weyl's inequalities for singular values). Removing the uniform mode
(:math:`\sqrt d A \to \sqrt d A_\perp`) and centring (:math:`Y \to Y_f`) are such steps.
"""

from __future__ import annotations

import numpy as np

from ..core.errors import InvalidInput


def rank_one_interlacing_violation(s2_before: np.ndarray, s2_after: np.ndarray) -> float:
    r"""Largest violation of :math:`s_{i+1}(M) \le s_i(M + R) \le s_{i-1}(M)`, over rows (trials).

    Parameters
    ----------
    s2_before, s2_after : numpy.ndarray
        Squared singular values of :math:`M` and :math:`M + R`, shape ``(trials, d)``, rows
        descending.

    Returns
    -------
    float
        :math:`\max(0, \max_i [s_i(M+R) - s_{i-1}(M)], \max_i [s_{i+1}(M) - s_i(M+R)])`: zero in
        exact arithmetic, round-off in floating point.
    """
    a, b = np.atleast_2d(s2_before), np.atleast_2d(s2_after)
    if a.shape != b.shape or a.shape[1] < 2:
        raise InvalidInput(
            f"s2_before, s2_after have shapes {a.shape}, {b.shape}: "
            "must be equal, with >= 2 columns"
        )
    M, MR = np.sqrt(np.maximum(a, 0.0)), np.sqrt(np.maximum(b, 0.0))
    upper = np.max(MR[:, 1:] - M[:, :-1])
    lower = np.max(M[:, 1:] - MR[:, :-1])
    return float(max(upper, lower, 0.0))
