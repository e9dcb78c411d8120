r"""Chapter "The linearization threshold": the breakdown in :math:`\beta`, the :math:`(d, \beta)`
plane of attention's distance to the law with its bootstrap, the boundary
:math:`e^{\beta_\varepsilon^2} \propto d^\gamma` against the curve :math:`e^{\beta^2} = d` and
against a counter-model, the collapse on :math:`\beta^2 - \hat c \log d`, and the normalizers.
Every comparison of intervals (value ± 2 errors) is decided by
:func:`attnspec.numerics.intervals.interval_below`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from ..experiments import threshold as th
from ..experiments.convergence import trials_for_pooled
from ..experiments.normalizer_reference import law_std, pooled_std_reference
from ..experiments.threshold import (
    Boundary,
    Collapse,
    NormalizerPoint,
    Plane,
    Rates,
    collapse_error,
    fit_boundary,
)
from ..models.ladder import MODEL_NAMES, REFERENCE
from ..models.notation import symbol
from ..numerics.intervals import all_hold, interval_below
from ..present import interactive, plotting
from ..present.claims import Claim
from ..present.numbers import fixed
from ..present.tables import markdown_table
from ..runner.sweep import SweepRequest, run_sweeps
from .base import ChapterStudy
from .convergence import THEOREM, uncertain_text
from .declarations import CONVERGENCE_THRESHOLD

#: This book's convention for "on the law": a Kolmogorov distance below this tolerance.
KS_TOL = 0.05
#: Levels of the iso-distance curves whose exponents are compared (the tolerance among them).
LEVELS = (0.02, 0.03, 0.05, 0.1, 0.2)
#: The inverse temperature of the threshold distance glued for the intro, always in the grid.
BETA_FIXED = 2.0
THRESHOLD = "paper, abstract (a threshold for linearization; the curve is this book's reading)"
#: Tail probability below which a boundary model is rejected by its chi-squared.
FIT_ALPHA = 0.05
#: Family-wise probability that a right formula fails somewhere among the normalizer's grid points.
NORM_ALPHA = 0.05
#: Draws of the pooled spread from the exact law at each grid point (its reference distribution).
NORM_REPLICATES = 200
ZERO = (0.0, 0.0)


def _span(value: float, err: float) -> tuple[float, float]:
    """The interval value ± 2 err."""
    return (value - 2 * err, value + 2 * err)


def _point(x: float) -> tuple[float, float]:
    return (x, x)


def beta_star(d) -> np.ndarray:
    r"""The curve :math:`e^{\beta^2} = d`: :math:`\beta_* = \sqrt{\log d}`."""
    return np.sqrt(np.log(np.asarray(d, dtype=float)))


def row_table(row_ks: dict, betas, d: int, row_se) -> str:
    r"""Per :math:`\beta` at size ``d``: :math:`e^{\beta^2}/d`, attention's distance with its
    jackknife error, and those of :math:`Y_f` and :math:`Y_f^{\rm lin}`."""
    rows = [
        [
            f"{b:g}",
            f"{math.exp(b * b) / d:.4f}",
            uncertain_text(row_ks[REFERENCE][j], row_se[j]),
            f"{row_ks['Y_f'][j]:.4f}",
            f"{row_ks['Y_f_lin'][j]:.4f}",
        ]
        for j, b in enumerate(betas)
    ]
    header = [r"$\beta$", r"$e^{\beta^2}/d$"] + [
        f"$D_{{\\rm KS}}$, {symbol(m)}" for m in (REFERENCE, "Y_f", "Y_f_lin")
    ]
    return markdown_table(header, rows)


def rates_table(rates: Rates, lin: Rates, plane: Plane) -> str:
    r"""Per :math:`\beta`: the rate in :math:`d` of attention and of the linear model, and
    attention's distance at the smallest and largest size with its bootstrap error."""
    se = plane.se
    rows = [
        [
            f"{b:g}",
            uncertain_text(rates.rate[j], rates.se[j], 2),
            fixed(lin.rate[j], 2),
            uncertain_text(plane.ks[0, j], se[0, j]),
            uncertain_text(plane.ks[-1, j], se[-1, j]),
        ]
        for j, b in enumerate(plane.beta)
    ]
    header = [
        r"$\beta$",
        rf"$\rho$, {symbol(REFERENCE)}",
        rf"$\rho$, {symbol('Y_f_lin')}",
        f"$D_{{\\rm KS}}$, $d$ = {plane.d[0]}",
        f"$D_{{\\rm KS}}$, $d$ = {plane.d[-1]}",
    ]
    return markdown_table(header, rows)


