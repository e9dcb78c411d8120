r"""Chapter "Convergence in the matrix size": every rung's Kolmogorov distance to the law against
:math:`d`, :math:`D_{\rm KS} \propto d^{-\rho}`, the series at scale of attention and its Gaussian
equivalent, and the linear model's distance against the rigidity scale :math:`\log d/(d\sqrt n)`."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import stats

from ..experiments import convergence as cv
from ..experiments.convergence import DistanceSeries, Rigidity
from ..models.ladder import MODEL_NAMES, REFERENCE
from ..models.nonlinearity import poly_degree
from ..models.notation import symbol
from ..numerics.intervals import all_hold, interval_below
from ..present import interactive, plotting
from ..present.claims import Claim
from ..present.interactive import HTML_SYMBOLS, Series
from ..present.numbers import ONE_OR_TWO, decimals_for, fixed, format_uncertain
from ..present.tables import markdown_table
from ..runner.sweep import SweepRequest, run_sweeps
from .base import ChapterStudy
from .declarations import CONVERGENCE

#: Every rung against the :math:`\theta^f` law, then the Taylor rungs against their :math:`\theta^Q`
#: law.
SERIES = [(m, "f") for m in MODEL_NAMES] + [("Y_Q", "q"), ("Y_Q_lin", "q")]
#: The rungs of the series at scale.
PAIR = (REFERENCE, "Y_f_lin")
THEOREM = "paper, abstract (Gaussian equivalence at constant-order β)"
LAW = {"f": r"$\theta^f$", "q": r"$\theta^Q$"}
NONLINEAR = ("sqrt_d_A", "sqrt_d_A_perp", "Y", "Y_f")
#: Fewest trials whose jackknife error is reported and tested: from 2 trials it rests on one
#: degree of freedom, and it can be off by any factor.
MIN_TRIALS = 3
#: The normal quantile of "3 standard errors", turned into Student's quantile for an error from
#: n trials (n − 1 degrees of freedom) by :func:`t_factor`.
THREE_SIGMA = 0.99865


def reported_se(series: DistanceSeries) -> np.ndarray:
    """The jackknife errors of a series where they rest on at least :data:`MIN_TRIALS` trials,
    NaN elsewhere (not reliable)."""
    return np.where(series.trials >= MIN_TRIALS, series.ks_se, np.nan)


def t_factor(trials: int) -> float:
    r"""Student's quantile :math:`t_{n-1}` at :data:`THREE_SIGMA`: the factor of an error from
    :math:`n` trials that matches 3 standard errors of a known one."""
    return float(stats.t.ppf(THREE_SIGMA, trials - 1))


def uncertain_text(value, se, fallback: int = 4) -> str:
    """``value ± se`` with one or two significant digits of ``se`` (``fallback`` decimals without
    it), as the convergence and threshold chapters print a distance or a rate."""
    return format_uncertain(value, se, ONE_OR_TWO, fallback=fallback)


def rate_text(series: DistanceSeries) -> str:
    """The fitted rate with its standard error, as printed."""
    return uncertain_text(series.fit.rate, series.fit.se, 2)


def _rate_trials(series: DistanceSeries) -> str:
    return fixed(
        series.fit.se_trials, decimals_for(series.fit.se, ONE_OR_TWO, fallback=2), missing="n/a"
    )


def scale_table(at_scale: dict[str, DistanceSeries]) -> str:
    """One row per size of the series at scale: trials, both distances and their ratio."""
    ref, lin = at_scale[REFERENCE], at_scale["Y_f_lin"]
    rows = []
    for i, d in enumerate(ref.d):
        ratio = ref.ks[i] / lin.ks[i]
        rows.append(
            [
                f"{d}",
                f"{ref.trials[i]}",
                uncertain_text(ref.ks[i], reported_se(ref)[i]),
                uncertain_text(lin.ks[i], reported_se(lin)[i]),
                f"{ratio:.1f}",
            ]
        )
    rows.append(
        [
            "rate $\\rho$ ± fit (± trials)",
            "",
            f"{rate_text(ref)} ({_rate_trials(ref)})",
            f"{rate_text(lin)} ({_rate_trials(lin)})",
            "",
        ]
    )
    header = [
        "$d$",
        "trials",
        f"$D_{{\\rm KS}}$, {symbol(REFERENCE)}",
        f"$D_{{\\rm KS}}$, {symbol('Y_f_lin')}",
        "ratio",
    ]
    return markdown_table(header, rows)


def every_rung_table(conv: dict) -> str:
    """One row per rung and law: the distance at the smallest and largest size and the rate."""
    first = next(iter(conv.values()))
    lo, hi = int(first.d[0]), int(first.d[-1])
    rows = [
        [
            symbol(m),
            LAW[t],
            uncertain_text(c.ks[0], c.ks_se[0]),
            uncertain_text(c.ks[-1], c.ks_se[-1]),
            f"{rate_text(c)} ({_rate_trials(c)})",
        ]
        for (m, t), c in conv.items()
    ]
    header = [
        "rung",
        "law",
        f"$D_{{\\rm KS}}$, $d$ = {lo}",
        f"$D_{{\\rm KS}}$, $d$ = {hi}",
        r"rate $\rho$ ± fit (± trials)",
    ]
    return markdown_table(header, rows)


def rigidity_table(rig: Rigidity) -> str:
    r"""The linear model's distance against :math:`\log d/(d\sqrt n)`, one row per size."""
    rows = [
        [f"{d}", f"{n}", f"{k:.5f}", f"{s:.5f}", f"{r:.2f}"]
        for d, n, k, s, r in zip(rig.d, rig.trials, rig.ks, rig.scale, rig.ratio, strict=True)
    ]
    header = [
        "$d$",
        "trials $n$",
        f"$D_{{\\rm KS}}$, {symbol('Y_f_lin')}",
        r"$\log d/(d\sqrt n)$",
        "ratio",
    ]
    return markdown_table(header, rows)


