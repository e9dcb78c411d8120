"""The figures of "The rank-one mode"."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib import ticker

from ...models.ladder import MODEL_NAMES
from ...models.notation import symbol
from ...present import style as book_style
from ...present.plotting import series_style


def fig_excess(study):
    r""":math:`s_1(A) - 1` across ``d_values`` with its fitted power law and the first order."""
    scan = study.scan
    return power_law_with_prediction(
        study.d_values,
        scan.excess,
        scan.se,
        scan.slope,
        scan.intercept,
        f"{scan.slope:.{study.slope_decimals}f}",
        scan.predicted,
        "$d$",
        r"$s_1(A) - 1$",
        var="d",
    )


def fig_top(study):
    """Every rung's largest squared singular values, mean over trials."""
    return top_singular_values(
        {symbol(name): study.top[name] for name in MODEL_NAMES}, r"$s_i^2$ (mean over trials)"
    )


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
    ax.xaxis.set_major_locator(ticker.FixedLocator(list(x)))
    ax.xaxis.set_major_formatter(ticker.FixedFormatter([f"{v:g}" for v in x]))
    ax.xaxis.set_minor_locator(ticker.NullLocator())
    ax.yaxis.set_minor_formatter(ticker.NullFormatter())
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    book_style.legend(ax, loc="lower left")
    return fig
