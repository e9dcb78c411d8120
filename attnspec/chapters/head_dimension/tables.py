r"""The glued values and the tables of the head-dimension chapter
(:class:`~attnspec.chapters.head_dimension.study.HeadDimension`), and how the chapter writes its
measurements: a ratio :math:`c = d_{qk}/d` as a fraction, a distance or a fitted rate
:math:`\rho` (gap :math:`\propto d^{-\rho}`) with its standard error. The claims and the figures
write them the same way.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ...experiments.head_dimension import TwoSample, mean_se, rate_se
from ...experiments.head_dimension_blocks import BlockSeries
from ...experiments.normalizer import normalizer_stats
from ...models.head_dimension import normalizer_std_exact, theta_exact_law
from ...models.hermite_blocks import block_rank
from ...models.nonlinearity import theta_f
from ...numerics.fitting import RateFit
from ...present.formatting import ONE_OR_TWO, fixed, format_uncertain
from ...present.gluing import uncertain
from ...present.tables import markdown_table

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
    """The series' label (Markdown): :math:`d_{qk}/d = 1/16` for a fixed ratio,
    :math:`d_{qk} = 64` for a fixed head dimension."""
    kind, value = key
    if kind == "ratio":
        return f"$d_{{qk}}/d = {ratio_text(value)}$"
    return f"$d_{{qk}} = {int(value)}$"


def distance_text(x: TwoSample | None, fallback: int = 4) -> str:
    """A distance ± its standard error, ``n/a`` when it was not computed."""
    return "n/a" if x is None else format_uncertain(x.ks, x.se, ONE_OR_TWO, fallback=fallback)


def rate_text(fit: RateFit) -> str:
    """A fitted rate ± the larger of its two standard errors."""
    return format_uncertain(fit.rate, rate_se(fit), ONE_OR_TWO, fallback=2)


# ---- the glued values ----------------------------------------------------------------------------


def map_values(study) -> dict[str, Any]:
    """The values glued from the study: map, chain, series, normalizers, laws."""
    r = study.result
    full, head = r.point(r.d), r.point(r.d_qk)
    smallest = r.maps[r.beta][-1]
    out = {"d": r.d, "beta": r.beta, "d_qk": r.d_qk, "trials": full.trials}
    out |= {"dqk_min": smallest.d_qk, "ks_min_dqk": round(smallest.gap.ks, 3)}
    low = min(r.maps)
    out |= {"beta_lo": low, "ks_beta_lo_full": round(r.point(r.d, low).gap.ks, 4)}
    out["ks_beta_lo_min"] = round(r.maps[low][-1].gap.ks, 3)
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
    out["rank2_64"] = r.d_qk * (r.d_qk + 1) // 2
    out["rank2_64_over_d"] = round(out["rank2_64"] / r.d, 1)
    sq = r.hadamard
    out["hadamard_rank_min"] = int(sq.rank.min())
    out |= uncertain("hadamard_pr", *mean_se(sq.participation))
    out["hadamard_pr_over_d"] = round(float(sq.participation.mean()) / r.d, 2)
    out["theta1"] = round(theta_f(r.beta)[0], 4)
    out["theta2"] = round(theta_f(r.beta)[1], 4)
    exact = theta_exact_law(r.beta, r.d_qk)
    out["theta1_exact_64"] = round(exact[0], 4)
    out["theta2_exact_64"] = round(exact[1], 4)
    out["threshold"] = round(r.threshold, 3)
    out["threshold_dqk"] = round(r.threshold * r.d)
    stats = normalizer_stats(head.D, head.trials)
    out |= uncertain("D_std_64", stats.std, stats.std_se)
    out["D_std_64_exact"] = round(normalizer_std_exact(r.beta, r.d_qk, r.d), 4)
    out["D_std_64_limit"] = round(normalizer_std_exact(r.beta, r.d_qk), 4)
    for i, (key, fit) in enumerate(r.rates.items()):
        name = "fixed" if key[0] == "d_qk" else f"ratio{i}"
        out[f"rate_{name}_txt"] = rate_text(fit)
    fixed_key = ("d_qk", float(r.d_qk))
    grow = r.rates[fixed_key]
    out["growth_txt"] = format_uncertain(-grow.rate, rate_se(grow), ONE_OR_TWO, fallback=2)
    points = r.series[fixed_key]
    out |= {"fixed_d_min": points[0].d, "fixed_d_max": points[-1].d, "n_sizes": len(points)}
    out["fixed_trials_dmax"] = points[-1].trials
    out |= {
        "fixed_ks_dmin": round(points[0].gap.ks, 3),
        "fixed_ks_dmax": round(points[-1].gap.ks, 3),
    }
    ratio_rates = [f for k, f in r.rates.items() if k[0] == "ratio"]
    out["rate_ratio_min"] = round(min(f.rate for f in ratio_rates), 2)
    out["rate_ratio_max"] = round(max(f.rate for f in ratio_rates), 2)
    checks = r.law_checks
    out["law_ks_max"] = round(max(c.ks for c in checks.values()), 4)
    out["law_d"] = next(iter(checks.values())).d
    out["law_ratios"] = ", ".join(ratio_text(c) for c in checks)
    return out


# ---- the tables ----------------------------------------------------------------------------------


def law_table(study) -> str:
    """Support, mass of the score band, mean and variance of each law, by ratio."""
    rows = []
    for c, law in study.laws.items():
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
    header = ["$c = d_{qk}/d$", "support", "band mass", "mean", "variance"]
    return markdown_table(header, rows)


def map_table(study) -> str:
    """Gap, floor, the exact-law model's gap and the counts outside the law's support, per
    :math:`d_{qk}`."""
    rows = []
    for p in study.result.maps[study.result.beta]:
        ref, lin = (mean_se(p.outside[m]) for m in ("ref", "lin"))
        rows.append(
            [
                p.d_qk,
                ratio_text(p.ratio),
                distance_text(p.gap),
                distance_text(p.floor),
                distance_text(p.exact),
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


def chain_table(study) -> str:
    """The distance of each step of the chain from attention to its linear model, per
    :math:`d_{qk}`."""
    points = study.result.maps[study.result.beta]
    rows = [[p.d_qk] + [distance_text(p.chain.get(step)) for step in STEPS] for p in points]
    return markdown_table(["$d_{qk}$", *STEPS.values()], rows)


def series_table(study) -> str:
    """The gap over the sizes of each series, and the fitted rate with its two standard
    errors."""
    r = study.result
    sizes = [(p.d, p.trials) for p in next(iter(r.series.values()))]
    rows = []
    for key, points in r.series.items():
        fit = r.rates[key]
        rows.append(
            [series_label(key)]
            + [distance_text(p.gap) for p in points]
            + [format_uncertain(fit.rate, fit.se, ONE_OR_TWO, fallback=2)]
            + [fixed(fit.se_trials, 2)]
        )
    header = [
        "series",
        *(f"$d$ = {d} ({t})" for d, t in sizes),
        r"rate $\rho$ ± fit",
        "± trials",
    ]
    return markdown_table(header, rows)


def normalizer_table(study) -> str:
    """The spread of :math:`D_i` against its exact value at d and its limit as d grows."""
    r = study.result
    rows = []
    for p in r.maps[r.beta]:
        stats = normalizer_stats(p.D, p.trials)
        rows.append(
            [
                p.d_qk,
                format_uncertain(stats.std, stats.std_se, ONE_OR_TWO, fallback=4),
                fixed(normalizer_std_exact(r.beta, p.d_qk, r.d), 4),
                fixed(normalizer_std_exact(r.beta, p.d_qk), 4),
            ]
        )
    header = [
        "$d_{qk}$",
        r"std $D_i$, measured",
        f"exact, $d$ = {r.d}",
        r"exact, $d \to \infty$",
    ]
    return markdown_table(header, rows)


def beta_table(study) -> str:
    """The map figure's data: gap ± se and floor per inverse temperature and head dimension."""
    r = study.result
    heads = [p.d_qk for p in r.maps[r.beta]]
    rows = [
        [f"{b:g}"] + [f"{distance_text(p.gap)} / {fixed(p.floor.ks, 4)}" for p in points]
        for b, points in r.maps.items()
    ]
    return markdown_table(["β", *(f"$d_{{qk}}$ = {k}" for k in heads)], rows)