def noise_levels(series: DistanceSeries) -> np.ndarray:
    """The 95 % Kolmogorov level 1.36/sqrt(nd) of as many independent values, at each size."""
    return 1.36 / np.sqrt(series.trials * series.d)


def scale_values(at_scale: dict[str, DistanceSeries], beta: float) -> dict:
    """Glue values of the series at scale (prefix ``conv``)."""
    ref, lin = at_scale[REFERENCE], at_scale["Y_f_lin"]
    ratio = ref.ks[-1] / lin.ks[-1]
    ratio_se = ratio * math.hypot(
        reported_se(ref)[-1] / ref.ks[-1], reported_se(lin)[-1] / lin.ks[-1]
    )
    gap = ref.fit.rate - lin.fit.rate
    gap_se = math.hypot(ref.fit.se, lin.fit.se)
    out = {
        "beta": float(beta),
        "d_max": int(ref.d[-1]),
        "d_scale_min": int(ref.d[0]),
        "n_scale": int(ref.d.size),
        "ratio_ref_lin_dmax": uncertain_text(ratio, ratio_se, 1),
        "rate_gap": uncertain_text(abs(gap), gap_se, 2),
        "rate_gap_z": round(abs(gap) / gap_se, 1) if gap_se > 0 else math.nan,
        "lin_noise_dmax": round(float(noise_levels(lin)[-1]), 4),
    }
    for m, s in at_scale.items():
        digits = decimals_for(s.fit.se, ONE_OR_TWO, fallback=2)
        out |= {
            f"rate_{m}": round(s.fit.rate, digits),
            f"rate_se_{m}": round(s.fit.se, digits),
            f"rate_txt_{m}": rate_text(s),
            f"rate_jk_txt_{m}": _rate_trials(s),
            f"ks_dmin_{m}": round(float(s.ks[0]), 4),
            f"ks_dmax_{m}": round(float(s.ks[-1]), 5),
        }
    return out


def every_values(conv: dict, c_poly: float) -> dict:
    """Glue values of the every-rung series (prefix ``conv``)."""
    out = {}
    for (m, t), c in conv.items():
        suffix = m if t == "f" else f"{m}_q"
        out[f"grid_rate_txt_{suffix}"] = rate_text(c)
        out[f"grid_rate_jk_txt_{suffix}"] = _rate_trials(c)
    rates = [conv[m, "f"].fit.rate for m in NONLINEAR]
    d = next(iter(conv.values())).d
    return out | {
        "rate_nonlinear_min": fixed(min(rates), 2, missing="n/a"),
        "rate_nonlinear_max": fixed(max(rates), 2, missing="n/a"),
        "grid_d_max": int(d[-1]),
        "grid_d_min": int(d[0]),
        "poly_degrees": ", ".join(str(poly_degree(int(v), c_poly)) for v in d),
        "sizes": ", ".join(str(int(v)) for v in d),
    }


def _exponent(rig: Rigidity) -> str:
    return uncertain_text(rig.exponent, rig.se, 2)


def rigidity_values(at_scale: Rigidity, grid: Rigidity) -> dict:
    """Glue values of the rigidity comparison (prefix ``conv``): in both designs, the exponent of
    distance over scale, the rate the scale alone predicts, and the range of the ratio."""
    out = {}
    for key, rig in (("scale", at_scale), ("grid", grid)):
        out |= {
            f"rigidity_exp_{key}": _exponent(rig),
            f"rigidity_rate_{key}": round(rig.scale_rate, 2),
            f"rigidity_ratio_{key}_min": round(float(rig.ratio.min()), 2),
            f"rigidity_ratio_{key}_max": round(float(rig.ratio.max()), 2),
            f"rigidity_detectable_{key}": round(2 * rig.se, 2) if np.isfinite(rig.se) else math.nan,
        }
    return out


