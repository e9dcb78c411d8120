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

import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from ..core import cleanup
from ..core.atomic import atomic_path
from ..models.ladder import LADDER
from ..models.notation import SYMBOLS as RUNG_SYMBOLS
from ..present.claims import counts_sentence, verdict
from ..present.tables import emphasized, markdown_table
from .execution import execute_notebook, read_notebook
from .paths import BOOK, PAGE_SOURCES
from .stored import StoredChapters, missing_marker

PAGES = ("intro", "findings", "notation", "reproduce")


def rung_symbol(name: str) -> str:
    """The LaTeX symbol of rung ``name`` (falls back to the rung's definition, then to its name)."""
    if name in RUNG_SYMBOLS:
        return RUNG_SYMBOLS[name]
    if name in LADDER:
        return LADDER[name].latex
    return rf"\mathtt{{{name}}}"


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
