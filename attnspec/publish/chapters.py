"""The book's chapters: MyST sources in ``notebooks/``, executed notebooks in ``book/chapters/``.

A chapter is listed only when ``_toc.yml`` lists it (a chapter that is not done is not in the
table of contents). Its short name is its file name; its parameters are read from the cell tagged
``parameters``: one annotated assignment per line with a help comment, e.g.
``d: int = 1000  # matrix size d = ell = d_qk``. Ranges and the rules between parameters come from
:mod:`attnspec.core.config`.

A :class:`Chapter` is read once and passed on: :meth:`Chapter.resolve` checks a set of parameters
before any kernel starts and returns a :class:`ChapterRun`, which :func:`execute` runs (papermill,
:mod:`attnspec.publish.execution`) and stores with its results file
(:mod:`attnspec.publish.provenance`). ``attnspec notebooks`` executes the book's chapters this way.

Listing the chapters (:func:`chapter`, :func:`chapters`) reads the title and the parameters cell
straight from the MyST text, without jupytext or nbformat, so that ``attnspec chapters`` starts
fast. The sources and the table of contents are read from ``attnspec/_book`` (links into the
checkout, copied into the wheel as package data), so ``attnspec chapters`` and ``attnspec run``
also work from an installed package.
"""

from __future__ import annotations

import ast
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import cleanup
from ..core.atomic import new_file_mode, write_json
from ..core.config import PARAMETERS, validate
from ..core.errors import InvalidInput
from ..present.record import read as read_record
from .execution import execute_notebook, read_notebook, record_path
from .paths import SOURCES, TOC

if TYPE_CHECKING:
    import nbformat


@dataclass(frozen=True)
class ChapterParameter:
    """A parameter of a chapter: name, type (as annotated), default and help text."""

    name: str
    type_name: str
    default: Any
    help: str

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "type": self.type_name,
            "default": self.default,
            "help": self.help,
        }

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

    def parameter(self, name: str) -> ChapterParameter:
        for p in self.parameters:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.parameters)
        raise InvalidInput(
            f"chapter {self.name!r} has no parameter {name!r}; its parameters: {known}"
        )

    def parse_parameters(self, pairs: list[tuple[str, str]]) -> dict[str, Any]:
        """Parse and check ``(name, text)`` pairs given on the command line."""
        try:
            return {name: self.parameter(name).parse(text) for name, text in pairs}
        except InvalidInput:
            raise
        except ValueError as exc:
            raise InvalidInput(str(exc)) from None

    @property
    def defaults(self) -> dict[str, Any]:
        """Every parameter at its default, in the order of the parameters cell."""
        return {p.name: p.default for p in self.parameters}

    def resolve(self, overrides: dict[str, Any] | None = None) -> ChapterRun:
        """The full parameter set (defaults, then ``overrides``), checked as the chapter checks it.

        Each value alone and every rule of :data:`attnspec.core.config.RULES` that applies to this
        chapter (e.g. ``remove_top_k < d``, ``hist_min < hist_max``, including rules against another
        parameter's default) is checked here, before a kernel starts; the chapter checks the same
        with :func:`attnspec.core.config.validate`.

        Raises
        ------
        InvalidInput
            naming the chapter, the parameter, its value and the valid range.
        """
        overrides = dict(overrides or {})
        values = self.defaults | overrides
        for name in values:
            self.parameter(name)
        try:
            return ChapterRun(self, overrides, validate(values, chapter=self.name))
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


def parse_parameters_cell(source: str) -> tuple[ChapterParameter, ...]:
    """Read ``name: type = default  # help`` lines; every name must be in PARAMETERS."""
    lines = source.splitlines()
    params = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.AnnAssign) or not isinstance(node.target, ast.Name):
            raise ValueError(
                f"parameters cell: line {node.lineno} is not 'name: type = default  # help'"
            )
        name, type_name = node.target.id, ast.unparse(node.annotation)
        if name not in PARAMETERS or type_name != PARAMETERS[name].type_name:
            raise ValueError(
                f"parameters cell: {name}: {type_name} is not a known parameter and its type"
            )
        line = lines[node.lineno - 1]
        help_text = line.split("#", 1)[1].strip() if "#" in line else PARAMETERS[name].help
        params.append(ChapterParameter(name, type_name, ast.literal_eval(node.value), help_text))
    return tuple(params)


def check_data() -> None:
    """Raise InvalidInput (one line) when the chapter sources or the table of contents are gone."""
    for path in (TOC, SOURCES):
        if not path.exists():
            raise InvalidInput(
                f"the book's chapter sources are missing: {path} not found "
                "(reinstall attnspec from a checkout with `pip install .`)"
            )


#: A MyST code cell: fence, then options (``:key: value`` lines or a ``---`` YAML block) and body.
_CODE_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
_FRONT_MATTER = re.compile(r"\A---\n.*?^---[ \t]*\n", re.M | re.S)


def _cell_options_and_body(body: str) -> tuple[str, str]:
    """Split a code cell's text into its options and its source (as jupytext does for MyST)."""
    lines = body.splitlines()
    if lines and lines[0].strip() == "---":
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
        options, rest = lines[1:end], lines[end + 1 :]
    else:
        n = next((i for i, line in enumerate(lines) if not line.startswith(":")), len(lines))
        options, rest = lines[:n], lines[n:]
    while rest and not rest[0].strip():
        rest = rest[1:]
    while rest and not rest[-1].strip():
        rest = rest[:-1]
    return "\n".join(options), "\n".join(rest)


def read_listing(name: str) -> tuple[str, str]:
    """Title and parameters-cell source of chapter ``name``, read from the MyST text directly.

    The title is the first line of the first Markdown text after the front matter, without its
    leading ``#``; the parameters cell is the code cell whose tags include ``parameters``. The
    results equal those read through jupytext (:func:`read_source`), which the tests check.
    """
    text = (SOURCES / f"{name}.md").read_text()
    text = _FRONT_MATTER.sub("", text, count=1)
    first_code = _CODE_CELL.search(text)
    markdown = text[: first_code.start()] if first_code else text
    title = next((line for line in markdown.splitlines() if line.strip()), "").lstrip("# ")
    for match in _CODE_CELL.finditer(text):
        options, source = _cell_options_and_body(match.group("body"))
        if re.search(r"\btags:\s*\[[^\]]*\bparameters\b", options) or re.search(
            r"^\s*-\s*parameters\s*$", options, re.M
        ):
            return title, source
    raise InvalidInput("no cell tagged 'parameters'")


def chapter(name: str, names: list[str] | None = None) -> Chapter:
    """The chapter with short name ``name`` (as listed by :func:`chapters`).

    ``names`` are the chapters of the table of contents, if the caller has read them already.
    """
    check_data()
    names = toc_chapter_names() if names is None else names
    if name not in names:
        raise InvalidInput(f"unknown chapter {name!r}; chapters: {', '.join(names)}")
    title, source = read_listing(name)
    return Chapter(name, title, parse_parameters_cell(source))


def chapters() -> list[Chapter]:
    """All chapters in table-of-contents order."""
    check_data()
    names = toc_chapter_names()
    return [chapter(name, names) for name in names]


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
        nb = execute_notebook(run.chapter.read_source(), work, parameters=run.overrides)
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