def _positive(diff: float, se: float, k: float) -> bool | None:
    """Is ``diff`` above 0? The one verdict rule on ``diff ± k se`` against 0: ○ when that
    interval contains 0."""
    return interval_below((0.0, 0.0), (diff - k * se, diff + k * se))


def _follows_scale(rig: Rigidity) -> bool:
    return bool(np.isfinite(rig.se) and abs(rig.exponent) < 2 * rig.se)


def convergence_claims(conv: dict, at_scale: dict, rig_grid: Rigidity) -> list[Claim]:
    """The convergence chapter's claims."""
    ref, lin = at_scale[REFERENCE], at_scale["Y_f_lin"]
    rates = {
        f"{m} ({t})": c.fit.rate
        for (m, t), c in conv.items()
        if not (m.startswith("Y_Q") and t == "f")
    }
    rates |= {f"{m} (scale)": s.fit.rate for m, s in at_scale.items()}
    finite = all(np.isfinite(r) for r in rates.values())
    noise = noise_levels(lin)
    sizes = [
        _positive(r - l_, math.hypot(er, el), t_factor(n))
        for r, l_, er, el, n in zip(
            ref.ks, lin.ks, reported_se(ref), reported_se(lin), ref.trials, strict=True
        )
        if np.isfinite(er) and np.isfinite(el)
    ]
    tested = int(np.sum(ref.trials >= MIN_TRIALS))
    grid = [c.fit for (m, t), c in conv.items() if not (m.startswith("Y_Q") and t == "f")] + [
        s.fit for s in at_scale.values()
    ]
    falls = all_hold(_positive(f.rate, f.se, 2) for f in grid)
    d_lo = min(min(c.d) for c in conv.values())
    d_hi = max(max(c.d) for c in conv.values())
    apart = all_hold(sizes) if sizes else None
    faster = _positive(ref.fit.rate - lin.fit.rate, math.hypot(ref.fit.se, lin.fit.se), 2)
    return [
        Claim(
            f"every rung's distance to its law falls with $d$ on d = {d_lo}–{d_hi}, and "
            f"attention's and {symbol('Y_f_lin')}'s on d = {min(ref.d)}–{max(ref.d)} "
            r"(Taylor rungs: to the $\theta^Q$ law)",
            f"smallest rate {min(rates.values()):.2f}; smallest rate − 2 se "
            f"{min(f.rate - 2 * f.se for f in grid):.2f}"
            if finite
            else "n/a",
            r"every fitted rate $\rho$ ± 2 se above 0 (a fall over these sizes, not a proof that "
            "the distance tends to 0)",
            falls if finite else None,
            "some rung's distance does not clearly decrease with d at this β (or a series has "
            "fewer than two sizes).",
            THEOREM,
        ),
        Claim(
            r"the linear model's distance is below that of independent values at every size",
            f"{int(np.sum(lin.ks < noise))} of {lin.d.size} sizes",
            r"< $1.36/\sqrt{nd}$, the 95 % Kolmogorov level of $nd$ independent values",
            bool(np.all(lin.ks < noise)),
            "the linear model is farther from its law than sampling noise at some size.",
            "Pennington and Worah (2017): the law of the linear model",
        ),
        Claim(
            r"with a fixed number of trials, the linear model's distance follows the rigidity "
            r"scale $\log d/(d\sqrt n)$",
            f"exponent of distance/scale in $d$: {_exponent(rig_grid)}",
            f"within 2 standard errors of 0 (detects exponents beyond {2 * rig_grid.se:.2f})",
            _follows_scale(rig_grid),
            "the linear model's distance does not scale like log d/(d√n): a finite-d bias, or "
            "fluctuations other than rigidity.",
            "this book",
        ),
        Claim(
            r"attention is farther from the law than its Gaussian equivalent at every size",
            f"{int(np.sum(ref.ks > lin.ks))} of {ref.d.size} sizes farther; tested at the {tested} "
            f"sizes with ≥ {MIN_TRIALS} trials",
            f"difference > $t_{{n-1}}$ jackknife standard errors at each size with ≥ {MIN_TRIALS} "
            "trials (Student's quantile of 3 standard errors for an error from n trials; an "
            "error from fewer trials is not reliable)",
            apart,
            "at some size attention is closer to the law than its Gaussian equivalent."
            if apart is False
            else "at some size the two distances are within sampling noise of each other.",
            "this book",
        ),
        Claim(
            r"attention's distance falls faster with $d$ than the linear model's in the series "
            "at scale",
            f"$\\rho$ {rate_text(ref)} vs {rate_text(lin)}",
            "difference > 2 combined standard errors",
            faster,
            "attention's distance falls more slowly than the linear model's: its excess is not a "
            "systematic deviation that falls on its own."
            if faster is False
            else "attention's rate is within noise of the linear model's: its distance is not a "
            "systematic deviation that falls on its own.",
            "this book",
        ),
    ]


