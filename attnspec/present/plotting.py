"""One function per kind of figure in Parts I–II, and the helpers every figure module shares (series
styles, guide lines, panel grids). Each figure function returns a matplotlib Figure; Part III's are
in each chapter's ``figures`` module."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib import ticker

from . import style as book_style
from .palette import COLORS

book_style.apply()


#: Markers of the second round of the book's cycle, so that series past its end stay distinct.
_MORE_MARKERS = ("x", "*", "h", "<", ">", "p", "+")


def series_style(i: int) -> dict:
    """Colour, marker and line style of the ``i``-th series: the book's cycle
    (:mod:`attnspec.present.style`), each differing from its neighbours' in all three; past the
    cycle's end the colours (:data:`~attnspec.present.palette.COLORS`) and markers go on, so the
    first 11 series never share a colour and no two of the first 14 share a marker."""
    cycle = plt.rcParams["axes.prop_cycle"].by_key()
    style = {key: values[i % len(values)] for key, values in cycle.items()}
    markers = [*cycle["marker"], *_MORE_MARKERS]
    return style | {"marker": markers[i % len(markers)], "color": COLORS[i % len(COLORS)]}


def _plain_log_ticks(axis, values) -> None:
    """Major ticks exactly at ``values`` with plain labels, no minor labels, on a log ``axis``."""
    axis.set_major_locator(ticker.FixedLocator(list(values)))
    axis.set_major_formatter(ticker.FixedFormatter([f"{v:g}" for v in values]))
    axis.set_minor_locator(ticker.NullLocator())


def _finish(fig: plt.Figure, ax, xlabel: str, ylabel: str, **legend) -> plt.Figure:
    """Label the axes of ``ax``, tighten ``fig``, and draw the legend (keyword arguments ``legend``)
    where it hides no data (:func:`attnspec.present.style.legend`)."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    book_style.legend(ax, **legend)
    return fig


def top_singular_values(top: dict[str, np.ndarray], ylabel: str = r"$s_i^2$") -> plt.Figure:
    """Each model's largest squared singular values against their index (log scale), one line per
    model told apart by marker and line style; the legend sits outside the axes."""
    fig, ax = plt.subplots(figsize=(book_style.WIDTH, 4.0))
    for i, (name, values) in enumerate(top.items()):
        index = np.arange(1, len(values) + 1)
        ax.plot(index, values, label=name, markersize=6, linewidth=1.2, **series_style(i))
    n = max(len(v) for v in top.values())
    ax.set_xticks(range(1, n + 1))
    ax.set_yscale("log")
    ax.set_xlabel(r"index $i$ of the singular value")
    ax.set_ylabel(ylabel)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    fig.tight_layout()
    return fig


def histogram_with_normal(values: np.ndarray, mean: float, std: float, xlabel: str) -> plt.Figure:
    """Histogram density of ``values`` with the normal density N(mean, std²) and a line at mean."""
    fig, ax = plt.subplots(figsize=(6.5, 4))
    ax.hist(values, bins=100, density=True, alpha=0.75, label="measured")
    xs = np.linspace(values.min(), values.max(), 400)
    ax.plot(
        xs,
        np.exp(-0.5 * ((xs - mean) / std) ** 2) / (std * np.sqrt(2 * np.pi)),
        "k--",
        label=f"normal, predicted std {std:.4f}",
    )
    ax.axvline(mean, color="k", linewidth=0.8)
    return _finish(fig, ax, xlabel, "density", fontsize=9)


def measured_vs_predicted(
    x, measured, predicted, xlabel: str, ylabel: str, logy: bool = True, yerr=None
) -> plt.Figure:
    """Measured points (with error bars ``yerr`` when given) against a prediction evaluated at the
    same x."""
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ax.plot(x, predicted, "k--", marker="x", markersize=8, label="predicted")
    ax.errorbar(x, measured, yerr=yerr, fmt="o", color="C0", capsize=3, label="measured (± se)")
    if logy:
        ax.set_yscale("log")
        ax.yaxis.set_minor_formatter(ticker.NullFormatter())
    ax.set_xticks(list(x), [f"{v:g}" for v in x])
    return _finish(fig, ax, xlabel, ylabel, loc="upper left")


