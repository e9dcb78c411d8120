"""The book's chapters: MyST sources in ``notebooks/``, executed notebooks in ``book/chapters/``.

A chapter is listed only when ``_toc.yml`` lists it (a chapter that is not done is not in the
table of contents). Its short name is its file name; its title is read from its source; its
parameters are declared by its notebook's ``parameters`` cell (names, types, defaults, help), with
ranges and rules from the kinds and the chapter's rules
(:func:`attnspec.chapters.parameters.declared`).

A :class:`Chapter` is read once and passed on: :meth:`Chapter.resolve` checks a set of parameters
before any kernel starts and returns a :class:`ChapterRun`, which :func:`execute` runs (papermill,
:mod:`attnspec.publish.execution`) and stores with its results file
(:mod:`attnspec.publish.provenance`). ``attnspec notebooks`` executes the book's chapters this way.

Listing the chapters (:func:`chapter`, :func:`chapters`) reads the title straight from the MyST
text, without jupytext or nbformat, and the parameters cell without NumPy, so that
``attnspec chapters`` starts fast. The sources and the table of contents are read from
``attnspec/_book`` (links into the checkout, copied into the wheel as package data), so
``attnspec chapters`` and ``attnspec run`` also work from an installed package.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..chapters.parameters import ChapterParameters, declared
from ..core import cleanup
from ..core.atomic import new_file_mode, write_json
from ..core.errors import InvalidInput
from ..present.record import read as read_record
from .execution import execute_notebook, read_notebook, record_path
from .paths import SOURCES, TOC

if TYPE_CHECKING:
    import nbformat


@dataclass(frozen=True)
class Chapter:
    """One chapter: short name, title and parameters (its notebook's ``parameters`` cell)."""

    name: str
    title: str
    parameters: ChapterParameters

    @property
    def source(self) -> Path:
        return SOURCES / f"{self.name}.md"

    def parse_parameters(self, pairs: list[tuple[str, str]]) -> dict[str, Any]:
        """``(name, text)`` pairs given on the command line, each in its parameter's type; their
        ranges and rules are checked once, by :meth:`resolve`."""
        return {name: self.parameters[name].read(text) for name, text in pairs}

    @property
    def defaults(self) -> dict[str, Any]:
        """Every parameter at its default, in the order of the declaration."""
        return self.parameters.defaults

    def resolve(self, overrides: dict[str, Any] | None = None) -> ChapterRun:
        """The full parameter set (defaults, then ``overrides``), checked as the chapter checks it.

        Each value alone and every rule that applies to this chapter (e.g. ``remove_top_k < d``,
        ``hist_min < hist_max``, including rules against another parameter's default) is checked
        here, once, before a kernel starts, by the one validation the chapter's study checks its
        parameters with in the kernel
        (:meth:`~attnspec.chapters.parameters.ChapterParameters.validate`).

        Raises
        ------
        InvalidInput
            naming the chapter, the parameter, its value and the valid range.
        """
        overrides = dict(overrides or {})
        for name in overrides:
            self.parameters[name]
        try:
            return ChapterRun(self, overrides, self.parameters.validate(overrides))
        except InvalidInput as exc:
            raise InvalidInput(f"{self.name}: {exc}") from None

    def read_source(self) -> nbformat.NotebookNode:
        """The MyST source as a notebook (jupytext), with stable cell ids."""
        return read_notebook(self.source, self.name)


@dataclass(frozen=True)
class ChapterRun:
    """A chapter with checked parameters: the overrides given and the full set they resolve to."""

    chapter: Chapter
    overrides: dict[str, Any]
    values: dict[str, Any]


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

    import yaml

    # the C parser when PyYAML has it (the same result, faster); else the pure-Python safe loader
    walk(yaml.load(TOC.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
    return names


def parameters_cell(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    for cell in nb.cells:
        if "parameters" in cell.metadata.get("tags", []):
            return cell
    raise InvalidInput("no cell tagged 'parameters'")


def check_data() -> None:
    """Raise InvalidInput (one line) when the chapter sources or the table of contents are gone."""
    for path in (TOC, SOURCES):
        if not path.exists():
            raise InvalidInput(
                f"the book's chapter sources are missing: {path} not found "
                "(reinstall attnspec from a checkout with `pip install .`)"
            )


#: A MyST code cell's fence, and the front matter.
_CODE_CELL = re.compile(r"^```\{code-cell\}", re.M)
_FRONT_MATTER = re.compile(r"\A---\n.*?^---[ \t]*\n", re.M | re.S)


def read_title(name: str) -> str:
    """Title of chapter ``name``, read from the MyST text directly: the first line of the first
    Markdown text after the front matter, without its leading ``#`` (as jupytext reads it, which
    the tests check)."""
    text = _FRONT_MATTER.sub("", (SOURCES / f"{name}.md").read_text(), count=1)
    first_code = _CODE_CELL.search(text)
    markdown = text[: first_code.start()] if first_code else text
    return next((line for line in markdown.splitlines() if line.strip()), "").lstrip("# ")


def chapter(name: str, names: list[str] | None = None) -> Chapter:
    """The chapter with short name ``name`` (as listed by :func:`chapters`).

    ``names`` are the chapters of the table of contents, if the caller has read them already.
    """
    check_data()
    names = toc_chapter_names() if names is None else names
    if name not in names:
        raise InvalidInput(f"unknown chapter {name!r}; chapters: {', '.join(names)}")
    return Chapter(name, read_title(name), declared(name))


def chapters() -> list[Chapter]:
    """All chapters in table-of-contents order."""
    check_data()
    names = toc_chapter_names()
    return [chapter(name, names) for name in names]


def _executed(run: ChapterRun, work: Path):
    """The chapter's notebook executed in ``work``; a MemoryError in the kernel is raised here
    (the command's one line and status 71), any other error keeps its traceback (a bug)."""
    from papermill.exceptions import PapermillExecutionError

    try:
        return execute_notebook(run.chapter.read_source(), work, parameters=run.overrides)
    except PapermillExecutionError as exc:
        if exc.ename == "MemoryError":
            raise MemoryError(exc.evalue) from None
        raise


def execute(run: ChapterRun, output: Path) -> Path:
    """Execute a resolved chapter; write the notebook and its results file, atomically, at the end.

    The kernel runs in a private folder of the system's temporary folder
    (:func:`attnspec.publish.execution.execute_notebook`: an empty working folder, no working
    folder on ``sys.path``), registered with :mod:`attnspec.core.cleanup` and removed in any case;
    ``output``'s folder is written only once the kernel has finished: the notebook and
    ``CHAPTER.results.json`` are moved into place whole (:func:`os.replace`) from a hidden folder
    there. A failed or interrupted run leaves nothing partial, neither there nor in the system's
    temporary folder; what killed runs left in either place is removed
    (:func:`attnspec.core.cleanup.remove_stale`). The notebook's metadata ``attnspec`` records the
    parameters and the versions it ran with; the results file holds every glued value and claim,
    typed, as the chapter's study recorded them in the kernel
    (:func:`attnspec.publish.provenance.results`). New files get ``0o666`` minus the umask.
    """
    import nbformat

    from . import provenance

    name = run.chapter.name
    output = Path(output).resolve()
    scratch = Path(tempfile.gettempdir())
    kernel_prefix, final_prefix = f"attnspec-{name}-", f".{name}-"
    cleanup.remove_stale(scratch, kernel_prefix)
    cleanup.remove_stale(output.parent, final_prefix)
    with cleanup.temporary_folder(scratch, kernel_prefix) as work:
        nb = _executed(run, work)
        nb.metadata["attnspec"] = provenance.notebook_metadata(name, run.values)
        record = provenance.results(name, run.values, read_record(record_path(work), name))
        output.parent.mkdir(parents=True, exist_ok=True)
        with cleanup.temporary_folder(output.parent, final_prefix) as final:
            nbformat.write(nb, final / "final.ipynb")
            write_json(final / "final.json", record)
            for path in (final / "final.ipynb", final / "final.json"):
                os.chmod(path, new_file_mode())
            os.replace(final / "final.ipynb", output)
            os.replace(final / "final.json", provenance.results_path(output))
    return output
