"""What several chapters share: the theorem they test and the way they print a measured value with
its error."""

from __future__ import annotations

from ..present.numbers import ONE_OR_TWO, format_uncertain

#: The statement of the paper that the convergence and threshold chapters test.
THEOREM = "paper, abstract (Gaussian equivalence at constant-order β)"


def uncertain_text(value, se, fallback: int = 4) -> str:
    """``value ± se`` with one or two significant digits of ``se`` (``fallback`` decimals without
    it), as the convergence and threshold chapters print a distance or a rate."""
    return format_uncertain(value, se, ONE_OR_TWO, fallback=fallback)
