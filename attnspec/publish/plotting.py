"""One function per kind of figure in the chapters. Each returns a matplotlib Figure."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib import ticker

from . import style as book_style

book_style.apply()


#: Markers of the second round of the book's cycle, so that series past its end stay distinct.
_MORE_MARKERS = ("x", "*", "h", "<", ">", "p", "+")


def _style(i: int) -> dict:
    """Colour, marker and line style of the ``i``-th series, from the book's cycle
    (:mod:`attnspec.publish.style`): each differs from its neighbours' in all three, and past the
    cycle's end the markers change, so no two of the first 14 series look alike."""
    cycle = plt.rcParams["axes.prop_cycle"].by_key()
    style = {key: values[i % len(values)] for key, values in cycle.items()}
    markers = [*cycle["marker"], *_MORE_MARKERS]
    return style | {"marker": markers[i % len(markers)]}


def _plain_log_ticks(axis, values) -> None:
    """Major ticks exactly at ``values`` with plain labels, no minor labels, on a log ``axis``."""
    axis.set_major_locator(ticker.FixedLocator(list(values)))
    axis.set_major_formatter(ticker.FixedFormatter([f"{v:g}" for v in values]))
    axis.set_minor_locator(ticker.NullLocator())


def _finish(fig: plt.Figure, ax, xlabel: str, ylabel: str, **legend) -> plt.Figure:
    """Label the axes of ``ax``, tighten ``fig``, and draw the legend (keyword arguments ``legend``)
    where it hides no data (:func:`attnspec.publish.style.legend`)."""
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
        ax.plot(index, values, label=name, markersize=6, linewidth=1.2, **_style(i))
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
        ax.plot(x, y, label=name, markersize=5, **_style(i))
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
            **{k: _style(i)[k] for k in ("marker", "color")},
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
            ax.plot(x, y, linestyle=_style(i)["linestyle"], linewidth=1.3, label=name)
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
        color = _style(i)["color"]
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
            style = _style(i)["linestyle"]
            ax.plot(xs, np.exp(intercept) * xs**slope, linestyle=style, color=color, linewidth=1)
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
            marker=_style(i)["marker"],
            linestyle=_style(i)["linestyle"],
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
        color = _style(i)["color"]
        bx, by = predicted[group]
        marker, style = _style(i)["marker"], _style(i)["linestyle"]
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
        ax.plot(x, diffs[name], color=_style(i)["color"], linewidth=1.4, label="rung")
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
    return {"x": x, "y": y, "label": label, "markersize": 4} | _style(i) | kwargs


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


def _ticks(axis, values) -> None:
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
            _ticks(ax.xaxis, panel["xticks"])
        if panel.get("yticks") is not None:
            _ticks(ax.yaxis, panel["yticks"])
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
            marker=_style(i)["marker"],
            linestyle=_style(i)["linestyle"],
            color=_style(i)["color"],
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


def canonical_profile(study) -> plt.Figure:
    """Bidirectional singular values against the profile at each length, and the profile error
    against ℓ (:class:`attnspec.canonical.bidirectional_study.BidirectionalStudy`)."""
    from attnspec.canonical.model import bidirectional_profile

    k = study.k
    panels = []
    for x, y in zip(study.at["log"], study.at["lin"], strict=True):
        n = min(k + 4, x.ell)
        i = np.arange(1, n + 1)
        panels.append(
            {
                "title": rf"$\ell = {x.ell}$, $c = {x.c:.4f}$",
                "xlabel": "index $i$",
                "ylabel": r"$\sigma_i(A_b)$",
                "xticks": list(range(1, n + 1, 2)),
                "lines": [
                    guide_line(
                        i,
                        bidirectional_profile(x.ell, k)[:n],
                        "profile",
                        "none",
                        marker="_",
                        markersize=14,
                    ),
                    series_line(i, x.sigma[:n], r"$f = \log\ell$", 0, linestyle="none"),
                    series_line(i, y.sigma[:n], r"$f = \ell$", 1, linestyle="none"),
                ],
            }
        )
    ells = np.array(study.ells, float)
    panels.append(
        {
            "title": "largest deviation from the profile",
            "xlabel": r"$\ell$",
            "ylabel": r"$\max_i |\sigma_i - \mathrm{profile}_i|$",
            "logx": True,
            "logy": True,
            "xticks": study.ells,
            "lines": [
                series_line(ells, [x.profile_error for x in study.at["log"]], r"$f = \log\ell$", 0),
                guide_line(ells, 1 / np.log(ells), r"$1/f$", "--"),
                series_line(ells, [x.profile_error for x in study.at["lin"]], r"$f = \ell$", 1),
                guide_line(ells, 1 / ells, None, "--"),
            ],
        }
    )
    return panel_grid(panels)


