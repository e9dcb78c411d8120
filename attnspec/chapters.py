"""The book's chapters: MyST sources in ``notebooks/``, executed notebooks in ``book/chapters/``.

A chapter is listed only when ``_toc.yml`` lists it (a chapter that is not done is not in the
table of contents). Its short name is its file name; its parameters are read from the cell tagged
``parameters``: one annotated assignment per line with a help comment, e.g.
``d: int = 1000  # matrix size d = ell = d_qk``. Ranges come from :data:`attnspec.config.PARAMETERS`.

``python -m attnspec.chapters execute [NAME ...]`` executes chapters at their defaults and stores
them without timing metadata, so re-execution leaves no diff.
"""

from __future__ import annotations

import ast
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jupytext
import nbformat
import yaml

from .atomic import atomic_path
from .config import PARAMETERS

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "notebooks"
EXECUTED = ROOT / "book" / "chapters"
TOC = ROOT / "_toc.yml"


@dataclass(frozen=True)
class ChapterParameter:
    """A parameter of a chapter: name, type (as annotated), default and help text."""

    name: str
    type_name: str
    default: Any
    help: str

    def as_dict(self) -> dict:
        return {"name": self.name, "type": self.type_name, "default": self.default, "help": self.help}

    def parse(self, text: str) -> Any:
        """Parse a command-line value and check it against the parameter's range."""
        return PARAMETERS[self.name].parse(text)


@dataclass(frozen=True)
class Chapter:
    """One chapter: short name, title, source, executed notebook and parameters."""

    name: str
    title: str
    parameters: tuple[ChapterParameter, ...]

    @property
    def source(self) -> Path:
        return SOURCES / f"{self.name}.md"

    @property
    def executed(self) -> Path:
        return EXECUTED / f"{self.name}.ipynb"

    def parameter(self, name: str) -> ChapterParameter:
        for p in self.parameters:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.parameters)
        raise ValueError(f"chapter {self.name!r} has no parameter {name!r}; its parameters: {known}")

    def parse_parameters(self, pairs: list[tuple[str, str]]) -> dict[str, Any]:
        """Parse and check ``(name, text)`` pairs given on the command line."""
        return {name: self.parameter(name).parse(text) for name, text in pairs}


def toc_chapter_names() -> list[str]:
    """Short names of the chapters listed in ``_toc.yml``, in order."""
    names = []

    def walk(node):
        if isinstance(node, dict):
            entry = node.get("file", "")
            if entry.startswith("book/chapters/"):
                names.append(Path(entry).name)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(yaml.safe_load(TOC.read_text()))
    return names


def read_source(name: str) -> nbformat.NotebookNode:
    """The MyST source of chapter ``name`` as a notebook (jupytext), with stable cell ids."""
    nb = jupytext.read(SOURCES / f"{name}.md")
    for i, cell in enumerate(nb.cells):
        cell.id = f"{name}-{i}"
    return nb


def parameters_cell(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    for cell in nb.cells:
        if "parameters" in cell.metadata.get("tags", []):
            return cell
    raise ValueError("no cell tagged 'parameters'")


def parse_parameters_cell(source: str) -> tuple[ChapterParameter, ...]:
    """Read ``name: type = default  # help`` lines; every name must be in PARAMETERS."""
    lines = source.splitlines()
    params = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.AnnAssign) or not isinstance(node.target, ast.Name):
            raise ValueError(f"parameters cell: line {node.lineno} is not 'name: type = default  # help'")
        name, type_name = node.target.id, ast.unparse(node.annotation)
        if name not in PARAMETERS or type_name != PARAMETERS[name].type_name:
            raise ValueError(f"parameters cell: {name}: {type_name} is not a known parameter and its type")
        line = lines[node.lineno - 1]
        help_text = line.split("#", 1)[1].strip() if "#" in line else PARAMETERS[name].help
        params.append(ChapterParameter(name, type_name, ast.literal_eval(node.value), help_text))
    return tuple(params)


def chapter(name: str) -> Chapter:
    """The chapter with short name ``name`` (as listed by :func:`chapters`)."""
    names = toc_chapter_names()
    if name not in names:
        raise ValueError(f"unknown chapter {name!r}; chapters: {', '.join(names)}")
    nb = read_source(name)
    title = next(c.source for c in nb.cells if c.cell_type == "markdown").splitlines()[0].lstrip("# ")
    return Chapter(name, title, parse_parameters_cell(parameters_cell(nb).source))


def chapters() -> list[Chapter]:
    """All chapters in table-of-contents order."""
    return [chapter(name) for name in toc_chapter_names()]


def strip_volatile_metadata(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Remove timing and papermill metadata so that re-execution leaves no diff."""
    nb.metadata.pop("papermill", None)
    for cell in nb.cells:
        cell.metadata.pop("papermill", None)
        cell.metadata.pop("execution", None)
    return nb


def execute(name: str, parameters: dict[str, Any] | None, output: Path) -> Path:
    """Execute chapter ``name`` with papermill and write it to ``output``, atomically.

    The notebook runs in ``book/chapters`` (so the cache and relative paths are the book's); a
    failed or interrupted run leaves nothing at ``output``.
    """
    import papermill

    nb = read_source(name)
    fd, tmp_in = tempfile.mkstemp(suffix=".ipynb")
    os.close(fd)
    try:
        nbformat.write(nb, tmp_in)
        with atomic_path(output) as tmp_out:
            papermill.execute_notebook(tmp_in, tmp_out, parameters=parameters or {}, cwd=str(EXECUTED),
                                       progress_bar=False, kernel_name="python3", log_output=False)
            nbformat.write(strip_volatile_metadata(nbformat.read(tmp_out, as_version=4)), tmp_out)
    finally:
        Path(tmp_in).unlink(missing_ok=True)
    return output


def main(argv: list[str]) -> int:
    if not argv or argv[0] != "execute":
        print("usage: python -m attnspec.chapters execute [NAME ...]", file=sys.stderr)
        return 2
    for name in argv[1:] or toc_chapter_names():
        print(f"executing {name}", flush=True)
        execute(name, None, EXECUTED / f"{name}.ipynb")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
