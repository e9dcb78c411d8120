"""The real-spectra chapter's own rules between its parameters (:data:`RULES`),
checked with their ranges before any kernel starts."""

from __future__ import annotations

from ...core.config import Rule

#: Head dimension of the bidirectional model (MiniLM): the stable-rank limit
#: :math:`(k + 1 - c)/\alpha_+^2` needs :math:`k \le \ell`, at the longest length.
BIDIRECTIONAL_HEAD_DIM = 32
LONGEST_FITS_HEAD = Rule(
    ("lengths",),
    "lengths",
    lambda v: max(v["lengths"]) >= BIDIRECTIONAL_HEAD_DIM,
    lambda v: (
        f"lengths={v['lengths']} is out of range for this chapter: the longest must be >= "
        f"{BIDIRECTIONAL_HEAD_DIM}, the encoder's head dimension k (its stable-rank limit needs "
        "k <= n)"
    ),
)

#: The rules of this chapter, checked with its declared parameters.
RULES = (LONGEST_FITS_HEAD,)
