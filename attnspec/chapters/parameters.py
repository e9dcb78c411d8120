"""A chapter's parameters (:class:`ChapterParameters`), read from its notebook's parameters cell.

The cell is the one declaration: a line ``name: type = default  # help`` per parameter, in the
chapter's order. A name's kind (:data:`attnspec.core.kinds.PARAMETERS`) gives its valid range and
must have the cell's type; the rules between parameters are those of
:data:`attnspec.core.config.RULES` and the chapter's own
(``RULES`` of ``attnspec/chapters/<name>/rules.py``, when the chapter has rules of its own).

The cell is read from the MyST text of the notebooks in ``attnspec/_book`` (copies in an installed
package) with the standard library only, as papermill's ``PythonTranslator.inspect`` reads it (a
test checks that the two agree): importing papermill takes seconds, and listing the chapters or
refusing a bad parameter before a kernel starts must be fast and must not import NumPy.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..core.config import RULES, Rule, check_memory, check_rules
from ..core.errors import InvalidInput
from ..core.kinds import PARAMETERS
from ..core.parameter import Parameter

#: The chapters' MyST sources (the folder :data:`attnspec.publish.paths.SOURCES` names).
SOURCES = Path(__file__).resolve().parents[1] / "_book" / "notebooks"
#: The code cell tagged ``parameters`` in a MyST notebook: its source.
_PARAMETERS_CELL = re.compile(
    r"^```\{code-cell\}[^\n]*\n:tags: \[[^\]]*\bparameters\b[^\]]*\]\n(.*?)^```", re.M | re.S
)


@dataclass(frozen=True)
class ChapterParameters:
    """The parameters of chapter ``chapter``, in the order of its ``parameters`` cell, and the
    rules between them that are the chapter's own (the rules of
    :data:`attnspec.core.config.RULES` hold too).

    Iterating gives each :class:`~attnspec.core.parameter.Parameter` (name, type, the chapter's
    default and help, valid range).
    """

    chapter: str
    parameters: tuple[Parameter, ...]
    rules: tuple[Rule, ...] = ()

    def __iter__(self) -> Iterator[Parameter]:
        return iter(self.parameters)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.parameters]

    @property
    def defaults(self) -> dict[str, Any]:
        """Every parameter at its default, in the declared order (lists copied)."""
        return {p.name: list(p.default) if p.kind is list else p.default for p in self}

    def __getitem__(self, name: str) -> Parameter:
        for p in self.parameters:
            if p.name == name:
                return p
        raise InvalidInput(
            f"chapter {self.chapter!r} has no parameter {name!r}; its parameters: "
            f"{', '.join(self.names)}"
        )

    def range_text(self, name: str) -> str:
        """The valid range of ``name`` in this chapter, in words: the ``bound`` of a rule of the
        chapter's that narrows it, else the parameter's own range, with the lower end of an int
        raised to the smallest value the chapter accepts at the defaults of the parameters it
        does not have (``d >= 4`` where ``remove_top_k``, not the chapter's, is 3)."""
        for rule in self.rules:
            if rule.bound and rule.culprit == name:
                return rule.bound
        p = self[name]
        low = self._lowest_int(p)
        if low == p.low:
            return p.range_text
        return p.range_text.replace(f">= {p.low}", f">= {low}", 1)

    #: how far above an int's own lower end :meth:`range_text` looks for the accepted one
    _LOOK_ABOVE = 64

    def _lowest_int(self, p: Parameter) -> float | None:
        """The smallest int from ``p.low`` up that the rules involving parameters this chapter
        does not have accept (their defaults fixed); ``p.low`` for anything else."""
        if p.kind is not int or p.low is None or p.low_open:
            return p.low
        fixed = tuple(
            rule
            for rule in RULES + self.rules
            if p.name in rule.given and any(n not in self.names for n in rule.given)
        )
        for value in range(int(p.low), int(p.low) + self._LOOK_ABOVE):
            try:
                check_rules({p.name: value}, fixed)
            except InvalidInput:
                continue
            return value
        return p.low

    def validate(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The full parameter set: the defaults updated by ``values``, checked.

        Each value is checked against its range, then every rule that applies (those of
        :data:`~attnspec.core.config.RULES` and the chapter's own, including rules against a
        parameter the chapter does not have, at its shared default), then the memory a trial at
        ``d`` needs.

        Raises
        ------
        InvalidInput
            in one line, naming the parameter, its value and the valid range (or the unknown name
            and the chapter's parameters).
        """
        for name in values:
            self[name]
        out = {name: self[name].check(value) for name, value in (self.defaults | values).items()}
        check_rules(out, RULES + self.rules, absent="is not a parameter of this chapter")
        if "d" in out:
            check_memory(out["d"])
        return out

    def read(self, namespace: Mapping[str, Any]) -> dict[str, Any]:
        """The value of every declared parameter in ``namespace`` (a notebook's ``globals()``)."""
        missing = [name for name in self.names if name not in namespace]
        if missing:
            raise NameError(
                f"the notebook of chapter {self.chapter!r} does not define its parameter "
                f"{missing[0]!r} (its parameters cell must declare {', '.join(self.names)})"
            )
        return {name: namespace[name] for name in self.names}


def read_cell(chapter: str, source: str) -> ChapterParameters:
    """The parameters declared by ``source``, the ``parameters`` cell of ``chapter``: one line
    ``name: type = default  # help`` each (blank lines skipped), checked against the name's kind.

    Raises
    ------
    ValueError
        naming the chapter and the line that is not such a declaration, or whose type or default
        does not fit the kind.
    """
    declared = []
    for line in filter(str.strip, source.splitlines()):
        try:
            (node,) = ast.parse(line).body
            kind = PARAMETERS[node.target.id]
            help_text = line[node.end_col_offset :].strip()
            if ast.unparse(node.annotation) != kind.type_name or not help_text.startswith("#"):
                raise ValueError
            default = kind.check(ast.literal_eval(node.value))
        except (SyntaxError, ValueError, AttributeError, KeyError, InvalidInput):
            raise ValueError(
                f"chapter {chapter!r}: {line!r} in its parameters cell must read "
                "`name: type = default  # help`, with a name of attnspec.core.kinds.PARAMETERS, "
                "its type and a default in its range"
            ) from None
        declared.append(replace(kind, default=default, help=help_text.lstrip("# ")))
    return ChapterParameters(chapter, tuple(declared), chapter_rules(chapter))


def chapter_rules(chapter: str) -> tuple[Rule, ...]:
    """The chapter's own rules: ``RULES`` of its folder's ``rules`` module, or none."""
    folder = chapter.replace("-", "_")
    if not (Path(__file__).parent / folder / "rules.py").exists():
        return ()
    return importlib.import_module(f"{__package__}.{folder}.rules").RULES


@functools.cache
def declared(chapter: str) -> ChapterParameters:
    """The parameters of ``chapter``, read from the ``parameters`` cell of its notebook."""
    path = SOURCES / f"{chapter}.md"
    if not path.is_file():
        raise InvalidInput(
            f"the book's chapter sources are missing: {path} not found "
            "(reinstall attnspec from a checkout with `pip install .`)"
        )
    found = _PARAMETERS_CELL.search(path.read_text())
    if found is None:
        raise ValueError(f"the notebook of chapter {chapter!r} has no cell tagged 'parameters'")
    return read_cell(chapter, found.group(1))
