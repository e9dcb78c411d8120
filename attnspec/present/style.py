"""The book's one figure style, and legends that keep off the data.

:func:`apply` (run by :mod:`attnspec.present.plotting` at import) loads ``attnspec.mplstyle``: text
of at least 9 pt, the Okabe–Ito colours each with its own line style and marker, figures
:data:`WIDTH` inches wide at most, the content column of the page. In a notebook kernel it also
stores every figure as a PNG at twice its display resolution, with its display width (1 inch = 96
CSS px) as the output's metadata, so that the page shows the figure at its natural size, sharp on a
high-density screen (PNG, not SVG: nbval ignores PNG bytes, while an SVG is compared as text, and
matplotlib's SVG output is not byte-stable across machines); a dense curve keeps about a dozen of
the markers the style's cycle gives it (:func:`thin_markers`).

:func:`legend` draws a legend where it covers no plotted point (:func:`hidden_points`), else outside
the axes.
"""

from __future__ import annotations

import sys
from base64 import b64encode
from io import BytesIO
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import QuadMesh
from matplotlib.lines import Line2D
from matplotlib.transforms import Bbox

STYLE = Path(__file__).with_name("attnspec.mplstyle")
#: CSS pixels per inch: a figure ``w`` inches wide is shown ``96 w`` px wide.
PX_PER_INCH = 96
#: Width of a figure on the page at a 1280 px window (the content column, 688 px, less the
#: figure's 8 px padding on each side), in CSS px and in inches.
CONTENT_PX = 672
WIDTH = CONTENT_PX / PX_PER_INCH


def apply() -> None:
    """Use the book's style for every figure; in a notebook kernel, store figures as PNG at 2×."""
    plt.style.use(STYLE)
    shell = sys.modules["IPython"].get_ipython() if "IPython" in sys.modules else None
    if shell is None or not hasattr(shell, "display_formatter"):
        return
    # import the inline backend now: on import it registers its own PNG formatter, which ours
    # must replace, not precede
    import matplotlib_inline.backend_inline  # noqa: F401
    from matplotlib.figure import Figure

    shell.display_formatter.formatters["image/png"].for_type(Figure, png_at_twice)


def png_at_twice(fig) -> tuple[str, dict] | None:
    """``fig`` as a base64 PNG at twice its display resolution, with ``{"width": px}`` metadata.

    The display width is the tight bounding box's width at 96 px per inch; the PNG has twice as
    many pixels. None for a figure with nothing drawn (as IPython's own formatter).
    """
    if not fig.axes and not fig.texts and not fig.images:
        return None
    thin_markers(fig)
    buffer = BytesIO()
    fig.savefig(buffer, format="png", dpi=2 * PX_PER_INCH, bbox_inches="tight")
    data = buffer.getvalue()
    width = int.from_bytes(data[16:20], "big")  # the IHDR chunk's width
    return b64encode(data).decode("ascii"), {"width": width // 2}


def thin_markers(fig, most: int = 12) -> None:
    """Markers at about ``most`` evenly spaced vertices of every connected line of ``fig`` that
    has markers at more than ``3 * most`` vertices (the style's cycle gives every line a marker;
    on a dense curve, one per vertex would hide the curve). Unconnected points keep every marker.
    """
    for line in fig.findobj(Line2D):
        n = len(line.get_xdata())
        if (
            n > 3 * most
            and line.get_marker() not in (None, "None", "", " ")
            and line.get_linestyle() not in ("None", "", " ")
            and line.get_markevery() is None
        ):
            line.set_markevery(n // most)


def _data(ax, renderer) -> tuple[np.ndarray, list]:
    """What ``ax`` plots, in display coordinates: points (the vertices of its data lines, with
    points along each segment, and the offsets of its collections) and areas (the boxes of its bars
    and histogram bins, heat maps and images). Guide lines and spans, drawn in axes coordinates,
    are not data."""
    points, areas = [], []
    for line in ax.get_lines():
        if not line.get_visible() or line.get_transform() != ax.transData:
            continue
        xy = line.get_transform().transform(np.column_stack(line.get_data()).astype(float))
        xy = xy[np.isfinite(xy).all(axis=1)]
        if line.get_linestyle() not in ("None", "", " ") and len(xy) > 1:
            t = np.linspace(0.0, 1.0, 9)[:, None, None]
            xy = (xy[:-1] + t * (xy[1:] - xy[:-1])).reshape(-1, 2)
        points.append(xy)
    for collection in ax.collections:
        if not collection.get_visible():
            continue
        if isinstance(collection, QuadMesh):
            areas.append(collection.get_window_extent(renderer))
        elif len(collection.get_offsets()):
            offsets = collection.get_offset_transform().transform(collection.get_offsets())
            points.append(np.asarray(offsets, dtype=float))
    areas += [image.get_window_extent(renderer) for image in ax.images if image.get_visible()]
    for patch in ax.patches:
        if patch.get_visible() and patch.get_transform() == ax.transData:
            areas.append(patch.get_window_extent(renderer))
    xy = np.concatenate(points) if points else np.empty((0, 2))
    inside = ax.bbox
    keep = (
        (xy[:, 0] >= inside.x0)
        & (xy[:, 0] <= inside.x1)
        & (xy[:, 1] >= inside.y0)
        & (xy[:, 1] <= inside.y1)
    )
    clipped = [Bbox.intersection(a, inside) for a in areas if a.width > 0 and a.height > 0]
    return xy[keep], [a for a in clipped if a is not None and a.width > 0 and a.height > 0]


def hidden_points(legend) -> int:
    """How many plotted points and areas (bars, heat maps, images) of the figure's axes lie
    under ``legend``'s box."""
    fig = legend.figure
    renderer = fig.canvas.get_renderer()
    box = legend.get_window_extent(renderer)
    count = 0
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        xy, areas = _data(ax, renderer)
        x, y = xy[:, 0], xy[:, 1]
        count += int(np.sum((x > box.x0) & (x < box.x1) & (y > box.y0) & (y < box.y1)))
        count += sum(
            1 for a in areas if a.x0 < box.x1 and box.x0 < a.x1 and a.y0 < box.y1 and box.y0 < a.y1
        )
    return count


def legend(ax, **kwargs):
    """``ax.legend(**kwargs)`` where it hides no plotted point: at the best place inside the axes,
    else outside, to the right (the figure's layout is tightened so that it still fits).

    An explicit ``loc`` is kept as given. Returns the legend (None when nothing is labelled).
    """
    if not ax.get_legend_handles_labels()[0]:
        return None
    placed = ax.legend(**kwargs)
    if "loc" in kwargs or not hidden_points(placed):
        return placed
    placed.remove()
    outside = ax.legend(**kwargs, loc="center left", bbox_to_anchor=(1.02, 0.5))
    ax.get_figure().tight_layout()
    return outside
