"""The figures of "Normalizer concentration"."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib import ticker

from ...present import style as book_style

book_style.apply()


def fig_hist(study):
    """The diagnostics D_i of every row of every trial against the normal law of the predicted
    spread."""
    return histogram_with_normal(study.D, 1.0, study.std_pred, r"$D_i = Z_i/(d\,e^{\beta^2/2})$")


def fig_beta(study):
    """The spread of D_i across β, measured (± se) against its first order."""
    return measured_vs_predicted(
        study.betas,
        [s.std for s in study.stats_b],
        study.preds,
        r"$\beta$",
        r"$\mathrm{std}(D_i)$",
        yerr=[s.std_se for s in study.stats_b],
    )


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
    ax.set_xlabel(xlabel)
    ax.set_ylabel("density")
    fig.tight_layout()
    book_style.legend(ax, fontsize=9)
    return fig


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
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    book_style.legend(ax, loc="upper left")
    return fig
