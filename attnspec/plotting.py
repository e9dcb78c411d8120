"""One function per kind of figure in the chapters. Each returns a matplotlib Figure."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # headless; notebooks display figures through myst_nb.glue

import matplotlib.pyplot as plt
import numpy as np

from .ladder import REFERENCE


def top_singular_values(top: dict[str, np.ndarray]) -> plt.Figure:
    """Grouped bars (log scale) of each model's largest squared singular values."""
    names = list(top)
    n = len(next(iter(top.values())))
    x, width = np.arange(n), 0.8 / len(names)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for i, name in enumerate(names):
        ax.bar(x + i * width, top[name], width=width, label=name)
    ax.set_xticks(x + 0.4 - width / 2, [f"#{k + 1}" for k in range(n)])
    ax.set_xlabel("rank of the singular value")
    ax.set_ylabel(r"$s_k^2$ (mean over trials)")
    ax.set_yscale("log")
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    return fig


def loglog_fit(x, y, yerr, slope: float, intercept: float, xlabel: str, ylabel: str,
               label: str = "measured") -> plt.Figure:
    r"""Points with error bars on log-log axes and the fitted line :math:`y = e^{a} x^{b}`."""
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(x, y, yerr=yerr, fmt="o", capsize=3, label=label)
    xs = np.geomspace(min(x), max(x), 50)
    ax.plot(xs, np.exp(intercept) * xs**slope, "--", label=rf"fit $\propto x^{{{slope:.2f}}}$")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend()
    fig.tight_layout()
    return fig


def histogram_with_normal(values: np.ndarray, mean: float, std: float, xlabel: str) -> plt.Figure:
    """Histogram density of ``values`` with the normal density N(mean, std²) and a line at mean."""
    fig, ax = plt.subplots(figsize=(6.5, 4))
    ax.hist(values, bins=100, density=True, alpha=0.75, label="measured")
    xs = np.linspace(values.min(), values.max(), 400)
    ax.plot(xs, np.exp(-0.5 * ((xs - mean) / std) ** 2) / (std * np.sqrt(2 * np.pi)), "k--",
            label=f"normal, predicted std {std:.4f}")
    ax.axvline(mean, color="k", linewidth=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("density")
    ax.legend(fontsize=9)
    fig.tight_layout()
    return fig


def measured_vs_predicted(x, measured, predicted, xlabel: str, ylabel: str, logy: bool = True) -> plt.Figure:
    """Measured points against a predicted curve evaluated at the same x."""
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(x, predicted, "k--", marker="x", label="predicted")
    ax.plot(x, measured, "o", label="measured")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend()
    fig.tight_layout()
    return fig


def sorted_bulk_curves(bulks: dict[str, np.ndarray], dashed: str = "sqrt_d_A") -> plt.Figure:
    """Descending sorted bulk squared singular values of every model (``dashed`` drawn dashed)."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, values in bulks.items():
        ax.plot(np.sort(values)[::-1], linewidth=1.2, label=name, linestyle="--" if name == dashed else "-")
    ax.set_xlabel("index (sorted, top-k removed, pooled over trials)")
    ax.set_ylabel(r"$s^2$")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def bulk_histogram_grid(bulks: dict[str, np.ndarray], bins: int, value_range: tuple[float, float],
                        reference: str = REFERENCE, density=None) -> plt.Figure:
    """One panel per model: its bulk histogram over the reference's (and an optional density curve)."""
    names = [n for n in bulks if n != reference]
    cols = 3
    rows = -(-len(names) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(11, 3.2 * rows), sharex=True, sharey=True)
    edges = np.linspace(*value_range, bins + 1)
    for ax, name in zip(axes.flat, names):
        ax.hist(bulks[reference], bins=edges, density=True, color="0.75", label=reference)
        ax.hist(bulks[name], bins=edges, density=True, histtype="step", linewidth=1.3, label=name)
        if density is not None:
            xs = np.linspace(*value_range, 600)
            ax.plot(xs, density(xs), "k--", linewidth=1, label="limit law")
        ax.set_title(name, fontsize=10)
        ax.legend(fontsize=7)
    for ax in axes.flat[len(names):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel(r"$s^2$")
    fig.tight_layout()
    return fig


def curves(x, ys: dict[str, np.ndarray], xlabel: str, ylabel: str, logy: bool = False) -> plt.Figure:
    """Several named curves against a common x."""
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, y in ys.items():
        ax.plot(x, y, marker="o", label=name)
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig

