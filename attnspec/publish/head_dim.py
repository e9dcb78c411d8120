r"""Tables, glued values and claims of the head-dimension chapter, from a
:class:`~attnspec.experiments.head_dim.HeadDimStudy`.

Every criterion is tied to a measured standard error or noise floor (jackknife over trials; a
fitted rate takes the larger of its residual and its jackknife standard error).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..experiments.head_dim import HeadDimStudy, TwoSample, rate_se
from ..experiments.normalizer import normalizer_stats
from ..models.head_dim import normalizer_std_exact, theta_exact_law
from ..models.nonlinearity import theta_f
from ..numerics.fitting import RateFit
from ..present.claims import Claim, all_hold, interval_below
from ..present.gluing import uncertain
from ..present.numbers import ONE_OR_TWO, fixed, format_uncertain, round_off_bound
from ..present.tables import markdown_table

#: The chain's steps, in order, with their reader-facing names.
STEPS = {
    ("ref", "no_norm"): "1: normalizers",
    ("no_norm", "rows_f"): "2: Gaussian rows",
    ("rows_f", "rows_G"): "3: covariance",
    ("rows_f", "rows_h"): "3a: key norms",
    ("rows_h", "rows_G"): "3b: Hadamard powers",
    ("rows_G", "lin"): "4: same law (check)",
}


def ratio_text(c: float) -> str:
    """A ratio as a short fraction (``1/16``, denominator at most 64) or with three significant
    digits."""
    q = Fraction(c).limit_denominator(64)
    exact = abs(float(q) - c) < 1e-12 and q.numerator == 1 and q.denominator > 1
    return f"1/{q.denominator}" if exact else f"{c:.3g}"


def series_label(key: tuple[str, float]) -> str:
    """``$d_{qk}/d = 1/16$`` for a fixed ratio, ``$d_{qk} = 64$`` for a fixed head dimension."""
    kind, value = key
    if kind == "ratio":
        return f"$d_{{qk}}/d = {ratio_text(value)}$"
    return f"$d_{{qk}} = {int(value)}$"


def _u(x: TwoSample | None, fallback: int = 4) -> str:
    return "n/a" if x is None else format_uncertain(x.ks, x.se, ONE_OR_TWO, fallback=fallback)


def _rate(fit: RateFit) -> str:
    return format_uncertain(fit.rate, rate_se(fit), ONE_OR_TWO, fallback=2)


def _count(counts: np.ndarray) -> tuple[float, float]:
    se = float(counts.std(ddof=1) / math.sqrt(counts.size)) if counts.size > 1 else math.nan
    return float(counts.mean()), se


def law_table(laws: dict) -> str:
    """Support, mass of the score band, mean and variance of each
    :class:`~attnspec.laws.head_dimension.HeadDimensionLaw` (keyed by ratio)."""
    rows = []
    for c, law in laws.items():
        support = " ∪ ".join(f"[{lo:.3f}, {hi:.3f}]" for lo, hi in law.intervals)
        band = law.interval_masses()[-1] if len(law.intervals) > 1 else math.nan
        rows.append(
            [
                ratio_text(c),
                support,
                fixed(band, 6),
                f"{law.expect(lambda x: x):.6f}",
                f"{law.var():.4f}",
            ]
        )
    header = ["$c = d_{qk}/d$", "support", "band mass", "mean (quadrature)", "variance"]
    return markdown_table(header, rows)


def map_table(study: HeadDimStudy) -> str:
    """Gap, floor, the exact-law model's gap and the counts outside the law's support, per
    :math:`d_{qk}`."""
    rows = []
    for p in study.maps[study.beta]:
        ref, lin = (_count(p.outside[m]) for m in ("ref", "lin"))
        rows.append(
            [
                p.d_qk,
                ratio_text(p.ratio),
                _u(p.gap),
                _u(p.floor),
                _u(p.exact),
                " / ".join(format_uncertain(*c, 1, fallback=1) for c in (ref, lin)),
            ]
        )
    head = [
        "$d_{qk}$",
        "$d_{qk}/d$",
        "gap",
        "noise floor",
        "gap, exact-law θ",
        "outside: ref / lin",
    ]
    return markdown_table(head, rows)


def chain_table(study: HeadDimStudy) -> str:
    """The distance of each step of the chain from attention to its linear model, per
    :math:`d_{qk}`."""
    points = study.maps[study.beta]
    rows = [[p.d_qk] + [_u(p.chain.get(step)) for step in STEPS] for p in points]
    return markdown_table(["$d_{qk}$", *STEPS.values()], rows)


def series_table(study: HeadDimStudy) -> str:
    """The gap over the sizes of each series, and the fitted rate with its two standard errors."""
    sizes = [(p.d, p.trials) for p in next(iter(study.series.values()))]
    rows = []
    for key, points in study.series.items():
        fit = study.rates[key]
        rows.append(
            [series_label(key)]
            + [_u(p.gap) for p in points]
            + [format_uncertain(fit.rate, fit.se, ONE_OR_TWO, fallback=2)]
            + [fixed(fit.se_trials, 2)]
        )
    header = ["series", *(f"$d$ = {d} ({t})" for d, t in sizes), r"rate $\rho$ ± fit", "± trials"]
    return markdown_table(header, rows)


def normalizer_table(study: HeadDimStudy) -> str:
    """The spread of :math:`D_i` against its exact value at d and its limit as d grows."""
    rows = []
    for p in study.maps[study.beta]:
        stats = normalizer_stats(p.D, p.trials)
        rows.append(
            [
                p.d_qk,
                format_uncertain(stats.std, stats.std_se, ONE_OR_TWO, fallback=4),
                fixed(normalizer_std_exact(study.beta, p.d_qk, study.d), 4),
                fixed(normalizer_std_exact(study.beta, p.d_qk), 4),
            ]
        )
    header = [
        "$d_{qk}$",
        r"std $D_i$, measured",
        f"exact, $d$ = {study.d}",
        r"exact, $d \to \infty$",
    ]
    return markdown_table(header, rows)


def beta_table(study: HeadDimStudy) -> str:
    """The figure's data: gap ± se and floor per inverse temperature and head dimension."""
    heads = [p.d_qk for p in study.maps[study.beta]]
    rows = [
        [f"{b:g}"] + [f"{_u(p.gap)} / {fixed(p.floor.ks, 4)}" for p in points]
        for b, points in study.maps.items()
    ]
    return markdown_table(["β", *(f"$d_{{qk}}$ = {k}" for k in heads)], rows)


