r"""The figures of the head-dimension chapter
(:class:`~attnspec.chapters.head_dimension.HeadDimension`): the gap between the bulks of
:math:`\sqrt d A_\perp` and of its linear model against :math:`d_{qk}/d`, over d in each series,
and along :math:`d_{qk} = \lceil d^\alpha\rceil` with the rate :math:`\rho(\alpha)` of gap
:math:`\propto d^{-\rho}`. Each returns a matplotlib Figure.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from ..numerics.fitting import RateFit
from ..present import plotting
from .head_dimension_tables import HEURISTIC_ALPHA, rate_text, real_exponents, series_label


def fitted(points, fit: RateFit) -> tuple[list[float], list[float], float, float]:
    r"""A gap series for :func:`~attnspec.present.plotting.loglog_fits`: the gaps, their standard
    errors and the fitted line :math:`e^{a} d^{-\rho}` (slope :math:`-\rho`, intercept a)."""
    return [p.gap.ks for p in points], [p.gap.se for p in points], -fit.rate, fit.intercept


def rate_by_exponent(study) -> plt.Figure:
    r"""The rate :math:`\rho(\alpha)` ± its standard error against :math:`\alpha`, where it
    crosses 0, the Hadamard-power hypothesis :math:`\alpha = 1/2` and the real head's range of
    exponents."""
    scan, (d_qk, contexts) = study.scan, study.real
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


def gap_by_exponent(study) -> plt.Figure:
    r"""The gap over d at each exponent :math:`\alpha`, with its fit (legend: the rate ± the
    larger standard error)."""
    scan = study.scan
    series = {
        f"α = {a:g}: ρ = {rate_text(scan.rates[a])}": fitted(scan.points[a], scan.rates[a])
        for a in scan.alphas
    }
    return plotting.legible(plotting.loglog_fits(scan.d_values, series, "$d$", "gap"))


def gap_map(study) -> plt.Figure:
    r"""The gap against :math:`d_{qk}/d` at each β, the noise floor's range over β, and the
    ratio where the law's score band splits off as a guide."""
    r = study.result
    gaps = {
        f"β = {b:g}": ([q.gap.ks for q in pts], [q.gap.se for q in pts])
        for b, pts in r.maps.items()
    }
    floors = np.array([[q.floor.ks for q in pts] for pts in r.maps.values()])
    return plotting.gap_against_ratio(
        ratios=[q.ratio for q in r.maps[r.beta]],
        gaps=gaps,
        floor=(floors.min(axis=0), floors.max(axis=0)),
        d=r.d,
        guides={f"band splits off, β = {r.beta:g}": r.threshold},
    )


def gap_series(study) -> plt.Figure:
    r"""Each series' gap over d (fixed ratio :math:`d_{qk}/d` or fixed :math:`d_{qk}`) with its
    fit, and the noise floor of the fixed head dimension."""
    r = study.result
    out = {
        f"{series_label(key)}: ρ = {rate_text(r.rates[key])}": fitted(points, r.rates[key])
        for key, points in r.series.items()
    }
    key = ("d_qk", float(r.d_qk))
    floor = [q.floor for q in r.series[key]]
    out[f"noise floor, {series_label(key)}"] = (
        [f.ks for f in floor],
        [f.se for f in floor],
        math.nan,
        math.nan,
    )
    fig = plotting.loglog_fits(sorted(study.params["d_values"]), out, "$d$", "gap")
    return plotting.legible(fig)
