r"""Chapter "The limit law": the law of :math:`\mathcal G_\theta`, whose Cauchy transform solves
:math:`(z - (\theta_1 - \theta_2)\,G)\,G\,(1 - \theta_2 G^2) = 1`, against Pennington and Worah's
form, moved with :math:`\beta`, and every rung's bulk against it and against Marchenko–Pastur."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import optimize

from ..experiments import limit_law as ll
from ..experiments.convergence import trials_for_pooled
from ..experiments.limit_law import (
    DOUBLE_ROOT_ACCURACY,
    FormsAgreement,
    LawDistances,
    ScoreDependence,
)
from ..experiments.trials import run_ladder
from ..models.ladder import MODEL_NAMES, REFERENCE
from ..models.notation import symbol
from ..numerics.intervals import all_hold, interval_below
from ..present import interactive, plotting
from ..present.claims import Claim
from ..present.numbers import round_off_bound
from ..present.tables import markdown_table
from .base import ChapterStudy

#: Where a claim about the law comes from.
PW = "Pennington and Worah (2017): the law of the linear model"
ABSTRACT_MP = "paper, abstract (deviation from Marchenko–Pastur)"
LAW_NAMES = {"f": r"$\theta^f$ law", "q": r"$\theta^Q$ law", "mp": "Marchenko–Pastur"}


def laws_table(laws: dict, poly_degree: int) -> str:
    r"""The three laws: :math:`\theta_1`, :math:`\theta_2`, edge, its square root and variance."""
    names = {
        "f": r"exact, $\theta^f$",
        "q": rf"exact, $\theta^Q$ ($n_d$ = {poly_degree})",
        "mp": r"Marchenko–Pastur, mean $\theta_1$",
    }
    rows = []
    for key, law in laws.items():
        theta2 = getattr(law, "theta2", 0.0)
        rows.append(
            [
                names[key],
                f"{law.mean():.6f}",
                f"{theta2:.6f}",
                f"{law.edge:.5f}",
                f"{math.sqrt(law.edge):.5f}",
                f"{law.var():.6f}",
            ]
        )
    header = [
        "law",
        r"$\theta_1$",
        r"$\theta_2$",
        r"$\lambda_+$",
        r"$\sqrt{\lambda_+}$",
        "variance",
    ]
    return markdown_table(header, rows)


def edge_from_r_transform(theta1: float, theta2: float) -> float:
    r""":math:`\lambda_+ = (\min_{0 < G < \theta_2^{-1/2}} K(G))^2` with
    :math:`K(G) = 1/G + (\theta_1 - \theta_2)G + \theta_2 G/(1 - \theta_2 G^2)`: a route to the
    edge that does not go through the quartic's roots."""
    g_max = 1 / math.sqrt(theta2)
    found = optimize.minimize_scalar(
        lambda g: 1 / g + (theta1 - theta2) * g + theta2 * g / (1 - theta2 * g**2),
        bounds=(1e-9 * g_max, (1 - 1e-12) * g_max),
        method="bounded",
        options={"xatol": 1e-12},
    )
    return float(found.fun) ** 2


def law_values(laws: dict, poly_degree: int, beta: float, forms: FormsAgreement) -> dict:
    """Glue values of the laws and of the agreement of the two forms (prefix ``law``)."""
    law, law_q, mp = laws["f"], laws["q"], laws["mp"]
    return {
        "beta": float(beta),
        "theta1": round(law.theta1, 6),
        "theta2": round(law.theta2, 6),
        "edge": round(law.edge, 5),
        "norm": round(math.sqrt(law.edge), 4),
        "mp_edge": round(mp.edge, 4),
        "edge_ratio": round(law.edge / mp.edge, 4),
        "var": round(law.var(), 4),
        "mp_var": round(mp.var(), 4),
        "q_edge": round(law_q.edge, 5),
        "poly_degree": int(poly_degree),
        "forms_rel": f"{forms.max_rel:.0e}",
        "forms_bound": f"{DOUBLE_ROOT_ACCURACY:.1e}",
        "forms_points": forms.points,
        "forms_betas": len(forms.betas),
    }


def distances_table(dist: LawDistances) -> str:
    r"""Every rung's Kolmogorov distance to the three laws, its finite-d law marked, and the laws
    themselves against the :math:`\theta^f` law."""
    rows = []
    for n in MODEL_NAMES:
        target = "q" if n in ("Y_Q", "Y_Q_lin") else "f"
        cells = [
            f"**{dist.ks[k][n]:.4f}**" if k == target else f"{dist.ks[k][n]:.4f}"
            for k in ("f", "q", "mp")
        ]
        rows.append([symbol(n), *cells])
    rows.append([r"*$\theta^Q$ law itself*", f"{dist.ks_laws['q']:.4f}", "0", ""])
    rows.append(["*Marchenko–Pastur itself*", f"{dist.ks_laws['mp']:.4f}", "", "0"])
    header = ["rung"] + [rf"$D_{{\rm KS}}$, {LAW_NAMES[k]}" for k in ("f", "q", "mp")]
    return markdown_table(header, rows)