def canonical_forms(study) -> plt.Figure:
    """The two forms of srank ≈ k + 1: srank/(k + 1) against c at the largest ℓ, and
    srank − (k + 1) with k = √ℓ against ℓ."""
    from attnspec.canonical.model import stable_rank_limit
    from attnspec.canonical.two_score import two_score_summary

    ell = study.ells[-1]
    ks = np.unique(np.round(np.geomspace(1, ell - 1, 30)).astype(int))
    ratio = [two_score_summary(ell, int(kk), float(ell)).srank / (kk + 1) for kk in ks]
    limit = [stable_rank_limit(int(kk), ell) / (kk + 1) for kk in ks]
    roots = np.array([e for e in study.root_srank if e <= 2**20], float)
    kk = np.floor(np.sqrt(roots))
    additive = [study.root_srank[int(e)] - (r + 1) for e, r in zip(roots, kk, strict=True)]
    panels = [
        {
            "title": rf"relative form, $\ell = {ell}$",
            "xlabel": r"$c = k/\ell$",
            "ylabel": r"srank$/(k+1)$",
            "logx": True,
            "lines": [
                series_line(ks / ell, ratio, r"measured, $f = \ell$", 0, linestyle="none"),
                guide_line(ks / ell, limit, r"$(k + 1 - c)/((k+1)\alpha_+(c)^2)$", "-"),
            ],
        },
        {
            "title": r"additive form, $k = \sqrt{\ell}$",
            "xlabel": r"$\ell$",
            "ylabel": r"srank $- (k + 1)$",
            "logx": True,
            "xticks": [2.0**j for j in range(6, 21, 4)],
            "lines": [
                series_line(roots, additive, r"measured, $k = \sqrt{\ell}$", 1),
                guide_line(roots, -(kk + 1) * np.sqrt(kk / roots), r"$-(k+1)\sqrt{c}$", "--"),
            ],
        },
    ]
    fig = panel_grid(panels)
    fig.axes[1].xaxis.set_major_formatter(
        plt.FuncFormatter(lambda v, _: f"$2^{{{int(round(np.log2(v)))}}}$")
    )
    return fig


