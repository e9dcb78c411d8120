"""The threshold chapter's claims: the rates in d and β, the row, the collapse, the boundary's two
models and the asymptotic threshold they leave open, the iso-distance curves and the normalizers.
Every comparison of intervals (value ± 2 errors) is decided by
:func:`attnspec.numerics.intervals.interval_below`."""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from ...experiments.normalizer_reference import NORM_ALPHA, NormalizerTest
from ...experiments.threshold import (
    FIT_ALPHA,
    KS_TOL,
    Boundary,
    Collapse,
    Plane,
    Rates,
    beta_star,
    collapse_error,
    fit_boundary,
)
from ...models.ladder import REFERENCE
from ...models.notation import symbol
from ...numerics.intervals import all_hold, interval_below
from ...present.claims import Claim
from ..shared import THEOREM, ZERO, span, uncertain_text
from .tables import NORM_REPLICATES, value_range

THRESHOLD = "paper, abstract (a threshold for linearization; the curve is this book's reading)"


def _parallel(col: Collapse, c_err: float, d) -> Claim:
    r"""The finite-d claim: on the grid's sizes the iso-distance curves run parallel to
    :math:`e^{\beta^2} = d` (:math:`\hat c = 1`)."""
    side = interval_below(span(col.c, c_err), (1.0, 1.0))
    sizes = f"d = {d[0]}–{d[-1]}"
    reason = (
        f"on {sizes} the distance is nearly a function of $\\beta^2 - \\hat c \\log d$ with "
        f"$\\hat c$ = {col.c:.2f}, so over this range the iso-distance curves grow like "
        f"$e^{{\\beta^2}} \\propto d^{{{col.c:.2f}}}$, not like $e^{{\\beta^2}} = d$. A "
        f"statement about d ≤ {d[-1]}, not about the asymptotic threshold (next claims)."
        if side is not None
        else f"ĉ ± 2 errors holds 1: on {sizes} the iso-distance curves cannot be told from "
        "curves parallel to $e^{\\beta^2} = d$."
    )
    return Claim(
        rf"on $d$ = {d[0]}–{d[-1]} the iso-distance curves run parallel to $e^{{\beta^2}} = d$",
        rf"collapse exponent $\hat c$ = {uncertain_text(col.c, c_err, 2)} (bootstrap and "
        "spread of γ over levels)",
        r"$\hat c \pm 2$ errors separated from 1",
        None if side is None else False,
        reason,
        "this book",
    )


def _models(levels: list[Boundary], d) -> tuple[Claim, Claim]:
    """The two boundary models on the grid's sizes, and the asymptotic threshold they leave
    open."""
    fits = [(fit_boundary(b), fit_boundary(b, counter=True)) for b in levels]
    ok = [[f.p > FIT_ALPHA for f in pair] for pair in fits]
    fits_both = bool(fits) and all(all(pair) for pair in ok)
    counter_ok = bool(fits) and all(pair[1] for pair in ok)
    rms = value_range([f.rms for pair in fits for f in pair], 3)
    err = value_range(np.concatenate([2 * b.beta * b.beta_err for b in levels]), 3)
    p_min = min((f.p for pair in fits for f in pair), default=math.nan)
    dof = fits[0][0].dof if fits else 0
    crit = float(stats.chi2.isf(FIT_ALPHA, dof)) if dof > 0 else math.nan
    logd = float(np.log(d[-1] / d[0]))
    tol = next(i for i, b in enumerate(levels) if b.level == KS_TOL)
    line, counter = fits[tol]
    sizes = f"d = {d[0]}–{d[-1]}"
    models = Claim(
        rf"on {sizes} the boundary cannot tell the line $\beta_\varepsilon^2 = \gamma \log d + b$ "
        r"from the counter-model $\beta_\varepsilon^2 = \log d + a\sqrt{\log d} + b$",
        f"rms residuals {rms[0]:.3f}–{rms[1]:.3f} in β² (both models, every level), against "
        f"points' errors {err[0]:.3f}–{err[1]:.3f}; smallest p = {p_min:.2f}",
        f"χ² of each model's residuals over the points' errors (bootstrap and interpolation) "
        f"below {crit:.2f}, the {100 * (1 - FIT_ALPHA):g} % point of χ² with {dof} degrees of "
        "freedom, at every level",
        fits_both,
        "one of the two models misfits the boundary beyond its errors at some level: these "
        "sizes can tell them apart.",
        "this book",
    )
    reason = (
        f"not resolvable on d ≤ {d[-1]}: the counter-model, which lies on "
        "$e^{\\beta^2} = d^{1 - o(1)}$, fits the boundary points as well as the line at every "
        f"level (previous claim; at the tolerance χ² = {counter.chi2:.2f} against "
        f"{line.chi2:.2f}), over a range of only {logd:.2f} in log d."
        if counter_ok
        else f"not resolvable on d ≤ {d[-1]}: the counter-model misfits at some level, but a "
        f"range of {logd:.2f} in log d cannot exclude every slower-than-linear correction to "
        "$\\beta^2 = \\log d$."
    )
    asymptotic = Claim(
        r"the threshold for linearization lies on $e^{\beta^2} = d^{1 - o(1)}$ as "
        r"$d \to \infty$",
        f"counter-model at the tolerance: a = {counter.params[0]:.2f}, b = "
        f"{counter.params[1]:.2f}, rms {counter.rms:.3f} (line: {line.rms:.3f})",
        "decidable only if the boundary excluded every model that lies on the curve "
        "asymptotically, such as the counter-model: no finite range of d does",
        None,
        reason,
        THRESHOLD,
    )
    return models, asymptotic


