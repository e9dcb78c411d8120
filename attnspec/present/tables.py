"""Markdown tables for the chapters: results, parameters, the model ladder, and claims tables.

Every chapter ends with a claims table: claim, measured value, criterion, verdict. The verdicts are
three (:data:`VERDICTS`): ✓ holds, ✗ does not hold, ○ not resolvable (the data cannot decide it, or
its criterion is a convention). A claim that fails under other parameters shows ✗ and its sentence;
nothing raises.
"""

from __future__ import annotations

import re

from ..core.kinds import PARAMETERS
from ..models.ladder import LADDER
from .claims import Claim, counts_sentence, verdict


def _cell(value) -> str:
    r"""A table cell: ``str(value)`` with every ``|`` escaped, so a criterion like ``|z| < 3`` keeps
    its row.

    Outside math a pipe becomes ``\|``; inside ``$…$`` it becomes ``\vert`` (``\|`` would be ‖
    there).
    """
    parts = str(value).split("$")
    return "$".join(
        p.replace("|", r"\vert ") if i % 2 else p.replace("|", r"\|") for i, p in enumerate(parts)
    )


#: what Markdown emphasis leaves as it is: ``$…$`` math, roles ``{name}`…``` and code ``…``
_VERBATIM = re.compile(r"(\$[^$]*\$|\{[\w:-]+\}`[^`]*`|`[^`]*`)")


def emphasized(text: str) -> str:
    r"""``text`` in Markdown emphasis, ``*text*``, with every ``*`` and ``_`` of its prose escaped
    (``α*`` becomes ``α\*``), so that none of them ends the emphasis early; math, roles and code
    are left as they are."""
    parts = _VERBATIM.split(str(text))
    prose = (p if i % 2 else re.sub(r"([*_])", r"\\\1", p) for i, p in enumerate(parts))
    return f"*{''.join(prose)}*"


def markdown_table(header: list[str], rows: list[list]) -> str:
    """A GitHub-flavoured Markdown table; cells are converted with ``str`` and ``|`` is escaped."""
    lines = ["| " + " | ".join(_cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def claims_markdown(claims: list[Claim]) -> str:
    """The claims table, followed by the sentence of every claim that does not hold."""
    rows = [[c.claim, c.measured, c.criterion, verdict(c.holds)] for c in claims]
    text = markdown_table(["claim", "measured", "criterion", "verdict"], rows)
    held = sum(c.holds is not None and bool(c.holds) for c in claims)
    open_ = sum(c.holds is None for c in claims)
    text += f"\n\n{counts_sentence(held, open_, len(claims), ' at these parameters')}."
    notes = [
        f"- {verdict(c.holds)} {emphasized(c.claim)}: {c.if_fails}" for c in claims if not c.holds
    ]
    if notes:
        text += "\n\n" + "\n".join(notes)
    return text


def ladder_table() -> str:
    """The seven-model ladder, generated from :data:`attnspec.models.ladder.LADDER`."""
    rows = [[f"M{i}", f"`{m.name}`", f"${m.latex}$", m.role] for i, m in enumerate(LADDER.values())]
    return markdown_table(["#", "name", "definition", "role"], rows)


def parameters_table(names: list[str]) -> str:
    """Meaning, type, default and valid range of the named parameters."""
    rows = [
        [
            f"`{n}`",
            PARAMETERS[n].help,
            PARAMETERS[n].type_name,
            f"`{PARAMETERS[n].default}`",
            PARAMETERS[n].range_text,
        ]
        for n in names
    ]
    return markdown_table(["parameter", "meaning", "type", "default", "valid range"], rows)