def w1_table(dist: LawDistances) -> str:
    """The same comparison in the Wasserstein-1 distance."""
    rows = [[symbol(n), *(f"{dist.w1[k][n]:.4f}" for k in ("f", "q", "mp"))] for n in MODEL_NAMES]
    rows.append([r"*$\theta^Q$ law itself*", f"{dist.w1_laws['q']:.4f}", "0", ""])
    rows.append(["*Marchenko–Pastur itself*", f"{dist.w1_laws['mp']:.4f}", "", "0"])
    header = ["rung"] + [rf"$W_1$, {LAW_NAMES[k]}" for k in ("f", "q", "mp")]
    return markdown_table(header, rows)


def ks_noise(values: int, d: int, removed: int) -> float:
    r"""The 95 % Kolmogorov level :math:`1.36/\sqrt N` of as many independent values as the bulk
    counts (:math:`N` = values :math:`\cdot d/(d - r)`)."""
    return 1.36 / math.sqrt(values * d / (d - removed))


def distance_values(dist: LawDistances, d: int, removed: int) -> dict:
    """Glue values of the distances (prefix ``law``)."""
    out = {}
    for n in MODEL_NAMES:
        out[f"ks_{n}"] = round(dist.ks["f"][n], 4)
        out[f"w1_{n}"] = round(dist.w1["f"][n], 4)
        out[f"ksq_{n}"] = round(dist.ks["q"][n], 4)
        out[f"ks_mp_{n}"] = round(dist.ks["mp"][n], 4)
    closer = [symbol(n) for n in MODEL_NAMES if dist.ks["q"][n] < dist.ks["f"][n]]
    return out | {
        "w1_mp_sqrt_d_A_perp": round(dist.w1["mp"][REFERENCE], 4),
        "ks_fq": round(dist.ks_laws["q"], 4),
        "w1_fq": round(dist.w1_laws["q"], 4),
        "ks_f_mp": round(dist.ks_laws["mp"], 4),
        "quantile_points": dist.quantile_points,
        "n_values": dist.values,
        "ks_noise": round(ks_noise(dist.values, d, removed), 4),
        "closer_to_q": ", ".join(closer) if closer else "none",
        "ks_target_max": round(max(dist.at_target(n) for n in MODEL_NAMES), 4),
    }


def slider_values(frames) -> dict:
    """Glue values of the slider's frames (prefix ``law``): at the smallest and largest beta, the
    reference's distances to the law and to Marchenko–Pastur, and the law's edge."""
    first, last = frames[0], frames[-1]
    return {
        "slider_n": len(frames),
        "slider_beta_lo": float(first.beta),
        "slider_beta_hi": float(last.beta),
        "slider_ks_lo": round(first.ks, 4),
        "slider_ks_hi": round(last.ks, 4),
        "slider_ks_mp_lo": round(first.ks_mp, 4),
        "slider_ks_mp_hi": round(last.ks_mp, 4),
        "slider_edge_lo": round(first.edge, 3),
        "slider_edge_hi": round(last.edge, 3),
    }


def law_claims(
    laws: dict, dist: LawDistances, forms: FormsAgreement, mean_quad: float, d: int, removed: int
) -> list[Claim]:
    """The limit-law chapter's claims."""
    law = laws["f"]
    edge_direct = edge_from_r_transform(law.theta1, law.theta2)
    noise = ks_noise(dist.values, d, removed)
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
    ]


def score_values(dep: ScoreDependence, d: int, trials: int) -> dict:
    """Glue values of the two score models (prefix ``law``): the i.i.d.-score bulk's distances to
    both laws, both noise floors, and the inverse temperature of scores of variance ln 2."""
    return {
        "scores_d": int(d),
        "scores_trials": int(trials),
        "ks_iid_scores_mp": round(dep.ks["iid"]["mp"], 4),
        "ks_iid_scores_pw": round(dep.ks["iid"]["pw"], 4),
        "iid_floor": round(dep.floor["iid"], 4),
        "bilinear_floor": round(dep.floor["bilinear"], 4),
        "iid_code_beta": round(math.sqrt(math.log(2)), 4),
    }


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


def bulk_mean_values(bulks: dict, x_at: dict) -> dict:
    """Glue values of the CDF comparison (prefix ``law``): where the reference's and the linear
    model's distances are attained, and two bulk means."""
    return {
        "ks_at_reference": round(x_at[REFERENCE], 2),
        "ks_at_Y_f_lin": round(x_at["Y_f_lin"], 2),
        "bulk_mean_Y_f": round(float(np.mean(bulks["Y_f"])), 4),
        "bulk_mean_Y_f_lin": round(float(np.mean(bulks["Y_f_lin"])), 4),
    }


