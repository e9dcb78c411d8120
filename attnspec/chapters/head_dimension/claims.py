r"""The head-dimension chapter's claims: the gap's rates, its floor and its causes, the checks of
the linear model and of its limit law, and the Hermite-block series. Every criterion is tied to a
measured standard error or noise floor (jackknife over trials; a fitted rate takes the larger of its
residual and its jackknife standard error): every interval is a value ± 2 standard errors, and two
of them are compared by :func:`~attnspec.numerics.intervals.interval_below`."""

from __future__ import annotations

import math

import numpy as np

from ...experiments.head_dimension import TwoSample, mean_se, rate_se
from ...experiments.head_dimension_blocks import BlockSeries
from ...experiments.normalizer import normalizer_stats
from ...models.head_dimension import normalizer_std_exact
from ...numerics.intervals import all_hold, interval_below
from ...present.claims import Claim
from ...present.formatting import ONE_OR_TWO, fixed, format_uncertain, round_off_bound
from ..shared import ZERO, span
from .tables import distance_text, exponent_text, rate_text, ratio_text


def interval(x: TwoSample) -> tuple[float, float]:
    """A distance's interval, ± 2 standard errors."""
    return span(x.ks, x.se)


def map_claims(study) -> list[Claim]:
    """The study's claims: rates, the gap against its floor and across :math:`d_{qk}`, its
    causes, the checks of the linear model and of its limit law."""
    book = "this book"
    r = study.result
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
    law_ok = {c: chk.ks <= r.series[("ratio", c)][-1].floor.ks for c, chk in r.law_checks.items()}
    sq = r.hadamard
    pr = mean_se(sq.participation)
    return [
        Claim(
            r"at a fixed ratio $d_{qk}/d$ the gap falls as $d$ grows ($\rho$)",
            ", ".join(f"{ratio_text(k[1])}: {rate_text(f)}" for k, f in ratio_fits.items()),
            "ρ − 2 se > 0 at every ratio",
            all_hold(interval_below(ZERO, span(f.rate, rate_se(f))) for f in ratio_fits.values()),
            "at some fixed ratio the gap does not fall with d by more than two standard errors.",
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
            f"at $d_{{qk}} \\le {r.d_qk}$ the $\\theta$ of the scores' exact law widens the gap",
            f"$d_{{qk}} = {r.d_qk}$: {distance_text(head.exact)} against {distance_text(head.gap)}",
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
            "the normalizers' spread differs from the exact formula by more than sampling noise.",
            book,
        ),
        Claim(
            f"at $d_{{qk}} = {r.d_qk}$ the normalizers are the smallest of the failing steps",
            f"{distance_text(norm)} against {distance_text(later[0])}, {distance_text(later[1])}",
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
            round_off_bound(study.pw_difference, 1e-8),
            "largest relative difference of the densities ≤ 1e-8",
            bool(study.pw_difference <= 1e-8),
            "their form, read with these ratios, is another law.",
            "Pennington–Worah 2017 (law); this book (re-derivation, correspondence)",
        ),
    ]


def block_claims(all_series: list[BlockSeries]) -> list[Claim]:
    """The claims of the Hermite-block part: the law against sampled :math:`Y_k`, attention
    nearer the best :math:`Y_k` law than the linear model's and falling, the asymptotic
    statement (open)."""
    book = "this book"
    first = all_series[0]
    k_max = len(first.points[0].ratios)
    out = []
    for k in range(1, k_max + 1):
        pts = [p for s in all_series for p in s.points]
        above = [
            interval_below(span(p.floor[k].ks, p.floor[k].se), span(p.check[k].ks, p.check[k].se))
            for p in pts
        ]
        verdict = (
            False
            if any(x is True for x in above)
            else (True if all(p.check[k].ks <= p.floor[k].ks for p in pts) else None)
        )
        out.append(
            Claim(
                f"the limit law of $Y_{k}$ describes sampled $Y_{k}$ at every size",
                f"{fixed(min(p.check[k].ks for p in pts), 4)}–"
                f"{fixed(max(p.check[k].ks for p in pts), 4)}; floors "
                f"{fixed(min(p.floor[k].ks for p in pts), 4)}–"
                f"{fixed(max(p.floor[k].ks for p in pts), 4)}",
                "KS to the law ≤ two-sample floor (✓); law − 2 se > floor + 2 se somewhere (✗)",
                verdict,
                f"sampled $Y_{k}$ is farther from the law than two samples are from each other "
                "at some size; whether it is the limit is open (the conjecture is asymptotic)"
                if verdict is False
                else "within two standard errors of the floor, not below it.",
                "Pennington–Worah 2017 (k = 1); this book (conjecture, k ≥ 2)",
            )
        )
    for s in all_series:
        a = exponent_text(s.alpha)
        best, fit = s.best, s.rates[s.best]
        below = all_hold(
            interval_below(
                span(p.to_law[best].ks, p.to_law[best].se), span(p.to_law[1].ks, p.to_law[1].se)
            )
            for p in s.points
        )
        jack = (
            ""
            if math.isfinite(fit.se)
            else " (too few sizes for a residual error: jackknife over trials only)"
        )
        out += [
            Claim(
                f"at $d_{{qk}} = d^{{{a}}}$ attention is nearer the law of $Y_{best}$ than the "
                "linear model's at every size",
                " … ".join(
                    f"{p.d}: {fixed(p.to_law[best].ks, 3)} against {fixed(p.to_law[1].ks, 3)}"
                    for p in (s.points[0], s.points[-1])
                ),
                "distance + 2 se < linear model's − 2 se at every d",
                below,
                "at some size the two distances are not separated by their errors.",
                book,
            ),
            Claim(
                f"at $d_{{qk}} = d^{{{a}}}$ attention's distance to the law of $Y_{best}$ falls "
                "with d",
                f"ρ = {format_uncertain(fit.rate, rate_se(fit), ONE_OR_TWO, fallback=2)}{jack}",
                "ρ − 2 se > 0",
                interval_below(ZERO, span(fit.rate, rate_se(fit))),
                "the rate is not resolved from 0 on these sizes.",
                book,
            ),
        ]
    out.append(
        Claim(
            "at $d_{qk} = d^{1/2}$ attention's bulk tends to the law of $Y_2$ (block 2 at a "
            "fixed ratio, block 1 outliers, the rest noise)",
            f"distance at d = {first.points[-1].d}: "
            + distance_text(first.points[-1].to_law[min(2, k_max)]),
            "asymptotic: ○ unless the law predicts the finite-d values and they agree",
            None,
            "an asymptotic statement: a falling distance over a finite window neither proves nor "
            "refutes it, and at these sizes attention is not within the noise floor of the law.",
            "this book (conjecture)",
        )
    )
    return out
