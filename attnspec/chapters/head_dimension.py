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
from fractions import Fraction
from typing import Any

import numpy as np

from ..experiments.head_dim import TwoSample, rate_se, run_study
from ..experiments.head_dim_scaling import run_alpha_scan
from ..experiments.normalizer import normalizer_stats
from ..laws.head_dimension import HeadDimensionLaw
from ..laws.pennington_worah_general import pennington_worah_general_pdf
from ..models.head_dim import normalizer_std_exact, theta_exact_law
from ..models.nonlinearity import theta_f
from ..numerics.fitting import RateFit
from ..present import plotting
from ..present.claims import Claim, all_hold, interval_below
from ..present.gluing import uncertain
from ..present.numbers import ONE_OR_TWO, fixed, format_uncertain, round_off_bound
from ..present.tables import markdown_table
from .base import ChapterStudy
from .declarations import HEAD_DIMENSION

#: The chain's steps, in order, with their reader-facing names.
STEPS = {
    ("ref", "no_norm"): "1: normalizers",
    ("no_norm", "rows_f"): "2: Gaussian rows",
    ("rows_f", "rows_G"): "3: covariance",
    ("rows_f", "rows_h"): "3a: key norms",
    ("rows_h", "rows_G"): "3b: Hadamard powers",
    ("rows_G", "lin"): "4: same law (check)",
}
#: The exponent where the degree-2 Hadamard block stops being of rank much larger than d.
HEURISTIC_ALPHA = 0.5
#: The parameters of the scan over :math:`\alpha` (the others are those of the study).
SCAN = ("alphas", "alpha_d_values", "real_contexts")
ZERO = (0.0, 0.0)


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


def mean_se(counts: np.ndarray) -> tuple[float, float]:
    """Mean and standard error :math:`s/\\sqrt n` over trials (NaN standard error for one)."""
    se = float(counts.std(ddof=1) / math.sqrt(counts.size)) if counts.size > 1 else math.nan
    return float(counts.mean()), se


def span(value: float, se: float) -> tuple[float, float]:
    """The interval value ± 2 se (the whole line when se is not finite)."""
    return (value - 2 * se, value + 2 * se) if math.isfinite(se) else (-math.inf, math.inf)


def interval(x: TwoSample) -> tuple[float, float]:
    """A distance's interval, ± 2 standard errors."""
    return span(x.ks, x.se)


def real_exponents(d_qk: int, contexts) -> tuple[float, float]:
    r"""The exponents :math:`\log d_{qk}/\log n` of a head dimension at the longest and the
    shortest context n."""
    return math.log(d_qk) / math.log(max(contexts)), math.log(d_qk) / math.log(min(contexts))


