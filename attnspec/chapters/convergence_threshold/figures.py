"""The threshold chapter's figures, one function per glued figure (named after its glue key), and
the (d, β) plane's heat maps, static and interactive."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ...experiments.normalizer_reference import exact_std
from ...experiments.threshold import KS_TOL, beta_star
from ...models.ladder import MODEL_NAMES, REFERENCE
from ...models.notation import symbol
from ...present import interactive, plotting
from ...present.interactive import PALETTE, axis, layout, rounded
from ...present.style import WIDTH, legend
from .tables import plane_text


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


def fig_beta(study) -> plt.Figure:
    r"""Every rung's distance across β at size d (error bars: jackknife), with the curve
    :math:`e^{\beta^2} = d` and the tolerance as guides."""
    star = float(beta_star(study.config.d))
    fig, ax = plt.subplots(figsize=(WIDTH, 4.5))
    for i, m in enumerate(MODEL_NAMES):
        style = plotting.series_style(i)
        ax.errorbar(
            study.grid_beta,
            study.row_ks[m],
            yerr=[p.se for p in study.row_dist[m]],
            marker=style["marker"],
            linestyle=style["linestyle"],
            markersize=5,
            capsize=2,
            label=symbol(m),
        )
    label = rf"$e^{{\beta^2}} = d$ ($\beta$ = {star:.3f})"
    ax.axvline(star, color="k", linestyle="-.", linewidth=1, label=label)
    ax.axhline(KS_TOL, color="0.35", linestyle=":", linewidth=1, label=f"tolerance {KS_TOL:g}")
    ax.set_yscale("log")
    ax.set_xlabel(r"$\beta$")
    ax.set_ylabel(r"$D_{\rm KS}$ of the bulk to the $\theta^f$ law")
    fig.tight_layout()
    legend(ax)
    return fig


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


def fig_collapse(study) -> plt.Figure:
    r"""Left: the rates :math:`\rho(\beta)` with their error bars. Right: the distances against
    :math:`\beta^2 - \hat c \log d`, one series per size, log y axis."""
    col, plane, rates = study.collapse, study.plane, study.rates
    x = plane.beta[None, :] ** 2 - col.c * np.log(plane.d.astype(float))[:, None]
    fig, (left, right) = plt.subplots(1, 2, figsize=(WIDTH, 3.4))
    left.errorbar(rates.beta, rates.rate, rates.se, fmt="o-", color="k", capsize=3, markersize=5)
    left.axhline(0.0, color="0.5", linewidth=0.8)
    left.set_xlabel(r"$\beta$")
    left.set_ylabel(r"rate $\rho(\beta)$")
    for i, v in enumerate(plane.d):
        style = plotting.series_style(i)
        right.errorbar(
            x[i],
            plane.ks[i],
            yerr=plane.se[i],
            marker=style["marker"],
            linestyle=style["linestyle"],
            color=style["color"],
            markersize=5,
            capsize=2,
            label=f"$d$ = {v}",
        )
    right.set_yscale("log")
    right.set_title(rf"collapse at $\hat c$ = {col.c:.2f}")
    right.set_xlabel(r"$\beta^2 - \hat c \log d$")
    right.set_ylabel(r"$D_{\rm KS}$")
    right.legend(loc="upper left", frameon=False)
    fig.tight_layout()
    return fig


def fig_norm(study) -> plt.Figure:
    """Left: the normalizers' measured spread (points) and its exact value (lines) against β, one
    colour per size. Right: attention's distance against the exact spread, log-log."""
    cell = {(p.d, p.beta): p for p in study.norm}
    betas = study.grid_beta
    bf = np.linspace(betas[0], betas[-1], 200)
    fig, (left, right) = plt.subplots(1, 2, figsize=(WIDTH, 3.6))
    for i, v in enumerate(study.grid_d):
        style = plotting.series_style(i)
        color, marker, line = style["color"], style["marker"], style["linestyle"]
        label = f"$d$ = {v}"
        left.plot(bf, [exact_std(b, v) for b in bf], linestyle=line, color=color, linewidth=1)
        measured = [cell[v, b].std for b in betas]
        left.plot(betas, measured, marker, color=color, linestyle="none", label=label)
        exact = [cell[v, b].exact for b in betas]
        distance = list(study.plane.ks[study.plane.row(v)])
        right.plot(exact, distance, marker=marker, linestyle=line, color=color, label=label)
    left.plot([], [], "k-", linewidth=1, label="predicted")
    left.set_yscale("log")
    left.set_xlabel(r"$\beta$")
    left.set_ylabel(r"std$(D_i)$")
    left.legend(frameon=False)
    right.set_xscale("log")
    right.set_yscale("log")
    right.set_xlabel(r"predicted std$(D_i)$")
    right.set_ylabel(f"$D_{{\\rm KS}}$ of {symbol(REFERENCE)} to the law")
    fig.tight_layout()
    legend(right, frameon=False)
    return fig