def _normalizers(test: NormalizerTest) -> Claim:
    r""":math:`\operatorname{std}(D_i)` against its exact value at every grid point, each measured
    spread against its reference distribution (:class:`NormalizerTest`)."""
    ok = test.points
    if not ok:
        return Claim(
            r"$\operatorname{std}(D_i)$ equals its exact value at every grid point",
            "n/a",
            "no grid point has a finite exact spread",
            None,
            "no grid point has a finite exact spread and an error over trials.",
            "this book",
        )
    w = ok[test.worst]
    reach = value_range(test.reach, 2)
    outside = test.outside
    cells = ", ".join(f"({p.d}, {p.beta:g})" for p in outside)
    return Claim(
        r"$\operatorname{std}(D_i)$ equals its exact value at every grid point",
        f"{len(ok) - len(outside)} of {len(ok)} points within; largest |z| = "
        f"{abs(float(test.z[test.worst])):.1f} (at d = {w.d}, β = {w.beta:g}); family p = "
        f"{test.p:.3f}",
        f"each spread against {NORM_REPLICATES} draws of the same statistic from the exact law "
        f"at the chapter's design; max |z| on the log scale ≤ {test.crit:.2f}, its "
        f"{100 * (1 - NORM_ALPHA):g} % point over the draws (a right formula passes all "
        f"{len(ok)} points with {100 * (1 - NORM_ALPHA):g} % probability); it detects a spread "
        f"off by a factor of {reach[0]:.2f} (best point) to {reach[1]:.2f} (worst) either way",
        not outside,
        f"at (d, β) = {cells} the measured spread lies outside what the exact law gives at this "
        f"design (worst {100 * (w.std / w.exact - 1):+.1f} % at d = {w.d}, β = {w.beta:g}, from "
        f"{w.trials} trials, where the simulated median is "
        f"{100 * float(test.median_dev[test.worst]):+.1f} %)."
        if outside
        else "at some point the measured spread lies outside what the exact law gives at this "
        "design.",
        "this book",
    )