def curves(
    x, ys: dict[str, np.ndarray], xlabel: str, ylabel: str, logy: bool = False
) -> plt.Figure:
    """Several named curves against a common x, told apart by marker and line style."""
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for i, (name, y) in enumerate(ys.items()):
        ax.plot(x, y, label=name, markersize=5, **series_style(i))
    if logy:
        ax.set_yscale("log")
    return _finish(fig, ax, xlabel, ylabel)


def scores_and_entries(
    S: np.ndarray, A: np.ndarray, beta: float, sample: int = 20000
) -> plt.Figure:
    r"""Left: histogram of the scores against N(0, 1). Right: :math:`d A_{ij}` against
    :math:`e^{\beta S_{ij} - \beta^2/2}` on a fixed sample of entries (the deterministic
    normalizer)."""
    d = S.shape[0]
    fig, (left, right) = plt.subplots(1, 2, figsize=(book_style.WIDTH, 3.4))
    left.hist(S.ravel(), bins=120, density=True, alpha=0.75, label=r"$S_{ij}$")
    xs = np.linspace(-5, 5, 400)
    left.plot(xs, np.exp(-(xs**2) / 2) / np.sqrt(2 * np.pi), "k--", label=r"$\mathcal{N}(0, 1)$")
    left.set_xlabel("score")
    left.set_ylabel("density")
    book_style.legend(left)
    idx = np.linspace(0, S.size - 1, min(sample, S.size)).astype(int)
    pred = np.exp(beta * S.ravel()[idx] - beta**2 / 2)
    right.plot(pred, d * A.ravel()[idx], ".", markersize=2, alpha=0.4)
    right.plot(
        [pred.min(), pred.max()], [pred.min(), pred.max()], "k--", linewidth=1, label="equality"
    )
    right.set_xscale("log")
    right.set_yscale("log")
    return _finish(fig, right, r"$e^{\beta S_{ij} - \beta^2/2}$", r"$d\,A_{ij}$")


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


def per_trial_points(
    values: dict[str, np.ndarray], lines: dict[str, float], ylabel: str
) -> plt.Figure:
    """One column of points per series (one point per trial, spread sideways), each series with its
    own marker, and labelled horizontal lines in distinct styles.

    The keys of ``values`` label the columns: use short symbols (they are not rotated).
    """
    fig, ax = plt.subplots(figsize=(book_style.WIDTH, 4.2))
    styles = [("k", "-"), ("C3", "--"), ("C2", ":"), ("C4", "-.")]
    for (label, y), (color, style) in zip(lines.items(), styles, strict=False):
        ax.axhline(y, color=color, linestyle=style, linewidth=1.2, label=label)
    for i, v in enumerate(values.values()):
        v = np.asarray(v, dtype=float)
        offsets = np.linspace(-0.22, 0.22, v.size) if v.size > 1 else np.zeros(1)
        ax.plot(
            i + offsets,
            v,
            linestyle="none",
            markersize=5,
            **{k: series_style(i)[k] for k in ("marker", "color")},
        )
    ax.set_xticks(range(len(values)), list(values))
    ax.set_xlim(-0.6, len(values) - 0.4)
    ax.set_ylabel(ylabel)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
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
    return _finish(fig, ax, xlabel, ylabel)


def loglog_fits(x, series: dict[str, tuple], xlabel: str, ylabel: str) -> plt.Figure:
    r"""Several series on log-log axes, each with error bars and its fitted line :math:`e^{a}
    x^{b}`; series differ by colour, marker and the line style of their fit.

    ``series`` maps a legend label to ``(y, yerr, slope, intercept)``; a series whose slope is not
    finite is drawn without a line. Points that are not finite and positive are left out.
    """
    fig, ax = plt.subplots(figsize=(book_style.WIDTH, 4.8))
    x = np.asarray(x, dtype=float)
    xs = np.geomspace(x.min(), x.max(), 50)
    markers = "osD^v<>ph*"
    plotted = False
    for i, (label, (y, yerr, slope, intercept)) in enumerate(series.items()):
        y, yerr = np.asarray(y, dtype=float), np.asarray(yerr, dtype=float)
        ok = np.isfinite(y) & (y > 0)
        if not ok.any():
            continue
        plotted = True
        err = np.where(np.isfinite(yerr), yerr, 0.0)[ok]
        color = series_style(i)["color"]
        ax.errorbar(
            x[ok],
            y[ok],
            yerr=err,
            fmt=markers[i % len(markers)],
            color=color,
            capsize=3,
            markersize=5,
            label=label,
        )
        if np.isfinite(slope) and np.isfinite(intercept):
            style = series_style(i)["linestyle"]
            fit = np.exp(intercept) * xs**slope
            ax.plot(xs, fit, linestyle=style, color=color, linewidth=1, marker="none")
    ax.set_xscale("log")
    ax.set_xticks(x, [f"{v:g}" for v in x])
    ax.xaxis.set_minor_locator(plt.NullLocator())
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if plotted:
        ax.set_yscale("log")
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    else:
        ax.text(
            0.5, 0.5, "no finite positive values", transform=ax.transAxes, ha="center", va="center"
        )
    fig.tight_layout()
    return fig


