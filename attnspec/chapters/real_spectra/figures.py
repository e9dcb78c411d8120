"""The figures of the chapter "Real against canonical spectra", one per glued key: real against
canonical spectra, the ranks, and the one rank scale."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...canonical.causal import causal_stable_rank
from ...present.errorbars import error_series, errorbar_grid
from ...present.plotting import guide_line, series_line
from ...real.models import MODELS


def fig_spectra(study) -> plt.Figure:
    """Median W₁ of real spectra to their canonical counterparts and to rank-one averaging against
    n, W₁ per layer at the largest n, and one head's ordered singular values per model."""
    names = list(study.lengths)
    lines = []
    for i, m in enumerate(names):
        ns = study.lengths[m]
        lines.append(
            error_series(
                ns,
                [study.spectra[(m, n)].stats["w1"] for n in ns],
                f"canonical, {MODELS[m].display}",
                2 * i,
            )
        )
        lines.append(
            error_series(
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
    return errorbar_grid(panels, height=2.8)


def fig_ranks(study) -> plt.Figure:
    """Median stable rank and erank₁ of real attention and of its canonical counterpart against n,
    with their crossed bootstrap intervals."""
    names = list(study.lengths)
    panels = []
    for key, title in (("srank", "stable rank"), ("erank1", r"entropy effective rank erank$_1$")):
        lines = []
        for i, m in enumerate(names):
            ns = study.lengths[m]
            for j, (suffix, kind) in enumerate((("", "real"), ("_c", "canonical"))):
                lines.append(
                    error_series(
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
    return errorbar_grid(panels, height=3.2)


def rank_scale_fig(scale) -> plt.Figure:
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
    return errorbar_grid(panels, height=3.6)
