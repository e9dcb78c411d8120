"""A chapter study whose figures may be interactive (the limit law, convergence and threshold
chapters): an :class:`~attnspec.present.interactive.InteractiveFigure` is glued whole, its HTML and
its static PNG, and its static rendering closed, like any figure."""

from __future__ import annotations

from ..present.gluing import glue_values
from ..present.interactive import InteractiveFigure
from .base import ChapterStudy


class InteractiveStudy(ChapterStudy):
    """A :class:`~attnspec.chapters.base.ChapterStudy` whose :meth:`figures` may draw an
    :class:`~attnspec.present.interactive.InteractiveFigure`."""

    def glue(self) -> None:
        """Glue every value and every figure under :attr:`prefix`, then close each figure (the
        static rendering of an interactive one)."""
        import matplotlib.pyplot as plt
        from myst_nb import glue

        glue_values(self.prefix, self.values())
        for key, draw in self.figures().items():
            fig = draw()
            glue(f"{self.prefix}_{key}", fig, display=False)
            plt.close(fig.static if isinstance(fig, InteractiveFigure) else fig)
