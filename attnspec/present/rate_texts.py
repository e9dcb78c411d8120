"""How a scaling claim's test is printed: the fitted exponent and the criterion column.

The mathematics is :class:`attnspec.canonical.rates.RateTest`; this module only writes it down.
"""

from __future__ import annotations

import math

from attnspec.canonical.rates import RateTest
from attnspec.present.formatting import plus_minus


def fitted_exponent(test: RateTest, digits: int = 3) -> str:
    """The fitted exponent ``b ± se`` with ``digits`` decimals (:func:`plus_minus`)."""
    return plus_minus(test.exponent, test.se, digits)


def criterion_text(test: RateTest, claimed_label: str, variable: str) -> str:
    """The criterion column of a claim tested by ``test``: what is fitted, against what."""
    if test.kind == "zero":
        return f"exponent against {variable} below 0 by more than 2 se"
    found = test.decision()
    mine = test.candidates[test.claimed]
    others = ", ".join(f"{k} {v:.3f}" for k, v in test.candidates.items() if k != test.claimed)
    if test.kind == "theta":
        return (
            f"exponent against {variable} nearer to {claimed_label} ({mine:.3f}) than to "
            f"{others} (exponents on this grid)"
        )
    side = "below" if test.kind == "O" else "above"
    boundary = test.exponent + (found[0] if test.kind == "O" else -found[0]) if found else math.nan
    return (
        f"exponent against {variable} {side} {boundary:.3f}, midway between {claimed_label} "
        f"({mine:.3f}) and {others} (exponents on this grid)"
    )
