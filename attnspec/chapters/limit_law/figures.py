"""The figures of "The limit law"."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...models.ladder import MODEL_NAMES
from ...models.notation import symbol
from ...present import interactive
from ...present import style as book_style
from ...present.plotting import series_style

#: The histograms' right end at most this many times the largest value shown: no value falls
#: beyond it, and an axis that reaches 1e308 cannot be drawn.
RANGE_CAP = 1e3


def fig_slider(study):
    """The slider over β (interactive), with a static grid of every other frame."""
    return interactive.InteractiveFigure(
        interactive.law_slider(study.frames, study.betas.index(study.config.beta)),
        interactive.LAW_SLIDER,
        law_frames_grid(study.frames[1::2]),
        "Slider over beta: the histogram of the bulk of the square root of d times "
        "A-perp, the exact limit law and Marchenko-Pastur with the same mean, in units of "
        "theta 1.",
    )


def fig_grid(study):
    """Every rung's bulk against the exact law and Marchenko–Pastur of the same mean."""
    return _against_laws(
        study, {symbol(n): study.result.bulk(n) for n in MODEL_NAMES}, r"exact law, $\theta^f$"
    )


def fig_cdf(study):
    r"""Every rung's :math:`F_{\rm bulk} - F_{\theta^f}`, with the gap between the two laws."""
    cdf = study.cdf
    gap = r"$\theta^Q$ law $-$ $\theta^f$ law"
    return cdf_differences(
        cdf.x,
        {symbol(n): cdf.rungs[n] for n in MODEL_NAMES} | {gap: cdf.gap},
        r"$s^2$",
        r"$F_{\rm bulk}(s^2) - F_{\theta^f}(s^2)$",
        dashed=(gap,),
    )


def fig_scores(study):
    """The bulks of i.i.d. and bilinear scores against both laws."""
    bulks = study.scores.bulks
    return _against_laws(
        study,
        {
            r"i.i.d. scores $s_{ij}$": bulks["iid"],
            r"bilinear scores $W_QW_K^\top/\sqrt{d}$": bulks["bilinear"],
        },
        "Pennington–Worah law",
    )


def _against_laws(study, bulks: dict, law_label: str):
    """:func:`law_histogram_grid` of ``bulks`` against the :math:`\theta^f` law (labelled
    ``law_label``) and Marchenko–Pastur, with both edges, on a logarithmic density axis; the
    declared histogram range, its right end at most :data:`RANGE_CAP` times the largest value
    shown."""
    c, laws = study.config, study.laws
    lo, hi = c.hist_range
    shown = max(*(float(np.max(b)) for b in bulks.values()), laws["f"].edge, laws["mp"].edge)
    return law_histogram_grid(
        bulks,
        c.hist_bins,
        (lo, min(hi, RANGE_CAP * max(lo, shown))),
        {law_label: laws["f"].pdf, r"Marchenko–Pastur, mean $\theta_1$": laws["mp"].pdf},
        edges={r"$\lambda_+$": laws["f"].edge, r"$4\theta_1$": laws["mp"].edge},
        logy=True,
    )


def _label_outer(ax, k: int, n: int, cols: int, xlabel: str, ylabel: str) -> None:
    """Axis and tick labels on the outer panels only: panel ``k`` of ``n`` in ``cols`` columns."""
    if k + cols < n:  # a panel below shows the x axis
        ax.tick_params(labelbottom=False)
    else:
        ax.set_xlabel(xlabel)
    if k % cols:
        ax.tick_params(labelleft=False)
    else:
        ax.set_ylabel(ylabel)


