"""The claims of "The limit law"."""

from __future__ import annotations

from ...experiments.limit_law import DOUBLE_ROOT_ACCURACY
from ...experiments.noise import ks_noise
from ...experiments.score_dependence import ScoreDependence
from ...laws.r_transform import edge_from_r_transform
from ...models.ladder import MODEL_NAMES, REFERENCE
from ...numerics.intervals import all_hold, interval_below
from ...present.claims import Claim
from ...present.formatting import round_off_bound

#: Where a claim about the law comes from.
PW = "Pennington and Worah (2017): the law of the linear model"
ABSTRACT_MP = "paper, abstract (deviation from Marchenko–Pastur)"


def chapter_claims(study) -> list[Claim]:
    """The chapter's claims: the law's two forms agree, its edge and mean check out, every rung's
    bulk is nearer it than Marchenko–Pastur, and the score models (:func:`score_claim`)."""
    law, dist, forms, mean_quad = study.laws["f"], study.distances, study.forms, study.mean_quad
    edge_direct = edge_from_r_transform(law.theta1, law.theta2)
    noise = ks_noise(dist.values, study.config.d, study.config.remove_top_k)
    ks_ref, ks_mp = dist.ks["f"][REFERENCE], dist.ks["mp"][REFERENCE]
    mp_farther = [n for n in MODEL_NAMES if dist.ks["mp"][n] > dist.at_target(n)]
    return [
        Claim(
            "Pennington and Worah's form of the density equals the quartic's",
            f"largest relative difference {forms.max_rel:.0e} ({forms.points} points in "
            f"$(0, \\lambda_+)$ at each of {len(forms.betas)} values of $\\beta$)",
            f"< $\\sqrt{{\\varepsilon}}$ = {DOUBLE_ROOT_ACCURACY:.1e}, the accuracy of a root "
            "where two roots meet (the edge)",
            bool(forms.max_rel < DOUBLE_ROOT_ACCURACY),
            "the two forms of the law disagree beyond round-off: one of them is computed wrongly.",
            PW,
        ),
        Claim(
            r"$\lambda_+$ from the quartic equals the squared minimum of $K(G)$",
            f"{law.edge:.4f} by both; relative difference "
            + round_off_bound(abs(law.edge - edge_direct) / law.edge, 1e-8),
            "relative difference < 1e-8",
            bool(abs(law.edge - edge_direct) < 1e-8 * law.edge),
            "the edge of the implemented law does not match the R-transform's minimum.",
            "sanity check",
        ),
        Claim(
            r"the law's mean is $\theta_1$",
            f"{mean_quad:.8f} vs {law.theta1:.8f}",
            "relative difference < 1e-8",
            bool(abs(mean_quad - law.theta1) < 1e-8 * law.theta1),
            "the density does not integrate to the mean θ₁: a numerical failure of the quadrature.",
            "sanity check",
        ),
        Claim(
            r"the linear model $Y_f^{\rm lin}$ follows its own law",
            f"$D_{{\\rm KS}}$ {dist.ks['f']['Y_f_lin']:.4f}",
            f"< {noise:.4f}, the 95 % Kolmogorov level of as many independent values",
            bool(dist.ks["f"]["Y_f_lin"] < noise),
            "even the linear model is farther from its limit than sampling noise.",
            PW,
        ),
        Claim(
            r"the bulk of $\sqrt d\,A_\perp$ is closer to the exact law than to Marchenko–Pastur",
            f"$D_{{\\rm KS}}$ {ks_ref:.4f} vs {ks_mp:.4f}",
            "exact law < Marchenko–Pastur",
            bool(ks_ref < ks_mp),
            "at these parameters √d A⊥ follows neither law better (d too small or β too large).",
            ABSTRACT_MP,
        ),
        Claim(
            "Marchenko–Pastur is farther than the exact law, for every rung",
            f"{len(mp_farther)} of {len(MODEL_NAMES)} rungs",
            "all rungs",
            bool(len(mp_farther) == len(MODEL_NAMES)),
            "for some rung Marchenko–Pastur is as close as the exact law: either the two laws are "
            "close (small θ₂/θ₁, large β) and the finite-d error dominates, or that rung follows "
            "neither law.",
            ABSTRACT_MP,
        ),
        Claim(
            r"$Y_Q^{\rm lin}$ is closer to the $\theta^Q$ law than to the $\theta^f$ law",
            f"{dist.ks['q']['Y_Q_lin']:.4f} vs {dist.ks['f']['Y_Q_lin']:.4f}",
            r"$D_{\rm KS}$ to $\theta^Q$ < to $\theta^f$",
            bool(dist.ks["q"]["Y_Q_lin"] < dist.ks["f"]["Y_Q_lin"]),
            "the gap between the $\\theta^Q$ and $\\theta^f$ laws is below the finite-$d$ noise "
            "here (large $n_d$ or "
            "small β).",
            "this book",
        ),
        score_claim(study.scores),
    ]


def score_claim(dep: ScoreDependence) -> Claim:
    """Same marginals, different law: each score model is nearer its own law, each distance
    ± its model's noise floor, by the one verdict rule."""
    iid, bil = dep.ks["iid"], dep.ks["bilinear"]
    return Claim(
        "i.i.d. scores give Marchenko–Pastur, bilinear scores Pennington and Worah's law: each "
        "bulk is nearer its own law than the other",
        f"i.i.d.: $D_{{\\rm KS}}$ {iid['mp']:.4f} (MP) vs {iid['pw']:.4f} (PW), floor "
        f"{dep.floor['iid']:.4f}; bilinear: {bil['pw']:.4f} (PW) vs {bil['mp']:.4f} (MP), floor "
        f"{dep.floor['bilinear']:.4f}",
        "both pairs of intervals (distance ± the model's floor: the distance between the bulks "
        "of the two halves of its trials) separate",
        all_hold(
            [
                interval_below(dep.interval("iid", "mp"), dep.interval("iid", "pw")),
                interval_below(dep.interval("bilinear", "pw"), dep.interval("bilinear", "mp")),
            ]
        ),
        "the intervals overlap or reverse: the two laws are too close for this d and these trials "
        "(large β, where θ₂/θ₁ → 0), or a model follows neither law.",
        f"this book; {ABSTRACT_MP}",
    )
