"""The one protocol of a chapter: check the parameters, compute once, then the reader-facing hooks.

In the spirit of scipy.stats' ``rv_continuous``: :class:`ChapterStudy` does what every chapter
shares, a subclass names its chapter and fills in what is its own (see "Subclassing" there).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, ClassVar

from ..core.config import Config
from ..present.claims import Claim
from ..present.gluing import glue_values
from ..present.interactive import InteractiveFigure
from ..present.record import entry, write
from ..present.tables import claims_markdown
from .parameters import declared


class ChapterStudy:
    """A chapter's computation at one set of checked parameters.

    ``ChapterStudy.run(**params)`` checks the parameters (each value's range and every rule that
    applies to the chapter), then calls :meth:`compute` once; the hooks read what it stored. A
    notebook calls ``<Study>.run_from(globals())``.

    Subclassing
    -----------
    A study defines :attr:`name` and :attr:`prefix`, :meth:`compute` (the measurements, kept on
    the study) and the hooks it needs: :meth:`values` (glued, each rounded to the digits its
    standard error supports), :meth:`tables`, :meth:`claims` and its figures, most simply as
    :attr:`drawings`, one function ``draw(study)`` per glued figure, named after its glue key. The
    base checks the parameters against the notebook's ``parameters`` cell
    (:func:`attnspec.chapters.parameters.declared`), glues and records every value and figure
    (:meth:`glue`), draws and closes each figure, and builds the claims table
    (:meth:`claims_table`)::

        def fig_scores(study):
            return plt.figure()  # draws study.S

        def chapter_claims(study) -> list[Claim]:
            return [Claim("scores are standardized", ..., provenance="derived here")]

        class Scores(ChapterStudy):
            name = "scores"  # notebooks/scores.md
            prefix = "scores"  # value x is glued as scores_x
            drawings = (fig_scores,)  # glued as scores_fig_scores
            claims = chapter_claims

            def compute(self):
                self.S = draw_scores(self.config.d, trial_rng(self.config.seed, 0))

            def values(self):
                return {"mean_square": round(float(np.mean(self.S**2)), 4)}
    """

    #: The chapter's short name, its file name in ``notebooks/``.
    name: ClassVar[str]
    #: Prefix of the chapter's glue keys: value ``x`` is glued as ``{prefix}_x``.
    prefix: ClassVar[str]
    #: One function ``draw(study)`` per glued figure, glued under the function's name.
    drawings: ClassVar[tuple[Callable[[Any], Any], ...]] = ()

    def __init__(self, params: Mapping[str, Any]):
        self.params = dict(params)
        self.config = Config.of(self.params)

    @classmethod
    def run(cls, **params: Any):
        """The study at the declared defaults updated by ``params``, checked
        (:meth:`~attnspec.chapters.parameters.ChapterParameters.validate`), then computed."""
        study = cls(declared(cls.name).validate(params))
        study.compute()
        return study

    @classmethod
    def run_from(cls, namespace: Mapping[str, Any]):
        """The study at the notebook's parameters: :meth:`run` at the value of every declared
        parameter in ``namespace`` (the notebook's ``globals()``, read when the call runs, so
        after the values papermill injects below the ``parameters`` cell)."""
        return cls.run(**declared(cls.name).read(namespace))

    def compute(self) -> None:
        """Run the chapter's measurements and keep them on the study."""
        raise NotImplementedError

    def values(self) -> dict[str, Any]:
        """The glued values by name, each rounded to the digits its standard error supports."""
        return {}

    def tables(self) -> dict[str, str]:
        """The chapter's tables as Markdown, by name."""
        return {}

    def figures(self) -> dict[str, Callable[[], Any]]:
        """A function drawing each glued figure (a matplotlib or an interactive figure), by its
        glue name: each of :attr:`drawings` at this study."""
        return {draw.__name__: partial(draw, self) for draw in self.drawings}

    def claims(self) -> list[Claim]:
        """The chapter's checked claims, in the order of its claims table."""
        return []

    def shared_values(self) -> dict[str, dict[str, Any]]:
        """Values glued under a prefix of their own, by prefix: what other chapters and pages read
        under a book-wide name (glued after the chapter's values and figures)."""
        return {}

    def glue(self) -> None:
        """Glue every value, every figure and every shared value; record them, typed, with the
        claims (:func:`attnspec.present.record.write`: for the executor's results file).

        Each figure is drawn, glued whole (an interactive one with its HTML and static PNG), then
        closed.
        """
        import matplotlib.pyplot as plt
        from myst_nb import glue

        glued = glue_values(self.prefix, self.values())
        for key, draw in self.figures().items():
            fig = draw()
            glue(f"{self.prefix}_{key}", fig, display=False)
            glued.append(entry(f"{self.prefix}_{key}", fig))
            plt.close(fig.static if isinstance(fig, InteractiveFigure) else fig)
        for prefix, values in self.shared_values().items():
            glued += glue_values(prefix, values)
        write(self.name, glued, self.claims())

    def table(self, name: str):
        """Table ``name`` for display in the notebook."""
        from IPython.display import Markdown

        return Markdown(self.tables()[name])

    def claims_table(self):
        """The claims table (:func:`attnspec.present.tables.claims_markdown`) for display."""
        from IPython.display import Markdown

        return Markdown(claims_markdown(self.claims()))
