"""The difference between two results files of one chapter (``attnspec diff``): every glued value
printed in both runs with its relative change, and every claim whose verdict changed."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..core.errors import InvalidInput
from ..present.claims import verdict
from .provenance import printable, short_text


@dataclass(frozen=True)
class ValueChange:
    """One glued value in both runs: printed forms and the relative change (None if not numeric)."""

    key: str
    a: str | None
    b: str | None
    rel_change: float | None

    @property
    def changed(self) -> bool:
        return self.a != self.b


@dataclass(frozen=True)
class ClaimChange:
    """A claim whose verdict differs: its text and its verdict in each run (✓ ✗ ○, or – when that
    run does not have the claim)."""

    claim: str
    a: str
    b: str


@dataclass(frozen=True)
class Diff:
    """Every glued value of two runs of one chapter, and the claims whose verdict changed."""

    chapter: str
    values: tuple[ValueChange, ...]
    claims: tuple[ClaimChange, ...]
    claims_compared: bool = True  # False when one side recorded no claims at all

    @property
    def changed(self) -> tuple[ValueChange, ...]:
        return tuple(v for v in self.values if v.changed)

    def as_dict(self) -> dict[str, Any]:
        return {
            "chapter": self.chapter,
            "values": [
                {"key": v.key, "a": v.a, "b": v.b, "rel_change": v.rel_change} for v in self.values
            ],
            "claims": [{"claim": c.claim, "a": c.a, "b": c.b} for c in self.claims],
        }


def _rel_change(a: dict | None, b: dict | None) -> float | None:
    r"""Relative change :math:`(a - b)/|b| = a/|b| - \operatorname{sign} b` of two numeric glued
    values.

    None if either is not a number, if ``b`` is 0, or if the change is beyond the floats.
    """
    if not a or not b or a.get("kind") != "number" or b.get("kind") != "number":
        return None
    x, y = float(a["value"]), float(b["value"])
    if x == y:
        return 0.0
    if y == 0:
        return None
    rel = x / abs(y) - math.copysign(1.0, y)  # (x - y)/|y| without overflow in x - y
    return rel if math.isfinite(rel) else None


def _by_identity(claims: list[dict]) -> dict[tuple[str, int], dict]:
    """Claims keyed by their text and, for a text that repeats, its occurrence (0, 1, …)."""
    seen: dict[str, int] = {}
    keyed = {}
    for c in claims:
        n = seen[c["claim"]] = seen.get(c["claim"], -1) + 1
        keyed[(c["claim"], n)] = c
    return keyed


def diff(a: dict[str, Any], b: dict[str, Any]) -> Diff:
    """Compare results ``a`` (e.g. a re-run) with ``b`` (e.g. the published chapter), by value.

    Figures are left out (their printed form is a size, not a value). Claims are paired by their
    text (:func:`_by_identity`), so a claim missing on one side is reported as that claim.

    Raises
    ------
    InvalidInput
        if ``a`` and ``b`` are results of different chapters.
    """
    if a["chapter"] != b["chapter"]:
        raise InvalidInput(
            f"cannot compare different chapters: {a['chapter']!r} and {b['chapter']!r}"
        )
    va = {v["key"]: v for v in a["values"] if v.get("kind") != "figure"}
    vb = {v["key"]: v for v in b["values"] if v.get("kind") != "figure"}
    keys = list(vb) + [k for k in va if k not in vb]
    values = tuple(
        ValueChange(
            k,
            va[k]["text"] if k in va else None,
            vb[k]["text"] if k in vb else None,
            _rel_change(va.get(k), vb.get(k)),
        )
        for k in keys
    )
    changes = []
    ca, cb = a["claims"], b["claims"]
    if bool(ca) != bool(cb):
        return Diff(a["chapter"], values, (), claims_compared=False)
    ka, kb = _by_identity(ca), _by_identity(cb)
    for key in list(kb) + [k for k in ka if k not in kb]:
        x, y = ka.get(key), kb.get(key)
        hx, hy = (verdict(x["holds"]) if x else "–"), (verdict(y["holds"]) if y else "–")
        if hx != hy:
            changes.append(ClaimChange(key[0], hx, hy))
    return Diff(a["chapter"], values, tuple(changes))


def format_rel(rel: float | None) -> str:
    """A relative change as a signed percentage (``–`` when not numeric)."""
    return "–" if rel is None else f"{100 * rel:+.3g} %"


def changed_rows(result: Diff) -> list[list[str]]:
    """Rows ``key, published (b), re-run (a), relative change`` of the values that changed."""
    return [
        [printable(v.key), short_text(v.b), short_text(v.a), format_rel(v.rel_change)]
        for v in result.changed
    ]


def format_text(result: Diff, a_name: str = "re-run", b_name: str = "published") -> str:
    """The diff as a plain-text table, unchanged values summarized in one line."""
    rows = [["key", b_name, a_name, "rel. change"]] + changed_rows(result)
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [
        f"chapter {result.chapter}: {len(result.changed)} of {len(result.values)} "
        "glued values changed"
    ]
    if result.changed:
        lines += [
            "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
        ]
        lines.insert(2, "  ".join("-" * w for w in widths))
    unchanged = len(result.values) - len(result.changed)
    lines.append(f"{unchanged} values unchanged")
    if not result.claims_compared:
        lines.append(f"claims not compared: only one of {a_name} and {b_name} recorded its claims")
    elif result.claims:
        lines.append(f"{len(result.claims)} claims changed verdict ({b_name} -> {a_name}):")
        lines += [f"  {c.b} -> {c.a}  {short_text(c.claim, 100)}" for c in result.claims]
    else:
        lines.append("no claim changed verdict")
    return "\n".join(lines)
