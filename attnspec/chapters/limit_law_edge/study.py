"""The study of chapter "The edge and the outliers": :class:`LimitLawEdge`."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...experiments import limit_law as ll
from ...experiments.trials import run_ladder
from ...laws.edge import edge_scale
from ...models.ladder import MODEL_NAMES, REFERENCE
from ...models.notation import symbol
from ...present.formatting import format_power_of_ten
from ...present.tables import markdown_table
from ..base import ChapterStudy
from .claims import LINEAR, chapter_claims
from .figures import fig_points


def edge_table(result, edge: float) -> str:
    """Per rung: mean top value, mean and largest bulk maximum, bulk values above the edge."""
    r = result.config.remove_top_k
    rows = []
    for n in MODEL_NAMES:
        s2 = result.s2(n)
        rows.append(
            [
                symbol(n),
                f"{s2[:, 0].mean():.4f}",
                f"{s2[:, r].mean():.4f}",
                f"{s2[:, r].max():.4f}",
                f"{(s2[:, r:] > edge).sum(axis=1).mean():.1f}",
            ]
        )
    header = [
        "rung",
        r"$s_1^2$ (mean)",
        rf"$s_{{{r + 1}}}^2$ (mean)",
        rf"$s_{{{r + 1}}}^2$ (max)",
        r"bulk values $> \lambda_+$ per trial",
    ]
    return markdown_table(header, rows)


def edge_values(result, law, scale) -> dict:
    """Glue values of the edge comparison (prefix ``edge``); ``scale`` is the law's
    :class:`~attnspec.laws.edge.EdgeScale` at this d."""
    r = result.config.remove_top_k
    nonlinear = [n for n in MODEL_NAMES if n not in LINEAR]
    above = {n: (result.s2(n)[:, r:] > law.edge).sum(axis=1).mean() for n in MODEL_NAMES}
    linear_top = max(float(result.s2(n)[:, 0].max()) for n in LINEAR)
    return {
        "lambda": round(law.edge, 5),
        "spacing": round(scale.spacing, 3),
        "sqrt_const": round(scale.sqrt_constant, 4),
        "linear_overshoot": round(linear_top - law.edge, 3),
        "linear_overshoot_spacings": round(float(scale.in_spacings(linear_top)[()]), 2),
        "linear_bulk_max": round(max(float(result.s2(n)[:, r].max()) for n in LINEAR), 4),
        "linear_top_max": round(linear_top, 4),
        "above_nonlinear": round(float(np.mean([above[n] for n in nonlinear])), 1),
        "above_reference": round(float(above[REFERENCE]), 1),
        "bulk_max_reference": round(float(result.s2(REFERENCE)[:, r].max()), 4),
        "r": r,
        "r1": r + 1,
    }


def outliers_table(out) -> str:
    """Per trial: the largest score, the squared largest entry of Y_f, the top values and the
    top vector's weight on that entry's row."""
    rows = [
        [
            t,
            f"{out.max_score[t]:.3f}",
            f"{out.entry_sq[t]:.3f}",
            f"{out.top_f[t]:.3f}",
            f"{out.top_reference[t]:.3f}",
            f"{out.weight[t]:.3f}",
        ]
        for t in range(out.max_score.size)
    ]
    header = [
        "trial",
        r"$\max_{ij} S_{ij}$",
        r"$\max_{ij} (Y_f)_{ij}^2$",
        r"$s_1^2(Y_f)$",
        rf"$s_1^2$, {symbol(REFERENCE)}",
        r"$v_i^2$",
    ]
    return markdown_table(header, rows)


def outlier_values(out, d: int) -> dict:
    """Glue values of the localized outliers (prefix ``edge``)."""
    return {
        "spearman": round(out.spearman, 3) if math.isfinite(out.spearman) else "n/a",
        "max_s_pred": round(out.max_score_pred, 3),
        "max_s_mean": round(float(out.max_score.mean()), 3),
        "entry_sq_median": round(float(np.median(out.entry_sq)), 3),
        "weight_median": round(float(np.median(out.weight)), 3),
        "weight_deloc": round(1.0 / d, 4),
        "weight_deloc_max": round(out.delocalized_max, 4),
        "d_isolated": format_power_of_ten(out.d_isolated)
        if math.isfinite(out.d_isolated)
        else "no d (the squared entry never exceeds θ₁)",
    }


class LimitLawEdge(ChapterStudy):
    r"""The ladder at the chapter's :math:`d` (the trials of the limit-law chapter), the laws'
    edges, the edge scale :math:`a\sqrt{\lambda_+ - \lambda}`, :math:`\varepsilon_d` of the
    :math:`\theta^f` law and the largest entries and top vectors of every trial."""

    name = "limit-law-edge"
    prefix = "edge"
    drawings = (fig_points,)
    claims = chapter_claims

    def compute(self) -> None:
        c = self.config
        self.result = run_ladder(c)
        self.laws = ll.ladder_laws(self.result)  # theta^f, theta^Q, Marchenko–Pastur
        self.law = self.laws["f"]
        self.scale = edge_scale(self.law, c.d)  # a, the square-root constant, and epsilon_d
        self.outliers = ll.localized_outliers(c, self.result)  # largest entries and top vectors

    def values(self) -> dict[str, Any]:
        return edge_values(self.result, self.law, self.scale) | outlier_values(
            self.outliers, self.config.d
        )

    def tables(self) -> dict[str, str]:
        return {
            "edge": edge_table(self.result, self.law.edge),
            "outliers": outliers_table(self.outliers),
        }
