"""Markdown tables for the chapters: results, parameters, the model ladder, and claims tables.

Every chapter ends with a claims table: claim, measured value, criterion, ✓/✗. A claim that fails
under other parameters shows ✗ and its sentence; nothing raises.
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import PARAMETERS
from .ladder import LADDER


@dataclass(frozen=True)
class Claim:
    """One checked claim: what is claimed, the measured value (formatted), the criterion, the verdict."""

    claim: str
    measured: str
    criterion: str
    holds: bool
    if_fails: str = ""  # one sentence shown below the table when the claim fails


def markdown_table(header: list[str], rows: list[list]) -> str:
    """A GitHub-flavoured Markdown table; cells are converted with ``str``."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def claims_markdown(claims: list[Claim]) -> str:
    """The claims table, followed by the sentence of every claim that does not hold."""
    rows = [[c.claim, c.measured, c.criterion, "✓" if c.holds else "✗"] for c in claims]
    text = markdown_table(["claim", "measured", "criterion", ""], rows)
    failed = [f"- ✗ *{c.claim}*: {c.if_fails}" for c in claims if not c.holds]
    held = sum(c.holds for c in claims)
    text += f"\n\n{held} of {len(claims)} claims hold at these parameters."
    return text + ("\n\n" + "\n".join(failed) if failed else "")


def ladder_table() -> str:
    """The seven-model ladder, generated from :data:`attnspec.ladder.LADDER`."""
    rows = [[f"M{i}", f"`{m.name}`", f"${m.latex}$", m.role] for i, m in enumerate(LADDER.values())]
    return markdown_table(["#", "name", "definition", "role"], rows)


def parameters_table(names: list[str]) -> str:
    """Meaning, type, default and valid range of the named parameters."""
    rows = [[f"`{n}`", PARAMETERS[n].help, PARAMETERS[n].type_name, f"`{PARAMETERS[n].default}`",
             PARAMETERS[n].range_text] for n in names]
    return markdown_table(["parameter", "meaning", "type", "default", "valid range"], rows)
