"""The figures of the real-attention chapters (Part III): the U_X diagnostic, eigen-angles, real
against canonical spectra, ranks, and the one rank scale. Each returns a matplotlib Figure."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..canonical.model import causal_stable_rank
from ..present.plotting import guide_line, panel_grid, series_line, series_style
from ..real.models import MODELS


def _error_series(x, intervals, label: str, i: int) -> dict:
    """A series of :class:`attnspec.real.uncertainty.Interval` values with its interval as error
    bars (drawn by :func:`~attnspec.present.plotting.panel_grid` through ``errorbar``)."""
    v = np.array([iv.value for iv in intervals])
    err = np.array(
        [[iv.value - iv.low for iv in intervals], [iv.high - iv.value for iv in intervals]]
    )
    return series_line(x, v, label, i) | {"yerr": np.maximum(err, 0.0)}


def real_tokens(study) -> plt.Figure:
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


def real_angles(study, bins: int) -> plt.Figure:
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


def real_spectra(study) -> plt.Figure:
    """Median W₁ of real spectra to their canonical counterparts and to rank-one averaging against
    n, W₁ per layer at the largest n, and one head's ordered singular values per model."""
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