def canonical_causal(study) -> plt.Figure:
    """Causal eigenvalues and singular values (bounded bulk and Σ = 0) against the index, and the
    ratio of the singular values to the shape of the paper's upper bound
    (:class:`attnspec.canonical.causal_study.CausalStudy`)."""
    from attnspec.canonical.upper_bound import bound_profile

    ells, k, B = study.ells, study.k, study.bulk_max
    top = ells[-1]
    i = np.arange(1, top + 1)

    def by_length(title, ylabel, values, guides, xlabel="index $i$"):
        curves = [
            series_line(np.arange(1, v.size + 1), v, rf"$\ell = {e}$", j)
            for j, (e, v) in enumerate(values.items())
        ]
        return {
            "title": title,
            "xlabel": xlabel,
            "ylabel": ylabel,
            "logx": True,
            "logy": True,
            "lines": curves + guides,
        }

    lower = [guide_line(i, 1 / (3 * i), r"lower bound $1/(3i)$", ":")]
    panels = [
        by_length(
            "eigenvalues, bounded bulk",
            r"$\lambda_i = (A_c)_{ii}$",
            {e: study.diagonals[e] for e in ells},
            [
                guide_line(i, 1 / i, r"$1/i$ and $e^B/i$", "--"),
                guide_line(i, np.minimum(1, np.exp(B) / i), None, "--"),
            ],
            "position $i$",
        ),
        by_length(
            r"singular values, $\Sigma = 0$",
            r"$\sigma_i(A_c)$",
            {e: study.sigma_zero[e] for e in ells},
            lower,
        ),
        by_length(
            "singular values, bounded bulk",
            r"$\sigma_i(A_c)$",
            {e: study.spectra[e] for e in ells},
            lower,
        ),
        by_length(
            r"$\sigma_{k+m}/b(m)$, bounded bulk",
            r"$\sigma_{k+m}/b(m)$",
            {e: study.spectra[e][k:] / bound_profile(e, k)[0] for e in ells},
            [],
            "$m$",
        ),
    ]
    return panel_grid(panels, height=2.6)


def canonical_bound(study) -> plt.Figure:
    """The smallest constant C_B of the paper's upper bound against ℓ for each score family, and
    against the bulk bound B at one length."""
    lines = []
    for j, fam in enumerate(study.families):
        got = study.bounds[fam.name]
        ells = sorted(got)
        lines.append(
            series_line(
                ells,
                [got[e].constant for e in ells],
                fam.name,
                j,
                alpha=1.0 if study.testable(fam) else 0.55,
            )
        )
    bs = np.array(sorted(study.by_b["constant"]))
    panels = [
        {
            "title": rf"smallest $C_B$ against $\ell$, $B = {study.bulk_max:g}$",
            "xlabel": r"$\ell$",
            "ylabel": r"$C_B$",
            "logx": True,
            "logy": True,
            "xticks": sorted({e for v in study.bounds.values() for e in v}),
            "lines": lines,
        },
        {
            "title": rf"smallest $C_B$ against $B$, $\ell = {study.b_ell}$",
            "xlabel": "$B$",
            "ylabel": r"$C_B$",
            "logy": True,
            "lines": [
                series_line(
                    bs, [study.by_b["constant"][b].constant for b in bs], "bulk constant B", 1
                ),
                series_line(
                    bs, [study.by_b["uniform"][b].constant for b in bs], "bulk uniform in [0, B]", 0
                ),
                guide_line(bs, np.exp(bs), r"$e^B$", "--"),
            ],
        },
    ]
    fig = panel_grid(panels, height=3.6)
    fig.axes[0].xaxis.set_major_formatter(
        plt.FuncFormatter(lambda v, _: f"$2^{{{int(round(np.log2(v)))}}}$")
    )
    return fig


def canonical_order(study) -> plt.Figure:
    """Causal eigenvalues and stable rank of the same scores in three diagonal orders."""
    from attnspec.canonical.order import ORDERS

    dense = max(e for e, p in study.orders["descending"].items() if p.erank1 is not None)
    ells = sorted(study.orders["descending"])
    i = np.arange(1, dense + 1)
    panels = [
        {
            "title": rf"eigenvalues (sorted), $\ell = {dense}$",
            "xlabel": "rank $i$",
            "ylabel": r"$\lambda_i(A_c)$",
            "logx": True,
            "logy": True,
            "lines": [
                series_line(i, study.orders[o][dense].eigenvalues, o, j, marker=None)
                for j, o in enumerate(ORDERS)
            ],
        },
        {
            "title": "stable rank",
            "xlabel": r"$\ell$",
            "ylabel": r"srank$(A_c)$",
            "logx": True,
            "xticks": [e for e in ells if np.log2(e) % 2 == 0],
            "lines": [
                series_line(ells, [study.orders[o][e].srank for e in ells], o, j)
                for j, o in enumerate(ORDERS)
            ],
        },
    ]
    fig = panel_grid(panels, height=3.0)
    fig.axes[1].xaxis.set_major_formatter(
        plt.FuncFormatter(lambda v, _: f"$2^{{{int(round(np.log2(v)))}}}$")
    )
    return fig


