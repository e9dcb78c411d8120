"""The figure of "The edge and the outliers"."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...models.ladder import MODEL_NAMES
from ...models.notation import symbol
from ...present import style as book_style
from ...present.plotting import series_style


def fig_points(study):
    """Every rung's largest bulk value in each trial, against the three laws' edges."""
    laws, r = study.laws, study.config.remove_top_k
    lines = {
        rf"$\lambda_+$ ($\theta^f$) = {laws['f'].edge:.4f}": laws["f"].edge,
        rf"$\lambda_+$ ($\theta^Q$) = {laws['q'].edge:.4f}": laws["q"].edge,
        rf"$4\theta_1$ (Marchenko–Pastur) = {laws['mp'].edge:.4f}": laws["mp"].edge,
    }
    return per_trial_points(
        {symbol(n): study.result.s2(n)[:, r] for n in MODEL_NAMES},
        lines,
        f"largest bulk value $s_{{{r + 1}}}^2$ per trial",
    )


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