# ---- the Hermite-block series along d_qk = d^alpha, and the real heads ---------------------------

#: The series' names in glue keys, by exponent.
NAMES = {0.5: "half", 0.4: "fifth"}


def exponent_text(alpha: float) -> str:
    """1/2 or 2/5."""
    return {0.5: "1/2", 0.4: "2/5"}.get(alpha, f"{alpha:g}")


def series_values(series: BlockSeries) -> dict[str, Any]:
    """Glued values of one series, at its largest size: attention's distance to the linear
    model's law and to the best :math:`Y_k` law, the best law's rate, the law checks."""
    name, last, best = NAMES[series.alpha], series.points[-1], series.best
    fit = series.rates[best]
    out = {f"{name}_d_min": series.points[0].d, f"{name}_d_max": last.d}
    out |= {f"{name}_dqk_min": series.points[0].d_qk, f"{name}_dqk_max": last.d_qk}
    out |= {f"yk_best_{name}": best, f"{name}_trials_max": last.trials}
    out |= uncertain(f"yk_ks_{name}", last.to_law[best].ks, last.to_law[best].se)
    out |= uncertain(f"lin_ks_{name}", last.to_law[1].ks, last.to_law[1].se)
    out |= uncertain(f"yk_rate_{name}", fit.rate, rate_se(fit))
    out |= uncertain(f"lin_rate_{name}", series.rates[1].rate, rate_se(series.rates[1]))
    out |= uncertain(f"yk_sampled_{name}", last.sampled[best].ks, last.sampled[best].se)
    for k in last.check:
        out[f"check_{name}_{k}"] = round(last.check[k].ks, 4)
        out[f"floor_{name}_{k}"] = round(last.floor[k].ks, 4)
        out[f"check_{name}_{k}_first"] = round(series.points[0].check[k].ks, 4)
    for j, c in enumerate(last.ratios, start=1):
        out[f"c{j}_{name}"] = round(c, 3)
    return out


