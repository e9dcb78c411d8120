"""Line panels with bootstrap intervals as error bars, for figures of several chapters."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .plotting import panel_grid, series_line


def error_series(x, intervals, label: str, i: int) -> dict:
    """A series of :class:`attnspec.real.uncertainty.Interval` values with its interval as error
    bars (drawn by :func:`~attnspec.present.plotting.panel_grid` through ``errorbar``)."""
    v = np.array([iv.value for iv in intervals])
    err = np.array(
        [[iv.value - iv.low for iv in intervals], [iv.high - iv.value for iv in intervals]]
    )
    return series_line(x, v, label, i) | {"yerr": np.maximum(err, 0.0)}


def errorbar_grid(panels: list[dict], ncols: int = 2, height: float = 2.7) -> plt.Figure:
    """:func:`~attnspec.present.plotting.panel_grid` for lines that may carry ``yerr`` (drawn as
    error bars with caps)."""
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