def curves_with_guides(
    x,
    ys: dict[str, np.ndarray],
    xlabel: str,
    ylabel: str,
    *,
    vlines: dict[str, float] | None = None,
    hlines: dict[str, float] | None = None,
    logy: bool = False,
    yerr: dict[str, np.ndarray] | None = None,
) -> plt.Figure:
    """Several named curves against a common x, with labelled vertical and horizontal guide
    lines; each curve has its own marker and line style, and error bars where ``yerr`` has its
    name."""
    fig, ax = plt.subplots(figsize=(book_style.WIDTH, 4.5))
    for i, (name, y) in enumerate(ys.items()):
        ax.errorbar(
            x,
            y,
            yerr=None if yerr is None or name not in yerr else yerr[name],
            marker=series_style(i)["marker"],
            linestyle=series_style(i)["linestyle"],
            markersize=5,
            capsize=2,
            label=name,
        )
    for (label, v), style in zip((vlines or {}).items(), ("-.", ":"), strict=False):
        ax.axvline(v, color="k", linestyle=style, linewidth=1, label=label)
    for (label, h), style in zip((hlines or {}).items(), (":", "-."), strict=False):
        ax.axhline(h, color="0.35", linestyle=style, linewidth=1, label=label)
    if logy:
        ax.set_yscale("log")
    return _finish(fig, ax, xlabel, ylabel)


def phase_diagram(
    x,
    y,
    z: np.ndarray,
    xlabel: str,
    ylabel: str,
    zlabel: str,
    *,
    curves: dict[str, tuple] | None = None,
    points: dict[str, tuple] | None = None,
    fmt: str | None = None,
) -> plt.Figure:
    r"""Heat map of ``z[i, j]`` at ``(x[j], y[i])`` on a log colour scale.

    The y axis is logarithmic (cells span the geometric midpoints of ``y``), the x axis linear
    (cells span the midpoints of ``x``, which may be unevenly spaced). ``curves`` maps a label to
    ``(xs, ys)`` drawn as dashed lines; ``points`` a label to ``(xs, ys)`` or ``(xs, ys, xerr)``
    drawn as markers with horizontal error bars, joined by a line. With ``fmt`` (e.g.
    ``"{:.3f}"``) every cell is labelled with its value. Cells whose value is not finite and
    positive stay blank. The legend sits above the axes.
    """
    from matplotlib.colors import LogNorm

    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    z = np.asarray(z, dtype=float)

    def edges(v, log):
        v = np.log(v) if log else v
        if v.size == 1:
            e = np.array([v[0] - 0.35, v[0] + 0.35]) if log else np.array([v[0] - 0.5, v[0] + 0.5])
        else:
            mid = (v[1:] + v[:-1]) / 2
            e = np.concatenate([[v[0] - (mid[0] - v[0])], mid, [v[-1] + (v[-1] - mid[-1])]])
        return np.exp(e) if log else e

    xe, ye = edges(x, False), edges(y, True)
    good = np.isfinite(z) & (z > 0)
    fig, ax = plt.subplots(figsize=(book_style.WIDTH, 4.6))
    if good.any():
        norm = LogNorm(vmin=z[good].min(), vmax=max(z[good].max(), z[good].min() * 1.0001))
        mesh = ax.pcolormesh(
            xe, ye, np.ma.masked_where(~good, z), norm=norm, cmap="viridis", shading="flat"
        )
        fig.colorbar(mesh, ax=ax, label=zlabel)
        for i in range(y.size) if fmt else ():
            for j in range(x.size):
                if good[i, j]:
                    dark = np.log(z[i, j] / norm.vmin) < 0.6 * np.log(norm.vmax / norm.vmin)
                    ax.text(
                        x[j],
                        y[i],
                        fmt.format(z[i, j]),
                        ha="center",
                        va="center",
                        color="w" if dark else "k",
                    )
    for (label, (cx, cy)), style in zip((curves or {}).items(), ("--", "-.", ":"), strict=False):
        ax.plot(cx, cy, color="C3", linestyle=style, marker="none", linewidth=2, label=label)
    for label, spec in (points or {}).items():
        px, py, *err = spec
        ax.errorbar(
            px,
            py,
            xerr=err[0] if err else None,
            fmt="o-",
            color="w",
            markerfacecolor="C1",
            markeredgecolor="k",
            markersize=6,
            linewidth=1.4,
            capsize=3,
            label=label,
        )
    ax.set_yscale("log")
    ax.set_xlim(xe[0], xe[-1])
    ax.set_ylim(ye[0], ye[-1])
    ax.set_yticks(y, [f"{v:g}" for v in y])
    ax.yaxis.set_minor_locator(plt.NullLocator())
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if curves or points:
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.01), ncol=2, frameon=False)
    fig.tight_layout()
    return fig


