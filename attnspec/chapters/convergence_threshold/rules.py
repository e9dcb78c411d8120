"""The convergence-threshold chapter's own rules between its parameters (:data:`RULES`),
checked with their ranges before any kernel starts."""

from __future__ import annotations

from ..rules import LAW_BETA, LAW_BETAS

#: The rules of this chapter, checked with its declared parameters.
RULES = (
    LAW_BETA,
    LAW_BETAS,
)