def interactive_series(conv: dict, at_scale: dict) -> list[Series]:
    r"""The series of the interactive distance-against-d figure: every rung of the grid (the
    Taylor rungs also against their :math:`\theta^Q` law), then the two series at scale, hidden at
    first."""
    out = []
    for (m, t), c in conv.items():
        label = HTML_SYMBOLS[m] + (" vs θ<sup>Q</sup> law" if t == "q" else "")
        out.append(Series(label, c.d, c.ks, reported_se(c), (c.fit.rate, c.fit.intercept)))
    for m, s in at_scale.items():
        out.append(
            Series(
                f"{HTML_SYMBOLS[m]}, series at scale",
                s.d,
                s.ks,
                reported_se(s),
                (s.fit.rate, s.fit.intercept),
                visible=False,
            )
        )
    return out


class Convergence(ChapterStudy):
    """The two series of trials (every rung at ``d_values``; attention and its Gaussian
    equivalent at ``d_scale``, with about ``pooled_values`` bulk values per size), each rung's
    distance series and the linear model against the rigidity scale."""

    name = "convergence"
    prefix = "conv"
    parameters = CONVERGENCE

    def compute(self) -> None:
        c = self.config
        self.grid_d = sorted(set(self.params["d_values"]))
        self.scale_d = sorted(set(self.params["d_scale"]))
        self.scale_trials = cv.trials_for_pooled(self.scale_d, self.params["pooled_values"])
        column, scale = run_sweeps(
            [
                SweepRequest(self.grid_d, [c.beta], c.trials),  # every rung
                SweepRequest(self.scale_d, [c.beta], self.scale_trials, PAIR),  # at scale
            ],
            seed=c.seed,
            c_poly=c.c_poly,
            remove_top_k=c.remove_top_k,
        )
        self.conv = {(m, t): cv.distance_series(column.ladders, m, t) for m, t in SERIES}
        self.at_scale = {m: cv.distance_series(scale.ladders, m) for m in PAIR}
        self.rigidity = {  # the linear model against the rigidity scale log d / (d sqrt n)
            "scale": cv.rigidity(self.at_scale["Y_f_lin"]),  # n falls like 1/d
            "grid": cv.rigidity(self.conv["Y_f_lin", "f"]),  # n fixed
        }

    def values(self) -> dict[str, Any]:
        c = self.config
        trials = ", ".join(f"{self.scale_trials[v]} at {v}" for v in self.scale_d)
        return (
            scale_values(self.at_scale, c.beta)
            | {"scale_trials": trials}
            | rigidity_values(self.rigidity["scale"], self.rigidity["grid"])
            | every_values(self.conv, c.c_poly)
            | {"trials": c.trials, "min_trials": MIN_TRIALS}
        )

    def tables(self) -> dict[str, str]:
        return {
            "scale": scale_table(self.at_scale),
            "rigidity": rigidity_table(self.rigidity["scale"]),
            "every": every_rung_table(self.conv),
        }

    def figures(self) -> dict[str, Any]:
        def at_scale():
            return plotting.loglog_fits(
                self.scale_d,
                {
                    f"{symbol(m)}: $\\rho$ = {rate_text(s)}": (
                        s.ks,
                        reported_se(s),
                        -s.fit.rate,
                        s.fit.intercept,
                    )
                    for m, s in self.at_scale.items()
                },
                "$d$",
                r"$D_{\rm KS}$ of the bulk to the $\theta^f$ law",
            )

        def every_rung():
            labels = {"f": "", "q": r" vs $\theta^Q$ law"}
            static = plotting.loglog_fits(
                self.grid_d,
                {
                    f"{symbol(m)}{labels[t]}": (c.ks, reported_se(c), -c.fit.rate, c.fit.intercept)
                    for (m, t), c in self.conv.items()
                },
                "$d$",
                r"$D_{\rm KS}$ of the bulk to the law",
            )
            return interactive.InteractiveFigure(
                interactive.distance_against_d(
                    interactive_series(self.conv, self.at_scale),
                    "D<sub>KS</sub> of the bulk to the law",
                ),
                interactive.DISTANCE_IN_D,
                static,
                "Distance of each rung's bulk to the limit law against d, log-log, with error bars "
                "and fitted power laws; each rung can be hidden or shown from the legend.",
            )

        return {"fig_scale": at_scale, "fig_d": every_rung}

    def claims(self) -> list[Claim]:
        return convergence_claims(self.conv, self.at_scale, self.rigidity["grid"])