def boundary_table(levels: list[Boundary]) -> str:
    r"""Per level :math:`\varepsilon`: the crossing at the smallest and largest size and the
    exponent :math:`\gamma` (errors: bootstrap and interpolation), then the two boundary models'
    root mean square residuals and :math:`\chi^2` against the points' errors."""
    rows = []
    for b in levels:
        line, counter = fit_boundary(b), fit_boundary(b, counter=True)
        ok = np.isfinite(b.beta)
        err = 2 * b.beta[ok] * b.beta_err[ok]
        rows.append(
            [
                f"{b.level:g}" + (" (tolerance)" if b.level == KS_TOL else ""),
                uncertain_text(b.beta[0], b.beta_err[0], 3),
                uncertain_text(b.beta[-1], b.beta_err[-1], 3),
                uncertain_text(b.gamma, b.gamma_err, 2),
                f"{fixed(line.rms, 3)} / {fixed(counter.rms, 3)}",
                f"{fixed(line.chi2, 2)} / {fixed(counter.chi2, 2)}",
                fixed(math.sqrt(np.mean(err**2)), 3) if err.size else "n/a",
            ]
        )
    d = levels[0].d
    header = [
        r"level $\varepsilon$",
        rf"$\beta_\varepsilon$, $d$ = {d[0]}",
        rf"$\beta_\varepsilon$, $d$ = {d[-1]}",
        r"$\gamma$ of $e^{\beta_\varepsilon^2} \propto d^\gamma$",
        "rms residual in β², line / counter-model",
        "χ², line / counter-model",
        "points' error in β² (rms)",
    ]
    return markdown_table(header, rows)


def plane_text(plane: Plane) -> list[list[str]]:
    """Every cell's distance with its bootstrap error, as hover text."""
    se = plane.se
    return [
        [uncertain_text(plane.ks[i, j], se[i, j]) for j in range(plane.beta.size)]
        for i in range(plane.d.size)
    ]


def row_values(row_ks: dict, row_se, betas, d: int, tol_beta: float, tol_se: float) -> dict:
    """Glue values of the row across beta at size d (prefix ``thresh``)."""
    j2 = list(betas).index(BETA_FIXED)
    star = float(beta_star(d))
    return {
        "d": int(d),
        "beta_fixed": float(BETA_FIXED),
        "ks_beta_2": round(row_ks[REFERENCE][j2], 4),
        "ks_beta_2_txt": uncertain_text(row_ks[REFERENCE][j2], row_se[j2]),
        "ks_lin_beta_2": round(row_ks["Y_f_lin"][j2], 4),
        "beta_lo": float(betas[0]),
        "beta_hi": float(betas[-1]),
        "ks_beta_lo": round(row_ks[REFERENCE][0], 4),
        "ks_beta_hi": round(row_ks[REFERENCE][-1], 4),
        "ks_lin_max": round(max(row_ks["Y_f_lin"]), 4),
        "beta_star": round(star, 3),
        "tol": KS_TOL,
        "beta_tol": round(tol_beta, 3) if np.isfinite(tol_beta) else math.nan,
        "beta_tol_txt": uncertain_text(tol_beta, tol_se, 3),
        "ratio_tol": round(math.exp(tol_beta**2) / d, 4) if np.isfinite(tol_beta) else math.nan,
    }


def c_error(col: Collapse, levels: list[Boundary]) -> float:
    r"""The error of :math:`\hat c` with the collapse's misfit (bootstrap and the spread of
    :math:`\gamma` over ``levels``, :func:`attnspec.experiments.threshold.collapse_error`)."""
    return collapse_error(col, [b.gamma for b in levels])