def values(study: HeadDimStudy) -> dict:
    """Every value the chapter's prose glues (under the prefix ``headdim``)."""
    full, head = study.point(study.d), study.point(study.d_qk)
    smallest = study.maps[study.beta][-1]
    out = {"d": study.d, "beta": study.beta, "d_qk": study.d_qk, "trials": full.trials}
    out |= {"dqk_min": smallest.d_qk, "ks_min_dqk": round(smallest.gap.ks, 3)}
    low = min(study.maps)
    out |= {"beta_lo": low, "ks_beta_lo_full": round(study.point(study.d, low).gap.ks, 4)}
    out["ks_beta_lo_min"] = round(study.maps[low][-1].gap.ks, 3)
    for name, p in (("1000", full), ("64", head)):
        out |= uncertain(f"ks_{name}", p.gap.ks, p.gap.se)
        out |= uncertain(f"floor_{name}", p.floor.ks, p.floor.se)
        out |= uncertain(f"exact_{name}", p.exact.ks, p.exact.se)
        for (a, b), step in p.chain.items():
            out[f"chain_{a}_{b}_{name}"] = round(step.ks, 4)
        for m in ("ref", "rows_f", "rows_G", "lin"):
            out[f"outside_{m}_{name}"] = round(float(p.outside[m].mean()), 1)
    out["ks_64_over_floor"] = round(head.gap.ks / head.floor.ks)
    consecutive = [
        ("ref", "no_norm"),
        ("no_norm", "rows_f"),
        ("rows_f", "rows_G"),
        ("rows_G", "lin"),
    ]
    out["chain_sum_64"] = round(sum(head.chain[k].ks for k in consecutive), 4)
    out["rank2_64"] = study.d_qk * (study.d_qk + 1) // 2
    out["rank2_64_over_d"] = round(out["rank2_64"] / study.d, 1)
    sq = study.hadamard
    out["hadamard_rank_min"] = int(sq.rank.min())
    out |= uncertain("hadamard_pr", float(sq.participation.mean()), _count(sq.participation)[1])
    out["hadamard_pr_over_d"] = round(float(sq.participation.mean()) / study.d, 2)
    out["theta1"] = round(theta_f(study.beta)[0], 4)
    out["theta2"] = round(theta_f(study.beta)[1], 4)
    exact = theta_exact_law(study.beta, study.d_qk)
    out["theta1_exact_64"] = round(exact[0], 4)
    out["theta2_exact_64"] = round(exact[1], 4)
    out["threshold"] = round(study.threshold, 3)
    out["threshold_dqk"] = round(study.threshold * study.d)
    stats = normalizer_stats(head.D, head.trials)
    out |= uncertain("D_std_64", stats.std, stats.std_se)
    out["D_std_64_exact"] = round(normalizer_std_exact(study.beta, study.d_qk, study.d), 4)
    out["D_std_64_limit"] = round(normalizer_std_exact(study.beta, study.d_qk), 4)
    for i, (key, fit) in enumerate(study.rates.items()):
        name = "fixed" if key[0] == "d_qk" else f"ratio{i}"
        out[f"rate_{name}_txt"] = _rate(fit)
    fixed_key = ("d_qk", float(study.d_qk))
    grow = study.rates[fixed_key]
    out["growth_txt"] = format_uncertain(-grow.rate, rate_se(grow), ONE_OR_TWO, fallback=2)
    points = study.series[fixed_key]
    out |= {"fixed_d_min": points[0].d, "fixed_d_max": points[-1].d, "n_sizes": len(points)}
    out |= {
        "fixed_ks_dmin": round(points[0].gap.ks, 3),
        "fixed_ks_dmax": round(points[-1].gap.ks, 3),
    }
    ratio_rates = [f for k, f in study.rates.items() if k[0] == "ratio"]
    out["rate_ratio_min"] = round(min(f.rate for f in ratio_rates), 2)
    out["rate_ratio_max"] = round(max(f.rate for f in ratio_rates), 2)
    checks = study.law_checks
    out["law_ks_max"] = round(max(c.ks for c in checks.values()), 4)
    out["law_d"] = next(iter(checks.values())).d
    out["law_ratios"] = ", ".join(ratio_text(c) for c in checks)
    return out