def canonical_sigma0(study) -> plt.Figure:
    """The Cesàro matrix (causal attention at Σ = 0): norm and stable rank against log₂ ℓ
    (:class:`attnspec.canonical.rank_study.RankStudy`)."""
    from attnspec.canonical.cesaro import HARDY_LIMIT

    x = np.log2([p.ell for p in study.cesaro])
    grid = np.log2(study.grid)
    panels = [
        {
            "title": r"$\Vert A_c\Vert$ at $\Sigma = 0$",
            "xlabel": r"$\log_2\ell$",
            "ylabel": r"$\Vert A_c\Vert$",
            "lines": [
                series_line(x, [p.norm for p in study.cesaro], "exact (Lanczos)", 0),
                guide_line(x, np.full(x.size, HARDY_LIMIT), "Hardy's limit 2", "--"),
            ],
        },
        {
            "title": r"srank$(A_c)$ at $\Sigma = 0$",
            "xlabel": r"$\log_2\ell$",
            "ylabel": "srank",
            "lines": [
                series_line(grid, study.z_srank, "grid (all singular values)", 1),
                series_line(x, [p.srank for p in study.cesaro], "exact (Lanczos)", 0),
                guide_line(x, [p.srank_law for p in study.cesaro], r"law $H_\ell/4$", ":"),
            ],
        },
    ]
    return panel_grid(panels, height=2.9)


def canonical_ranks(study) -> plt.Figure:
    """Stable and effective ranks of bidirectional and causal canonical attention against ℓ, and
    erank₁ of the causal matrix at Σ = 0 against √ℓ log ℓ."""
    from attnspec.canonical.rank_study import harmonic_erank1, sigma0_erank2

    g = np.array(study.grid, float)
    k1 = np.full(g.size, study.k + 1.0)
    norm = np.sqrt(g) * np.log(g)
    panels = [
        {
            "title": "stable rank",
            "xlabel": r"$\ell$",
            "ylabel": "srank",
            "logx": True,
            "lines": [
                series_line(g, study.b_srank["lin"], r"$A_b$, $f = \ell$", 0),
                series_line(g, study.b_srank["log"], r"$A_b$, $f = \log\ell$", 1),
                series_line(g, study.c_srank, r"$A_c$, $f = \ell$", 2),
                series_line(g, study.cb_srank, r"$A_c$, bounded bulk", 3),
                series_line(g, study.z_srank, r"$A_c$, $\Sigma = 0$", 4),
                guide_line(g, k1, "$k + 1$", ":"),
            ],
        },
        {
            "title": r"erank$_2 = (\sum\sigma^2)^2/\sum\sigma^4$",
            "xlabel": r"$\ell$",
            "ylabel": r"erank$_2$",
            "logx": True,
            "lines": [
                series_line(g, study.b_erank2, r"$A_b$, $f = \ell$", 0),
                series_line(g, [sigma0_erank2(n) for n in g], r"$A_c$, $\Sigma = 0$", 4),
                guide_line(g, k1, None, ":"),
            ],
        },
        {
            "title": r"erank$_1 = \exp H(\sigma/\sum\sigma)$",
            "xlabel": r"$\ell$",
            "ylabel": r"erank$_1$",
            "logx": True,
            "logy": True,
            "lines": [
                series_line(g, study.b_erank1, r"$A_b$, $f = \ell$", 0),
                series_line(g, study.z_erank1, r"$A_c$, $\Sigma = 0$", 4),
                guide_line(g, np.sqrt(g), r"$\sqrt{\ell}$", "--"),
            ],
        },
        {
            "title": r"erank$_1/(\sqrt{\ell}\,\log\ell)$",
            "xlabel": r"$\ell$",
            "ylabel": "ratio",
            "logx": True,
            "lines": [
                series_line(g, np.array(study.z_erank1) / norm, r"$A_c$, $\Sigma = 0$", 4),
                series_line(
                    g,
                    [harmonic_erank1(int(n)) / v for n, v in zip(g, norm, strict=True)],
                    r"$\sigma_i = 1/i$ exactly",
                    5,
                ),
            ],
        },
    ]
    fig = panel_grid(panels, height=2.7)
    for ax in fig.axes:
        if ax.get_xscale() == "log":
            _ticks(ax.xaxis, [2.0**j for j in range(6, 15, 2)])
            ax.xaxis.set_major_formatter(
                plt.FuncFormatter(lambda v, _: f"$2^{{{int(round(np.log2(v)))}}}$")
            )
    return fig