def _range(values, digits: int) -> tuple[float, float]:
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return math.nan, math.nan
    return round(min(finite), digits), round(max(finite), digits)


def plane_values(plane: Plane, rates: Rates, lin: Rates, levels, col: Collapse) -> dict:
    """Glue values of the plane (prefix ``thresh``): rates, boundary, its two models, exponents,
    collapse."""
    tol = next(b for b in levels if b.level == KS_TOL)
    lo, hi = levels[0], levels[-1]
    line, counter = fit_boundary(tol), fit_boundary(tol, counter=True)
    lines = [fit_boundary(b) for b in levels]
    counters = [fit_boundary(b, counter=True) for b in levels]
    point_err = np.concatenate([2 * b.beta * b.beta_err for b in levels])
    interp = np.concatenate([b.beta_interp for b in levels])
    found = [b for b in tol.beta if np.isfinite(b) and plane.beta[0] < b <= plane.beta[-1]]
    steps = [float(np.diff(plane.beta)[np.searchsorted(plane.beta, b) - 1]) for b in found]
    gammas = np.array([b.gamma for b in levels])
    c_err = c_error(col, levels)
    return {
        "step_at_crossing": round(max(steps), 3) if steps else math.nan,
        "grid_d": ", ".join(str(int(v)) for v in plane.d),
        "grid_beta": ", ".join(f"{v:g}" for v in plane.beta),
        "plane_trials": ", ".join(str(int(v)) for v in plane.trials),
        "resamples": int(plane.boot.shape[-1]),
        "logd_span": round(float(np.log(plane.d[-1] / plane.d[0])), 2),
        "rate_lo_txt": uncertain_text(rates.rate[0], rates.se[0], 2),
        "rate_hi_txt": uncertain_text(rates.rate[-1], rates.se[-1], 2),
        "rate_2_txt": uncertain_text(
            rates.rate[plane.column(BETA_FIXED)], rates.se[plane.column(BETA_FIXED)], 2
        ),
        "rate_lin_min": round(float(np.min(lin.rate)), 2),
        "rate_lin_max": round(float(np.max(lin.rate)), 2),
        "rate_slope_txt": uncertain_text(rates.slope, rates.slope_se, 2),
        "gamma_txt": uncertain_text(tol.gamma, tol.gamma_err, 2),
        "gamma_lo_txt": uncertain_text(lo.gamma, lo.gamma_err, 2),
        "gamma_hi_txt": uncertain_text(hi.gamma, hi.gamma_err, 2),
        "gamma_sd": round(float(np.std(gammas, ddof=1)), 3) if gammas.size > 1 else math.nan,
        "level_lo": lo.level,
        "level_hi": hi.level,
        "gamma_intercept": round(line.params[1], 2),
        "interp_max": round(float(np.nanmax(interp)), 3)
        if np.any(np.isfinite(interp))
        else math.nan,
        "boundary_lo_txt": uncertain_text(tol.beta[0], tol.beta_err[0], 3),
        "boundary_hi_txt": uncertain_text(tol.beta[-1], tol.beta_err[-1], 3),
        "boundary_d_lo": int(tol.d[0]),
        "boundary_d_hi": int(tol.d[-1]),
        "star_lo": round(float(beta_star(tol.d[0])), 2),
        "star_hi": round(float(beta_star(tol.d[-1])), 2),
        "boundary_found": round(100 * tol.found, 1),
        "fit_counter_a": round(counter.params[0], 2),
        "fit_counter_b": round(counter.params[1], 2),
        "fit_line_rms": round(line.rms, 3),
        "fit_counter_rms": round(counter.rms, 3),
        "fit_line_chi2": round(line.chi2, 2),
        "fit_counter_chi2": round(counter.chi2, 2),
        "fit_dof": line.dof,
        "fit_chi2_crit": round(float(stats.chi2.isf(FIT_ALPHA, line.dof)), 2)
        if line.dof > 0
        else math.nan,
        "fit_alpha_pct": round(100 * FIT_ALPHA),
        "fit_p_min": round(min((f.p for f in lines + counters), default=math.nan), 2),
        "fit_rms_lo": _range([f.rms for f in lines + counters], 3)[0],
        "fit_rms_hi": _range([f.rms for f in lines + counters], 3)[1],
        "fit_err_lo": _range(point_err, 3)[0],
        "fit_err_hi": _range(point_err, 3)[1],
        "collapse_c_txt": uncertain_text(col.c, c_err, 2),
        "collapse_c_se_boot": round(col.c_se, 3),
        "collapse_spread": round(col.spread, 3),
        "collapse_spread_one": round(col.spread_one, 2),
        "collapse_spread_ratio": round(col.spread_ratio, 2),
        "collapse_noise": round(col.noise, 3),
        "collapse_cells": col.cells,
        "collapse_cells_all": int(plane.ks.size),
    }


