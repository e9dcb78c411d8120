r"""Chapter "The head dimension": the gap between the bulks of :math:`\sqrt d A_\perp` and of its
linear model :math:`Y^{\rm lin} = (\sqrt{\theta_2}\,S + \sqrt{\theta_1 - \theta_2}\,W)/\sqrt d` at
a head dimension :math:`d_{qk} \ne d`, its causes, the limit law at :math:`d_{qk} = c\,d`, and
attention against the Hermite-block models :math:`Y_k` and their limit laws along
:math:`d_{qk} = d^\alpha` (:mod:`~attnspec.chapters.head_dimension_blocks`).

Every criterion is tied to a measured standard error or noise floor (jackknife over trials; a
fitted rate takes the larger of its residual and its jackknife standard error): every interval is a
value ± 2 standard errors, and two of them are compared by
:func:`~attnspec.numerics.intervals.interval_below`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..experiments.head_dim import TwoSample, rate_se, run_study
from ..experiments.head_dim_blocks import run_block_series
from ..experiments.normalizer import normalizer_stats
from ..laws.head_dimension import HeadDimensionLaw
from ..laws.pennington_worah_general import pennington_worah_general_pdf
from ..models.head_dim import normalizer_std_exact
from ..models.nonlinearity import theta_f
from ..numerics.intervals import all_hold, interval_below
from ..present.claims import Claim
from ..present.numbers import ONE_OR_TWO, fixed, format_uncertain, round_off_bound
from . import head_dimension_blocks, head_dimension_figures, head_dimension_tables
from .base import ChapterStudy
from .head_dimension_tables import distance_text, mean_se, rate_text, ratio_text

#: The parameters of the Hermite-block series (the others are those of the study).
BLOCKS = ("half_heads", "fifth_heads", "k_max", "block_trials", "real_contexts")
#: The interval of zero, against which the sign of a rate is decided.
ZERO = (0.0, 0.0)


def span(value: float, se: float) -> tuple[float, float]:
    """The interval value ± 2 se (the whole line when se is not finite)."""
    return (value - 2 * se, value + 2 * se) if math.isfinite(se) else (-math.inf, math.inf)


def interval(x: TwoSample) -> tuple[float, float]:
    """A distance's interval, ± 2 standard errors."""
    return span(x.ks, x.se)