def spread_and_distance(
    betas,
    measured: dict[str, np.ndarray],
    predicted: dict[str, tuple],
    spread: dict[str, np.ndarray],
    distance: dict[str, np.ndarray],
    ylabel_distance: str,
) -> plt.Figure:
    r"""Left: measured normalizer spread (points) and its prediction (lines) against :math:`\beta`,
    one colour per group. Right: a distance against the predicted spread, same groups, log-log.

    ``measured[g]`` is evaluated at ``betas``; ``predicted[g]`` is ``(beta_grid, values)``;
    ``spread[g]`` and ``distance[g]`` are paired values at ``betas``.
    """
    fig, (left, right) = plt.subplots(1, 2, figsize=(book_style.WIDTH, 3.6))
    for i, group in enumerate(measured):
        color = series_style(i)["color"]
        bx, by = predicted[group]
        marker, style = series_style(i)["marker"], series_style(i)["linestyle"]
        left.plot(bx, by, linestyle=style, color=color, linewidth=1)
        left.plot(betas, measured[group], marker, color=color, linestyle="none", label=group)
        right.plot(
            spread[group], distance[group], marker=marker, linestyle=style, color=color, label=group
        )
    left.plot([], [], "k-", linewidth=1, label="predicted")
    left.set_yscale("log")
    left.set_xlabel(r"$\beta$")
    left.set_ylabel(r"std$(D_i)$")
    left.legend(frameon=False)
    right.set_xscale("log")
    right.set_yscale("log")
    return _finish(fig, right, r"predicted std$(D_i)$", ylabel_distance, frameon=False)


def power_law_with_prediction(
    x,
    y,
    yerr,
    slope: float,
    intercept: float,
    exponent_text: str,
    predicted,
    xlabel: str,
    ylabel: str,
    var: str = "d",
) -> plt.Figure:
    r"""Measured points with error bars, the fitted power law :math:`\propto` ``var``:sup:`ν`, and
    predicted points.

    ``exponent_text`` is the fitted exponent as printed (with the digits its uncertainty supports);
    ``predicted`` is drawn as crosses at the same ``x``. The x ticks sit at the measured ``x``, with
    plain labels and no minor labels.
    """
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ax.errorbar(x, y, yerr=yerr, fmt="o", capsize=3, color="C0", label="measured (mean ± se)")
    xs = np.geomspace(min(x), max(x), 50)
    ax.plot(
        xs,
        np.exp(intercept) * xs**slope,
        "--",
        color="C1",
        label=rf"fit $\propto {var}^{{{exponent_text}}}$",
    )
    ax.plot(x, predicted, "kx", markersize=8, label="first-order prediction")
    ax.set_xscale("log")
    ax.set_yscale("log")
    _plain_log_ticks(ax.xaxis, x)
    ax.yaxis.set_minor_formatter(ticker.NullFormatter())
    return _finish(fig, ax, xlabel, ylabel, loc="lower left")


