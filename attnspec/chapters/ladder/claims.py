"""The ladder's claims, and how a step and an interlacing violation are named."""

from __future__ import annotations

from ...models.notation import symbol
from ...present.claims import Claim

#: The linearization step, the one the theory is about.
LIN_STEP = ("Y_Q", "Y_Q_lin")


def step_label(step: tuple[str, str]) -> str:
    """A step as ``before → after`` in the rungs' symbols."""
    return f"{symbol(step[0])} → {symbol(step[1])}"


def violation_text(violation: float) -> str:
    """An interlacing violation: ``≤ 1e-8`` (round-off), else its value."""
    return "≤ 1e-8" if violation <= 1e-8 else f"{violation:.1e}"


def chapter_claims(study) -> list[Claim]:
    """The ladder's claims: the two rank-one steps interlace, and linearization moves the bulk
    beyond the noise floor, more than any other step."""
    ks_lin, floor_max = study.step_ks[LIN_STEP], study.floor.max("ks")
    largest_is_lin = study.largest_is_lin
    rank_one_steps = {
        "removing the uniform mode": study.viol_A,
        "$Y_f = Y - \\mathbf 1\\mathbf 1^\\top/\\sqrt d$": study.viol_Y,
    }
    return [
        *(
            Claim(
                f"{step} is a rank-one step",
                violation_text(violation),
                "interlacing violated by ≤ 1e-8 (round-off)",
                bool(violation <= 1e-8),
                "the singular values do not interlace: a numerical failure.",
                provenance="sanity check",
            )
            for step, violation in rank_one_steps.items()
        ),
        Claim(
            "linearization $Y_Q \\to Y_Q^{\\rm lin}$ changes the bulk by more than sampling noise",
            f"KS {ks_lin:#.2g}",
            f"> max noise floor {floor_max:#.2g}",
            bool(ks_lin > floor_max),
            "at these parameters the linearization step is within sampling noise.",
            provenance="derived here",
        ),
        Claim(
            "the linearization step is the largest",
            step_label(study.largest_step),
            "its KS exceeds every other step's by more than the noise floor",
            largest_is_lin,
            "another step moves the bulk more than linearization."
            if largest_is_lin is False
            else "the largest steps differ by less than the noise floor: these samples cannot "
            "rank them.",
            provenance="derived here",
        ),
    ]
