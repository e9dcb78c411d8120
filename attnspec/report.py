"""Markdown tables for the chapters: results, parameters, the model ladder, and claims tables.

Every chapter ends with a claims table: claim, measured value, criterion, ✓/✗. A claim that fails
under other parameters shows ✗ and its sentence; nothing raises.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass

import numpy as np

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
    rows = [[c.claim, c.measured, c.criterion, "✓" if c.holds else "✗"] for c in claims]
    text = markdown_table(["claim", "measured", "criterion", ""], rows)
    failed = [f"- ✗ *{c.claim}*: {c.if_fails}" for c in claims if not c.holds]
    held = sum(c.holds for c in claims)
    text += f"\n\n{held} of {len(claims)} claims hold at these parameters."
    if failed:
        text += "\n\n" + "\n".join(failed)
    data = json.dumps(
        [asdict(c) | {"holds": bool(c.holds)} for c in claims], ensure_ascii=False
    ).replace("--", "\\u002d\\u002d")
    return f"{text}\n\n<!-- {CLAIMS_MARKER} {data} -->"


def claims_from_markdown(text: str) -> list[dict]:
    """The claims embedded by :func:`claims_markdown` in ``text`` (an executed cell's Markdown output)."""
    start = text.find(f"<!-- {CLAIMS_MARKER} ")
    if start < 0:
        return []
    body = text[start + len(CLAIMS_MARKER) + 6 :]
    return json.loads(body[: body.rindex("-->")])


def ladder_table() -> str:
    """The seven-model ladder, generated from :data:`attnspec.ladder.LADDER`."""
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


# --- number formatting for the chapters (canonical model) ---------------------------------------


def fixed(x, digits: int = 4) -> str:
    """``x`` with ``digits`` decimals, no sign on a rounded zero; a dash for None or a non-finite value."""
    if x is None or not math.isfinite(float(x)):
        return "–"
    return f"{round(float(x), digits) + 0.0:.{digits}f}"


def per_length(values, digits: int = 4) -> str:
    """Values at successive context lengths, ``a / b / c``, with :func:`fixed` decimals."""
    return " / ".join(fixed(v, digits) for v in values)


def round_off_bound(x: float, bound: float = 1e-12) -> str:
    """An error that is round-off in exact arithmetic: ``≤ 1e-12`` when within ``bound``, else its value.

    Printing the bound, not the value, keeps stored outputs independent of the BLAS and CPU.
    """
    return f"≤ {bound:.0e}" if x <= bound else f"{x:.2e}"


def significant_text(x: float, digits: int = 2) -> str:
    """``x`` rounded to ``digits`` significant digits, as ``6.3 × 10⁶`` (plain for 0.01 ≤ \\|x\\| < 10⁴)."""
    if x == 0 or 1e-2 <= abs(x) < 1e4:
        return f"{float(f'{x:.{digits}g}'):g}"
    mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
    return f"{mantissa} × 10" + str(int(exponent)).translate(
        str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
    )


def decimals_for(se: float, significant: int = 2) -> int:
    """Decimals that show ``significant`` significant digits of a standard error ``se`` (at least 0).

    A statistic is printed with the digits its uncertainty supports: as many decimals as its
    standard error shown to ``significant`` digits. A non-finite or zero ``se`` gives 6.
    """
    if not math.isfinite(se) or se <= 0:
        return 6
    return max(0, significant - 1 - math.floor(math.log10(se)))


def format_uncertain(value: float, se: float, significant: int = 2) -> str:
    """``'value ± se'`` with the decimals :func:`decimals_for` supports, e.g. ``'0.0470 ± 0.0004'``."""
    n = decimals_for(se, significant)
    return f"{value:.{n}f} ± {se:.{n}f}" if math.isfinite(se) and se > 0 else f"{value:.{n}f}"


def significant(value: float, digits: int = 2) -> float:
    """``value`` rounded to ``digits`` significant digits, as a Python float (for glue)."""
    return float(f"{float(value):.{int(digits)}g}")


def format_value(x: float, digits: int = 4) -> str:
    """``x`` with fixed ``digits`` decimals, or "n/a" if it is not finite."""
    return f"{x:.{digits}f}" if x is not None and np.isfinite(x) else "n/a"


def supported_decimals(se: float, fallback: int = 2) -> int:
    r"""Decimals that a standard error supports: its first significant digit (two if that digit is 1).

    ``fallback`` when ``se`` is not finite or not positive.
    """
    if se is None or not np.isfinite(se) or se <= 0:
        return fallback
    exponent = math.floor(math.log10(se))
    leading = int(se / 10.0**exponent)
    return max(0, -exponent + (1 if leading == 1 else 0))


def format_with_se(x: float, se: float, fallback: int = 2) -> str:
    """``x ± se`` with the decimals the standard error supports; just ``x`` when se is not finite."""
    if x is None or not np.isfinite(x):
        return "n/a"
    digits = supported_decimals(se, fallback)
    return (
        f"{x:.{digits}f} ± {se:.{digits}f}"
        if se is not None and np.isfinite(se)
        else f"{x:.{digits}f}"
    )


def format_power_of_ten(x: float, digits: int = 1) -> str:
    """``x`` as a mantissa times a power of ten with a Unicode superscript, e.g. ``3.8 × 10⁵``; ∞ if infinite."""
    if not np.isfinite(x):
        return "∞" if x > 0 else "n/a"
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    superscript = str(int(exponent)).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{mantissa} × 10{superscript}"


def with_interval(value, low, high, digits: int = 4) -> str:
    """``value [low, high]`` with fixed decimals (an estimate and its interval)."""
    return f"{fixed(value, digits)} [{fixed(low, digits)}, {fixed(high, digits)}]"


def per_model(values: dict[str, str], sep: str = " / ") -> str:
    """The values of ``values`` (one formatted string per model, in insertion order) joined by ``sep``."""
    return sep.join(str(v) for v in values.values())
