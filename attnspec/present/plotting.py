"""One function per kind of figure in Parts I–II, and the helpers every figure module shares (series
styles, guide lines, panel grids). Each figure function returns a matplotlib Figure; Part III's are
in each chapter's ``figures`` module."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

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


def _finish(fig: plt.Figure, ax, xlabel: str, ylabel: str, **legend) -> plt.Figure:
    """Label the axes of ``ax``, tighten ``fig``, and draw the legend (keyword arguments ``legend``)
    where it hides no data (:func:`attnspec.present.style.legend`)."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    book_style.legend(ax, **legend)
    return fig


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