@dataclass(frozen=True)
class NormalizerTest:
    r"""The measured spreads against their reference distributions, simulated from the exact law
    at the chapter's design
    (:func:`attnspec.experiments.normalizer_reference.pooled_std_reference`).

    The draws are divided by the law's own spread (by quadrature,
    :func:`~attnspec.experiments.normalizer_reference.law_std`), the measured spread by the exact
    formula, so a wrong formula moves the measured point and not the draws. On the log scale
    :math:`u = \log(\operatorname{std}/\text{exact})` each point gets
    :math:`z = (u - \bar u_{\rm sim})/\operatorname{sd}(u_{\rm sim})`; the family statistic is
    :math:`\max |z|` over the points, and its critical value ``crit`` is the
    :math:`1 - \alpha` quantile of the same maximum over the simulated replicates, so a right
    formula fails with probability :data:`NORM_ALPHA` whatever the shape of the spread's law.
    ``reach`` is each point's smallest detectable factor either way, :math:`e^{\rm crit\,sd}`.
    """

    points: list
    z: np.ndarray
    crit: float
    p: float
    reach: np.ndarray
    median_dev: np.ndarray

    @property
    def outside(self) -> list:
        """The points whose :math:`|z|` exceeds the family's critical value."""
        return [p for p, z in zip(self.points, self.z, strict=True) if abs(z) > self.crit]

    @property
    def worst(self) -> int:
        """Index of the point with the largest :math:`|z|`."""
        return int(np.argmax(np.abs(self.z)))


def normalizer_test(points: list[NormalizerPoint], replicates: int, seed: int) -> NormalizerTest:
    """The family test of :class:`NormalizerTest` over the points with a finite exact value."""
    ok = _checked(points)
    sims = np.log(
        [
            pooled_std_reference(p.beta, p.d, p.trials, replicates, seed) / law_std(p.beta, p.d)
            for p in ok
        ]
    ).reshape(len(ok), replicates)
    mean, sd = sims.mean(axis=1), sims.std(axis=1, ddof=1)
    z = (np.log([p.std / p.exact for p in ok]) - mean) / sd
    null = np.max(np.abs((sims - mean[:, None]) / sd[:, None]), axis=0)
    crit = float(np.quantile(null, 1 - NORM_ALPHA)) if ok else math.nan
    big = float(np.max(np.abs(z))) if ok else math.nan
    p = (1 + int(np.sum(null >= big))) / (replicates + 1)
    return NormalizerTest(ok, z, crit, p, np.exp(crit * sd), np.expm1(np.median(sims, axis=1)))


def _checked(points: list[NormalizerPoint]) -> list[NormalizerPoint]:
    """The points with a finite exact value and a standard error."""
    return [p for p in points if math.isfinite(p.exact) and p.se > 0]


