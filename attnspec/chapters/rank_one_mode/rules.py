"""The rank-one-mode chapter's own rules between its parameters (:data:`RULES`),
checked with their ranges before any kernel starts."""

from __future__ import annotations

from ...core.config import Rule
from ..rules import LAW_BETA

#: The scan of s1(A) - 1 across d has a standard error: two trials at least.
SCAN_TRIALS = Rule(
    ("trials",),
    "trials",
    lambda v: v["trials"] >= 2,
    lambda v: (
        f"trials={v['trials']} is out of range for this chapter: must be >= 2 and <= "
        "10000 (the scan across d needs a standard error)"
    ),
    bound=">= 2 and <= 10000",
)

#: The rules of this chapter, checked with its declared parameters.
RULES = (
    LAW_BETA,
    SCAN_TRIALS,
)