def cdf_differences_with_noise(
    x: np.ndarray,
    diffs: dict[str, np.ndarray],
    noise: np.ndarray,
    xlabel: str,
    ylabel: str,
    noise_label: str,
    ncols: int = 3,
    vlines: dict[str, float] | None = None,
) -> plt.Figure:
    r"""One panel per curve :math:`F(x) - F_{\mathrm{ref}}(x)`, over the noise band.

    ``noise`` is the same difference for an independent repetition of the reference: it is drawn in
    grey in every panel, with the band :math:`\pm\max_x|\mathrm{noise}|` shaded. ``vlines`` marks
    named positions (e.g. a histogram range's end) with vertical lines of distinct styles. Each
    panel is titled by its curve; one legend for all panels sits below them, so no legend covers
    a curve.
    """
    names = list(diffs)
    rows = -(-len(names) // ncols)
    fig, axes = plt.subplots(
        rows,
        ncols,
        figsize=(min(2.5 * ncols, book_style.WIDTH), 2.3 * rows + 0.7),
        sharex=True,
        sharey=True,
        squeeze=False,
    )
    floor = float(np.max(np.abs(noise)))
    guides = list((vlines or {}).items())
    for i, (ax, name) in enumerate(zip(axes.flat, names, strict=False)):
        ax.axhspan(-floor, floor, color="0.88", label=r"$\pm$ noise floor")
        ax.axhline(0.0, color="0.5", linewidth=0.6)
        ax.plot(x, noise, color="0.55", linewidth=0.9, label=noise_label)
        ax.plot(x, diffs[name], color=series_style(i)["color"], linewidth=1.4, label="rung")
        for (label, pos), style in zip(guides, (":", "-."), strict=False):
            ax.axvline(pos, color="k", linestyle=style, linewidth=0.9, label=label)
        ax.set_title(name)
    spare = list(axes.flat[len(names) :])
    for ax in spare:
        ax.set_visible(False)
    for col, ax in enumerate(axes[-1]):
        if ax.get_visible():
            ax.set_xlabel(xlabel)
        elif rows > 1:  # a hidden bottom panel leaves its column's label to the panel above it
            axes[-2, col].set_xlabel(xlabel)
            axes[-2, col].xaxis.set_tick_params(labelbottom=True)
    for ax in axes[:, 0]:
        ax.set_ylabel(ylabel)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    labels = ["the panel's curve" if lab == "rung" else lab for lab in labels]
    if spare:  # the legend fills the first empty panel slot, away from every curve
        spare[0].set_visible(True)
        spare[0].axis("off")
        spare[0].legend(handles, labels, loc="center", frameon=False)
        fig.tight_layout()
    else:  # below the panels
        fig.legend(handles, labels, loc="lower center", ncol=len(labels), frameon=False)
        fig.tight_layout(rect=(0, 0.45 / fig.get_figheight(), 1, 1))
    return fig


# --- Part III: the canonical model and real attention -------------------------------------------


def series_line(x, y, label: str | None, i: int, **kwargs) -> dict:
    """A data series: colour, line style and marker of the book's cycle at ``i``."""
    return {"x": x, "y": y, "label": label, "markersize": 4} | series_style(i) | kwargs


def guide_line(x, y, label: str | None, linestyle="--", **kwargs) -> dict:
    """A reference curve (a law, a bound, a rate): black, thin, no marker."""
    return {
        "x": x,
        "y": y,
        "label": label,
        "color": "k",
        "linestyle": linestyle,
        "linewidth": 1.0,
    } | kwargs


def ticks_at(axis, values) -> None:
    """Major ticks at ``values`` only, labelled plainly (no minor labels, no single lone tick)."""
    from matplotlib import ticker

    axis.set_major_locator(ticker.FixedLocator(list(values)))
    axis.set_major_formatter(ticker.FixedFormatter([f"{v:g}" for v in values]))
    axis.set_minor_formatter(ticker.NullFormatter())


def _log_labels(axis, lo: float, hi: float) -> None:
    """Plain labels on a log axis: at 1, 2 and 5 times each decade when it spans at most two
    decades, else at the decades only; minor ticks unlabelled (no ``3×10⁻¹4×10⁻¹``)."""
    from matplotlib import ticker

    if not (lo > 0 and hi > lo):
        return
    subs = (1.0, 2.0, 5.0) if np.log10(hi / lo) <= 2 else (1.0,)
    axis.set_major_locator(ticker.LogLocator(base=10, subs=subs))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(ticker.NullFormatter())


def panel_grid(panels: list[dict], ncols: int = 2, height: float = 2.7) -> plt.Figure:
    """Panels on a grid at page width, with one legend for the whole figure below the panels.

    Each panel: ``title``, ``xlabel``, ``ylabel``, optional ``logx``/``logy``, ``xticks`` and
    ``yticks`` (values to label), and ``lines``: dicts of :func:`series_line` or
    :func:`guide_line`. Entries with the same label appear once in the legend, which sits outside
    the axes, so it never covers data.
    """
    nrows = -(-len(panels) // ncols)
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(book_style.WIDTH, height * nrows), squeeze=False
    )
    handles: dict[str, object] = {}
    for ax, panel in zip(axes.flat, panels, strict=False):
        for line in panel["lines"]:
            spec = dict(line)
            x, y, label = spec.pop("x"), spec.pop("y"), spec.pop("label")
            if spec.get("marker") is None:  # a guide line, or a series drawn without markers
                spec["marker"] = "none"
            (h,) = ax.plot(x, y, label=label, **spec)
            if label and label not in handles:
                handles[label] = h
        ax.set_xscale("log" if panel.get("logx") else "linear")
        ax.set_yscale("log" if panel.get("logy") else "linear")
        if panel.get("logy") and panel.get("yticks") is None:
            _log_labels(ax.yaxis, *sorted(ax.get_ylim()))
        if panel.get("xticks") is not None:
            ticks_at(ax.xaxis, panel["xticks"])
        if panel.get("yticks") is not None:
            ticks_at(ax.yaxis, panel["yticks"])
        ax.set_title(panel.get("title", ""))
        ax.set_xlabel(panel.get("xlabel", ""))
        ax.set_ylabel(panel.get("ylabel", ""))
    for ax in axes.flat[len(panels) :]:
        ax.set_visible(False)
    longest = max((len(label) for label in handles), default=0)
    ncol = min(len(handles), 3 if longest <= 24 else 2)
    rows = -(-len(handles) // max(ncol, 1))
    fig.tight_layout(rect=(0, (0.26 * rows + 0.08) / (height * nrows), 1, 1))
    if handles:
        fig.legend(
            list(handles.values()), list(handles), loc="lower center", ncol=ncol, frameon=False
        )
    return fig


def bulk_against_laws(
    bulks: dict[str, np.ndarray],
    laws: dict[str, object],
    value_range: tuple[float, float],
    bins: int,
    edges: dict[str, float] | None = None,
    xlabel: str = r"squared singular value $\lambda$",
    logy: bool = True,
) -> plt.Figure:
    """Histogram densities of one or more bulks against limit-law densities, in one panel.

    The first bulk is drawn filled in grey, the next ones as step outlines; ``laws`` maps a label to
    a density callable (the first solid black, the next dashed and dash-dotted); ``edges`` marks
    named positions by dotted vertical lines, labelled at the top of the axes. With ``logy`` the
    density axis is logarithmic, down to the height of half a value in one bin, so the right tail
    shows.
    """
    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    hist_edges = np.linspace(*value_range, bins + 1)
    outline = ("C0", "C3", "C2")
    for i, (label, values) in enumerate(bulks.items()):
        if i == 0:
            ax.hist(values, bins=hist_edges, density=True, color="0.8", label=label)
        else:
            ax.hist(
                values,
                bins=hist_edges,
                density=True,
                histtype="step",
                color=outline[(i - 1) % len(outline)],
                linewidth=1.3,
                label=label,
            )
    xs = np.linspace(*value_range, 1201)
    xs = xs[xs > 0]
    for (label, density), (color, style) in zip(
        laws.items(), (("k", "-"), ("C1", "--"), ("C4", "-.")), strict=False
    ):
        ys = np.asarray(density(xs), dtype=float)
        ax.plot(
            xs,
            np.where(np.isfinite(ys), ys, np.nan),
            color=color,
            linestyle=style,
            linewidth=1.6,
            label=label,
        )
    if logy:
        ax.set_yscale("log")
        fewest = min(v.size for v in bulks.values())
        ax.set_ylim(bottom=0.5 / (fewest * (hist_edges[1] - hist_edges[0])))
    top = ax.get_ylim()[1]
    for label, pos in (edges or {}).items():
        ax.axvline(pos, color="0.3", linestyle=":", linewidth=1.0)
        ax.text(pos, top, label, ha="center", va="bottom")
    ax.set_xlim(*value_range)
    return _finish(fig, ax, xlabel, "density")


def gap_against_ratio(
    ratios,
    gaps: dict[str, tuple],
    floor: tuple[np.ndarray, np.ndarray],
    d: int,
    guides: dict[str, float] | None = None,
) -> plt.Figure:
    r"""Two-sample gaps against :math:`d_{qk}/d` at fixed d (log-log), with the noise floor.

    ``gaps`` maps a legend label to ``(values, standard errors)`` at ``ratios`` (one series per
    inverse temperature, told apart by marker and line style as well as colour); ``floor`` is the
    lowest and highest noise floor at each ratio, shaded; ``guides`` maps a label to a ratio marked
    by a dotted vertical line. The top axis gives :math:`d_{qk}` itself.
    """
    fig, ax = plt.subplots(figsize=(7.0, 4.4))
    x = np.asarray(ratios, dtype=float)
    order = np.argsort(x)
    lo, hi = (np.asarray(v, dtype=float)[order] for v in floor)
    ax.fill_between(x[order], lo, hi, color="0.82", label="noise floor (range over β)")
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (label, (y, err)) in enumerate(gaps.items()):
        ax.errorbar(
            x[order],
            np.asarray(y, dtype=float)[order],
            yerr=np.nan_to_num(np.asarray(err, dtype=float)[order]),
            color=colors[i % len(colors)],
            marker="osD^v<>"[i % 7],
            linestyle=("-", "--", "-.", ":")[i % 4],
            markersize=5,
            capsize=3,
            label=label,
        )
    for (label, pos), style in zip((guides or {}).items(), (":", (0, (1, 3))), strict=False):
        ax.axvline(pos, color="k", linestyle=style, linewidth=1.0, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(x[order], [f"{v:.3g}" for v in x[order]])
    ax.xaxis.set_minor_locator(plt.NullLocator())
    top = ax.secondary_xaxis("top", functions=(lambda r: r * d, lambda k: k / d))
    top.set_xticks(x[order] * d, [f"{round(v * d)}" for v in x[order]])
    top.xaxis.set_minor_locator(plt.NullLocator())
    top.set_xlabel(f"head dimension $d_{{qk}}$ at $d$ = {d}")
    return _finish(
        fig,
        ax,
        r"$d_{qk}/d$",
        r"gap: $D_{\rm KS}$($\sqrt{d}\,A_\perp$, $Y^{\rm lin}$)",
    )


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


def rates_and_collapse(
    beta,
    rate,
    rate_se,
    curves: dict[str, tuple[np.ndarray, np.ndarray]],
    c_label: str,
    xlabel: str,
    ylabel: str,
) -> plt.Figure:
    r"""Left: the fitted rate :math:`\rho(\beta)` with its error bars. Right: a distance against a
    scaling variable, one series per size (``curves[label] = (x, y)`` or ``(x, y, yerr)``), log y
    axis."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(book_style.WIDTH, 3.4))
    left.errorbar(beta, rate, yerr=rate_se, fmt="o-", color="k", capsize=3, markersize=5)
    left.axhline(0.0, color="0.5", linewidth=0.8)
    left.set_xlabel(r"$\beta$")
    left.set_ylabel(r"rate $\rho(\beta)$")
    for i, (label, (x, y, *err)) in enumerate(curves.items()):
        right.errorbar(
            x,
            y,
            yerr=err[0] if err else None,
            marker=series_style(i)["marker"],
            linestyle=series_style(i)["linestyle"],
            color=series_style(i)["color"],
            markersize=5,
            capsize=2,
            label=label,
        )
    right.set_yscale("log")
    right.set_title(c_label)
    right.set_xlabel(xlabel)
    right.set_ylabel(ylabel)
    right.legend(loc="upper left", frameon=False)
    fig.tight_layout()
    return fig