class HeadDimension(ChapterStudy):
    r"""The limit laws at the series' ratios against Pennington and Worah's density at
    :math:`\phi = \psi = c`, the study of :func:`~attnspec.experiments.head_dim.run_study` (map,
    series, chain, law checks) and the Hermite-block series at :math:`d_{qk} = d^{1/2}` and
    :math:`d^{2/5}` of :func:`~attnspec.experiments.head_dim_blocks.run_block_series`. Its values
    and tables are
    written by :mod:`~attnspec.chapters.head_dimension_tables`, its figures drawn by
    :mod:`~attnspec.chapters.head_dimension_figures`."""

    name = "head-dimension"
    prefix = "headdim"

    def compute(self) -> None:
        p = self.params
        theta = theta_f(p["beta"])
        self.laws = {c: HeadDimensionLaw(*theta, c) for c in p["head_ratios"]}
        self.pw_difference = 0.0  # largest relative difference of the densities
        for c, law in self.laws.items():
            x = law.interior(40)  # points inside the support
            pw = pennington_worah_general_pdf(x, *theta, phi=c, psi=c)
            self.pw_difference = max(self.pw_difference, float(np.max(np.abs(pw / law.pdf(x) - 1))))
        # every trial, gap, floor, rate and law check
        self.result = run_study(**{k: v for k, v in p.items() if k not in BLOCKS})
        # attention against the laws of Y_1..Y_K at sizes where d^alpha is an integer
        keys = ("beta", "k_max", "seed", "pooled_values")
        self.blocks = [
            run_block_series(
                p[heads],
                alpha,
                **{k: p[k] for k in keys},
                min_trials=p["block_trials"],
                remove_top_k=p["remove_top_k"],
            )
            for heads, alpha in (("half_heads", 0.5), ("fifth_heads", 0.4))
        ]

    def grid_lines(self) -> str:
        """The grid of the trials, one line for the map and one per series (trials in brackets)."""
        r = self.result
        heads = ", ".join(str(q.d_qk) for q in r.maps[r.beta])
        temps = ", ".join(f"{b:g}" for b in r.maps)
        trials = r.maps[r.beta][0].trials
        lines = [f"map: d = {r.d}; d_qk = {heads}; beta = {temps}; {trials} trials each"]
        for (kind, value), points in r.series.items():
            sizes = ", ".join(f"{q.d} ({q.trials})" for q in points)
            lines.append(f"series at {kind} = {value:g}: d = {sizes}")
        return "\n".join(lines)

    def law_check(self):
        """Pennington and Worah's density against the laws (printed), then the laws' table."""
        difference = round_off_bound(self.pw_difference, 1e-8)
        print(f"Pennington-Worah at phi = psi = c: largest relative difference {difference}")
        return self.table("laws")

    # ---- the hooks -----------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        out = head_dimension_tables.map_values(self)
        for series in self.blocks:
            out |= head_dimension_blocks.series_values(series)
        return out | head_dimension_blocks.real_values(
            self.params["d_qk"], self.params["real_contexts"]
        )

    def tables(self) -> dict[str, str]:
        return {
            "laws": head_dimension_tables.law_table(self),
            "map": head_dimension_tables.map_table(self),
            "series": head_dimension_tables.series_table(self),
            "blocks": head_dimension_blocks.block_table(self.blocks),
            "normalizers": head_dimension_tables.normalizer_table(self),
            "chain": head_dimension_tables.chain_table(self),
            "beta": head_dimension_tables.beta_table(self),
        }

    def figures(self) -> dict[str, Any]:
        return {
            "fig_blocks": lambda: head_dimension_figures.block_distances(self),
            "fig_phase": lambda: head_dimension_figures.phase_diagram(self),
            "fig_map": lambda: head_dimension_figures.gap_map(self),
            "fig_series": lambda: head_dimension_figures.gap_series(self),
        }

    def claims(self) -> list[Claim]:
        return self.map_claims() + head_dimension_blocks.block_claims(self.blocks)

    def map_claims(self) -> list[Claim]:
        """The study's claims: rates, the gap against its floor and across :math:`d_{qk}`, its
        causes, the checks of the linear model and of its limit law."""
        book = "this book"
        r = self.result
        points = r.maps[r.beta]
        head = r.point(r.d_qk)
        ratio_fits = {k: f for k, f in r.rates.items() if k[0] == "ratio"}
        grow = r.rates[("d_qk", float(r.d_qk))]
        narrow = [p for p in points if p.d_qk <= r.d_qk]
        split = [p for p in points if p.ratio < r.threshold]
        counts = {p.d_qk: [span(*mean_se(p.outside[m])) for m in ("lin", "ref")] for p in split}
        excess = all_hold(interval_below(*counts[p.d_qk]) for p in split) if split else None
        d_z = []
        for p in points:
            stats = normalizer_stats(p.D, p.trials)
            d_z.append((stats.std - normalizer_std_exact(r.beta, p.d_qk, r.d)) / stats.std_se)
        norm = head.chain[("ref", "no_norm")]
        later = [head.chain[("no_norm", "rows_f")], head.chain[("rows_f", "rows_G")]]
        parts = [head.chain[("rows_f", "rows_h")], head.chain[("rows_h", "rows_G")]]
        same_law = [
            p.chain[("rows_G", "lin")].ks
            <= p.floor.ks + 3 * math.hypot(p.chain[("rows_G", "lin")].se, p.floor.se)
            for p in points
        ]
        law_ok = {
            c: chk.ks <= r.series[("ratio", c)][-1].floor.ks for c, chk in r.law_checks.items()
        }
        sq = r.hadamard
        pr = mean_se(sq.participation)
        return [
            Claim(
                r"at a fixed ratio $d_{qk}/d$ the gap falls as $d$ grows ($\rho$)",
                ", ".join(f"{ratio_text(k[1])}: {rate_text(f)}" for k, f in ratio_fits.items()),
                "ρ − 2 se > 0 at every ratio",
                all_hold(
                    interval_below(ZERO, span(f.rate, rate_se(f))) for f in ratio_fits.values()
                ),
                "at some fixed ratio the gap does not fall with d by more than two standard "
                "errors.",
                book,
            ),
            Claim(
                f"at fixed $d_{{qk}} = {r.d_qk}$ the gap grows with $d$",
                f"ρ = {rate_text(grow)}",
                "ρ + 2 se < 0",
                interval_below(span(grow.rate, rate_se(grow)), ZERO),
                "the gap at fixed head dimension is not shown to grow: it may stay or fall.",
                book,
            ),
            Claim(
                f"at $d = {r.d}$ the gap exceeds its noise floor at every $d_{{qk}}$",
                f"smallest gap {min(p.gap.ks for p in points):.4f}, "
                f"largest floor {max(p.floor.ks for p in points):.4f}",
                "gap − 2 se > floor + 2 se at every $d_{qk}$",
                all_hold(interval_below(interval(p.floor), interval(p.gap)) for p in points),
                "at some head dimension the gap is within sampling noise of the floor.",
                book,
            ),
            Claim(
                f"at $d = {r.d}$ the gap grows as $d_{{qk}}$ falls",
                " → ".join(fixed(p.gap.ks, 3) for p in points),
                "each gap − 2 se > previous + 2 se",
                all_hold(
                    interval_below(interval(a.gap), interval(b.gap))
                    for a, b in zip(points, points[1:], strict=False)
                ),
                "the gap is not clearly larger at every smaller head dimension.",
                book,
            ),
            Claim(
                f"at $d_{{qk}} \\le {r.d_qk}$ the $\\theta$ of the scores' exact law widens "
                "the gap",
                f"$d_{{qk}} = {r.d_qk}$: {distance_text(head.exact)} against "
                f"{distance_text(head.gap)}",
                "exact-law gap − 2 se > gap + 2 se at each",
                all_hold(interval_below(interval(p.gap), interval(p.exact)) for p in narrow),
                "at some narrow head the exact-law θ does not move the linear model away from "
                "attention by more than the errors.",
                book,
            ),
            Claim(
                "where the law splits off its score band, attention has values in the law's gap",
                f"{len(split)} with $d_{{qk}} < c\\,d$; at $d_{{qk}} = {split[-1].d_qk}$: "
                + " against ".join(
                    format_uncertain(*mean_se(split[-1].outside[m]), 1) for m in ("ref", "lin")
                )
                if split
                else "n/a",
                "counts outside the support: attention − 2 se > linear + 2 se",
                excess,
                "no head dimension of the map is below $c\\,d$ (the test has no case), or "
                "attention's count is within noise of the linear model's.",
                book,
            ),
            Claim(
                r"$\operatorname{std}(D_i)$ equals its exact value at every $d_{qk}$",
                f"largest |z| {max(abs(z) for z in d_z):.1f}",
                "|measured − exact| < 3 se (se over trials)",
                all(abs(z) < 3 for z in d_z),
                "the normalizers' spread differs from the exact formula by more than sampling "
                "noise.",
                book,
            ),
            Claim(
                f"at $d_{{qk}} = {r.d_qk}$ the normalizers are the smallest of the failing steps",
                f"{distance_text(norm)} against {distance_text(later[0])}, "
                f"{distance_text(later[1])}",
                "normalizer step + 2 se < later step − 2 se",
                all_hold(interval_below(interval(norm), interval(x)) for x in later),
                "replacing the normalizers moves the spectrum as much as a later step does.",
                book,
            ),
            Claim(
                f"at $d_{{qk}} = {r.d_qk}$ the key-norm factor and the Hadamard powers both "
                "move the spectrum",
                f"{distance_text(parts[0])} and {distance_text(parts[1])}, floor "
                f"{distance_text(head.floor)}",
                "each part − 2 se > floor + 2 se",
                all_hold(interval_below(interval(head.floor), interval(x)) for x in parts),
                "one of the two parts of the covariance step is within noise of the floor.",
                book,
            ),
            Claim(
                f"$\\Sigma_K \\circ \\Sigma_K$ at $d_{{qk}} = {r.d_qk}$ is full rank but not white",
                f"rank {int(sq.rank.min())} of {r.d}; participation ratio "
                f"{format_uncertain(*pr, ONE_OR_TWO, fallback=1)}",
                "rank = d in every trial, participation ratio + 2 se < d",
                all_hold([bool(np.all(sq.rank == r.d)), interval_below(span(*pr), (r.d,) * 2)]),
                "the Hadamard square is rank-deficient, or its eigenvalues are as even as a white "
                "matrix's.",
                book,
            ),
            Claim(
                r"Gaussian rows of covariance $\Sigma_G$ and the linear model have the same "
                "spectrum",
                f"largest distance {max(p.chain[('rows_G', 'lin')].ks for p in points):.4f}",
                "≤ floor + 3 se at every $d_{qk}$",
                all(same_law),
                "the two constructions of the linear model differ: a bug in one of them.",
                "sanity check",
            ),
            Claim(
                "the limit law describes the linear model at every ratio",
                ", ".join(f"{ratio_text(c)}: {chk.ks:.4f}" for c, chk in r.law_checks.items()),
                "KS to the law ≤ the two-sample noise floor at the same size",
                all(law_ok.values()),
                "the linear model's bulk is farther from its limit law than two samples are from "
                "each other.",
                book,
            ),
            Claim(
                r"Pennington and Worah's law at $\varphi = \psi = d_{qk}/d$ is this law",
                round_off_bound(self.pw_difference, 1e-8),
                "largest relative difference of the densities ≤ 1e-8",
                bool(self.pw_difference <= 1e-8),
                "their form, read with these ratios, is another law.",
                "Pennington–Worah 2017 (law); this book (re-derivation, correspondence)",
            ),
        ]
