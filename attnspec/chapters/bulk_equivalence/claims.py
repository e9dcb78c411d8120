"""The claims of "Bulk equivalence", and the groups of rungs they rank."""

from __future__ import annotations

from ...experiments.noise import resolved_order
from ...models.ladder import MODEL_NAMES, REFERENCE
from ...models.notation import symbol
from ...present.claims import Claim

#: Every rung but the reference.
OTHERS = [n for n in MODEL_NAMES if n != REFERENCE]
#: The rungs that are ranked: all but the reference and :math:`\sqrt d A` (the reference plus a
#: rank-one term).
RUNGS = [n for n in OTHERS if n != "sqrt_d_A"]
LINEAR, NONLINEAR = ["Y_Q_lin", "Y_f_lin"], ["Y", "Y_f", "Y_Q"]
#: The glued word for a :func:`~attnspec.experiments.noise.resolved_order` answer.
ORDER_WORDS = {True: "resolved", False: "reversed", None: "not resolved"}


def chapter_claims(study) -> list[Claim]:
    """The chapter's claims: how far each rung's bulk is from the reference's, against the
    noise floor."""
    distances, floor, ranking, ratio = study.distances, study.floor, study.ranking, study.ratio
    nonlinear_closer = resolved_order(distances["ks"], NONLINEAR, LINEAR, floor.max("ks"))
    seed_l1 = resolved_order(
        distances["l1"],
        ["Y_Q", "Y_f_lin"],
        [n for n in RUNGS if n not in ("Y_Q", "Y_f_lin")],
        floor.max("l1"),
    )
    farther_by = study.farther_by
    farthest_ks_w1 = farther_by["ks"] and farther_by["w1"]
    return [
        Claim(
            "$Y_f^{\\rm lin}$ is the farthest rung (Kolmogorov and Wasserstein-1; "
            "{prf:ref}`the theorem <thm-gaussian-equivalence>` at finite $d$)",
            ", ".join(symbol(ranking[m][-1]) for m in ("ks", "w1")),
            "its KS and W1 exceed every other rung's by more than the noise floor",
            farthest_ks_w1,
            "another rung is farther from the reference on one of these metrics."
            if farthest_ks_w1 is False
            else "the largest distances differ by less than the noise floor.",
            provenance="derived here",
        ),
        Claim(
            "at this $d$, $Y_f^{\\rm lin}$ differs from attention by more than sampling noise "
            "({prf:ref}`the theorem <thm-gaussian-equivalence>` is a limit)",
            f"KS {distances['ks']['Y_f_lin']:#.2g} = {ratio['ks']:.1f} × floor",
            f"> max noise floor {floor.max('ks'):#.2g}",
            bool(distances["ks"]["Y_f_lin"] > floor.max("ks")),
            "the Gaussian equivalent is within the noise floor: these samples cannot tell it "
            "from attention.",
            provenance="derived here",
        ),
        Claim(
            "the nonlinear rungs are closer than the linear ones (KS)",
            f"{max(distances['ks'][n] for n in NONLINEAR):#.2g} vs "
            f"{min(distances['ks'][n] for n in LINEAR):#.2g}",
            "every linear rung's KS exceeds every nonlinear rung's by more than the floor",
            nonlinear_closer,
            "a linear rung is closer to the reference than a nonlinear one."
            if nonlinear_closer is False
            else "the nonlinear and linear rungs differ by less than the noise floor.",
            provenance="derived here",
        ),
        Claim(
            "$Y_Q$ and $Y_f^{\\rm lin}$ are the closest rungs ($L_1$)",
            ", ".join(symbol(n) for n in ranking["l1"][:2]),
            "their L1 below every other rung's by more than the L1 floor",
            seed_l1,
            "by the seed's own metric other rungs are closer, by more than the noise floor."
            if seed_l1 is False
            else f"the L1 distances of the rungs ({min(distances['l1'][n] for n in RUNGS):#.2g}"
            f" to {max(distances['l1'][n] for n in RUNGS):#.2g}) differ by less than the L1 "
            f"noise floor ({floor.max('l1'):#.2g}): these samples cannot rank them.",
            provenance="seed notebook",
        ),
    ]