def normalizer_values(test: NormalizerTest) -> dict:
    """Glue values of the normalizers' spread against its exact value (prefix ``thresh``)."""
    ok = test.points
    w = ok[test.worst] if ok else None
    reach = _range(test.reach, 2)
    return {
        "norm_n_points": len(ok),
        "norm_replicates": NORM_REPLICATES,
        "norm_crit": round(test.crit, 2),
        "norm_alpha_pct": round(100 * NORM_ALPHA),
        "norm_p": round(test.p, 3),
        "norm_n_within": len(ok) - len(test.outside),
        "norm_z_max": round(abs(float(test.z[test.worst])), 1) if w else math.nan,
        "norm_worst_d": int(w.d) if w else 0,
        "norm_worst_beta": float(w.beta) if w else math.nan,
        "norm_worst_trials": int(w.trials) if w else 0,
        "norm_worst_rel": round(100 * (w.std / w.exact - 1), 1) if w else math.nan,
        "norm_worst_sim_median": round(100 * float(test.median_dev[test.worst]), 1)
        if w
        else math.nan,
        "norm_sim_median_min": _range(100 * test.median_dev, 1)[0],
        "norm_outside": ", ".join(f"({p.d}, {p.beta:g})" for p in test.outside) or "none",
        "norm_factor_lo": reach[0],
        "norm_factor_hi": reach[1],
    }


