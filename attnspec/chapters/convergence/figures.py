"""The convergence chapter's figures, one function per glued figure (named after its glue key), and
the interactive distance-against-d figure only this chapter draws."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...experiments.convergence import DistanceSeries, reported_se
from ...models.notation import symbol
from ...present import interactive, plotting
from ...present.interactive import DASHES, MARKERS, PALETTE, axis, layout, rounded
from .tables import rate_text

#: The rungs' symbols (:mod:`attnspec.models.notation`) in plotly's HTML subset (sub, sup).
HTML_SYMBOLS = {
    "sqrt_d_A": "√d A",
    "sqrt_d_A_perp": "√d A<sub>⊥</sub>",
    "Y": "Y",
    "Y_f": "Y<sub>f</sub>",
    "Y_Q": "Y<sub>Q</sub>",
    "Y_Q_lin": "Y<sub>Q</sub><sup>lin</sup>",
    "Y_f_lin": "Y<sub>f</sub><sup>lin</sup>",
}


def distance_against_d(series: dict[str, DistanceSeries], hidden: set[str], ytitle: str):
    r"""Distances to the law against d (log-log), one series per label (HTML) with error bars
    (:func:`~attnspec.experiments.convergence.reported_se`) and its fitted power law
    :math:`e^a d^{-\rho}`, those in ``hidden`` hidden at first; a click on a legend entry hides or
    shows the series."""
    import plotly.graph_objects as go

    traces = []
    for i, (label, s) in enumerate(series.items()):
        color, group = PALETTE[i % len(PALETTE)], f"s{i}"
        visible = "legendonly" if label in hidden else True
        traces.append(
            go.Scatter(
                x=[float(v) for v in s.d],
                y=rounded(s.ks, 3),
                error_y={"type": "data", "array": rounded(reported_se(s), 2), "visible": True},
                mode="markers",
                name=label,
                legendgroup=group,
                visible=visible,
                marker={"color": color, "symbol": MARKERS[i % len(MARKERS)], "size": 9},
                hovertemplate="d = %{x}<br>D<sub>KS</sub> = %{y}<extra>" + label + "</extra>",
            )
        )
        if np.isfinite(s.fit.rate) and np.isfinite(s.fit.intercept):
            xs = np.geomspace(min(s.d), max(s.d), 30)
            traces.append(
                go.Scatter(
                    x=rounded(xs),
                    y=rounded(np.exp(s.fit.intercept) * xs ** (-s.fit.rate)),
                    mode="lines",
                    name=f"fit, ρ = {s.fit.rate:.2f}",
                    legendgroup=group,
                    showlegend=False,
                    visible=visible,
                    hoverinfo="skip",
                    line={"color": color, "width": 1.2, "dash": DASHES[i % len(DASHES)]},
                )
            )
    fig = go.Figure(traces)
    ticks = sorted({float(v) for s in series.values() for v in s.d})
    fig.update_layout(
        layout(
            height=520,
            margin={"l": 70, "r": 20, "t": 20, "b": 60},
            legend={"orientation": "v", "x": 1.02, "y": 1, "xanchor": "left"},
        ),
        xaxis=axis("d", "log", tickvals=ticks, ticktext=[f"{v:g}" for v in ticks]),
        yaxis=axis(ytitle, "log", dtick=1, exponentformat="power"),
    )
    return fig


def with_fit(s: DistanceSeries) -> tuple:
    r"""A series for :func:`~attnspec.present.plotting.loglog_fits`: distances, their errors and
    the fitted line (slope :math:`-\rho`, intercept)."""
    return s.ks, reported_se(s), -s.fit.rate, s.fit.intercept


def fig_scale(study) -> plt.Figure:
    """The series at scale: attention's and its Gaussian equivalent's distance against d, log-log,
    with their fitted power laws."""
    return plotting.loglog_fits(
        study.scale_d,
        {f"{symbol(m)}: $\\rho$ = {rate_text(s)}": with_fit(s) for m, s in study.at_scale.items()},
        "$d$",
        r"$D_{\rm KS}$ of the bulk to the $\theta^f$ law",
    )


def fig_d(study) -> interactive.InteractiveFigure:
    """Every rung's distance against d, interactive, with the series at scale hidden at first."""
    labels = {"f": "", "q": r" vs $\theta^Q$ law"}
    static = plotting.loglog_fits(
        study.grid_d,
        {f"{symbol(m)}{labels[t]}": with_fit(c) for (m, t), c in study.conv.items()},
        "$d$",
        r"$D_{\rm KS}$ of the bulk to the law",
    )
    rungs = {
        HTML_SYMBOLS[m] + (" vs θ<sup>Q</sup> law" if t == "q" else ""): c
        for (m, t), c in study.conv.items()
    }
    scale = {f"{HTML_SYMBOLS[m]}, series at scale": s for m, s in study.at_scale.items()}
    return interactive.InteractiveFigure(
        distance_against_d(rungs | scale, set(scale), "D<sub>KS</sub> of the bulk to the law"),
        interactive.DISTANCE_IN_D,
        static,
        "Distance of each rung's bulk to the limit law against d, log-log, with error bars "
        "and fitted power laws; each rung can be hidden or shown from the legend.",
    )
