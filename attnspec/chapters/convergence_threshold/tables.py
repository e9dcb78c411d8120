"""The threshold chapter's tables: the row across β, the rates in d and the boundary's levels,
and the plane's hover text."""

from __future__ import annotations

import math

import numpy as np

from ...experiments.threshold import KS_TOL, Boundary, Plane, Rates, fit_boundary
from ...models.ladder import REFERENCE
from ...models.notation import symbol
from ...present.numbers import fixed
from ...present.tables import markdown_table
from ..shared import uncertain_text


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