def map_figure_data(study: HeadDimStudy) -> dict:
    """The arguments of :func:`attnspec.present.plotting.gap_against_ratio`: ratios, gap curves
    per β, the floor's range over β, the size, the critical ratio as a guide. The data a slider over
    β needs."""
    maps = study.maps
    ratios = [q.ratio for q in maps[study.beta]]
    gaps = {
        f"β = {b:g}": ([q.gap.ks for q in pts], [q.gap.se for q in pts]) for b, pts in maps.items()
    }
    floors = np.array([[q.floor.ks for q in pts] for pts in maps.values()])
    guide = {f"band splits off, β = {study.beta:g}": study.threshold}
    floor = (floors.min(axis=0), floors.max(axis=0))
    return dict(ratios=ratios, gaps=gaps, floor=floor, d=study.d, guides=guide)


def series_figure_data(study: HeadDimStudy) -> dict:
    """The series of :func:`attnspec.present.plotting.loglog_fits`: each gap series with its fit
    (legend: the rate with the larger standard error), and the fixed head dimension's floor."""
    out = {}
    for key, points in study.series.items():
        fit = study.rates[key]
        out[f"{series_label(key)}: ρ = {_rate(fit)}"] = (
            [q.gap.ks for q in points],
            [q.gap.se for q in points],
            -fit.rate,
            fit.intercept,
        )
    key = ("d_qk", float(study.d_qk))
    floor = [q.floor for q in study.series[key]]
    out[f"noise floor, {series_label(key)}"] = (
        [f.ks for f in floor],
        [f.se for f in floor],
        math.nan,
        math.nan,
    )
    return out


def span(x: TwoSample) -> tuple[float, float]:
    """A distance's interval, ± 2 standard errors."""
    return (x.ks - 2 * x.se, x.ks + 2 * x.se)


def _span(value: float, se: float) -> tuple[float, float]:
    return (value - 2 * se, value + 2 * se) if math.isfinite(se) else (-math.inf, math.inf)


