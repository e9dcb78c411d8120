r"""The threshold chapter's tables, glued values and claims: the breakdown in :math:`\beta`, the
:math:`(d, \beta)` plane with its bootstrap, the boundary of agreement against the curve
:math:`e^{\beta^2} = d`, and the normalizers (:mod:`attnspec.experiments.threshold`).
"""

from __future__ import annotations

import math

import numpy as np

from ..core.claims import Claim
from ..experiments.threshold import Boundary, Collapse, Plane, Rates
from ..models.ladder import REFERENCE
from ..models.notation import symbol
from .report import ONE_OR_TWO, fixed, format_uncertain, markdown_table

#: This book's convention for "on the law": a Kolmogorov distance below this tolerance.
KS_TOL = 0.05
#: Levels of the iso-distance curves whose exponents are compared (the tolerance among them).
LEVELS = (0.02, 0.03, 0.05, 0.1, 0.2)
#: The inverse temperature of the threshold distance glued for the intro, always in the grid.
BETA_FIXED = 2.0
THEOREM = "paper, abstract (Gaussian equivalence at constant-order β)"
THRESHOLD = "paper, abstract (a threshold for linearization; the curve is this book's reading)"


def _u(value, se, fallback=4) -> str:
    return format_uncertain(value, se, ONE_OR_TWO, fallback=fallback)


def beta_star(d) -> np.ndarray:
    r"""The curve :math:`e^{\beta^2} = d`: :math:`\beta_* = \sqrt{\log d}`."""
    return np.sqrt(np.log(np.asarray(d, dtype=float)))


