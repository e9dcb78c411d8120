"""The book's generated front and back matter: Main results (the introduction), Findings, Notation.

These pages are executed notebooks like the chapters, but they compute nothing themselves: their
hidden cells read the *stored* chapters in ``book/chapters/`` (glued values and claims from each
chapter's results file, typed as its study recorded them; titles and glued figures from its
executed notebook) and display them. So every number and figure they show is one a chapter
computed, and a page is re-executed after the chapters are (``attnspec notebooks`` executes every
chapter, then every page; ``attnspec notebooks findings`` one page).
:func:`stored_problems` lists what the stored pages show as missing.

A page's MyST source is ``notebooks/pages/NAME.md``; the executed notebook is stored as
``book/NAME.ipynb`` and nbval-tested like a chapter. A value a page asks for and a chapter does not
glue (a renamed key, a chapter not executed) is shown in place as a visible *missing* marker and
listed in a warning box at the top of the page; nothing raises.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from ..core import cleanup
from ..core.atomic import atomic_path
from ..models.ladder import LADDER
from ..models.notation import SYMBOLS as RUNG_SYMBOLS
from ..present.claims import counts_sentence, verdict
from ..present.formatting import format_power_of_ten
from ..present.tables import emphasized, markdown_table
from .chapters import toc_chapter_names
from .execution import execute_notebook, read_notebook
from .paths import BOOK, EXECUTED, PAGE_SOURCES
from .provenance import SUFFIX, load

PAGES = ("intro", "findings", "notation", "reproduce")
#: The MIME type of a glued figure's PNG in an executed notebook (myst-nb's ``glue``).
PNG = "application/papermill.record/image/png"


def rung_symbol(name: str) -> str:
    """The LaTeX symbol of rung ``name`` (falls back to the rung's definition, then to its name)."""
    if name in RUNG_SYMBOLS:
        return RUNG_SYMBOLS[name]
    if name in LADDER:
        return LADDER[name].latex
    return rf"\mathtt{{{name}}}"


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


def chapter_link(chapter: str, title: str, base: str = "chapters/") -> str:
    """A Markdown link from a page in ``book/`` to a chapter."""
    return f"[{title}]({base}{chapter}.ipynb)"


def claims_summary(stored: StoredChapters) -> tuple[int, int, int]:
    """(claims that hold, claims the data cannot resolve, claims) over every chapter."""
    groups = stored.chapter_claims()
    return (
        sum(g.held for g in groups),
        sum(g.unresolved for g in groups),
        sum(len(g.claims) for g in groups),
    )


def claims_sentence(stored: StoredChapters) -> str:
    """ "H of N claims hold, F do not hold and U cannot be resolved by the data"
    (:func:`~attnspec.present.claims.counts_sentence`), or a visible note when no stored chapter
    records its claims."""
    held, unresolved, total = claims_summary(stored)
    if total == 0:
        return "**[no stored chapter records its claims: re-execute the chapters]**"
    return counts_sentence(held, unresolved, total)


DISTANCES = {"ks": "Kolmogorov", "w1": "Wasserstein-1"}


@dataclass(frozen=True)
class FarthestRung:
    """Which rung is farthest from the reference (Markdown), and its Kolmogorov distance."""

    # "$Y_f^{\\rm lin}$, in the Kolmogorov and Wasserstein-1 distances" or one per distance, or
    # the missing marker
    rung: str
    ks: str
    ks_floor: str
    ks_ratio: str


def farthest_rung(stored: StoredChapters, chapter: str = "bulk-equivalence") -> FarthestRung:
    """The rung farthest from the reference's bulk in the distances of :data:`DISTANCES`.

    Read from the glued distances ``bulk_{ks,w1}_{rung}`` (the histogram L1 distance is left out:
    its noise floor is as large as the distances themselves). The ratio to the noise floor is the
    chapter's own (``bulk_ratio_ks_{rung}``, from unrounded values), so page and chapter print one
    number.
    """
    found = [stored.farthest(chapter, metric) for metric in DISTANCES]
    known = [f for f in found if f.rung is not None]
    if not known:
        marker = missing_marker(chapter, "bulk_<distance>_<rung>")
        return FarthestRung(marker, marker, marker, marker)
    if len({f.rung for f in known}) == 1 and len(known) == len(DISTANCES):
        rung = f"${rung_symbol(known[0].rung)}$, in the " + " and ".join(DISTANCES.values())
        rung += " distances"
    else:
        rung = ", ".join(f"${rung_symbol(f.rung)}$ in {DISTANCES[f.metric]}" for f in known)
    ks = next((f for f in known if f.metric == "ks"), None)
    if ks is None:
        marker = missing_marker(chapter, "bulk_ks_<rung>")
        return FarthestRung(rung, marker, marker, marker)
    no_floor = missing_marker(chapter, "bulk_ks_floor")
    floor = f"{ks.floor:g}" if ks.floor is not None else no_floor
    ratio = stored.value(chapter, f"bulk_ratio_ks_{ks.rung}")
    return FarthestRung(rung, f"{ks.distance:g}", floor, ratio.text)


PROVENANCE_KINDS = {
    "paper": "from a paper",
    "seed summary": "from the seed summary of a paper",
    "seed": "from the seed notebook",
    "pennington": "a known law",
    "derived": "derived in this book",
    "this book": "derived in this book",
    "here": "derived in this book",
    "sanity": "sanity checks",
}


def provenance_kind(text: str) -> str:
    """The kind of a claim's provenance, by the first keyword it contains.

    One of: from a paper, from the seed summary of a paper, from the seed notebook, a known law,
    derived in this book, sanity checks, other, or provenance not stated; where two keywords start
    at the same place, the longer decides. "derived in this book from the paper's Theorem 1" is
    *derived*; "seed summary: …" is *from the seed summary of a paper*.
    """
    low = (text or "").lower()
    if not low.strip():
        return "provenance not stated"
    found = [
        (low.find(word), -len(word), kind) for word, kind in PROVENANCE_KINDS.items() if word in low
    ]
    return min(found)[2] if found else "other"


def findings_markdown(stored: StoredChapters) -> str:
    """The Findings page's tables: claims per chapter, the claims that do not hold and those the
    data cannot resolve, then every claim, chapter by chapter, each chapter's table folded.

    Each chapter's table has the columns verdict (✓ ✗ ○), the claim with its criterion, the
    measured value, and the provenance (the paper, the seed notebook, derived in this book, or a
    sanity check, as the chapter states it): four columns, the verdict first, so that a table fits
    the page's column even where claims hold long formulas. A chapter
    whose results file records no claims is named in a warning box; a claim without provenance
    shows *not stated*.
    """
    groups = stored.chapter_claims()
    held, unresolved, total = claims_summary(stored)
    parts = [
        f"**{held} of {total} claims hold** in the {len(groups)} chapters, at each chapter's "
        f"default parameters; {total - held - unresolved} do not hold and {unresolved} cannot be "
        "resolved by the data."
    ]
    kinds: dict[str, int] = {}
    for g in groups:
        for c in g.claims:
            kind = provenance_kind(c.get("provenance", ""))
            kinds[kind] = kinds.get(kind, 0) + 1
    if kinds:
        parts[0] += " By provenance: " + ", ".join(f"{n} {kind}" for kind, n in kinds.items()) + "."
    rows = [
        [
            g.number,
            chapter_link(g.chapter, g.title),
            len(g.claims),
            g.held,
            len(g.claims) - g.held - g.unresolved,
            g.unresolved,
        ]
        for g in groups
    ]
    header = ["ch.", "chapter", "claims", "✓ hold", "✗ do not hold", "○ not resolvable"]
    parts.append(markdown_table(header, rows))
    empty = [g for g in groups if not g.claims]
    if empty:
        names = "\n".join(f"- {g.number}. {chapter_link(g.chapter, g.title)}" for g in empty)
        parts.append(
            f":::{{warning}}\nThese stored chapters record no claims (they have no results file, "
            f"or no claims), so their claims are not listed below:\n\n"
            f"{names}\n:::"
        )
    for title, wanted in (
        ("Claims that do not hold", False),
        ("Claims the data cannot resolve", None),
    ):
        listed = [
            f"- {verdict(wanted)} {g.number}. {chapter_link(g.chapter, g.title)}, "
            f"{emphasized(c.get('claim', ''))}: {c.get('if_fails', '')}"
            for g in groups
            for c in g.claims
            if c.get("holds") is wanted
        ]
        if listed:
            parts.append(f"## {title}\n\n" + "\n".join(listed))
    parts.append("## Every claim")
    if not any(g.claims for g in groups):
        parts.append("*No chapter records claims.*")
    for g in groups:
        if not g.claims:
            continue
        rows = [
            [
                verdict(c.get("holds")),
                f"{c.get('claim', '')}; *criterion*: {c.get('criterion', '')}",
                c.get("measured", ""),
                c.get("provenance") or "*not stated*",
            ]
            for c in g.claims
        ]
        failed = len(g.claims) - g.held - g.unresolved
        counts = f"{len(g.claims)} claims: {g.held} ✓, {failed} ✗, {g.unresolved} ○"
        table = markdown_table(["", "claim and criterion", "measured", "provenance"], rows)
        parts.append(f"### {g.number}. {chapter_link(g.chapter, g.title)}")
        parts.append(f":::{{dropdown}} {counts}\n{table}\n:::")
    return "\n\n".join(parts)


def read_source(name: str) -> nbformat.NotebookNode:
    """The MyST source of page ``name`` as a notebook (jupytext), with stable cell ids."""
    if name not in PAGES:
        raise ValueError(f"unknown page {name!r}; pages: {', '.join(PAGES)}")
    return read_notebook(PAGE_SOURCES / f"{name}.md", name)


def execute(name: str, output: Path | None = None) -> Path:
    """Execute page ``name`` in ``book/``; store it at ``output`` (default ``book/NAME.ipynb``).

    The same executor as the chapters' (:func:`attnspec.publish.execution.execute_notebook`); the
    notebook is written atomically.
    """
    output = Path(output) if output is not None else BOOK / f"{name}.ipynb"
    with cleanup.temporary_folder(output.resolve().parent, f".{name}-") as work:
        nb = execute_notebook(read_source(name), work, BOOK)
        with atomic_path(output) as tmp:
            nbformat.write(nb, tmp)
    return output


def stored_problems(names: tuple[str, ...] = PAGES) -> list[str]:
    """What the stored pages show as missing.

    Every value marked *missing*, and every chapter without claims.
    """
    problems = []
    for name in names:
        path = BOOK / f"{name}.ipynb"
        if not path.is_file():
            problems.append(f"{name}: page not executed")
            continue
        for cell in nbformat.read(path, as_version=4).cells:
            for out in cell.get("outputs", []):
                for text in out.get("data", {}).values():
                    text = "".join(text) if isinstance(text, list) else str(text)
                    for key, chapter in re.findall(r"\[missing: `([^`]+)` of ([\w-]+)\]", text):
                        problems.append(f"{name}: glue key {key} of chapter {chapter} is missing")
                    if "record no claims" in text:
                        problems.append(f"{name}: some stored chapters record no claims")
    return list(dict.fromkeys(problems))