ZERO = (0.0, 0.0)


def claims(study: HeadDimStudy, pw_difference: float) -> list[Claim]:
    """The chapter's claims; ``pw_difference`` is the largest relative difference between
    Pennington and Worah's density at :math:`\\phi = \\psi = d_{qk}/d` and this book's law. Two
    intervals (± 2 se) are compared by :func:`~attnspec.present.claims.interval_below`."""
    book = "this book"
    points = study.maps[study.beta]
    head = study.point(study.d_qk)
    ratio_fits = {k: f for k, f in study.rates.items() if k[0] == "ratio"}
    grow = study.rates[("d_qk", float(study.d_qk))]
    narrow = [p for p in points if p.d_qk <= study.d_qk]
    split = [p for p in points if p.ratio < study.threshold]
    counts = {p.d_qk: [_span(*_count(p.outside[m])) for m in ("lin", "ref")] for p in split}
    excess = all_hold(interval_below(*counts[p.d_qk]) for p in split) if split else None
    d_z = []
    for p in points:
        stats = normalizer_stats(p.D, p.trials)
        d_z.append((stats.std - normalizer_std_exact(study.beta, p.d_qk, study.d)) / stats.std_se)
    norm = head.chain[("ref", "no_norm")]
    later = [head.chain[("no_norm", "rows_f")], head.chain[("rows_f", "rows_G")]]
    parts = [head.chain[("rows_f", "rows_h")], head.chain[("rows_h", "rows_G")]]
    same_law = [
        p.chain[("rows_G", "lin")].ks
        <= p.floor.ks + 3 * math.hypot(p.chain[("rows_G", "lin")].se, p.floor.se)
        for p in points
    ]
    law_ok = {
        c: chk.ks <= study.series[("ratio", c)][-1].floor.ks for c, chk in study.law_checks.items()
    }
    sq = study.hadamard
    pr = _count(sq.participation)
    return [
        Claim(
            r"at a fixed ratio $d_{qk}/d$ the gap falls as $d$ grows ($\rho$)",
            ", ".join(f"{ratio_text(k[1])}: {_rate(f)}" for k, f in ratio_fits.items()),
            "ρ − 2 se > 0 at every ratio",
            all_hold(interval_below(ZERO, _span(f.rate, rate_se(f))) for f in ratio_fits.values()),
            "at some fixed ratio the gap does not fall with d by more than two standard errors.",
            book,
        ),
        Claim(
            f"at fixed $d_{{qk}} = {study.d_qk}$ the gap grows with $d$",
            f"ρ = {_rate(grow)}",
            "ρ + 2 se < 0",
            interval_below(_span(grow.rate, rate_se(grow)), ZERO),
            "the gap at fixed head dimension is not shown to grow: it may stay or fall.",
            book,
        ),
        Claim(
            f"at $d = {study.d}$ the gap exceeds its noise floor at every $d_{{qk}}$",
            f"smallest gap {min(p.gap.ks for p in points):.4f}, "
            f"largest floor {max(p.floor.ks for p in points):.4f}",
            "gap − 2 se > floor + 2 se at every $d_{qk}$",
            all_hold(interval_below(span(p.floor), span(p.gap)) for p in points),
            "at some head dimension the gap is within sampling noise of the floor.",
            book,
        ),
        Claim(
            f"at $d = {study.d}$ the gap grows as $d_{{qk}}$ falls",
            " → ".join(fixed(p.gap.ks, 3) for p in points),
            "each gap − 2 se > previous + 2 se",
            all_hold(
                interval_below(span(a.gap), span(b.gap))
                for a, b in zip(points, points[1:], strict=False)
            ),
            "the gap is not clearly larger at every smaller head dimension.",
            book,
        ),
        Claim(
            f"at $d_{{qk}} \\le {study.d_qk}$ the $\\theta$ of the scores' exact law widens "
            "the gap",
            f"$d_{{qk}} = {study.d_qk}$: {_u(head.exact)} against {_u(head.gap)}",
            "exact-law gap − 2 se > gap + 2 se at each",
            all_hold(interval_below(span(p.gap), span(p.exact)) for p in narrow),
            "at some narrow head the exact-law θ does not move the linear model away from "
            "attention by more than the errors.",
            book,
        ),
        Claim(
            "where the law splits off its score band, attention has values in the law's gap",
            f"{len(split)} with $d_{{qk}} < c\\,d$; at $d_{{qk}} = {split[-1].d_qk}$: "
            + " against ".join(
                format_uncertain(*_count(split[-1].outside[m]), 1) for m in ("ref", "lin")
            )
            if split
            else "n/a",
            "counts outside the support: attention − 2 se > linear + 2 se",
            excess,
            "no head dimension of the map is below $c\\,d$ (the test has no case), or attention's "
            "count is within noise of the linear model's.",
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
            f"at $d_{{qk}} = {study.d_qk}$ the normalizers are the smallest of the failing steps",
            f"{_u(norm)} against {_u(later[0])}, {_u(later[1])}",
            "normalizer step + 2 se < later step − 2 se",
            all_hold(interval_below(span(norm), span(x)) for x in later),
            "replacing the normalizers moves the spectrum as much as a later step does.",
            book,
        ),
        Claim(
            f"at $d_{{qk}} = {study.d_qk}$ the key-norm factor and the Hadamard powers both move "
            "the spectrum",
            f"{_u(parts[0])} and {_u(parts[1])}, floor {_u(head.floor)}",
            "each part − 2 se > floor + 2 se",
            all_hold(interval_below(span(head.floor), span(x)) for x in parts),
            "one of the two parts of the covariance step is within noise of the floor.",
            book,
        ),
        Claim(
            f"$\\Sigma_K \\circ \\Sigma_K$ at $d_{{qk}} = {study.d_qk}$ is full rank but not white",
            f"rank {int(sq.rank.min())} of {study.d}; participation ratio "
            f"{format_uncertain(*pr, ONE_OR_TWO, fallback=1)}",
            "rank = d in every trial, participation ratio + 2 se < d",
            all_hold(
                [bool(np.all(sq.rank == study.d)), interval_below(_span(*pr), (study.d,) * 2)]
            ),
            "the Hadamard square is rank-deficient, or its eigenvalues are as even as a white "
            "matrix's.",
            book,
        ),
        Claim(
            r"Gaussian rows of covariance $\Sigma_G$ and the linear model have the same spectrum",
            f"largest distance {max(p.chain[('rows_G', 'lin')].ks for p in points):.4f}",
            "≤ floor + 3 se at every $d_{qk}$",
            all(same_law),
            "the two constructions of the linear model differ: a bug in one of them.",
            "sanity check",
        ),
        Claim(
            "the limit law describes the linear model at every ratio",
            ", ".join(f"{ratio_text(c)}: {chk.ks:.4f}" for c, chk in study.law_checks.items()),
            "KS to the law ≤ the two-sample noise floor at the same size",
            all(law_ok.values()),
            "the linear model's bulk is farther from its limit law than two samples are from each "
            "other.",
            book,
        ),
        Claim(
            r"Pennington and Worah's law at $\varphi = \psi = d_{qk}/d$ is this law",
            round_off_bound(pw_difference, 1e-8),
            "largest relative difference of the densities ≤ 1e-8",
            bool(pw_difference <= 1e-8),
            "their form, read with these ratios, is another law.",
            "Pennington–Worah 2017 (law); this book (re-derivation, correspondence)",
        ),
    ]


def bound_text(difference: float, bound: float = 1e-8) -> str:
    """A difference that is zero in exact arithmetic, as a bound when it is below ``bound``."""
    return f"largest relative difference {round_off_bound(difference, bound)}"


def grid_text(study: HeadDimStudy) -> str:
    """The grid of the trials, one line for the map and one per series (trials in brackets)."""
    heads = ", ".join(str(q.d_qk) for q in study.maps[study.beta])
    temps = ", ".join(f"{b:g}" for b in study.maps)
    trials = study.maps[study.beta][0].trials
    lines = [f"map: d = {study.d}; d_qk = {heads}; beta = {temps}; {trials} trials each"]
    for (kind, value), points in study.series.items():
        sizes = ", ".join(f"{q.d} ({q.trials})" for q in points)
        lines.append(f"series at {kind} = {value:g}: d = {sizes}")
    return "\n".join(lines)
