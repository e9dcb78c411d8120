"""The study of chapter "The rank-one mode": :class:`RankOneMode`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...experiments.rank_one import (
    excess_scan,
    uniform_mode_deficit_first_order,
    uniform_mode_deficits,
)
from ...experiments.stable_rank import initial_stable_ranks
from ...experiments.trials import run_ladder
from ...laws.gaussian_equivalent import GaussianEquivalentLaw
from ...laws.predictions import s1_excess
from ...models.ladder import MODEL_NAMES
from ...models.notation import symbol
from ...present.formatting import ONE_OR_TWO, decimals_for, format_uncertain
from ...present.gluing import uncertain
from ...present.tables import markdown_table
from ..base import ChapterStudy
from .claims import chapter_claims
from .figures import fig_excess, fig_top

#: The rungs whose top right singular vector is the uniform mode (uncentred).
UNCENTRED = {"sqrt_d_A", "Y"}


def mean_se(x: np.ndarray) -> tuple[float, float]:
    """Mean and standard error :math:`s/\\sqrt n` of the trials ``x``."""
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(x.size))


class RankOneMode(ChapterStudy):
    """The ladder at the chapter's d, the excess across ``d_values``, the top singular vector's
    deficit :math:`1 - \\langle v_1, u_d\\rangle^2` and the stable ranks at initialization."""

    name = "rank-one-mode"
    prefix = "rank1"
    drawings = (fig_excess, fig_top)
    claims = chapter_claims

    def compute(self) -> None:
        c = self.config
        self.d_values = sorted(self.params["d_values"])
        self.result = run_ladder(c)
        self.s1 = self.result.s1_A
        self.s2 = np.sqrt(self.result.s2("sqrt_d_A")[:, 1] / c.d)
        self.scan = excess_scan(self.d_values, c.beta, c.seed, c.trials, known={c.d: self.s1})
        self.law = GaussianEquivalentLaw.for_f(c.beta)
        self.top = {name: self.result.top_sq(name) for name in MODEL_NAMES}
        self.above = {  # values above the law's edge besides the uniform mode, mean over trials
            name: float(
                (self.result.s2(name)[:, (1 if name in UNCENTRED else 0) :] > self.law.edge)
                .sum(axis=1)
                .mean()
            )
            for name in MODEL_NAMES
        }
        self.deficits = uniform_mode_deficits(c.d, c.beta, c.seed, c.trials)
        self.deficit_pred = uniform_mode_deficit_first_order(c.beta, c.d)
        self.overlap = {}  # rung -> (mean deficit, se, z against the first order)
        for name, v in self.deficits.items():
            m, se = mean_se(v)
            self.overlap[name] = (m, se, (m - self.deficit_pred) / se)
        self.ranks = initial_stable_ranks(c.d, c.beta, c.seed, c.trials)

    @property
    def slope_decimals(self) -> int:
        return decimals_for(self.scan.slope_se) if self.scan.slope_ok else 2

    @property
    def slope_text(self) -> str:
        scan = self.scan
        if scan.slope_ok:
            return format_uncertain(scan.slope, scan.slope_se)
        return f"{scan.slope:.2f} (too few sizes for an uncertainty)"

    @property
    def outlier_models(self) -> list[str]:
        """The rungs with an order-d squared singular value, :math:`s_1^2 > d/2`."""
        return [n for n in MODEL_NAMES if self.top[n][0] > self.config.d / 2]

    def rank_values(self) -> dict[str, Any]:
        """The stable ranks, glued under both ``rank1`` and ``init``."""
        (sr, sr_se), (sc, sc_se) = self.ranks.mean_se, self.ranks.causal_mean_se
        return (
            uncertain("srank", sr, sr_se)
            | {
                "srank_pred": round(self.ranks.prediction, decimals_for(sr_se, ONE_OR_TWO)),
                "srank_limit": round(self.ranks.limit, 4),
                "srank_z": round(self.ranks.z, 1),
            }
            | uncertain("srank_causal", sc, sc_se)
        )

    def values(self) -> dict[str, Any]:
        c, s1, scan = self.config, self.s1, self.scan
        s1_mean = float(s1.mean())
        s1_se = mean_se(s1)[1] if s1.size > 1 else float("nan")
        excess_pred, n_dec = s1_excess(c.beta, c.d), decimals_for(s1_se)
        worst_d, worst_z = scan.worst
        top_perp_s = np.sqrt(self.result.s2("sqrt_d_A_perp")[:, 0])  # largest, per trial
        edge_outliers = [n for n in MODEL_NAMES if self.above[n] >= 1]
        m_a, se_a, z_a = self.overlap["sqrt_d_A"]
        return {
            "s1_mean": round(s1_mean, n_dec),
            "s1_txt": format_uncertain(s1_mean, s1_se),
            "excess_txt": format_uncertain(s1_mean - 1, s1_se),
            "sqrt_d_s1_mean": round(float(np.sqrt(c.d) * s1_mean), 3),
            "sqrt_d": round(float(np.sqrt(c.d)), 3),
            "s2_mean": round(float(self.s2.mean()), 4),
            "gap": round(float((s1 / self.s2).mean()), 1),
            "excess_pred": round(excess_pred, n_dec),
            "excess_z": round((s1_mean - 1 - excess_pred) / s1_se, 1),
            "trials": int(s1.size),
            "d": c.d,
            "excess_slope": round(scan.slope, self.slope_decimals),
            "excess_slope_txt": self.slope_text,
            "n_sizes": len(self.d_values),
            "dof": scan.dof,
            "max_abs_z": round(worst_z, 1),
            "max_abs_z_d": worst_d,
            "edge": round(float(self.law.edge), 4),
            "outlier_models": ", ".join(symbol(n) for n in self.outlier_models),
            "edge_outlier_models": ", ".join(symbol(n) for n in edge_outliers) or "none",
            "top_A": round(float(self.top["sqrt_d_A"][0]), 1),
            "top_perp": round(float(self.top["sqrt_d_A_perp"][0]), 1),
            "top_perp_s_txt": format_uncertain(*mean_se(top_perp_s)),
            "law_norm": round(float(np.sqrt(self.law.edge)), 4),
            "linear_above": round(max(self.above["Y_Q_lin"], self.above["Y_f_lin"]), 1),
            "deficit_txt": format_uncertain(m_a, se_a),
            "deficit_pred": round(self.deficit_pred, decimals_for(se_a)),
            "deficit_z_A": round(z_a, 1),
            "deficit_z_Y": round(self.overlap["Y"][2], 1),
            "overlap_txt": format_uncertain(
                float(np.sqrt(1 - self.deficits["sqrt_d_A"]).mean()), se_a / 2
            ),
        } | self.rank_values()

    def shared_values(self) -> dict[str, dict]:
        return {"init": self.rank_values()}  # init_srank, init_srank_pred, ...

    def tables(self) -> dict[str, str]:
        c, s1, s2, scan = self.config, self.s1, self.s2, self.scan
        trials = [
            [t, f"{v:.6f}", f"{np.sqrt(c.d) * v:.4f}", f"{w:.6f}", f"{v / w:.2f}"]
            for t, (v, w) in enumerate(zip(s1, s2, strict=True))
        ]
        excess = [
            [dv, format_uncertain(e, se), f"{p:.{decimals_for(se)}f}", f"{z:+.1f}", f"{e * dv:.2f}"]
            for dv, e, se, p, z in zip(
                self.d_values, scan.excess, scan.se, scan.predicted, scan.z, strict=True
            )
        ]
        top = [
            [symbol(name)] + [f"{v:.2f}" for v in self.top[name]] + [f"{self.above[name]:.1f}"]
            for name in MODEL_NAMES
        ]
        deficits = [
            [
                symbol(name),
                format_uncertain(m, se),
                f"{self.deficit_pred:.{decimals_for(se)}f}",
                f"{z:+.1f}",
                format_uncertain(float(np.sqrt(1 - self.deficits[name]).mean()), se / 2),
            ]
            for name, (m, se, z) in self.overlap.items()
        ]
        return {
            "trials": markdown_table(
                ["trial $t$", "$s_1(A)$", r"$s_1(\sqrt d A)$", "$s_2(A)$", "$s_1/s_2$"], trials
            ),
            "excess": markdown_table(
                ["$d$", r"$s_1(A) - 1$ (mean ± se)", "first-order value", "$z$"]
                + [r"$d\,(s_1(A) - 1)$"],
                excess,
            ),
            "top": markdown_table(
                ["model"]
                + [f"$s_{i}^2$" for i in range(1, 6)]
                + [r"values $> \lambda_+$ besides the uniform mode"],
                top,
            ),
            "deficits": markdown_table(
                [
                    "rung",
                    r"$1 - \langle v_1, u_d\rangle^2$ (± se)",
                    "first order",
                    "$z$",
                    r"$\vert\langle v_1, u_d\rangle\vert$",
                ],
                deficits,
            ),
        }

    def stable_rank_lines(self) -> str:
        """The stable ranks at initialization, as the chapter prints them."""
        r = self.ranks
        (sr, sr_se), (sc, sc_se) = r.mean_se, r.causal_mean_se
        return "\n".join(
            [
                f"bidirectional srank(A) = {format_uncertain(sr, sr_se)}",
                f"first order            = {r.prediction:.{decimals_for(sr_se)}f}   z = {r.z:+.1f}",
                f"limit exp(β²)          = {r.limit:.4f}",
                f"causal srank(A)        = {format_uncertain(sc, sc_se)}",
            ]
        )