def real_values(d_qk: int, contexts) -> dict[str, Any]:
    r"""A real head of width :math:`d_{qk}`: its block ratios :math:`r_j/n` at the shortest and
    the longest context, and the context :math:`n = r_2` where block 2's ratio is 1."""
    r2 = block_rank(d_qk, 2)
    out = {"real_n_min": min(contexts), "real_n_max": max(contexts), "real_r2": r2}
    out["real_r3"] = block_rank(d_qk, 3)
    for n, tag in ((min(contexts), "nmin"), (max(contexts), "nmax")):
        out[f"real_c2_{tag}"] = round(r2 / n, 2)
        out[f"real_c3_{tag}"] = round(block_rank(d_qk, 3) / n, 1)
    return out


def block_table(all_series: list[BlockSeries]) -> str:
    r"""Per series and size: :math:`d_{qk}`, the ratios :math:`c_j`, attention's distance to the
    law of each :math:`Y_k`, and each :math:`Y_k`'s own distance to its law / its floor."""
    rows = []
    k_max = len(all_series[0].points[0].ratios)
    for s in all_series:
        for p in s.points:
            rows.append(
                [exponent_text(s.alpha), f"{p.d} ({p.trials})", p.d_qk]
                + [", ".join(f"{c:.3g}" for c in p.ratios)]
                + [distance_text(p.to_law[k]) for k in range(1, k_max + 1)]
                + [
                    f"{fixed(p.check[k].ks, 4)} / {fixed(p.floor[k].ks, 4)}"
                    for k in range(1, k_max + 1)
                ]
            )
    header = [r"$\alpha$", "$d$ (trials)", "$d_{qk}$", "$c_1, c_2, \\dots$"]
    header += [f"to law $Y_{k}$" for k in range(1, k_max + 1)]
    header += [f"$Y_{k}$: law / floor" for k in range(1, k_max + 1)]
    return markdown_table(header, rows)