class LimitLaw(ChapterStudy):
    r"""The ladder at the chapter's :math:`d`, the three laws (:math:`\theta^f`, :math:`\theta^Q`,
    Marchenko–Pastur of mean :math:`\theta_1`), the agreement of the law's two forms, the slider's
    frames over ``betas`` and every rung's distances to the laws."""

    name = "limit-law"
    prefix = "law"

    def compute(self) -> None:
        c = self.config
        self.betas = sorted({c.beta, *self.params["betas"]})  # the slider's positions
        self.result = run_ladder(c)
        self.laws = ll.ladder_laws(self.result)  # theta^f, theta^Q, Marchenko–Pastur
        self.forms = ll.forms_agreement(self.betas)  # Pennington–Worah's density vs the quartic's
        self.mean_quad = self.laws["f"].expect(lambda x: x)  # the mean from the density
        self.slider_trials = trials_for_pooled([c.d], self.params["pooled_values"])[c.d]
        ladders = ll.pair_ladders(c, self.betas, self.slider_trials, (REFERENCE, "Y_f_lin"))
        self.frames = ll.slider_frames(ladders)
        self.distances = ll.law_distances(self.result)  # every rung's bulk against the laws
        self.cdf = ll.cdf_differences(self.result, self.laws)
        self.scores = ll.score_dependence(c, self.result.s2(REFERENCE), self.laws)

    def values(self) -> dict[str, Any]:
        c, result = self.config, self.result
        return (
            law_values(self.laws, result.poly_degree, c.beta, self.forms)
            | {"top_reference": round(float(result.s2(REFERENCE)[:, 0].mean()), 2)}
            | slider_values(self.frames)
            | {"slider_d": c.d, "slider_trials": self.slider_trials}
            | distance_values(self.distances, c.d, c.remove_top_k)
            | {"r": c.remove_top_k, "w1_table": w1_table(self.distances)}
            | bulk_mean_values({n: result.bulk(n) for n in MODEL_NAMES}, self.cdf.at)
            | score_values(self.scores, c.d, c.trials)
        )

    def tables(self) -> dict[str, str]:
        return {
            "laws": laws_table(self.laws, self.result.poly_degree),
            "distances": distances_table(self.distances),
        }

    def figures(self) -> dict[str, Any]:
        c, laws, cdf = self.config, self.laws, self.cdf

        def slider():
            return interactive.InteractiveFigure(
                interactive.law_slider(self.frames, self.betas.index(c.beta)),
                interactive.LAW_SLIDER,
                plotting.law_frames_grid(self.frames[1::2]),
                "Slider over beta: the histogram of the bulk of the square root of d times "
                "A-perp, the exact limit law and Marchenko-Pastur with the same mean, in units of "
                "theta 1.",
            )

        def grid():
            return plotting.law_histogram_grid(
                {symbol(n): self.result.bulk(n) for n in MODEL_NAMES},
                c.hist_bins,
                c.hist_range,
                {
                    r"exact law, $\theta^f$": laws["f"].pdf,
                    r"Marchenko–Pastur, mean $\theta_1$": laws["mp"].pdf,
                },
                edges={r"$\lambda_+$": laws["f"].edge, r"$4\theta_1$": laws["mp"].edge},
                logy=True,
            )

        def differences():
            gap = r"$\theta^Q$ law $-$ $\theta^f$ law"
            return plotting.cdf_differences(
                cdf.x,
                {symbol(n): cdf.rungs[n] for n in MODEL_NAMES} | {gap: cdf.gap},
                r"$s^2$",
                r"$F_{\rm bulk}(s^2) - F_{\theta^f}(s^2)$",
                dashed=(gap,),
            )

        def scores():
            return plotting.law_histogram_grid(
                {
                    r"i.i.d. scores $s_{ij}$": self.scores.bulks["iid"],
                    r"bilinear scores $W_QW_K^\top/\sqrt{d}$": self.scores.bulks["bilinear"],
                },
                c.hist_bins,
                c.hist_range,
                {
                    "Pennington–Worah law": laws["f"].pdf,
                    r"Marchenko–Pastur, mean $\theta_1$": laws["mp"].pdf,
                },
                edges={r"$\lambda_+$": laws["f"].edge, r"$4\theta_1$": laws["mp"].edge},
                logy=True,
            )

        return {
            "fig_slider": slider,
            "fig_grid": grid,
            "fig_cdf": differences,
            "fig_scores": scores,
        }

    def claims(self) -> list[Claim]:
        c = self.config
        return law_claims(
            self.laws, self.distances, self.forms, self.mean_quad, c.d, c.remove_top_k
        ) + [score_claim(self.scores)]
