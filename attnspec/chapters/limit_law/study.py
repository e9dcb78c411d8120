"""The study of chapter "The limit law": :class:`LimitLaw`."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...experiments import limit_law as ll
from ...experiments.convergence import trials_for_pooled
from ...experiments.limit_law import (
    DOUBLE_ROOT_ACCURACY,
    FormsAgreement,
    LawDistances,
)
from ...experiments.noise import ks_noise
from ...experiments.score_dependence import ScoreDependence, score_dependence
from ...experiments.trials import run_ladder
from ...models.ladder import MODEL_NAMES, REFERENCE
from ...models.notation import symbol
from ...present.tables import markdown_table
from ..base import ChapterStudy
from .claims import chapter_claims
from .figures import fig_cdf, fig_grid, fig_scores, fig_slider

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


def distances_table(dist: LawDistances, metric: str = "ks") -> str:
    r"""Every rung's distance to the three laws, Kolmogorov (``"ks"``, its finite-d law in bold) or
    Wasserstein-1 (``"w1"``), and the laws themselves against the :math:`\theta^f` law."""
    ks = metric == "ks"
    values, itself = (dist.ks, dist.ks_laws) if ks else (dist.w1, dist.w1_laws)
    rows = []
    for n in MODEL_NAMES:
        target = ("q" if n in ("Y_Q", "Y_Q_lin") else "f") if ks else None
        cells = {k: f"{values[k][n]:.4f}" for k in LAW_NAMES}
        rows.append([symbol(n), *(f"**{c}**" if k == target else c for k, c in cells.items())])
    rows.append([r"*$\theta^Q$ law itself*", f"{itself['q']:.4f}", "0", ""])
    rows.append(["*Marchenko–Pastur itself*", f"{itself['mp']:.4f}", "", "0"])
    distance = r"$D_{\rm KS}$" if ks else "$W_1$"
    return markdown_table(["rung"] + [f"{distance}, {name}" for name in LAW_NAMES.values()], rows)


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
    drawings = (fig_slider, fig_grid, fig_cdf, fig_scores)
    claims = chapter_claims

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
        self.scores = score_dependence(c, self.result.s2(REFERENCE), self.laws)

    def values(self) -> dict[str, Any]:
        c, result = self.config, self.result
        return (
            law_values(self.laws, result.poly_degree, c.beta, self.forms)
            | {"top_reference": round(float(result.s2(REFERENCE)[:, 0].mean()), 2)}
            | slider_values(self.frames)
            | {"slider_d": c.d, "slider_trials": self.slider_trials}
            | distance_values(self.distances, c.d, c.remove_top_k)
            | {"r": c.remove_top_k, "w1_table": distances_table(self.distances, "w1")}
            | bulk_mean_values({n: result.bulk(n) for n in MODEL_NAMES}, self.cdf.at)
            | score_values(self.scores, c.d, c.trials)
        )

    def tables(self) -> dict[str, str]:
        return {
            "laws": laws_table(self.laws, self.result.poly_degree),
            "distances": distances_table(self.distances),
        }
