"""The figures of the chapter "Real pretrained attention", one per glued key: the U_X diagnostic
and the eigen-angles of R(S)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...present.errorbars import error_series, errorbar_grid
from ...present.plotting import guide_line, panel_grid, series_line, series_style
from ...real.models import MODELS


def fig_tokens(study) -> plt.Figure:
    """The summary's U_X diagnostic: KL, Kolmogorov and W₁ to uniform against n for both models,
    with their crossed bootstrap intervals and the Haar O(n) medians, and W₁ per layer at the
    largest n (:class:`attnspec.real.study.Study`)."""
    names = list(study.lengths)
    panels = []
    for key, title in (("kl", "KL (50 bins)"), ("ks", "Kolmogorov"), ("w1", r"$W_1$ (rad)")):
        lines = []
        for i, m in enumerate(names):
            ns = study.lengths[m]
            lines.append(
                error_series(
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
    return errorbar_grid(panels, height=2.8)


def fig_angles(study, bins: int) -> plt.Figure:
    """This book's test: distances of the pooled eigen-angles of R(S) to uniform against n with
    their Haar floors, and the pooled angle density at the largest n."""
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
                    color=series_style(i)["color"],
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