def _error_series(x, intervals, label: str, i: int) -> dict:
    """A series of :class:`attnspec.real.uncertainty.Interval` values with its interval as error
    bars (drawn by :func:`panel_grid` through ``errorbar``)."""
    v = np.array([iv.value for iv in intervals])
    err = np.array(
        [[iv.value - iv.low for iv in intervals], [iv.high - iv.value for iv in intervals]]
    )
    return series_line(x, v, label, i) | {"yerr": np.maximum(err, 0.0)}


def real_tokens(study) -> plt.Figure:
    """The paper's U_X diagnostic: KL, Kolmogorov and W₁ to uniform against n for both models,
    with their crossed bootstrap intervals and the Haar O(n) medians, and W₁ per layer at the
    largest n (:class:`attnspec.real.study.Study`)."""
    from attnspec.real.models import MODELS

    names = list(study.lengths)
    panels = []
    for key, title in (("kl", "KL (50 bins)"), ("ks", "Kolmogorov"), ("w1", r"$W_1$ (rad)")):
        lines = []
        for i, m in enumerate(names):
            ns = study.lengths[m]
            lines.append(
                _error_series(
                    ns, [study.tokens[(m, n)].intervals[key] for n in ns], MODELS[m].display, i
                )
            )
        ns = study.lengths[names[0]]
        lines.append(
            guide_line(
                ns,
                [study.tokens[(names[0], n)].haar.median.get(key) for n in ns],
                r"Haar $O(n)$ median",
                "--",
            )
        )
        panels.append(
            {
                "title": f"eigen-angles of $U_X$: {title}",
                "xlabel": "tokens $n$",
                "ylabel": "median distance",
                "logx": True,
                "logy": True,
                "xticks": ns,
                "lines": lines,
            }
        )
    lines = []
    for i, m in enumerate(names):
        t = study.tokens[(m, study.top(m))]
        layer = np.arange(1, t.per_layer.shape[0] + 1)
        lines.append(
            series_line(
                (layer - 1) / max(layer.size - 1, 1),
                t.per_layer[:, :, 2].mean(axis=1),
                MODELS[m].display,
                i,
            )
        )
    t = study.tokens[(names[0], study.top(names[0]))]
    lines.append(guide_line([0, 1], [t.haar.q95.w1] * 2, r"Haar $O(n)$ 95th percentile", ":"))
    panels.append(
        {
            "title": rf"$W_1$ per layer, $n$ = {study.top(names[0])}",
            "xlabel": "relative depth",
            "ylabel": r"$W_1$ (rad)",
            "lines": lines,
        }
    )
    return _grid_with_errorbars(panels, height=2.8)


