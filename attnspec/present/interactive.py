"""Interactive figures that work offline: plotly for the site, a matplotlib rendering for the rest.

A chapter displays or glues an :class:`InteractiveFigure`. Its ``text/html`` is
``fig.to_html(include_plotlyjs=False, full_html=False, div_id=...)`` with a fixed div id, and every
number in the figure is rounded to the digits it supports, so a re-execution gives the same bytes
(nbval compares them). The site loads ``plotly.min.js`` once, from its own ``_static`` folder
(``book/_ext/local_plotly.py`` copies it there from the installed plotly package, and adds it to
the pages that hold a plotly figure). The bundle's ``image/png`` is a matplotlib rendering of the
same data, which the PDF and the re-run page show instead. The data of every slider position are in
the page: no kernel is needed.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .palette import COLORS

#: Colours, in the order series take them (:data:`attnspec.present.palette.COLORS`).
PALETTE = COLORS
#: Marker symbols, in the order series take them (told apart without colour): as many as colours.
MARKERS = ("circle", "square", "diamond", "triangle-up", "triangle-down", "cross", "x", "star")
MARKERS += ("hexagon", "pentagon", "triangle-left")
#: Line dashes, in the same order.
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot", "solid", "dash")

#: Div ids of the book's interactive figures (fixed, so the stored outputs never change).
LAW_SLIDER = "limit-law-beta-slider"
DISTANCE_IN_D = "convergence-distance-in-d"
PHASE_DIAGRAM = "threshold-phase-diagram"

FONT = {"family": "Helvetica, Arial, sans-serif", "size": 13}
#: plotly's options for every figure: no logo, and no "Share chart…" button (an upload to plotly's
#: cloud service, which an offline book must not offer).
CONFIG = {"responsive": True, "displaylogo": False, "showSendToCloud": False}


def rounded(values, significant: int = 5) -> list | float | None:
    """``values`` (a number, or a 1- or 2-d array) as Python floats with ``significant``
    significant digits, in nested lists; a value that is not finite becomes None (a gap)."""

    def one(v: float) -> float | None:
        if not math.isfinite(v):
            return None
        if v == 0:
            return 0.0
        return round(v, significant - 1 - math.floor(math.log10(abs(v))))

    a = np.asarray(values, dtype=float)
    flat = [one(float(v)) for v in a.ravel()]
    if a.ndim == 0:
        return flat[0]
    if a.ndim == 1:
        return flat
    n = a.shape[-1]
    return [flat[i : i + n] for i in range(0, len(flat), n)]


@dataclass
class InteractiveFigure:
    """A plotly figure for the site with its static matplotlib rendering.

    Attributes
    ----------
    figure : plotly.graph_objects.Figure
        the interactive figure (its numbers already rounded).
    div_id : str
        the fixed id of its div.
    static : matplotlib.figure.Figure
        the same data drawn with matplotlib, for the PDF and the re-run page.
    label : str
        what the figure shows, for screen readers (``aria-label``).
    """

    figure: object
    div_id: str
    static: object
    label: str
    dpi: int = field(default=200)

    def html(self, png: str | None = None) -> str:
        """The figure's div and script, without plotly.js, and its static rendering for print (an
        ``img.attnspec-print``, shown only by ``@media print``; ``png``, when already drawn); the
        same bytes on every run."""
        body = self.figure.to_html(
            include_plotlyjs=False, full_html=False, div_id=self.div_id, config=CONFIG
        )
        label = html.escape(self.label, quote=True)
        image = png or self.png()
        printed = f'<img class="attnspec-print" alt="{label}" src="data:image/png;base64,{image}">'
        return (
            f'<div class="attnspec-interactive" role="figure" aria-label="{label}">'
            f"{body}{printed}</div>"
        )

    def png(self) -> str:
        """The static rendering as base64 PNG."""
        buffer = io.BytesIO()
        self.static.savefig(buffer, format="png", dpi=self.dpi, bbox_inches="tight")
        return base64.b64encode(buffer.getvalue()).decode()

    def __repr__(self) -> str:
        """Its ``text/plain`` form, as a glued figure's record shows it."""
        return f"<interactive figure {self.div_id}>"

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        png = self.png()  # drawn once: the print image of the HTML and the PNG alike
        return {"text/html": self.html(png), "image/png": png, "text/plain": repr(self)}


