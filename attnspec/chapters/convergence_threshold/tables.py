"""The threshold chapter's glued values (prefix ``thresh``) and tables: the row across β, the plane
with its boundary, models, exponents, rates and collapse, and the normalizers' test."""

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
from ...present.formatting import fixed
from ...present.tables import markdown_table
from ..shared import uncertain_text

#: The inverse temperature of the threshold distance glued for the intro, always in the grid.
BETA_FIXED = 2.0
#: Draws of the pooled spread from the exact law at each grid point (its reference distribution).
NORM_REPLICATES = 200


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


def value_range(values, digits: int) -> tuple[float, float]:
    """The smallest and largest finite value, rounded to ``digits`` (NaN when none is finite)."""
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
    c_err = collapse_error(col, gammas)
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
        "fit_rms_lo": value_range([f.rms for f in lines + counters], 3)[0],
        "fit_rms_hi": value_range([f.rms for f in lines + counters], 3)[1],
        "fit_err_lo": value_range(point_err, 3)[0],
        "fit_err_hi": value_range(point_err, 3)[1],
        "collapse_c_txt": uncertain_text(col.c, c_err, 2),
        "collapse_c_se_boot": round(col.c_se, 3),
        "collapse_spread": round(col.spread, 3),
        "collapse_spread_one": round(col.spread_one, 2),
        "collapse_spread_ratio": round(col.spread_ratio, 2),
        "collapse_noise": round(col.noise, 3),
        "collapse_cells": col.cells,
        "collapse_cells_all": int(plane.ks.size),
    }


def normalizer_values(test: NormalizerTest) -> dict:
    """Glue values of the normalizers' spread against its exact value (prefix ``thresh``)."""
    ok = test.points
    w = ok[test.worst] if ok else None
    reach = value_range(test.reach, 2)
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
        "norm_sim_median_min": value_range(100 * test.median_dev, 1)[0],
        "norm_outside": ", ".join(f"({p.d}, {p.beta:g})" for p in test.outside) or "none",
        "norm_factor_lo": reach[0],
        "norm_factor_hi": reach[1],
    }
