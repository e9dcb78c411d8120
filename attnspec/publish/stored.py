"""The stored chapters as the book's generated pages read them: each chapter's glued values and
claims from its results file, its title and glued figures from its executed notebook, and every
value asked for and not found (shown in place as a visible *missing* marker)."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from ..models.ladder import LADDER
from ..present.formatting import format_power_of_ten
from .chapters import toc_chapter_names
from .paths import EXECUTED
from .provenance import SUFFIX, load

#: The MIME type of a glued figure's PNG in an executed notebook (myst-nb's ``glue``).
PNG = "application/papermill.record/image/png"


def missing_marker(chapter: str, key: str) -> str:
    """The visible text shown in place of a value that chapter ``chapter`` does not glue."""
    return f"**[missing: `{key}` of {chapter}]**"


@dataclass(frozen=True)
class StoredValue:
    """A value of a stored chapter; ``text`` is what a page shows, or the marker."""

    chapter: str
    key: str
    text: str
    number: int | float | None
    found: bool


@dataclass(frozen=True)
class Farthest:
    """The rung whose bulk is farthest from the reference in one distance, with the noise floor."""

    metric: str
    rung: str | None
    distance: float | None
    floor: float | None

    @property
    def ratio(self) -> float | None:
        """Distance over noise floor, or None when either is unknown."""
        if self.distance is None or not self.floor:
            return None
        return self.distance / self.floor


@dataclass(frozen=True)
class ChapterClaims:
    """The claims of one stored chapter (its results file)."""

    chapter: str
    title: str
    number: (
        int  # the chapter's number in the book (chapters are numbered in table-of-contents order)
    )
    claims: tuple[dict, ...]

    @property
    def held(self) -> int:
        return sum(c.get("holds") is True for c in self.claims)

    @property
    def unresolved(self) -> int:
        return sum(c.get("holds") is None for c in self.claims)


@dataclass
class StoredChapters:
    """The stored chapters of the book, read once, and the values the pages took from them.

    Parameters
    ----------
    directory
        Folder of the executed chapter notebooks and their results files (``book/chapters``).
    names
        Chapter short names, in book order (default: the chapters listed in ``_toc.yml``).
    """

    directory: Path = EXECUTED
    names: list[str] | None = None
    used: dict[tuple[str, str], bool] = field(default_factory=dict)
    _notebooks: dict[str, Any] = field(default_factory=dict)
    _results: dict[str, dict | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.directory = Path(self.directory)
        if self.names is None:
            self.names = toc_chapter_names()

    def notebook(self, chapter: str):
        """The stored notebook of ``chapter``, or None when it has not been executed."""
        if chapter not in self._notebooks:
            path = self.directory / f"{chapter}.ipynb"
            self._notebooks[chapter] = nbformat.read(path, as_version=4) if path.is_file() else None
        return self._notebooks[chapter]

    def results(self, chapter: str) -> dict[str, Any] | None:
        """The results file of ``chapter`` (:func:`attnspec.publish.provenance.load`), or None when
        it has not been executed."""
        if chapter not in self._results:
            path = self.directory / f"{chapter}{SUFFIX}"
            self._results[chapter] = load(path) if path.is_file() else None
        return self._results[chapter]

    def values(self, chapter: str) -> dict[str, dict[str, Any]]:
        """The glued values of ``chapter`` by key: its results file's entries (kind, value,
        text)."""
        found = self.results(chapter)
        return {v["key"]: v for v in found["values"]} if found else {}

    def title(self, chapter: str) -> str:
        """The chapter's title (its first level-one heading), or its short name."""
        nb = self.notebook(chapter)
        for cell in nb.cells if nb is not None else []:
            if cell.cell_type == "markdown":
                for line in cell.source.splitlines():
                    if line.startswith("# "):
                        return line[2:].strip()
        return chapter

    def value(self, chapter: str, key: str, fmt: str = "") -> StoredValue:
        """Glued value ``key`` of ``chapter``, formatted for prose.

        ``fmt`` is empty (the chapter's own rounding; ``1.1e-05`` is shown as ``1.1 × 10⁻⁵``), a
        format spec such as ``".3f"``, or ``"sci"`` (two significant digits, ``6.1 × 10⁶``). A
        missing key gives the missing marker.
        """
        glued = self.values(chapter).get(key)
        self.used[(chapter, key)] = glued is not None
        if glued is None:
            return StoredValue(chapter, key, missing_marker(chapter, key), None, False)
        text = glued["text"]
        number = glued["value"] if glued["kind"] == "number" else None
        if number is not None and not fmt and "e" in text.lower():
            mantissa = text.lower().split("e")[0].lstrip("-").replace(".", "").lstrip("0")
            text = format_power_of_ten(number, max(len(mantissa), 1) - 1)
        elif number is not None and fmt == "sci":
            text = format_power_of_ten(number)
        elif number is not None and fmt:
            text = format(number, fmt)
        return StoredValue(chapter, key, text, number, True)

    def md(self, chapter: str, key: str, fmt: str = ""):
        """:meth:`value` as an IPython ``Markdown`` object, ready for ``glue`` and ``{glue:md}``."""
        from IPython.display import Markdown

        return Markdown(self.value(chapter, key, fmt).text)

    def glue_all(self, prefix: str, wanted: dict[str, tuple]) -> None:
        """Glue each stored value as ``{prefix}_{name}``: ``wanted`` maps ``name`` to
        ``(chapter, key)`` or ``(chapter, key, fmt)`` (see :meth:`value`), shown with
        ``{glue:md}``."""
        from myst_nb import glue

        for name, (chapter, key, *fmt) in wanted.items():
            glue(f"{prefix}_{name}", self.md(chapter, key, *fmt), display=False)

    def figure_png(self, chapter: str, key: str) -> bytes | None:
        """The PNG bytes of figure ``key`` glued by ``chapter``, or None when it glues none."""
        nb = self.notebook(chapter)
        for cell in nb.cells if nb is not None else []:
            for out in cell.get("outputs", []):
                name = out.get("metadata", {}).get("scrapbook", {}).get("name")
                data = out.get("data", {})
                if name == key and PNG in data:
                    text = data[PNG]
                    return base64.b64decode("".join(text) if isinstance(text, list) else text)
        return None

    def figure(self, chapter: str, key: str):
        """Figure ``key`` of ``chapter`` as an IPython ``Image`` (its stored PNG), ready for
        ``glue`` and ``{glue:figure}``; the missing marker (as ``Markdown``) when not glued."""
        from IPython.display import Image, Markdown

        png = self.figure_png(chapter, key)
        self.used[(chapter, key)] = png is not None
        return (
            Image(data=png, format="png")
            if png is not None
            else Markdown(missing_marker(chapter, key))
        )

    def farthest(self, chapter: str, metric: str, prefix: str = "bulk") -> Farthest:
        """The rung with the largest glued distance ``{prefix}_{metric}_{rung}``.

        The result also holds the noise floor, ``{prefix}_{metric}_floor``.
        """
        values = self.values(chapter)
        numbers = {k: v["value"] for k, v in values.items() if v["kind"] == "number"}
        found = {
            name: numbers[f"{prefix}_{metric}_{name}"]
            for name in LADDER
            if f"{prefix}_{metric}_{name}" in numbers
        }
        floor = numbers.get(f"{prefix}_{metric}_floor")
        self.used[(chapter, f"{prefix}_{metric}_<rung>")] = bool(found)
        self.used[(chapter, f"{prefix}_{metric}_floor")] = f"{prefix}_{metric}_floor" in values
        if not found:
            return Farthest(metric, None, None, floor)
        rung = max(found, key=found.get)
        return Farthest(metric, rung, found[rung], floor)

    def missing(self) -> list[tuple[str, str]]:
        """The (chapter, key) pairs asked for and not found, in order of asking."""
        return [pair for pair, ok in self.used.items() if not ok]

    def missing_note(self) -> str:
        """A warning box listing every value asked for and not found; empty when all were found."""
        gone = self.missing()
        if not gone:
            return ""
        items = "\n".join(f"- `{key}` of chapter *{chapter}*" for chapter, key in gone)
        return (
            f":::{{warning}}\nThis page asks the stored chapters for {len(gone)} value(s) they do "
            f"not glue; each is marked *missing* where it would appear:\n\n{items}\n:::"
        )

    def chapter_claims(self) -> list[ChapterClaims]:
        """The claims of every chapter (its results file), in book order."""
        out = []
        for number, name in enumerate(self.names, start=1):
            found = self.results(name)
            claims = tuple(found["claims"]) if found else ()
            out.append(ChapterClaims(name, self.title(name), number, claims))
        return out