class HeadDimension(ChapterStudy):
    r"""The limit laws at the series' ratios against Pennington and Worah's density at
    :math:`\phi = \psi = c`, the study of :func:`~attnspec.experiments.head_dim.run_study` (map,
    series, chain, law checks) and the scan :math:`d_{qk} = \lceil d^\alpha\rceil` of
    :func:`~attnspec.experiments.head_dim_scaling.run_alpha_scan`."""

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

    def _nearest(self, alpha: float) -> float:
        return min(self.scan.alphas, key=lambda a: abs(a - alpha))

    def _alpha_rate(self, alpha: float) -> str:
        return rate_text(self.scan.rates[alpha])

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
        return self.map_values() | self.scan_values()

    def map_values(self) -> dict[str, Any]:
        """The values glued from the study: map, chain, series, normalizers, laws."""
        r = self.result
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

    def scan_values(self) -> dict[str, Any]:
        """The values glued from the scan over :math:`\\alpha` and the real head."""
        scan, (d_qk, contexts) = self.scan, self.real
        cross = scan.crossing
        out = {"alpha_d_min": scan.d_values[0], "alpha_d_max": scan.d_values[-1]}
        out |= {"alpha_min": min(scan.alphas), "alpha_max": max(scan.alphas)}
        out |= {"alpha_n": len(scan.alphas), "alpha_heuristic": HEURISTIC_ALPHA}
        if math.isfinite(cross.alpha):
            out |= uncertain("alpha_star", cross.alpha, cross.se)
            out |= {"alpha_bracket_lo": cross.bracket[0], "alpha_bracket_hi": cross.bracket[1]}
        else:
            out |= {"alpha_star": math.nan, "alpha_star_se": math.nan, "alpha_star_txt": "n/a"}
            out |= {"alpha_bracket_lo": math.nan, "alpha_bracket_hi": math.nan}
        for name, target in (("0_75", 0.75), ("0_5", 0.5)):
            a = self._nearest(target)
            out |= uncertain(f"alpha_rate_{name}", *scan.rate(a))
            out[f"alpha_rate_{name}_alpha"] = a
        low = min(scan.alphas)
        out |= uncertain("alpha_rate_low", *scan.rate(low))
        pts = scan.points[low]
        out |= {
            "alpha_low_ks_dmin": round(pts[0].gap.ks, 3),
            "alpha_low_ks_dmax": round(pts[-1].gap.ks, 3),
        }
        lo, hi = real_exponents(d_qk, contexts)
        out |= {"real_alpha_min": round(lo, 4), "real_alpha_max": round(hi, 4)}
        out |= {"real_n_min": min(contexts), "real_n_max": max(contexts)}
        out["real_n_boundary"] = d_qk * d_qk // 2  # d_qk = sqrt(2 n)
        return out

    def tables(self) -> dict[str, str]:
        return {
            "laws": self.law_table(),
            "map": self.map_table(),
            "series": self.series_table(),
            "scan": self.scan_table(),
            "normalizers": self.normalizer_table(),
            "chain": self.chain_table(),
            "beta": self.beta_table(),
        }

    def law_table(self) -> str:
        """Support, mass of the score band, mean and variance of each law, by ratio."""
        rows = []
        for c, law in self.laws.items():
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

    def map_table(self) -> str:
        """Gap, floor, the exact-law model's gap and the counts outside the law's support, per
        :math:`d_{qk}`."""
        rows = []
        for p in self.result.maps[self.result.beta]:
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

    def chain_table(self) -> str:
        """The distance of each step of the chain from attention to its linear model, per
        :math:`d_{qk}`."""
        points = self.result.maps[self.result.beta]
        rows = [[p.d_qk] + [distance_text(p.chain.get(step)) for step in STEPS] for p in points]
        return markdown_table(["$d_{qk}$", *STEPS.values()], rows)

    def series_table(self) -> str:
        """The gap over the sizes of each series, and the fitted rate with its two standard
        errors."""
        r = self.result
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

    def normalizer_table(self) -> str:
        """The spread of :math:`D_i` against its exact value at d and its limit as d grows."""
        r = self.result
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

    def beta_table(self) -> str:
        """The map figure's data: gap ± se and floor per inverse temperature and head dimension."""
        r = self.result
        heads = [p.d_qk for p in r.maps[r.beta]]
        rows = [
            [f"{b:g}"] + [f"{distance_text(p.gap)} / {fixed(p.floor.ks, 4)}" for p in points]
            for b, points in r.maps.items()
        ]
        return markdown_table(["β", *(f"$d_{{qk}}$ = {k}" for k in heads)], rows)

    def scan_table(self) -> str:
        """Per exponent: the head dimensions over the sizes, the gap ± se at each size, the
        rate."""
        scan = self.scan
        rows = []
        for a in scan.alphas:
            pts = scan.points[a]
            rows.append(
                [f"{a:g}", " → ".join(str(p.d_qk) for p in pts)]
                + [format_uncertain(p.gap.ks, p.gap.se, ONE_OR_TWO, fallback=3) for p in pts]
                + [self._alpha_rate(a)]
            )
        trials = [p.trials for p in scan.points[scan.alphas[0]]]
        header = [
            r"$\alpha$",
            "$d_{qk}$",
            *(f"$d$ = {d} ({t})" for d, t in zip(scan.d_values, trials, strict=True)),
            r"rate $\rho$",
        ]
        return markdown_table(header, rows)

    def figures(self) -> dict[str, Any]:
        r, scan, (d_qk, contexts) = self.result, self.scan, self.real

        def alpha():
            cross = scan.crossing
            lo, hi = real_exponents(d_qk, contexts)
            return plotting.rate_against_exponent(
                alphas=list(scan.alphas),
                rates=[scan.rate(a)[0] for a in scan.alphas],
                errors=[scan.rate(a)[1] for a in scan.alphas],
                crossing=(cross.alpha, cross.se),
                guides={"Hadamard-power hypothesis, α = 1/2": HEURISTIC_ALPHA},
                spans={f"$d_{{qk}}$ = {d_qk}, $n$ = {min(contexts)}–{max(contexts)}": (lo, hi)},
            )

        def alpha_series():
            # the gap over d at each exponent, with its fit (legend: the rate, larger se)
            series = {}
            for a in scan.alphas:
                fit = scan.rates[a]
                pts = scan.points[a]
                series[f"α = {a:g}: ρ = {self._alpha_rate(a)}"] = (
                    [p.gap.ks for p in pts],
                    [p.gap.se for p in pts],
                    -fit.rate,
                    fit.intercept,
                )
            fig = plotting.loglog_fits(scan.d_values, series, "$d$", "gap")
            return plotting.legible(fig)

        def gap_map():
            # the gap curves per β, the floor's range over β, the critical ratio as a guide
            maps = r.maps
            gaps = {
                f"β = {b:g}": ([q.gap.ks for q in pts], [q.gap.se for q in pts])
                for b, pts in maps.items()
            }
            floors = np.array([[q.floor.ks for q in pts] for pts in maps.values()])
            return plotting.gap_against_ratio(
                ratios=[q.ratio for q in maps[r.beta]],
                gaps=gaps,
                floor=(floors.min(axis=0), floors.max(axis=0)),
                d=r.d,
                guides={f"band splits off, β = {r.beta:g}": r.threshold},
            )

        def series():
            # each gap series with its fit, and the fixed head dimension's floor
            out = {}
            for key, points in r.series.items():
                fit = r.rates[key]
                out[f"{series_label(key)}: ρ = {rate_text(fit)}"] = (
                    [q.gap.ks for q in points],
                    [q.gap.se for q in points],
                    -fit.rate,
                    fit.intercept,
                )
            key = ("d_qk", float(r.d_qk))
            floor = [q.floor for q in r.series[key]]
            out[f"noise floor, {series_label(key)}"] = (
                [f.ks for f in floor],
                [f.se for f in floor],
                math.nan,
                math.nan,
            )
            fig = plotting.loglog_fits(sorted(self.params["d_values"]), out, "$d$", "gap")
            return plotting.legible(fig)

        return {
            "fig_alpha": alpha,
            "fig_alpha_series": alpha_series,
            "fig_map": gap_map,
            "fig_series": series,
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
        half = self._nearest(HEURISTIC_ALPHA)
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
                ", ".join(f"{a:g}: {self._alpha_rate(a)}" for a in above),
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
                + f"ρ({half:g}) = {self._alpha_rate(half)}",
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
                ", ".join(f"{a:g}: {self._alpha_rate(a)}" for a in below) or "no α below α*",
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
