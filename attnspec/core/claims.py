"""A checked claim and its three verdicts: the one record every layer reports a finding in.

The verdicts: ✓ holds, ✗ does not hold, ○ not resolvable (the data cannot decide it, or its
criterion is a convention). A test without power says so in ``if_fails``, with the smallest
deviation it could detect. Tables of claims are :func:`attnspec.publish.report.claims_markdown`.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The verdict of a claim by its ``holds``: True ✓ holds, False ✗ does not hold, None ○ not
#: resolvable (the data cannot decide it, or its criterion is a convention).
VERDICTS = {True: "✓", False: "✗", None: "○"}


def verdict(holds: bool | None) -> str:
    """✓, ✗ or ○ for ``holds`` True, False or None (:data:`VERDICTS`)."""
    return VERDICTS[None if holds is None else bool(holds)]


@dataclass(frozen=True)
class Claim:
    """One checked claim: what is claimed, the measured value (formatted), the criterion, the
    verdict (``holds``: True, False, or None when the data cannot resolve it)."""

    claim: str
    measured: str
    criterion: str
    holds: bool | None
    #: One sentence shown below the table when the claim does not hold, or why it is not resolvable.
    if_fails: str = ""
    #: Where the claim comes from: the paper (its section only where the source gives it), the seed
    #: notebook, this book, or a sanity check.
    provenance: str = ""
