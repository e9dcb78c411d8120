"""Markdown tables for the chapters: results, parameters, the model ladder, and claims tables.

Every chapter ends with a claims table: claim, measured value, criterion, verdict. The verdicts are
three (:data:`VERDICTS`): ✓ holds, ✗ does not hold, ○ not resolvable (the data cannot decide it, or
its criterion is a convention). A claim that fails under other parameters shows ✗ and its sentence;
nothing raises.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict

from ..core.claims import Claim, verdict
from ..core.config import PARAMETERS
from ..core.typography import format_power_of_ten
from ..models.ladder import LADDER

CLAIMS_MARKER = "attnspec-claims"


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
    rows = [[c.claim, c.measured, c.criterion, verdict(c.holds)] for c in claims]
    text = markdown_table(["claim", "measured", "criterion", ""], rows)
    held = sum(c.holds is not None and bool(c.holds) for c in claims)
    open_ = sum(c.holds is None for c in claims)
    text += f"\n\n{held} of {len(claims)} claims hold at these parameters"
    text += f"; {open_} cannot be resolved by the data." if open_ else "."
    notes = [f"- {verdict(c.holds)} *{c.claim}*: {c.if_fails}" for c in claims if not c.holds]
    if notes:
        text += "\n\n" + "\n".join(notes)
    holds = [None if c.holds is None else bool(c.holds) for c in claims]
    data = json.dumps(
        [asdict(c) | {"holds": h} for c, h in zip(claims, holds, strict=True)], ensure_ascii=False
    ).replace("--", "\\u002d\\u002d")
    return f"{text}\n\n<!-- {CLAIMS_MARKER} {data} -->"


def claims_from_markdown(text: str) -> list[dict]:
    """The claims embedded by :func:`claims_markdown` in ``text`` (an executed cell's Markdown
    output)."""
    start = text.find(f"<!-- {CLAIMS_MARKER} ")
    if start < 0:
        return []
    body = text[start + len(CLAIMS_MARKER) + 6 :]
    return json.loads(body[: body.rindex("-->")])


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


# --- number formatting for the chapters ---------------------------------------------------------

#: Missing-value marks: :func:`fixed` prints a dash, :func:`format_uncertain` "n/a".
DASH = "–"


def _finite(x) -> bool:
    return x is not None and math.isfinite(float(x))


def fixed(x, digits: int = 4, *, missing: str = DASH) -> str:
    """``x`` with ``digits`` decimals; ``missing`` for None or a non-finite value.

    Rule: round to ``digits`` decimals, and print a value that rounds to zero without a sign
    (``0.0000``, never ``-0.0000``).
    """
    if not _finite(x):
        return missing
    return f"{round(float(x), digits) + 0.0:.{digits}f}"


def per_length(values, digits: int = 4) -> str:
    """Values at successive context lengths, ``a / b / c``, with :func:`fixed` decimals."""
    return " / ".join(fixed(v, digits) for v in values)


def round_off_bound(x: float, bound: float = 1e-12) -> str:
    """An error that is round-off in exact arithmetic: ``≤ 1e-12`` when within ``bound``, else its
    value.

    Printing the bound, not the value, keeps stored outputs independent of the BLAS and CPU.
    """
    return f"≤ {bound:.0e}" if x <= bound else f"{x:.2e}"


def significant(value: float, digits: int = 2) -> float:
    """``value`` rounded to ``digits`` significant digits, as a Python float (for glue)."""
    return float(f"{float(value):.{int(digits)}g}")


def significant_text(x: float, digits: int = 2) -> str:
    """``x`` rounded to ``digits`` significant digits, as text.

    Rule: plain (:func:`significant`, shortest form) for :math:`0.01 \\le |x| < 10^4` and for 0;
    otherwise a mantissa times a power of ten (:func:`format_power_of_ten`), e.g. ``6.3 × 10⁶``.
    """
    if x == 0 or 1e-2 <= abs(x) < 1e4:
        return f"{significant(x, digits):g}"
    return format_power_of_ten(x, digits - 1)


#: ``significant`` value of :func:`decimals_for` for the one-or-two-digit rule.
ONE_OR_TWO = "1-2"


def decimals_for(se: float, significant: int | str = 2, *, fallback: int = 6) -> int:
    """Decimals that a standard error ``se`` supports (at least 0).

    A statistic is printed with the digits its uncertainty supports: as many decimals as show
    ``significant`` significant digits of ``se``. With ``significant=ONE_OR_TWO`` (``"1-2"``):
    one significant digit, two when the first is 1 (0.023 gives 2 decimals, 0.013 gives 3).
    ``fallback`` when ``se`` is None, not finite or not positive.
    """
    if not _finite(se) or se <= 0:
        return fallback
    exponent = math.floor(math.log10(se))
    if significant == ONE_OR_TWO:
        significant = 2 if int(se / 10.0**exponent) == 1 else 1
    return max(0, int(significant) - 1 - exponent)


def format_uncertain(
    value: float,
    se: float,
    significant: int | str = 2,
    *,
    fallback: int = 6,
    missing: str = "n/a",
) -> str:
    """``'value ± se'`` with the decimals :func:`decimals_for` supports.

    E.g. ``'0.04703 ± 0.00041'`` (two significant digits of se), ``'0.0470 ± 0.0004'`` with
    ``significant=1``, ``'1.012 ± 0.013'`` with ``significant=ONE_OR_TWO``.

    Just ``value`` (with ``fallback`` decimals) when ``se`` is None, not finite or not positive;
    ``missing`` when ``value`` is None or not finite.
    """
    if not _finite(value):
        return missing
    n = decimals_for(se, significant, fallback=fallback)
    return f"{value:.{n}f} ± {se:.{n}f}" if _finite(se) and se > 0 else f"{value:.{n}f}"


def with_interval(value, low, high, digits: int = 4) -> str:
    """``value [low, high]`` with fixed decimals (an estimate and its interval)."""
    return f"{fixed(value, digits)} [{fixed(low, digits)}, {fixed(high, digits)}]"


def per_model(values: dict[str, str], sep: str = " / ") -> str:
    """The values of ``values`` (one formatted string per model, in insertion order) joined by
    ``sep``."""
    return sep.join(str(v) for v in values.values())
