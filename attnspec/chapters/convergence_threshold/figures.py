"""The threshold chapter's figures, one function per glued figure (named after its glue key), and
the plots only this chapter draws."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ...experiments.threshold import KS_TOL, beta_star, exact_std
from ...models.ladder import MODEL_NAMES, REFERENCE
from ...models.notation import symbol
from ...present import interactive, plotting
from ...present.interactive import PALETTE, axis, layout, rounded
from ...present.style import WIDTH, legend
from .tables import plane_text


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
    fig, ax = plt.subplots(figsize=(WIDTH, 4.5))
    for i, (name, y) in enumerate(ys.items()):
        ax.errorbar(
            x,
            y,
            yerr=None if yerr is None or name not in yerr else yerr[name],
            marker=plotting.series_style(i)["marker"],
            linestyle=plotting.series_style(i)["linestyle"],
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
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    legend(ax)
    return fig


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
) -> plt.Figure:
    r"""Heat map of ``z[i, j]`` at ``(x[j], y[i])`` on a log colour scale.

    The y axis is logarithmic (cells span the geometric midpoints of ``y``), the x axis linear
    (cells span the midpoints of ``x``, which may be unevenly spaced). ``curves`` maps a label to
    ``(xs, ys)`` drawn as dashed lines; ``points`` a label to ``(xs, ys)`` or ``(xs, ys, xerr)``
    drawn as markers with horizontal error bars, joined by a line. Cells whose value is not
    finite and positive stay blank. The legend sits above the axes.
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
    fig, ax = plt.subplots(figsize=(WIDTH, 4.6))
    if good.any():
        norm = LogNorm(vmin=z[good].min(), vmax=max(z[good].max(), z[good].min() * 1.0001))
        mesh = ax.pcolormesh(
            xe, ye, np.ma.masked_where(~good, z), norm=norm, cmap="viridis", shading="flat"
        )
        fig.colorbar(mesh, ax=ax, label=zlabel)
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
    fig, (left, right) = plt.subplots(1, 2, figsize=(WIDTH, 3.4))
    left.errorbar(beta, rate, yerr=rate_se, fmt="o-", color="k", capsize=3, markersize=5)
    left.axhline(0.0, color="0.5", linewidth=0.8)
    left.set_xlabel(r"$\beta$")
    left.set_ylabel(r"rate $\rho(\beta)$")
    for i, (label, (x, y, *err)) in enumerate(curves.items()):
        right.errorbar(
            x,
            y,
            yerr=err[0] if err else None,
            marker=plotting.series_style(i)["marker"],
            linestyle=plotting.series_style(i)["linestyle"],
            color=plotting.series_style(i)["color"],
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
    fig, (left, right) = plt.subplots(1, 2, figsize=(WIDTH, 3.6))
    for i, group in enumerate(measured):
        color = plotting.series_style(i)["color"]
        bx, by = predicted[group]
        marker, style = plotting.series_style(i)["marker"], plotting.series_style(i)["linestyle"]
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
    right.set_xlabel(r"predicted std$(D_i)$")
    right.set_ylabel(ylabel_distance)
    fig.tight_layout()
    legend(right, frameon=False)
    return fig


def phase_heatmap(
    d: Sequence[int],
    beta: Sequence[float],
    ks: np.ndarray,
    text: Sequence[Sequence[str]],
    boundary: tuple[Sequence[float], str] | None = None,
    curve_beta: Sequence[float] | None = None,
):
    r"""The (d, β) plane as a heat map of log10 distance; hovering a cell shows its distance and
    standard error (``text[i][j]``, already formatted). ``boundary`` is (β per size, label) of the
    measured boundary; ``curve_beta`` the β of the curve :math:`e^{\beta^2} = d` at each size."""
    import plotly.graph_objects as go

    rows = [str(v) for v in d]
    z = np.log10(np.asarray(ks, dtype=float))
    lo, hi = float(np.floor(np.nanmin(z))), float(np.ceil(np.nanmax(z)))
    ticks = [v for v in np.arange(lo, hi + 1e-9) if lo <= v <= hi]
    traces = [
        go.Heatmap(
            x=[float(b) for b in beta],
            y=rows,
            z=rounded(z, 4),
            customdata=[list(r) for r in text],
            colorscale="Viridis",
            zmin=lo,
            zmax=hi,
            colorbar={
                "title": {"text": "D<sub>KS</sub>"},
                "tickvals": ticks,
                "ticktext": [f"{10**v:g}" for v in ticks],
            },
            hovertemplate="d = %{y}, β = %{x}<br>D<sub>KS</sub> = %{customdata}<extra></extra>",
        )
    ]
    if boundary is not None:
        b, label = boundary
        ok = [i for i, v in enumerate(b) if np.isfinite(v)]
        traces.append(
            go.Scatter(
                x=rounded([b[i] for i in ok], 4),
                y=[rows[i] for i in ok],
                mode="lines+markers",
                name=label,
                line={"color": "#ffffff", "width": 2},
                marker={"color": PALETTE[4], "size": 10, "line": {"color": "#000", "width": 1}},
                hovertemplate="β = %{x}<extra>" + label + "</extra>",
            )
        )
    if curve_beta is not None:
        traces.append(
            go.Scatter(
                x=rounded(curve_beta, 4),
                y=rows,
                mode="lines+markers",
                name="e<sup>β²</sup> = d",
                line={"color": PALETTE[1], "width": 2, "dash": "dash"},
                marker={"color": PALETTE[1], "symbol": "x", "size": 9},
                hovertemplate="β = %{x}<extra>e<sup>β²</sup> = d</extra>",
            )
        )
    fig = go.Figure(traces)
    fig.update_layout(
        layout(height=460, margin={"l": 70, "r": 20, "t": 50, "b": 60}),
        xaxis=axis("β", range=[float(min(beta)) - 0.1, float(max(beta)) + 0.35]),
        yaxis=axis("d", "category"),
    )
    return fig


def fig_beta(study):
    """Every rung's distance across β at size d, with the curve and the tolerance as guides."""
    star = float(beta_star(study.config.d))
    return curves_with_guides(
        study.grid_beta,
        {symbol(m): study.row_ks[m] for m in MODEL_NAMES},
        r"$\beta$",
        r"$D_{\rm KS}$ of the bulk to the $\theta^f$ law",
        vlines={rf"$e^{{\beta^2}} = d$ ($\beta$ = {star:.3f})": star},
        hlines={f"tolerance {KS_TOL:g}": KS_TOL},
        logy=True,
        yerr={symbol(m): [p.se for p in study.row_dist[m]] for m in MODEL_NAMES},
    )


def fig_phase(study):
    """The (d, β) plane of attention's distance, interactive, with the boundary and the curve."""
    plane, tol = study.plane, study.tol
    stars = beta_star(plane.d)
    static = phase_diagram(
        plane.beta,
        plane.d,
        plane.ks,
        r"$\beta$",
        "$d$",
        f"$D_{{\\rm KS}}$ of {symbol(REFERENCE)} to the law",
        curves={r"$e^{\beta^2} = d$": (stars, plane.d)},
        points={rf"$\beta_{{{KS_TOL:g}}}(d)$ ± error": (tol.beta, plane.d, tol.beta_err)},
    )
    return interactive.InteractiveFigure(
        phase_heatmap(
            plane.d,
            plane.beta,
            plane.ks,
            plane_text(plane),
            boundary=(tol.beta, f"D<sub>KS</sub> = {KS_TOL:g}"),
            curve_beta=stars,
        ),
        interactive.PHASE_DIAGRAM,
        static,
        "Heat map of the distance to the law over beta and d; hovering a cell shows its "
        "distance and standard error. The measured boundary lies far to the left of the "
        "curve e to the beta squared equals d.",
    )


def fig_collapse(study):
    r"""The rates :math:`\rho(\beta)`, and the distances against :math:`\beta^2 - \hat c \log d`."""
    col, plane = study.collapse, study.plane
    x = plane.beta[None, :] ** 2 - col.c * np.log(plane.d.astype(float))[:, None]
    return rates_and_collapse(
        study.rates.beta,
        study.rates.rate,
        study.rates.se,
        {f"$d$ = {v}": (x[i], plane.ks[i], plane.se[i]) for i, v in enumerate(plane.d)},
        rf"collapse at $\hat c$ = {col.c:.2f}",
        r"$\beta^2 - \hat c \log d$",
        r"$D_{\rm KS}$",
    )


def fig_norm(study):
    """The normalizers' spread against β with its exact value, and the distance against it."""
    cell = {(p.d, p.beta): p for p in study.norm}
    bf = np.linspace(study.grid_beta[0], study.grid_beta[-1], 200)
    return spread_and_distance(
        study.grid_beta,
        {f"$d$ = {v}": [cell[v, b].std for b in study.grid_beta] for v in study.grid_d},
        {f"$d$ = {v}": (bf, [exact_std(b, v) for b in bf]) for v in study.grid_d},
        {f"$d$ = {v}": [cell[v, b].exact for b in study.grid_beta] for v in study.grid_d},
        {f"$d$ = {v}": list(study.plane.ks[study.plane.row(v)]) for v in study.grid_d},
        f"$D_{{\\rm KS}}$ of {symbol(REFERENCE)} to the law",
    )