def _grid_with_errorbars(panels: list[dict], ncols: int = 2, height: float = 2.7) -> plt.Figure:
    """:func:`panel_grid` for lines that may carry ``yerr`` (drawn as error bars with caps)."""
    plain = []
    bars = []
    for p in panels:
        q = dict(p)
        q["lines"] = [{k: v for k, v in line.items() if k != "yerr"} for line in p["lines"]]
        plain.append(q)
        bars.append([line for line in p["lines"] if "yerr" in line])
    fig = panel_grid(plain, ncols=ncols, height=height)
    for ax, lines in zip(fig.axes, bars, strict=False):
        for line in lines:
            ax.errorbar(
                line["x"],
                line["y"],
                yerr=line["yerr"],
                fmt="none",
                ecolor=line["color"],
                elinewidth=0.9,
                capsize=2.5,
            )
    return fig


def real_angles(study, bins: int) -> plt.Figure:
    """This book's test: distances of the pooled eigen-angles of R(S) to uniform against n with
    their Haar floors, and the pooled angle density at the largest n."""
    from attnspec.real.models import MODELS

    names = list(study.lengths)
    panels = []
    for key, title in (("kl", f"KL ({bins} bins)"), ("ks", "Kolmogorov"), ("w1", r"$W_1$ (rad)")):
        lines = []
        for i, m in enumerate(names):
            ns = study.lengths[m]
            lines.append(
                series_line(
                    ns,
                    [study.rotation[(m, n)].real.get(key) for n in ns],
                    f"$R(S)$, {MODELS[m].display}",
                    i,
                )
            )
            lines.append(
                guide_line(
                    ns,
                    [study.rotation[(m, n)].haar.get(key) for n in ns],
                    f"Haar floor, {MODELS[m].display}",
                    "--" if i == 0 else ":",
                    color=_style(i)["color"],
                )
            )
        panels.append(
            {
                "title": f"$R(S)$: {title}",
                "xlabel": "tokens $n$",
                "ylabel": "distance",
                "logx": True,
                "logy": True,
                "xticks": study.lengths[names[0]],
                "lines": lines,
            }
        )
    centres = np.arange(bins) * 2 * np.pi / bins
    centres = np.where(centres > np.pi, centres - 2 * np.pi, centres)
    order = np.argsort(centres)
    lines = []
    for i, m in enumerate(names):
        phi = study.rotation[(m, study.top(m))].pooled
        counts = np.bincount(
            np.floor(phi / (2 * np.pi) * bins + 0.5).astype(int) % bins, minlength=bins
        )
        density = counts / phi.size * bins / (2 * np.pi)
        lines.append(
            series_line(centres[order], density[order], None, i, marker=None, drawstyle="steps-mid")
        )
    lines.append(guide_line([-np.pi, np.pi], [1 / (2 * np.pi)] * 2, "uniform density", "-."))
    panels.append(
        {
            "title": "pooled eigen-angles of $R(S)$, largest $n$",
            "xlabel": r"$\varphi$",
            "ylabel": "density",
            "lines": lines,
        }
    )
    return panel_grid(panels, height=2.8)