def row_table(row_ks: dict, plane: Plane, betas, d: int, row_se) -> str:
    r"""Per :math:`\beta` at size ``d``: :math:`e^{\beta^2}/d`, attention's distance with its
    jackknife error, and those of :math:`Y_f` and :math:`Y_f^{\rm lin}`."""
    rows = [
        [
            f"{b:g}",
            f"{math.exp(b * b) / d:.4f}",
            _u(row_ks[REFERENCE][j], row_se[j]),
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
            _u(rates.rate[j], rates.se[j], 2),
            fixed(lin.rate[j], 2),
            _u(plane.ks[0, j], se[0, j]),
            _u(plane.ks[-1, j], se[-1, j]),
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
    exponent :math:`\gamma` with its bootstrap error."""
    rows = [
        [
            f"{b.level:g}" + (" (tolerance)" if b.level == KS_TOL else ""),
            _u(b.beta[0], b.beta_se[0], 3),
            _u(b.beta[-1], b.beta_se[-1], 3),
            _u(b.gamma, b.gamma_se, 2),
        ]
        for b in levels
    ]
    d = levels[0].d
    header = [
        r"level $\varepsilon$",
        rf"$\beta_\varepsilon$, $d$ = {d[0]}",
        rf"$\beta_\varepsilon$, $d$ = {d[-1]}",
        r"$\gamma$ of $e^{\beta_\varepsilon^2} \propto d^\gamma$",
    ]
    return markdown_table(header, rows)


def plane_text(plane: Plane) -> list[list[str]]:
    """Every cell's distance with its bootstrap error, as hover text."""
    se = plane.se
    return [
        [_u(plane.ks[i, j], se[i, j]) for j in range(plane.beta.size)] for i in range(plane.d.size)
    ]


def row_values(row_ks: dict, row_se, betas, d: int, tol_beta: float, tol_se: float) -> dict:
    """Glue values of the row across beta at size d (prefix ``thresh``)."""
    j2 = list(betas).index(BETA_FIXED)
    star = float(beta_star(d))
    return {
        "d": int(d),
        "beta_fixed": float(BETA_FIXED),
        "ks_beta_2": round(row_ks[REFERENCE][j2], 4),
        "ks_beta_2_txt": _u(row_ks[REFERENCE][j2], row_se[j2]),
        "ks_lin_beta_2": round(row_ks["Y_f_lin"][j2], 4),
        "beta_lo": float(betas[0]),
        "beta_hi": float(betas[-1]),
        "ks_beta_lo": round(row_ks[REFERENCE][0], 4),
        "ks_beta_hi": round(row_ks[REFERENCE][-1], 4),
        "ks_lin_max": round(max(row_ks["Y_f_lin"]), 4),
        "beta_star": round(star, 3),
        "tol": KS_TOL,
        "beta_tol": round(tol_beta, 3) if np.isfinite(tol_beta) else math.nan,
        "beta_tol_txt": _u(tol_beta, tol_se, 3),
        "ratio_tol": round(math.exp(tol_beta**2) / d, 4) if np.isfinite(tol_beta) else math.nan,
    }


def plane_values(plane: Plane, floor: Plane, rates: Rates, lin: Rates, levels, col: Collapse):
    """Glue values of the plane (prefix ``thresh``): rates, boundary, exponents, collapse."""
    tol = next(b for b in levels if b.level == KS_TOL)
    lo, hi = levels[0], levels[-1]
    ok = np.isfinite(tol.beta)
    fit = (
        np.polyfit(np.log(tol.d[ok].astype(float)), tol.beta[ok] ** 2, 1)
        if ok.sum() > 1
        else (math.nan, math.nan)
    )
    found = [b for b in tol.beta if np.isfinite(b) and plane.beta[0] < b <= plane.beta[-1]]
    steps = [float(np.diff(plane.beta)[np.searchsorted(plane.beta, b) - 1]) for b in found]
    return {
        "step_at_crossing": round(max(steps), 3) if steps else math.nan,
        "grid_d": ", ".join(str(int(v)) for v in plane.d),
        "grid_beta": ", ".join(f"{v:g}" for v in plane.beta),
        "plane_trials": ", ".join(str(int(v)) for v in plane.trials),
        "resamples": int(plane.boot.shape[-1]),
        "rate_lo_txt": _u(rates.rate[0], rates.se[0], 2),
        "rate_hi_txt": _u(rates.rate[-1], rates.se[-1], 2),
        "rate_2_txt": _u(
            rates.rate[plane.column(BETA_FIXED)], rates.se[plane.column(BETA_FIXED)], 2
        ),
        "rate_lin_min": round(float(np.min(lin.rate)), 2),
        "rate_lin_max": round(float(np.max(lin.rate)), 2),
        "rate_slope_txt": _u(rates.slope, rates.slope_se, 2),
        "gamma_txt": _u(tol.gamma, tol.gamma_se, 2),
        "gamma_lo_txt": _u(lo.gamma, lo.gamma_se, 2),
        "gamma_hi_txt": _u(hi.gamma, hi.gamma_se, 2),
        "level_lo": lo.level,
        "level_hi": hi.level,
        "gamma_intercept": round(float(fit[1]), 2),
        "boundary_lo_txt": _u(tol.beta[0], tol.beta_se[0], 3),
        "boundary_hi_txt": _u(tol.beta[-1], tol.beta_se[-1], 3),
        "boundary_d_lo": int(tol.d[0]),
        "boundary_d_hi": int(tol.d[-1]),
        "star_lo": round(float(beta_star(tol.d[0])), 2),
        "star_hi": round(float(beta_star(tol.d[-1])), 2),
        "boundary_found": round(100 * tol.found, 1),
        "collapse_c_txt": _u(col.c, col.c_se, 2),
        "collapse_spread": round(col.spread, 3),
        "collapse_spread_one": round(col.spread_one, 2),
        "collapse_spread_ratio": round(col.spread_ratio, 2),
        "collapse_noise": round(col.noise, 3),
        "collapse_cells": col.cells,
        "collapse_cells_all": int(plane.ks.size),
        "collapse_c_z": int(round(abs(col.c - 1) / col.c_se)) if col.c_se > 0 else math.nan,
    }


def normalizer_values(D_std: dict, D_pred: dict) -> dict:
    """Glue values of the normalizers' spread against its prediction (prefix ``thresh``)."""
    rel = {key: D_std[key] / D_pred[key] - 1 for key in D_std}
    small = [key for key in rel if math.exp(key[1] ** 2) / key[0] <= 0.1]
    beyond = [key for key in rel if key not in small]
    worst = max(rel, key=lambda key: abs(rel[key]))
    return {
        "norm_small_ratio": 0.1,
        "norm_rel_small": round(100 * max(abs(rel[k]) for k in small), 1) if small else math.nan,
        "norm_rel_worst": round(100 * rel[worst], 1),
        "norm_n_beyond": len(beyond),
        "norm_n_below": sum(rel[key] < 0 for key in beyond),
        "norm_rel_beyond_max": round(100 * max((abs(rel[k]) for k in beyond), default=math.nan), 1),
        "norm_worst_d": int(worst[0]),
        "norm_worst_beta": float(worst[1]),
        "norm_worst_pred": round(D_pred[worst], 3),
    }


def claims(row_ks, row_ref, plane, floor_row, rates, levels, col, D_std, D_pred) -> list[Claim]:
    """The threshold chapter's claims. ``row_ref`` are the row's pooled distances with their
    jackknife errors; ``floor_row`` the linear model's distances along the row."""
    stars = beta_star(levels[0].d)
    located = [np.all(b.beta + 2 * b.beta_se < stars) for b in levels]
    slopes = [b.gamma + 2 * b.gamma_se < 1 for b in levels]
    lo, hi = levels[0], levels[-1]
    drift, drift_se = hi.gamma - lo.gamma, math.hypot(lo.gamma_se, hi.gamma_se)
    rel = {key: D_std[key] / D_pred[key] - 1 for key in D_std}
    small = [abs(rel[key]) for key in rel if math.exp(key[1] ** 2) / key[0] <= 0.1]
    steps = [
        b.ks - a.ks > 2 * math.hypot(a.se, b.se)
        for a, b in zip(row_ref[:-1], row_ref[1:], strict=True)
    ]
    worst_rate = int(np.argmin(rates.rate - 2 * rates.se))
    return [
        Claim(
            r"at every $\beta$ of the grid attention's distance falls with $d$",
            rf"smallest $\rho - 2\,$se: {rates.rate[worst_rate] - 2 * rates.se[worst_rate]:.3f} "
            rf"(at $\beta$ = {rates.beta[worst_rate]:g})",
            r"$\rho(\beta) - 2\,$se > 0 at every $\beta$ (bootstrap over trials)",
            bool(np.all(rates.rate - 2 * rates.se > 0)),
            "at some β the distance does not fall with d over the grid's sizes.",
            THEOREM,
        ),
        Claim(
            r"the rate $\rho(\beta)$ falls as $\beta$ grows",
            f"slope of ρ against β: {_u(rates.slope, rates.slope_se, 2)}",
            "slope + 2 se < 0",
            bool(rates.slope + 2 * rates.slope_se < 0),
            "the rate in d does not fall with β over this grid.",
            "this book",
        ),
        Claim(
            r"the distance grows with $\beta$ at fixed $d$",
            ", ".join(f"{v:.4f}" for v in row_ks[REFERENCE]),
            "each step > 2 jackknife standard errors",
            bool(steps) and all(steps),
            "the reference's distance is not clearly increasing in β at this d.",
            "this book",
        ),
        Claim(
            r"the linear model stays closer to the law than attention at every $\beta$",
            f"largest $D_{{\\rm KS}}$ of {symbol('Y_f_lin')}: {max(floor_row):.4f}",
            "below attention's at every β of the row",
            all(a < b for a, b in zip(floor_row, row_ks[REFERENCE], strict=True)),
            "at some β the linear model is as far from the law as attention: d is too small.",
            THEOREM,
        ),
        Claim(
            r"hypothesis: agreement ends on the curve $e^{\beta^2} = d$",
            rf"collapse exponent $\hat c$ = {_u(col.c, col.c_se, 2)}",
            r"$|\hat c - 1|$ < 2 se (the iso-distance curves have the slope of $e^{\beta^2} = d$)",
            bool(abs(col.c - 1) < 2 * col.c_se),
            "the data reject it: the distance is nearly a function of "
            f"$\\beta^2 - \\hat c \\log d$ with $\\hat c$ = {col.c:.2f}, so every iso-distance "
            "curve grows like "
            f"$e^{{\\beta^2}} \\propto d^{{{col.c:.2f}}}$, far more slowly than "
            "$e^{\\beta^2} = d$, and lies well inside it.",
            THRESHOLD,
        ),
        Claim(
            rf"every iso-distance curve from {lo.level:g} to {hi.level:g} lies inside "
            r"$e^{\beta^2} = d$",
            f"{sum(located)} of {len(levels)} levels",
            r"$\beta_\varepsilon(d) + 2\,$se $< \sqrt{\log d}$ at every size",
            bool(all(located)),
            "at some level the crossing is not clearly inside the curve $e^{\\beta^2} = d$.",
            "this book",
        ),
        Claim(
            rf"every iso-distance curve from {lo.level:g} to {hi.level:g} grows more slowly than "
            r"$e^{\beta^2} = d$: $e^{\beta_\varepsilon^2} \propto d^\gamma$, $\gamma < 1$",
            f"γ from {_u(lo.gamma, lo.gamma_se, 2)} to {_u(hi.gamma, hi.gamma_se, 2)}",
            r"$\gamma + 2\,$se < 1 at every level",
            bool(all(slopes)),
            "at some level the boundary moves like $e^{\\beta^2} \\propto d$, or it lies inside "
            "the grid at "
            "fewer than two sizes.",
            "this book",
        ),
        Claim(
            r"the boundary exponent $\gamma$ grows with the level",
            f"γ({hi.level:g}) − γ({lo.level:g}) = {_u(drift, drift_se, 2)}",
            "> 2 combined standard errors",
            bool(drift > 2 * drift_se),
            "the exponent is the same at every level: the distance collapses exactly onto one "
            "curve of β² − ĉ log d.",
            "this book",
        ),
        Claim(
            r"$\operatorname{std}(D_i)$ follows $\sqrt{(e^{\beta^2} - 1 + \beta^4/2)/d}$ where "
            r"$e^{\beta^2}/d \le 0.1$",
            f"worst {100 * max(small):.1f} %" if small else "n/a",
            r"within 10 %, the size of the neglected terms of relative order $e^{\beta^2}/d$",
            bool(small) and max(small) < 0.10,
            "the first-order prediction of the normalizer spread misses even where "
            "$e^{\\beta^2} \\ll d$ (or no grid point has $e^{\\beta^2}/d \\le 0.1$).",
            "this book",
        ),
    ]