def layout(**extra) -> dict:
    """The book's plotly layout, updated with ``extra``."""
    base = {
        "template": "none",
        "font": FONT,
        "height": 460,
        "margin": {"l": 70, "r": 20, "t": 50, "b": 60},
        "legend": {"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom"},
        "hovermode": "closest",
    }
    return base | extra


def axis(title: str, kind: str = "linear", **extra) -> dict:
    """An axis of the book's plotly figures, titled ``title``, of type ``kind``, updated with
    ``extra``."""
    return {
        "title": {"text": title},
        "type": kind,
        "showline": True,
        "linecolor": "#444",
        "ticks": "outside",
        "gridcolor": "#e5e5e5",
        "zeroline": False,
    } | extra


def law_slider(frames: Sequence, active: int, ks_digits: int = 4):
    """The slider over beta: the histogram of the bulk, the exact law and Marchenko–Pastur.

    ``frames`` are :class:`attnspec.experiments.limit_law.SliderFrame` (units of theta_1), one per
    slider position; ``active`` is the position shown first.
    """
    import plotly.graph_objects as go

    centers = rounded((frames[0].edges[1:] + frames[0].edges[:-1]) / 2)
    width = float(frames[0].edges[1] - frames[0].edges[0])
    x = rounded(frames[0].x)

    def title(fr) -> str:
        return (
            f"β = {fr.beta:g}: D<sub>KS</sub> = {fr.ks:.{ks_digits}f} to the exact law, "
            f"{fr.ks_mp:.{ks_digits}f} to Marchenko–Pastur"
        )

    def edge_line(fr) -> dict:
        return {"x0": round(fr.edge, 4), "x1": round(fr.edge, 4)}

    first = frames[active]
    fig = go.Figure(
        [
            go.Bar(
                x=centers,
                y=rounded(first.hist, 4),
                width=width,
                name="bulk of √d A<sub>⊥</sub>, d = 1000",
                marker={"color": "#bdbdbd", "line": {"width": 0}},
                hovertemplate="s²/θ₁ = %{x:.2f}<br>density %{y:.3g}<extra>bulk</extra>",
            ),
            go.Scatter(
                x=x,
                y=rounded(first.law),
                mode="lines",
                name="exact law (Pennington–Worah)",
                line={"color": PALETTE[6], "width": 2.2},
            ),
            go.Scatter(
                x=x,
                y=rounded(first.mp),
                mode="lines",
                name="Marchenko–Pastur, same mean",
                line={"color": PALETTE[1], "width": 2, "dash": "dash"},
            ),
        ]
    )
    steps = [
        {
            "label": f"{fr.beta:g}",
            "method": "update",
            "args": [
                {"y": [rounded(fr.hist, 4), rounded(fr.law), rounded(fr.mp)]},
                {"title.text": title(fr)} | {f"shapes[0].{k}": v for k, v in edge_line(fr).items()},
            ],
        }
        for fr in frames
    ]
    fig.update_layout(
        layout(
            height=520,
            margin={"l": 70, "r": 20, "t": 90, "b": 60},
            legend={"orientation": "h", "x": 0, "y": 1.0, "yanchor": "bottom"},
        ),
        title={"text": title(first), "x": 0, "font": {"size": 14}},
        xaxis=axis("s²/θ₁ (squared singular value over the mean)", range=[0, 7.05]),
        yaxis=axis("density", "log", range=[-3, 0.8], dtick=1, exponentformat="power"),
        shapes=[
            {
                "type": "line",
                "xref": "x",
                "yref": "paper",
                "y0": 0,
                "y1": 1,
                "line": {"color": PALETTE[6], "width": 1, "dash": "dot"},
            }
            | edge_line(first)
        ],
        sliders=[
            {
                "active": active,
                "currentvalue": {"prefix": "β = ", "font": {"size": 14}},
                "pad": {"t": 50},
                "steps": steps,
            }
        ],
        bargap=0,
    )
    return fig