def real_spectra(study) -> plt.Figure:
    """Median W₁ of real spectra to their canonical counterparts and to rank-one averaging against
    n, W₁ per layer at the largest n, and one head's ordered singular values per model."""
    from attnspec.real.models import MODELS

    names = list(study.lengths)
    lines = []
    for i, m in enumerate(names):
        ns = study.lengths[m]
        lines.append(
            _error_series(
                ns,
                [study.spectra[(m, n)].stats["w1"] for n in ns],
                f"canonical, {MODELS[m].display}",
                2 * i,
            )
        )
        lines.append(
            _error_series(
                ns,
                [study.spectra[(m, n)].stats["w1_avg"] for n in ns],
                f"averaging, {MODELS[m].display}",
                2 * i + 1,
            )
        )
    panels = [
        {
            "title": r"median $W_1$(real, reference)",
            "xlabel": "tokens $n$",
            "ylabel": r"$W_1$",
            "logx": True,
            "logy": True,
            "xticks": study.lengths[names[0]],
            "lines": lines,
        }
    ]
    lines = []
    for i, m in enumerate(names):
        s = study.spectra[(m, study.top(m))]
        depth = np.arange(s.n_layers) / max(s.n_layers - 1, 1)
        lines.append(series_line(depth, s.layer_w1, f"canonical, {MODELS[m].display}", 2 * i))
    panels.append(
        {
            "title": f"per layer, $n$ = {study.top(names[0])}",
            "xlabel": "relative depth",
            "ylabel": r"median $W_1$(real, canonical)",
            "lines": lines,
        }
    )
    for m in names:
        h = next(
            r
            for r in study.heads[(m, study.top(m))]
            if r.sv_real is not None
            and r.layer == MODELS[m].layers - 1
            and r.text == study.texts[0]
        )
        k = np.arange(1, h.n + 1)
        panels.append(
            {
                "title": f"{MODELS[m].display.split(' ')[0]}: layer {h.layer + 1}, "
                f"head {h.head + 1}",
                "xlabel": "index $i$",
                "ylabel": r"$\sigma_i$",
                "logx": True,
                "logy": True,
                "lines": [
                    series_line(k, np.maximum(h.sv_real, 1e-6), "real", 6, marker=None),
                    guide_line(k, np.maximum(h.sv_canonical, 1e-6), "canonical", "--"),
                    guide_line([1], [1], "averaging (1, 0, …)", "none", marker="x", markersize=7),
                ],
            }
        )
    return _grid_with_errorbars(panels, height=2.8)


def real_ranks(study) -> plt.Figure:
    """Median stable rank and erank₁ of real attention and of its canonical counterpart against n,
    with their crossed bootstrap intervals."""
    from attnspec.canonical.model import causal_stable_rank
    from attnspec.real.models import MODELS

    names = list(study.lengths)
    panels = []
    for key, title in (("srank", "stable rank"), ("erank1", r"entropy effective rank erank$_1$")):
        lines = []
        for i, m in enumerate(names):
            ns = study.lengths[m]
            for j, (suffix, kind) in enumerate((("", "real"), ("_c", "canonical"))):
                lines.append(
                    _error_series(
                        ns,
                        [study.spectra[(m, n)].stats[key + suffix] for n in ns],
                        f"{kind}, {MODELS[m].display}",
                        2 * i + j,
                    )
                )
        if key == "srank":
            ns = study.lengths[names[0]]
            lines.append(
                guide_line(
                    ns, [causal_stable_rank(np.zeros(n)) for n in ns], r"causal, $\Sigma = 0$", ":"
                )
            )
        panels.append(
            {
                "title": title,
                "xlabel": "tokens $n$",
                "ylabel": "median",
                "logx": True,
                "logy": True,
                "xticks": study.lengths[names[0]],
                "lines": lines,
            }
        )
    return _grid_with_errorbars(panels, height=3.2)


def rank_scale(scale) -> plt.Figure:
    """Stable rank and erank₁ against the context length for random initialization, the canonical
    model and trained heads, on one scale (:class:`attnspec.real.rank_scale.RankScale`)."""
    panels = []
    for attr, title in (("srank", "stable rank"), ("erank1", r"erank$_1$")):
        lines = []
        for i, (name, points) in enumerate(getattr(scale, attr).items()):
            ns = sorted(points)
            v = np.array([points[n].value for n in ns])
            se = np.array([points[n].se for n in ns])
            lines.append(series_line(ns, v, name, i) | {"yerr": np.vstack([2 * se, 2 * se])})
        if attr == "srank":
            lines.append(
                guide_line(
                    scale.lengths,
                    [scale.limit] * len(scale.lengths),
                    r"$e^{\beta^2}$, random init limit",
                    ":",
                )
            )
        panels.append(
            {
                "title": title,
                "xlabel": r"context length $\ell$ (tokens $n$)",
                "ylabel": title,
                "logx": True,
                "logy": True,
                "xticks": scale.lengths,
                "lines": lines,
            }
        )
    return _grid_with_errorbars(panels, height=3.6)
