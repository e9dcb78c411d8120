"""Markdown tables for the chapters: results, parameters, the model ladder, and claims tables.

Every chapter ends with a claims table: claim, measured value, criterion, ✓/✗. A claim that fails
under other parameters shows ✗ and its sentence; nothing raises.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass

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
    provenance: str = ""  # where the claim comes from: "paper §…", "seed notebook", "derived here", "sanity check"


CLAIMS_MARKER = "attnspec-claims"


def _cell(value) -> str:
    r"""A table cell: ``str(value)`` with every ``|`` escaped, so a criterion like ``|z| < 3`` keeps its row.

    Outside math a pipe becomes ``\|``; inside ``$…$`` it becomes ``\vert`` (``\|`` would be ‖ there).
    """
    parts = str(value).split("$")
    return "$".join(p.replace("|", r"\vert ") if i % 2 else p.replace("|", r"\|") for i, p in enumerate(parts))


def markdown_table(header: list[str], rows: list[list]) -> str:
    """A GitHub-flavoured Markdown table; cells are converted with ``str`` and ``|`` is escaped."""
    lines = ["| " + " | ".join(_cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def claims_markdown(claims: list[Claim]) -> str:
    """The claims table, followed by the sentence of every claim that does not hold.

    The claims are also embedded as JSON in an HTML comment (``<!-- attnspec-claims [...] -->``,
    invisible when rendered), so that provenance files and the Findings page read them from the
    executed notebook instead of parsing the table.
    """
    rows = [[c.claim, c.measured, c.criterion, "✓" if c.holds else "✗"] for c in claims]
    text = markdown_table(["claim", "measured", "criterion", ""], rows)
    failed = [f"- ✗ *{c.claim}*: {c.if_fails}" for c in claims if not c.holds]
    held = sum(c.holds for c in claims)
    text += f"\n\n{held} of {len(claims)} claims hold at these parameters."
    if failed:
        text += "\n\n" + "\n".join(failed)
    data = json.dumps([asdict(c) for c in claims], ensure_ascii=False).replace("--", "\\u002d\\u002d")
    return f"{text}\n\n<!-- {CLAIMS_MARKER} {data} -->"


def claims_from_markdown(text: str) -> list[dict]:
    """The claims embedded by :func:`claims_markdown` in ``text`` (an executed cell's Markdown output)."""
    start = text.find(f"<!-- {CLAIMS_MARKER} ")
    if start < 0:
        return []
    body = text[start + len(CLAIMS_MARKER) + 6:]
    return json.loads(body[: body.rindex("-->")])


def ladder_table() -> str:
    """The seven-model ladder, generated from :data:`attnspec.ladder.LADDER`."""
    rows = [[f"M{i}", f"`{m.name}`", f"${m.latex}$", m.role] for i, m in enumerate(LADDER.values())]
    return markdown_table(["#", "name", "definition", "role"], rows)


def parameters_table(names: list[str]) -> str:
    """Meaning, type, default and valid range of the named parameters."""
    rows = [[f"`{n}`", PARAMETERS[n].help, PARAMETERS[n].type_name, f"`{PARAMETERS[n].default}`",
             PARAMETERS[n].range_text] for n in names]
    return markdown_table(["parameter", "meaning", "type", "default", "valid range"], rows)


def fixed(x, digits: int = 4) -> str:
    """``x`` with ``digits`` decimals, no sign on a rounded zero; a dash for None or a non-finite value."""
    if x is None or not math.isfinite(float(x)):
        return "–"
    return f"{round(float(x), digits) + 0.0:.{digits}f}"


def with_interval(value, low, high, digits: int = 4) -> str:
    """``value [low, high]`` with fixed decimals (an estimate and its interval)."""
    return f"{fixed(value, digits)} [{fixed(low, digits)}, {fixed(high, digits)}]"


def per_model(values: dict[str, str], sep: str = " / ") -> str:
    """The values of ``values`` (one formatted string per model, in insertion order) joined by ``sep``."""
    return sep.join(str(v) for v in values.values())
