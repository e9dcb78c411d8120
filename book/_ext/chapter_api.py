"""Sphinx extension: the API page of the chapters documents every module of every chapter folder.

``book/api/chapters.md`` holds the line :data:`MARKER`; when the page is read, it becomes one
``automodule`` per module of each folder of ``attnspec/chapters`` (the folder's own docstring, then
its modules with their members), so that a new chapter's folder needs no edit of the page.
"""

from __future__ import annotations

from pathlib import Path

#: The line of the page that the chapters' modules replace.
MARKER = "<!-- every module of every chapter folder -->"
CHAPTERS = Path(__file__).resolve().parents[2] / "attnspec" / "chapters"


def chapter_modules(chapters: Path = CHAPTERS) -> list[tuple[str, bool]]:
    """Each chapter folder's package, then its modules, in name order: ``(module, members)``."""
    found = []
    for init in sorted(chapters.glob("*/__init__.py")):
        package = f"attnspec.chapters.{init.parent.name}"
        found.append((package, False))
        found += [(f"{package}.{p.stem}", True) for p in sorted(init.parent.glob("[!_]*.py"))]
    return found


def chapter_rst(chapters: Path = CHAPTERS) -> str:
    """The ``eval-rst`` block that documents :func:`chapter_modules`."""
    blocks = [
        f".. automodule:: {name}" + ("\n   :members:" if members else "")
        for name, members in chapter_modules(chapters)
    ]
    return "```{eval-rst}\n" + "\n\n".join(blocks) + "\n```"


def _expand(app, docname: str, source: list[str]) -> None:
    if docname == "book/api/chapters":
        source[0] = source[0].replace(MARKER, chapter_rst())


def setup(app):
    app.connect("source-read", _expand)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