def threshold_claims(
    row_dist: dict, plane: Plane, rates: Rates, levels, col: Collapse, norm: NormalizerTest
) -> list[Claim]:
    """The threshold chapter's claims. ``row_dist`` holds each rung's pooled distances along the
    row with their jackknife errors; ``norm`` the normalizers' test."""
    stars = beta_star(levels[0].d)
    ref, lin = row_dist[REFERENCE], row_dist["Y_f_lin"]
    lo, hi = levels[0], levels[-1]
    drift, drift_err = hi.gamma - lo.gamma, math.hypot(lo.gamma_err, hi.gamma_err)
    worst_rate = int(np.argmin(rates.rate - 2 * rates.se))
    d = levels[0].d
    models, asymptotic = _models(levels, d)
    closer = [
        interval_below(span(a.ks, a.se), span(b.ks, b.se)) for a, b in zip(lin, ref, strict=True)
    ]
    unresolved = [f"{b:g}" for b, v in zip(plane.beta, closer, strict=True) if v is None]
    return [
        Claim(
            r"at every $\beta$ of the grid attention's distance falls with $d$",
            rf"smallest $\rho - 2\,$se: {rates.rate[worst_rate] - 2 * rates.se[worst_rate]:.3f} "
            rf"(at $\beta$ = {rates.beta[worst_rate]:g})",
            r"$\rho(\beta) \pm 2\,$se above 0 at every $\beta$ (bootstrap over trials)",
            all_hold(
                interval_below(ZERO, span(r, e)) for r, e in zip(rates.rate, rates.se, strict=True)
            ),
            "at some β the distance does not clearly fall with d over the grid's sizes.",
            THEOREM,
        ),
        Claim(
            r"the rate $\rho(\beta)$ falls as $\beta$ grows",
            f"slope of ρ against β: {uncertain_text(rates.slope, rates.slope_se, 2)}",
            "slope ± 2 se below 0",
            interval_below(span(rates.slope, rates.slope_se), ZERO),
            "the rate in d does not clearly fall with β over this grid.",
            "this book",
        ),
        Claim(
            r"the distance grows with $\beta$ at fixed $d$",
            ", ".join(f"{p.ks:.4f}" for p in ref),
            "each step ± 2 combined jackknife errors above 0",
            all_hold(
                interval_below(ZERO, span(b.ks - a.ks, math.hypot(a.se, b.se)))
                for a, b in zip(ref[:-1], ref[1:], strict=True)
            )
            if len(ref) > 1
            else None,
            "the reference's distance is not clearly increasing in β at this d.",
            "this book",
        ),
        Claim(
            r"the linear model stays closer to the law than attention at every $\beta$",
            f"largest $D_{{\\rm KS}}$ of {symbol('Y_f_lin')}: {max(p.ks for p in lin):.4f}",
            "its distance ± 2 jackknife errors below attention's at every β of the row",
            all_hold(closer),
            "at some β the linear model is farther from the law than attention: d is too small."
            if False in closer
            else f"at β = {', '.join(unresolved)} the two distances are not separated by their "
            "errors: the row cannot tell the linear model from attention there.",
            THEOREM,
        ),
        _parallel(col, collapse_error(col, [b.gamma for b in levels]), d),
        models,
        asymptotic,
        Claim(
            rf"on the grid's sizes every iso-distance curve from {lo.level:g} to {hi.level:g} "
            r"lies inside $e^{\beta^2} = d$",
            f"{sum(np.all(b.beta + 2 * b.beta_err < stars) for b in levels)} of {len(levels)} "
            "levels",
            r"$\beta_\varepsilon(d) \pm 2$ errors below $\sqrt{\log d}$ at every size",
            all_hold(
                interval_below(span(x, e), (s, s))
                for b in levels
                for x, e, s in zip(b.beta, b.beta_err, stars, strict=True)
            ),
            "at some level the crossing is not clearly inside the curve $e^{\\beta^2} = d$.",
            "this book",
        ),
        Claim(
            rf"on the grid's sizes every iso-distance curve from {lo.level:g} to {hi.level:g} "
            r"grows more slowly than $e^{\beta^2} = d$: $e^{\beta_\varepsilon^2} \propto "
            r"d^\gamma$, $\gamma < 1$",
            f"γ from {uncertain_text(lo.gamma, lo.gamma_err, 2)} to "
            f"{uncertain_text(hi.gamma, hi.gamma_err, 2)}",
            r"$\gamma \pm 2$ errors (bootstrap and interpolation) below 1 at every level",
            all_hold(interval_below(span(b.gamma, b.gamma_err), (1.0, 1.0)) for b in levels),
            "at some level the boundary is not clearly slower than $e^{\\beta^2} \\propto d$, "
            "or it lies inside the grid at fewer than two sizes.",
            "this book",
        ),
        Claim(
            r"the boundary exponent $\gamma$ grows with the level",
            f"γ({hi.level:g}) − γ({lo.level:g}) = {uncertain_text(drift, drift_err, 2)}",
            "difference ± 2 combined errors above 0",
            interval_below(ZERO, span(drift, drift_err)),
            "the exponent is not clearly different between levels: the distance may collapse "
            "exactly onto one curve of β² − ĉ log d.",
            "this book",
        ),
        _normalizers(norm),
    ]
