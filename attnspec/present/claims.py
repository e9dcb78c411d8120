"""A checked claim and its three verdicts: the one record every layer reports a finding in.

The verdicts: ✓ holds, ✗ does not hold, ○ not resolvable (the data cannot decide it, or its
criterion is a convention). A test without power says so in ``if_fails``, with the smallest
deviation it could detect. Tables of claims are :func:`attnspec.present.tables.claims_markdown`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

#: The verdict of a claim by its ``holds``: True ✓ holds, False ✗ does not hold, None ○ not
#: resolvable (the data cannot decide it, or its criterion is a convention).
VERDICTS = {True: "✓", False: "✗", None: "○"}


def verdict(holds: bool | None) -> str:
    """✓, ✗ or ○ for ``holds`` True, False or None (:data:`VERDICTS`)."""
    return VERDICTS[None if holds is None else bool(holds)]


def counts_sentence(held: int, unresolved: int, total: int, where: str = "") -> str:
    """All three counts, always: ``H of N claims hold{where}, F do not hold and U cannot be resolved
    by the data`` (F = N − H − U)."""
    failed = total - held - unresolved
    return (
        f"{held} of {total} claims hold{where}, {failed} do not hold and {unresolved} cannot be "
        "resolved by the data"
    )


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

    def as_dict(self) -> dict[str, Any]:
        """The claim's fields as JSON, ``holds`` as True, False or None."""
        return asdict(self) | {"holds": None if self.holds is None else bool(self.holds)}
