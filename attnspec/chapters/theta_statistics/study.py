"""The study of chapter "The θ statistics": :class:`ThetaStatistics`."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...models.nonlinearity import (
    Q,
    f,
    poly_degree,
    taylor_exp,
    theta_f,
    theta_q,
    theta_q1_estimates,
    theta_q_monte_carlo,
)
from ...models.quadrature import thetas as quadrature_thetas
from ...present.formatting import format_uncertain
from ...present.gluing import uncertain
from ...present.tables import markdown_table
from ..base import ChapterStudy
from .claims import SEED_NOTEBOOK_DRAW, SEED_NOTEBOOK_REFERENCE, TAYLOR_NS, chapter_claims
from .figures import fig_gap

QUAD_NODES = 200  # Gauss-Hermite nodes of the independent check
MC_COUNT = 20  # independent Monte-Carlo estimates of the same size
TOP_FRACTION = 0.001  # the share of largest samples whose weight in the estimate is reported
#: The sizes d of the degree table.
DEGREE_SIZES = (250, 500, 1000, 2000, 10**4, 10**6)


class ThetaStatistics(ChapterStudy):
    """The exact :math:`\\theta` of :math:`f` and :math:`Q_{n_d}`, their quadrature check, one
    Monte-Carlo estimate from ``default_rng(seed)``, ``MC_COUNT`` independent ones, and the gap
    :math:`|\\theta^Q/\\theta^f - 1|` across :math:`n`."""

    name = "theta-statistics"
    prefix = "theta"
    drawings = (fig_gap,)
    claims = chapter_claims

    def compute(self) -> None:
        c = self.config
        b = c.beta
        n_d = self.n_d = poly_degree(c.d, c.c_poly)
        self.tf, self.tq = theta_f(b), theta_q(b, n_d)
        self.qf = quadrature_thetas(
            lambda x: f(x, b), lambda x: b * np.exp(b * x - b * b / 2), QUAD_NODES
        )
        self.qq = quadrature_thetas(
            lambda x: Q(x, b, n_d),
            lambda x: math.exp(-b * b / 2) * b * taylor_exp(b * x, n_d - 1),
            QUAD_NODES,
        )
        (self.mc1, self.mc2), (self.se1, self.se2) = theta_q_monte_carlo(
            b, n_d, c.mc_samples, np.random.default_rng(c.seed)
        )
        self.estimates = theta_q1_estimates(b, n_d, c.mc_samples, c.seed, count=MC_COUNT)
        self.mean_se = float(self.estimates.std(ddof=1) / np.sqrt(self.estimates.size))
        child = np.random.SeedSequence(c.seed).spawn(1)[0]
        q2 = np.sort(Q(np.random.default_rng(child).standard_normal(c.mc_samples), b, n_d) ** 2)
        self.n_top = max(1, round(TOP_FRACTION * q2.size))
        self.top_share = float(q2[-self.n_top :].sum() / q2.sum())
        tf = self.tf
        self.gap1 = np.array([abs(theta_q(b, int(n))[0] / tf[0] - 1) for n in TAYLOR_NS])
        self.gap2 = np.array(
            [abs(theta_q(b, int(n))[1] / tf[1] - 1) if tf[1] > 0 else 0.0 for n in TAYLOR_NS]
        )

    @property
    def same_draw(self) -> bool:
        """Whether the chapter's Monte-Carlo draw is the seed notebook's."""
        c = self.config
        draw = dict(beta=float(c.beta), n=self.n_d, samples=c.mc_samples, seed=c.seed)
        return draw == SEED_NOTEBOOK_DRAW

    @property
    def quad_err(self) -> float:
        """The largest gap between the exact values and the quadrature."""
        (tf, tq), (qf, qq) = (self.tf, self.tq), (self.qf, self.qq)
        return max(abs(qf[0] - tf[0]), abs(qf[1] - tf[1]), abs(qq[0] - tq[0]), abs(qq[1] - tq[1]))

    @property
    def i_d(self) -> int:
        """The index of :math:`n_d` in ``TAYLOR_NS`` (the last one beyond it)."""
        ns = TAYLOR_NS
        return int(np.searchsorted(ns, self.n_d)) if self.n_d <= ns[-1] else len(ns) - 1

    def values(self) -> dict[str, Any]:
        tf, tq, mc1, se1, mc2, se2 = self.tf, self.tq, self.mc1, self.se1, self.mc2, self.se2
        est, mean_se = self.estimates, self.mean_se
        z = (est - tq[0]) / se1
        seed_ref_rel = [100 * (SEED_NOTEBOOK_REFERENCE[i] / tq[i] - 1) for i in range(2)]
        return (
            {
                "f1": round(tf[0], 7),
                "f2": round(tf[1], 7),
                "q1_exact": round(tq[0], 7),
                "q2_exact": round(tq[1], 7),
                "q1_mc": round(mc1, 4),
                "q1_mc_se": round(se1, 4),
                "q2_mc": round(mc2, 4),
                "q2_mc_se": round(se2, 4),
                "q1_mc_txt": format_uncertain(mc1, se1),
                "poly_degree": self.n_d,
                "beta": float(self.config.beta),
                "q1_mc_rel": round(100 * (mc1 / tq[0] - 1), 1),
                "q1_mc_z": round((mc1 - tq[0]) / se1, 1),
                "quad_nodes": QUAD_NODES,
                "quad_degree": 2 * QUAD_NODES,
                "seed_ref1": SEED_NOTEBOOK_REFERENCE[0],
                "seed_ref1_rel": round(seed_ref_rel[0], 1),
                "seed_ref2_rel": round(seed_ref_rel[1], 1),
                "same_draw": "the same draw" if self.same_draw else "a different draw",
                "seed_samples": f"{SEED_NOTEBOOK_DRAW['samples']:,}",
            }
            | uncertain("mc_mean", float(est.mean()), mean_se)
            | {
                "mc_mean_z": round((float(est.mean()) - tq[0]) / mean_se, 1),
                "mc_count": int(est.size),
                "mc_top_n": self.n_top,
                "mc_samples": self.config.mc_samples,
                "mc_spread": round(float(est.std(ddof=1)), 4),
                "mc_median_rel": round(float(100 * (np.median(est) / tq[0] - 1)), 1),
                "mc_within2": int(np.sum(np.abs(z) < 2)),
                "mc_top_share": round(100 * self.top_share, 1),
                "mc_rel_spread": round(float(100 * est.std(ddof=1) / tq[0]), 1),
                "mc_top_pct": float(f"{100 * TOP_FRACTION:g}"),
                "gap1_nd": round(float(100 * self.gap1[self.i_d]), 1),
                "gap2_nd": round(float(100 * self.gap2[self.i_d]), 2),
            }
        )

    def tables(self) -> dict[str, str]:
        tf, tq, qf, qq, n_d = self.tf, self.tq, self.qf, self.qq, self.n_d
        exact = [
            [rf"$\theta_{i + 1}$ of $f$", f"{tf[i]:.7f}", f"{qf[i]:.7f}", "", ""] for i in (0, 1)
        ]
        sampled = [
            [
                rf"$\theta_{i + 1}^Q$ ($n = {n_d}$)",
                f"{tq[i]:.7f}",
                f"{qq[i]:.7f}",
                format_uncertain(mc, se),
                f"{(mc - tq[i]) / se:+.1f}",
            ]
            for i, (mc, se) in enumerate([(self.mc1, self.se1), (self.mc2, self.se2)])
        ]
        d_rows = [[dv, poly_degree(dv, self.config.c_poly)] for dv in DEGREE_SIZES]
        return {
            "thetas": markdown_table(
                ["statistic", "exact", "quadrature", "Monte Carlo ± se", "$z$"], exact + sampled
            ),
            "degrees": markdown_table(["$d$", "$n_d$"], d_rows),
        }

    def estimate_lines(self) -> str:
        """The independent estimates and the weight of their largest samples, as printed."""
        est = self.estimates
        return "\n".join(
            [
                f"mean of {MC_COUNT} independent estimates of θ₁ of Q: "
                f"{format_uncertain(est.mean(), self.mean_se)}",
                f"std {est.std(ddof=1):.4f}, median {np.median(est):.4f}, "
                f"min {est.min():.4f}, max {est.max():.4f}",
                f"share of the sum of Q² carried by the largest {100 * TOP_FRACTION:g} % of "
                f"samples: {100 * self.top_share:.1f} %",
            ]
        )
