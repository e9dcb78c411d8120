r"""The figures of the head-dimension chapter
(:class:`~attnspec.chapters.head_dimension.study.HeadDimension`): the gap between the bulks of
:math:`\sqrt d A_\perp` and of its linear model against :math:`d_{qk}/d` and over d in each
series, attention's distance to the laws of the Hermite-block models along :math:`d_{qk} =
d^\alpha`, and the phase diagram of the block ratios: one function per glued figure, named after
its glue key.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from ...experiments.head_dimension import rate_se
from ...models.hermite_blocks import block_rank
from ...present import plotting
from ...present import style as book_style
from ...present.formatting import ONE_OR_TWO, format_uncertain
from .tables import exponent_text, rate_text, series_label


def legible(fig: plt.Figure, size: float = 9.0, width: float = 7.0) -> plt.Figure:
    """``fig`` at most ``width`` inches wide (the page's content column), with every text,
    legends and ticks included, at least ``size`` points; the layout is tightened again."""
    w, h = fig.get_size_inches()
    if w > width:
        fig.set_size_inches(width, h * width / w)
    for text in fig.findobj(plt.Text):
        if text.get_fontsize() < size:
            text.set_fontsize(size)
    fig.tight_layout()
    return fig


def fig_blocks(study) -> plt.Figure:
    r"""Attention's distance to the law of the linear model :math:`Y_1` and of the best
    :math:`Y_k` against d, along :math:`d_{qk} = d^{1/2}` and :math:`d^{2/5}` (log-log, ± se, the
    fitted power laws; series differ by colour, marker and line style)."""
    fig, ax = plt.subplots(figsize=(7.0, 4.4))
    i = 0
    for s in study.blocks:
        d = np.array([p.d for p in s.points], dtype=float)
        xs = np.geomspace(d.min(), d.max(), 40)
        for k in (1, s.best):
            fit = s.rates[k]
            style = plotting.series_style(i)
            label = f"α = {exponent_text(s.alpha)}, law of $Y_{k}$: ρ = " + format_uncertain(
                fit.rate, rate_se(fit), ONE_OR_TWO, fallback=2
            )
            y = [p.to_law[k].ks for p in s.points]
            err = [p.to_law[k].se for p in s.points]
            ax.errorbar(
                d,
                y,
                yerr=np.nan_to_num(err),
                fmt=style["marker"],
                color=style["color"],
                capsize=3,
                markersize=5,
                label=label,
            )
            ax.plot(
                xs,
                np.exp(fit.intercept) * xs ** (-fit.rate),
                color=style["color"],
                linestyle=style["linestyle"],
                linewidth=1.2,
                marker="none",
            )
            i += 1
    ax.set_xscale("log")
    ax.set_yscale("log")
    sizes = []
    for v in sorted({p.d for s in study.blocks for p in s.points}):
        if not sizes or v > 1.15 * sizes[-1]:  # labels that would overlap are left out
            sizes.append(v)
    ax.set_xticks(sizes, [str(v) for v in sizes])
    ax.xaxis.set_minor_locator(plt.NullLocator())
    ax.set_xlabel("$d$")
    ax.set_ylabel("Kolmogorov distance to the law")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2, frameon=False)
    return legible(fig)


def fig_phase(study) -> plt.Figure:
    r"""The block ratios :math:`c_j = r_j/d` against :math:`\alpha = \log d_{qk}/\log d` at two
    sizes (lines, one style per block), the critical points :math:`\alpha = 1/j` (dotted), and
    marked: the measured series, the fixed-:math:`d_{qk}` series and real heads by
    :math:`(n, d_{qk})` (their :math:`c_2`)."""
    fig, ax = plt.subplots(figsize=(7.0, 4.8))
    alphas = np.linspace(0.2, 1.0, 161)
    sizes = (min(study.params["real_contexts"]), max(study.params["real_contexts"]))
    for j, style in zip((1, 2, 3), ("-", "--", "-."), strict=True):
        for n, width in zip(sizes, (0.9, 1.8), strict=True):
            c = [block_rank(max(1, round(n**a)), j) / n for a in alphas]
            label = f"$c_{j}$ at $d$ = {n}"
            ax.plot(
                alphas,
                c,
                color=plotting.series_style(j - 1)["color"],
                linestyle=style,
                linewidth=width,
                marker="none",
                label=label,
            )
        ax.axvline(1.0 / j, color="0.4", linestyle=":", linewidth=1.0)
    ax.axhline(1.0, color="0.4", linewidth=0.8)
    q = study.params["d_qk"]

    def c2(d_qk: int, d: int, ratios=()) -> tuple[float, float]:
        """A head of width d_qk at size d: alpha and c_2 (``ratios[1]`` where measured)."""
        c = ratios[1] if len(ratios) > 1 else block_rank(d_qk, 2) / d
        return math.log(d_qk) / math.log(d), c

    marks = [
        (
            f"measured, α = {exponent_text(s.alpha)} ($c_2$)",
            "o",
            [c2(p.d_qk, p.d, p.ratios) for p in s.points],
        )
        for s in study.blocks
    ]
    label = f"fixed $d_{{qk}}$ = {q} series ($c_2$)"
    marks.append((label, "s", [c2(q, d) for d in study.params["d_values"]]))
    label = f"real head $d_{{qk}}$ = {q}, $n$ = {sizes[0]}, {sizes[1]} ($c_2$)"
    marks.append((label, "*", [c2(q, n) for n in sizes]))
    for (label, marker, pts), color in zip(marks, ("k", "0.35", "C3", "C4"), strict=False):
        x, y = zip(*pts, strict=True)
        ax.plot(x, y, marker=marker, linestyle="none", color=color, markersize=8, label=label)
    ax.set_yscale("log")
    ax.set_ylim(1e-3, 1e3)
    ax.set_xlim(0.2, 1.0)
    ax.set_xticks(
        [0.2, 1 / 4, 1 / 3, 0.4, 1 / 2, 0.6, 0.8, 1.0],
        ["0.2", "1/4", "1/3", "0.4", "1/2", "0.6", "0.8", "1"],
    )
    ax.set_xlabel(r"$\alpha = \log d_{qk} / \log d$")
    ax.set_ylabel("block ratio $c_j = r_j / d$")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)
    return legible(fig)


def fig_map(study) -> plt.Figure:
    r"""The gap against :math:`d_{qk}/d` at each β (log-log; series told apart by marker and line
    style as well as colour), the noise floor's range over β shaded, and the ratio where the law's
    score band splits off as a dotted guide; the top axis gives :math:`d_{qk}` itself."""
    r = study.result
    d = r.d
    fig, ax = plt.subplots(figsize=(7.0, 4.4))
    x = np.asarray([q.ratio for q in r.maps[r.beta]], dtype=float)
    order = np.argsort(x)
    floors = np.array([[q.floor.ks for q in pts] for pts in r.maps.values()])
    lo, hi = floors.min(axis=0)[order], floors.max(axis=0)[order]
    ax.fill_between(x[order], lo, hi, color="0.82", label="noise floor (range over β)")
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (b, pts) in enumerate(r.maps.items()):
        ax.errorbar(
            x[order],
            np.asarray([q.gap.ks for q in pts], dtype=float)[order],
            yerr=np.nan_to_num(np.asarray([q.gap.se for q in pts], dtype=float)[order]),
            color=colors[i % len(colors)],
            marker="osD^v<>"[i % 7],
            linestyle=("-", "--", "-.", ":")[i % 4],
            markersize=5,
            capsize=3,
            label=f"β = {b:g}",
        )
    label = f"band splits off, β = {r.beta:g}"
    ax.axvline(r.threshold, color="k", linestyle=":", linewidth=1.0, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(x[order], [f"{v:.3g}" for v in x[order]])
    ax.xaxis.set_minor_locator(plt.NullLocator())
    top = ax.secondary_xaxis("top", functions=(lambda c: c * d, lambda k: k / d))
    top.set_xticks(x[order] * d, [f"{round(v * d)}" for v in x[order]])
    top.xaxis.set_minor_locator(plt.NullLocator())
    top.set_xlabel(f"head dimension $d_{{qk}}$ at $d$ = {d}")
    ax.set_xlabel(r"$d_{qk}/d$")
    ax.set_ylabel(r"gap: $D_{\rm KS}$($\sqrt{d}\,A_\perp$, $Y^{\rm lin}$)")
    fig.tight_layout()
    book_style.legend(ax)
    return fig


def fig_series(study) -> plt.Figure:
    r"""Each series' gap over d (fixed ratio :math:`d_{qk}/d` or fixed :math:`d_{qk}`) with its
    fit, and the noise floor of the fixed head dimension."""
    r = study.result
    out = {}
    for key, points in r.series.items():
        fit = r.rates[key]
        gaps, errors = [p.gap.ks for p in points], [p.gap.se for p in points]
        out[f"{series_label(key)}: ρ = {rate_text(fit)}"] = (gaps, errors, -fit.rate, fit.intercept)
    key = ("d_qk", float(r.d_qk))
    floor = [q.floor for q in r.series[key]]
    out[f"noise floor, {series_label(key)}"] = (
        [f.ks for f in floor],
        [f.se for f in floor],
        math.nan,
        math.nan,
    )
    fig = plotting.loglog_fits(sorted(study.params["d_values"]), out, "$d$", "gap")
    return legible(fig)
