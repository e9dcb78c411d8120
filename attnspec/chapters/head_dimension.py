r"""Chapter "Beyond ℓ = d = d_qk": the gap between the bulks of :math:`\sqrt d A_\perp` and of its
linear model :math:`Y^{\rm lin} = (\sqrt{\theta_2}\,S + \sqrt{\theta_1 - \theta_2}\,W)/\sqrt d` at
a head dimension :math:`d_{qk} \ne d`, its causes, the limit law at :math:`d_{qk} = c\,d`, and
the boundary :math:`\alpha^*` where the rate :math:`\rho(\alpha)` of gap :math:`\propto d^{-\rho}`
along :math:`d_{qk} = \lceil d^\alpha\rceil` crosses 0.

Every criterion is tied to a measured standard error or noise floor (jackknife over trials; a
fitted rate takes the larger of its residual and its jackknife standard error): every interval is a
value ± 2 standard errors, and two of them are compared by
:func:`~attnspec.present.claims.interval_below`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..experiments.head_dim import TwoSample, rate_se, run_study
from ..experiments.head_dim_scaling import run_alpha_scan
from ..experiments.normalizer import normalizer_stats
from ..laws.head_dimension import HeadDimensionLaw
from ..laws.pennington_worah_general import pennington_worah_general_pdf
from ..models.head_dim import normalizer_std_exact
from ..models.nonlinearity import theta_f
from ..present.claims import Claim, all_hold, interval_below
from ..present.numbers import ONE_OR_TWO, fixed, format_uncertain, round_off_bound
from . import head_dimension_figures, head_dimension_tables
from .base import ChapterStudy
from .declarations import HEAD_DIMENSION
from .head_dimension_tables import (
    HEURISTIC_ALPHA,
    distance_text,
    mean_se,
    rate_text,
    ratio_text,
    real_exponents,
)

#: The parameters of the scan over :math:`\alpha` (the others are those of the study).
SCAN = ("alphas", "alpha_d_values", "real_contexts")
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
    series, chain, law checks) and the scan :math:`d_{qk} = \lceil d^\alpha\rceil` of
    :func:`~attnspec.experiments.head_dim_scaling.run_alpha_scan`. Its values and tables are
    written by :mod:`~attnspec.chapters.head_dimension_tables`, its figures drawn by
    :mod:`~attnspec.chapters.head_dimension_figures`."""

    name = "head-dimension"
    prefix = "headdim"
    parameters = HEAD_DIMENSION

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
        self.result = run_study(**{k: v for k, v in p.items() if k not in SCAN})
        # the gap along d_qk = ceil(d^alpha) over the sizes, its rates and where they cross 0
        keys = ("beta", "seed", "pooled_values", "remove_top_k")
        self.scan = run_alpha_scan(p["alphas"], p["alpha_d_values"], **{k: p[k] for k in keys})

    # ---- derived quantities --------------------------------------------------------------------

    @property
    def real(self) -> tuple[int, list[int]]:
        """A real head: its :math:`d_{qk}` and its contexts n."""
        return self.params["d_qk"], self.params["real_contexts"]

    def nearest_alpha(self, alpha: float) -> float:
        """The scan's exponent nearest to ``alpha``."""
        return min(self.scan.alphas, key=lambda a: abs(a - alpha))

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
        return head_dimension_tables.map_values(self) | head_dimension_tables.scan_values(self)

    def tables(self) -> dict[str, str]:
        return {
            "laws": head_dimension_tables.law_table(self),
            "map": head_dimension_tables.map_table(self),
            "series": head_dimension_tables.series_table(self),
            "scan": head_dimension_tables.scan_table(self),
            "normalizers": head_dimension_tables.normalizer_table(self),
            "chain": head_dimension_tables.chain_table(self),
            "beta": head_dimension_tables.beta_table(self),
        }

    def figures(self) -> dict[str, Any]:
        return {
            "fig_alpha": lambda: head_dimension_figures.rate_by_exponent(self),
            "fig_alpha_series": lambda: head_dimension_figures.gap_by_exponent(self),
            "fig_map": lambda: head_dimension_figures.gap_map(self),
            "fig_series": lambda: head_dimension_figures.gap_series(self),
        }

    def claims(self) -> list[Claim]:
        return self.map_claims() + self.scan_claims()

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

    def scan_claims(self) -> list[Claim]:
        """The scan's claims: where the rate is positive, the boundary, the Hadamard-power
        hypothesis, the gap below the boundary, where real heads sit."""
        book = "this book"
        scan, (d_qk, contexts) = self.scan, self.real
        cross = scan.crossing
        found = math.isfinite(cross.alpha)
        star = span(cross.alpha, cross.se) if found else None
        above = [a for a in scan.alphas if a > HEURISTIC_ALPHA]
        half = self.nearest_alpha(HEURISTIC_ALPHA)
        # the hypothesis: rho > 0 above 1/2, rho <= 0 at and below it, so alpha* = 1/2
        at_half = interval_below(ZERO, span(*scan.rate(half)))  # True: the gap still falls at 1/2
        separated = interval_below(star, (HEURISTIC_ALPHA,) * 2) if found else None
        hypothesis = all_hold([False if at_half else None, None if separated is None else False])
        below = [a for a in scan.alphas if found and a < cross.alpha]
        grows = [interval_below(span(*scan.rate(a)), ZERO) for a in below]
        lo, hi = real_exponents(d_qk, contexts)
        bound = {"below": f"α* < {min(scan.alphas):g}", "above": f"α* > {max(scan.alphas):g}"}
        star_text = format_uncertain(cross.alpha, cross.se, ONE_OR_TWO, fallback=2)
        return [
            Claim(
                rf"at $d_{{qk}} = \lceil d^\alpha \rceil$, $\alpha >$ {HEURISTIC_ALPHA:g}, the gap "
                "falls as d grows",
                ", ".join(f"{a:g}: {rate_text(scan.rates[a])}" for a in above),
                "ρ − 2 se > 0 at every such α",
                all_hold(interval_below(ZERO, span(*scan.rate(a))) for a in above),
                "at some exponent above 1/2 the rate is not resolved from 0.",
                book,
            ),
            Claim(
                "the rate ρ(α) crosses 0 inside the measured range",
                f"α* = {star_text}"
                if found
                else bound.get(cross.bound, "ρ changes sign more than once"),
                "a sign change of ρ between neighbouring α",
                True if found else None,
                "ρ does not change sign on the measured range: α* is only bounded.",
                book,
            ),
            Claim(
                "Hadamard-power hypothesis: α* = 1/2",
                (f"α* = {star_text}; " if found else "")
                + f"ρ({half:g}) = {rate_text(scan.rates[half])}",
                "✗ if α* ± 2 se excludes 1/2 or ρ(1/2) − 2 se > 0, else ○",
                hypothesis,
                "on these sizes the gap still falls at α = 1/2, or the crossing lies apart from "
                "it: the degree-2 block's rank reaching d does not stop the convergence here."
                if hypothesis is False
                else "the data cannot tell the boundary from 1/2: consistent with the hypothesis, "
                "which a point prediction cannot confirm (the test resolves a shift of 2 se of "
                "α*).",
                "this book (hypothesis)",
            ),
            Claim(
                "below α*, the gap grows with d",
                ", ".join(f"{a:g}: {rate_text(scan.rates[a])}" for a in below) or "no α below α*",
                "ρ + 2 se < 0 at every measured α < α*",
                all_hold(grows) if grows else None,
                "below the boundary the gap is not shown to grow: within the errors it may stay "
                "constant (or no exponent was measured there).",
                book,
            ),
            Claim(
                f"d_qk = {d_qk} at contexts {min(contexts)}–{max(contexts)} lies above α*",
                f"α ∈ [{fixed(lo, 3)}, {fixed(hi, 3)}]"
                + (f", α* + 2 se = {fixed(star[1], 3)}" if found else ""),
                "α* + 2 se below their smallest α",
                interval_below(star, (lo, hi)) if found else None,
                "the boundary is not resolved below the real heads' exponents (X = I_d model).",
                book,
            ),
        ]