def _parallel(col: Collapse, c_err: float, d) -> Claim:
    r"""The finite-d claim: on the grid's sizes the iso-distance curves run parallel to
    :math:`e^{\beta^2} = d` (:math:`\hat c = 1`)."""
    side = interval_below(_span(col.c, c_err), _point(1.0))
    span = f"d = {d[0]}–{d[-1]}"
    reason = (
        f"on {span} the distance is nearly a function of $\\beta^2 - \\hat c \\log d$ with "
        f"$\\hat c$ = {col.c:.2f}, so over this range the iso-distance curves grow like "
        f"$e^{{\\beta^2}} \\propto d^{{{col.c:.2f}}}$, not like $e^{{\\beta^2}} = d$. A "
        f"statement about d ≤ {d[-1]}, not about the asymptotic threshold (next claims)."
        if side is not None
        else f"ĉ ± 2 errors holds 1: on {span} the iso-distance curves cannot be told from "
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
    rms = _range([f.rms for pair in fits for f in pair], 3)
    err = _range(np.concatenate([2 * b.beta * b.beta_err for b in levels]), 3)
    p_min = min((f.p for pair in fits for f in pair), default=math.nan)
    dof = fits[0][0].dof if fits else 0
    crit = float(stats.chi2.isf(FIT_ALPHA, dof)) if dof > 0 else math.nan
    logd = float(np.log(d[-1] / d[0]))
    tol = next(i for i, b in enumerate(levels) if b.level == KS_TOL)
    line, counter = fits[tol]
    span = f"d = {d[0]}–{d[-1]}"
    models = Claim(
        rf"on {span} the boundary cannot tell the line $\beta_\varepsilon^2 = \gamma \log d + b$ "
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
    reach = _range(test.reach, 2)
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
        interval_below(_span(a.ks, a.se), _span(b.ks, b.se)) for a, b in zip(lin, ref, strict=True)
    ]
    unresolved = [f"{b:g}" for b, v in zip(plane.beta, closer, strict=True) if v is None]
    return [
        Claim(
            r"at every $\beta$ of the grid attention's distance falls with $d$",
            rf"smallest $\rho - 2\,$se: {rates.rate[worst_rate] - 2 * rates.se[worst_rate]:.3f} "
            rf"(at $\beta$ = {rates.beta[worst_rate]:g})",
            r"$\rho(\beta) \pm 2\,$se above 0 at every $\beta$ (bootstrap over trials)",
            all_hold(
                interval_below(ZERO, _span(r, e)) for r, e in zip(rates.rate, rates.se, strict=True)
            ),
            "at some β the distance does not clearly fall with d over the grid's sizes.",
            THEOREM,
        ),
        Claim(
            r"the rate $\rho(\beta)$ falls as $\beta$ grows",
            f"slope of ρ against β: {uncertain_text(rates.slope, rates.slope_se, 2)}",
            "slope ± 2 se below 0",
            interval_below(_span(rates.slope, rates.slope_se), ZERO),
            "the rate in d does not clearly fall with β over this grid.",
            "this book",
        ),
        Claim(
            r"the distance grows with $\beta$ at fixed $d$",
            ", ".join(f"{p.ks:.4f}" for p in ref),
            "each step ± 2 combined jackknife errors above 0",
            all_hold(
                interval_below(ZERO, _span(b.ks - a.ks, math.hypot(a.se, b.se)))
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
        _parallel(col, c_error(col, levels), d),
        models,
        asymptotic,
        Claim(
            rf"on the grid's sizes every iso-distance curve from {lo.level:g} to {hi.level:g} "
            r"lies inside $e^{\beta^2} = d$",
            f"{sum(np.all(b.beta + 2 * b.beta_err < stars) for b in levels)} of {len(levels)} "
            "levels",
            r"$\beta_\varepsilon(d) \pm 2$ errors below $\sqrt{\log d}$ at every size",
            all_hold(
                interval_below(_span(x, e), _point(s))
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
            all_hold(interval_below(_span(b.gamma, b.gamma_err), _point(1.0)) for b in levels),
            "at some level the boundary is not clearly slower than $e^{\\beta^2} \\propto d$, "
            "or it lies inside the grid at fewer than two sizes.",
            "this book",
        ),
        Claim(
            r"the boundary exponent $\gamma$ grows with the level",
            f"γ({hi.level:g}) − γ({lo.level:g}) = {uncertain_text(drift, drift_err, 2)}",
            "difference ± 2 combined errors above 0",
            interval_below(ZERO, _span(drift, drift_err)),
            "the exponent is not clearly different between levels: the distance may collapse "
            "exactly onto one curve of β² − ĉ log d.",
            "this book",
        ),
        _normalizers(norm),
    ]


class ConvergenceThreshold(ChapterStudy):
    r"""Every rung at :math:`d` across the grid's :math:`\beta` (the row), attention and its
    Gaussian equivalent over the :math:`(d, \beta)` grid (the plane, bootstrapped over trials),
    the boundary at every level of :data:`LEVELS`, the rates :math:`\rho(\beta)`, the collapse
    and the normalizers' spread."""

    name = "convergence-threshold"
    prefix = "thresh"
    parameters = CONVERGENCE_THRESHOLD

    def compute(self) -> None:
        c = self.config
        self.grid_d = sorted(set(self.params["d_values"]) | {c.d})
        self.grid_beta = sorted(set(self.params["betas"]) | {BETA_FIXED})
        plane_trials = trials_for_pooled(self.grid_d, self.params["pooled_values"])
        row, grid = run_sweeps(
            [
                SweepRequest([c.d], self.grid_beta, c.trials),  # the row: every rung
                SweepRequest(self.grid_d, self.grid_beta, plane_trials, (REFERENCE, "Y_f_lin")),
            ],
            seed=c.seed,
            c_poly=c.c_poly,
            remove_top_k=c.remove_top_k,
        )
        self.row_dist = th.row_distances(row.ladders, MODEL_NAMES)  # pooled, jackknife error
        self.plane = plane = th.distance_plane(
            grid.ladders, REFERENCE, self.params["resamples"], c.seed
        )
        self.floor = th.distance_plane(grid.ladders, "Y_f_lin")  # the linear model's floor
        self.levels = [th.boundary(plane, level) for level in LEVELS]  # beta_eps(d) and gamma
        self.tol = next(b for b in self.levels if b.level == KS_TOL)
        self.rates = th.rates_in_d(plane)  # rho(beta), bootstrap errors
        self.floor_rates = th.rates_in_d(self.floor)
        self.collapse = th.collapse(plane, use=plane.ks - self.floor.ks > 3 * plane.se)
        self.norm = th.normalizer_points(grid.ladders)  # std(D_i), its error, exact value
        self.norm_test = normalizer_test(self.norm, NORM_REPLICATES, c.seed)
        self.row_ks = {m: [p.ks for p in self.row_dist[m]] for m in MODEL_NAMES}
        self.row_se = [p.se for p in self.row_dist[REFERENCE]]

    def values(self) -> dict[str, Any]:
        c, tol = self.config, self.tol
        j = self.plane.row(c.d)
        row = row_values(
            self.row_ks, self.row_se, self.grid_beta, c.d, tol.beta[j], tol.beta_err[j]
        )
        plane = plane_values(self.plane, self.rates, self.floor_rates, self.levels, self.collapse)
        return row | plane | normalizer_values(self.norm_test)

    def tables(self) -> dict[str, str]:
        return {
            "row": row_table(self.row_ks, self.grid_beta, self.config.d, self.row_se),
            "boundary": boundary_table(self.levels),
            "rates": rates_table(self.rates, self.floor_rates, self.plane),
        }

    def figures(self) -> dict[str, Any]:
        plane, tol, rates = self.plane, self.tol, self.rates
        grid_beta, grid_d = self.grid_beta, self.grid_d

        def breakdown():
            star = float(beta_star(self.config.d))
            return plotting.curves_with_guides(
                grid_beta,
                {symbol(m): self.row_ks[m] for m in MODEL_NAMES},
                r"$\beta$",
                r"$D_{\rm KS}$ of the bulk to the $\theta^f$ law",
                vlines={rf"$e^{{\beta^2}} = d$ ($\beta$ = {star:.3f})": star},
                hlines={f"tolerance {KS_TOL:g}": KS_TOL},
                logy=True,
                yerr={symbol(m): [p.se for p in self.row_dist[m]] for m in MODEL_NAMES},
            )

        def phase():
            stars = beta_star(plane.d)
            static = plotting.phase_diagram(
                plane.beta,
                plane.d,
                plane.ks,
                r"$\beta$",
                "$d$",
                f"$D_{{\\rm KS}}$ of {symbol(REFERENCE)} to the law",
                curves={r"$e^{\beta^2} = d$": (stars, plane.d)},
                points={rf"$\beta_{{{KS_TOL:g}}}(d)$ ± error": (tol.beta, plane.d, tol.beta_err)},
            )
            return interactive.InteractiveFigure(
                interactive.phase_heatmap(
                    plane.d,
                    plane.beta,
                    plane.ks,
                    plane_text(plane),
                    boundary=(tol.beta, f"D<sub>KS</sub> = {KS_TOL:g}"),
                    curve_beta=stars,
                ),
                interactive.PHASE_DIAGRAM,
                static,
                "Heat map of the distance to the law over beta and d; hovering a cell shows its "
                "distance and standard error. The measured boundary lies far to the left of the "
                "curve e to the beta squared equals d.",
            )

        def collapse():
            col = self.collapse
            x = plane.beta[None, :] ** 2 - col.c * np.log(plane.d.astype(float))[:, None]
            return plotting.rates_and_collapse(
                rates.beta,
                rates.rate,
                rates.se,
                {f"$d$ = {v}": (x[i], plane.ks[i], plane.se[i]) for i, v in enumerate(plane.d)},
                rf"collapse at $\hat c$ = {col.c:.2f}",
                r"$\beta^2 - \hat c \log d$",
                r"$D_{\rm KS}$",
            )

        def normalizers():
            cell = {(p.d, p.beta): p for p in self.norm}
            bf = np.linspace(grid_beta[0], grid_beta[-1], 200)
            return plotting.spread_and_distance(
                grid_beta,
                {f"$d$ = {v}": [cell[v, b].std for b in grid_beta] for v in grid_d},
                {f"$d$ = {v}": (bf, [th.exact_std(b, v) for b in bf]) for v in grid_d},
                {f"$d$ = {v}": [cell[v, b].exact for b in grid_beta] for v in grid_d},
                {f"$d$ = {v}": list(plane.ks[plane.row(v)]) for v in grid_d},
                f"$D_{{\\rm KS}}$ of {symbol(REFERENCE)} to the law",
            )

        return {
            "fig_beta": breakdown,
            "fig_phase": phase,
            "fig_collapse": collapse,
            "fig_norm": normalizers,
        }

    def claims(self) -> list[Claim]:
        return threshold_claims(
            self.row_dist, self.plane, self.rates, self.levels, self.collapse, self.norm_test
        )