def law_histogram_grid(
    bulks: dict[str, np.ndarray],
    bins: int,
    value_range: tuple[float, float],
    laws: dict[str, object],
    edges: dict[str, float] | None = None,
    cols: int = 3,
    logy: bool = False,
) -> plt.Figure:
    """One panel per model: its bulk histogram with limit-law densities over it.

    ``laws`` maps a legend label to a density callable (the first is drawn solid black, the next
    ones dashed/dotted); ``edges`` maps a label to a value marked by a vertical dotted line. With
    ``logy`` the density axis is logarithmic, down to the height of a single value in one bin. The
    legend fills the first empty panel (or sits below the grid when there is none); tick labels
    are shown on the outer panels only.
    """
    names = list(bulks)
    rows = -(-len(names) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(book_style.WIDTH, 2.2 * rows), squeeze=False)
    hist_edges = np.linspace(*value_range, bins + 1)
    xs = np.linspace(*value_range, 801)
    xs = xs[xs > 0]
    styles = [("k", "-"), ("C3", "--"), ("C2", ":"), ("C4", "-.")]
    curves_ = {}
    for label, density in laws.items():
        ys = np.asarray(density(xs), dtype=float)
        curves_[label] = np.where(np.isfinite(ys), ys, np.nan)
    top, floor = 0.0, np.inf
    used = list(axes.flat[: len(names)])
    for ax, name in zip(used, names, strict=True):
        floor = min(floor, 0.5 / (max(bulks[name].size, 1) * (hist_edges[1] - hist_edges[0])))
        heights, _, _ = ax.hist(
            bulks[name], bins=hist_edges, density=True, color="0.78", label="bulk"
        )
        top = max(top, float(np.max(heights[1:])) if heights.size > 1 else float(np.max(heights)))
        for (label, ys), (color, style) in zip(curves_.items(), styles, strict=False):
            ax.plot(xs, ys, color=color, linestyle=style, linewidth=1.2, label=label)
        for x in (edges or {}).values():
            ax.axvline(x, color="0.3", linestyle=":", linewidth=0.9)
        ax.set_title(name)
    handles, labels = used[0].get_legend_handles_labels()
    spare = list(axes.flat[len(names) :])
    for ax in spare:
        ax.set_axis_off()
    if spare:  # the legend goes into the first empty panel, where it hides no data
        spare[0].legend(handles, labels, loc="center", frameon=False)
    else:
        fig.legend(handles, labels, loc="lower center", ncol=len(labels), frameon=False)
    for k, ax in enumerate(used):
        ax.set_xlim(*value_range)
        if logy:
            ax.set_yscale("log")
            ax.set_ylim(floor, 3.0 * top if top > 0 else None)
        else:
            ax.set_ylim(0, 1.25 * top if top > 0 else None)
        _label_outer(ax, k, len(names), cols, r"$s^2$", "density")
    fig.tight_layout()
    return fig


def cdf_differences(
    x: np.ndarray,
    diffs: dict[str, np.ndarray],
    xlabel: str,
    ylabel: str,
    dashed: tuple[str, ...] = (),
) -> plt.Figure:
    """Curves F_n(x) - F(x) of several samples against a law, with the zero line.

    Each curve has its own colour and line style; those named in ``dashed`` are drawn black and
    dashed (a reference curve, not a sample). The legend sits where it hides no curve.
    """
    fig, ax = plt.subplots(figsize=(book_style.WIDTH, 4.2))
    ax.axhline(0.0, color="0.4", linewidth=0.8)
    for i, (name, y) in enumerate(diffs.items()):
        if name in dashed:
            ax.plot(x, y, "k--", linewidth=1.4, label=name)
        else:
            ax.plot(x, y, linestyle=series_style(i)["linestyle"], linewidth=1.3, label=name)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    book_style.legend(ax)
    return fig


def law_frames_grid(frames, cols: int = 3) -> plt.Figure:
    r"""Static rendering of the :math:`\beta` slider: one panel per frame
    (:class:`attnspec.experiments.limit_law.SliderFrame`), in units of :math:`\theta_1`.

    Each panel has the bulk's histogram (grey), the exact law (solid black), Marchenko–Pastur of
    the same mean (dashed) and the law's edge (dotted), on a logarithmic density axis.
    """
    rows = -(-len(frames) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(book_style.WIDTH, 2.4 * rows), squeeze=False)
    for k, (ax, fr) in enumerate(zip(axes.flat, frames, strict=False)):
        ax.stairs(fr.hist, fr.edges, fill=True, color="0.78", label="bulk")
        ax.plot(fr.x, fr.law, "k-", linewidth=1.3, label="exact law")
        ax.plot(fr.x, fr.mp, color="C3", linestyle="--", linewidth=1.3, label="Marchenko–Pastur")
        ax.axvline(fr.edge, color="0.3", linestyle=":", linewidth=1)
        ax.set_yscale("log")
        ax.set_ylim(1e-3, 6)
        ax.set_xlim(0, float(fr.edges[-1]))
        ax.set_title(rf"$\beta$ = {fr.beta:g}")
        _label_outer(ax, k, len(frames), cols, r"$s^2/\theta_1$", "density")
    for ax in axes.flat[len(frames) :]:
        ax.set_axis_off()
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(
        handles, labels, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False
    )
    fig.tight_layout()
    return fig
