"""The one verdict rule's arithmetic: do two intervals separate, and one verdict from several.

A verdict is True (✓ holds), False (✗ does not hold) or None (○ not resolvable); the claims that
carry them are :class:`attnspec.present.claims.Claim`.
"""

from __future__ import annotations

from collections.abc import Iterable


def interval_below(a: tuple[float, float], b: tuple[float, float]) -> bool | None:
    """Is :math:`[a_0, a_1]` below :math:`[b_0, b_1]`?

    True when :math:`a_1 < b_0`, False when :math:`a_0 > b_1` (they separate either way), None
    (○) when they overlap: overlapping intervals decide nothing.
    """
    if a[1] < b[0]:
        return True
    if a[0] > b[1]:
        return False
    return None


def all_hold(verdicts: Iterable[bool | None]) -> bool | None:
    """One verdict for a claim made of parts: ✗ if a part fails, else ○ if one is open, else ✓."""
    verdicts = list(verdicts)
    if any(v is False for v in verdicts):
        return False
    return None if any(v is None for v in verdicts) else True
