"""Every stored ✓ or ✗ whose criterion is a fitted exponent names the exponent's interval, and the
interval supports the verdict (the one verdict rule: a verdict only when the interval and the
decision boundary separate). The head-dimension chapter's claims are read like every other's.

A claim counts as an exponent claim when its criterion or measured value says "exponent". Its
intervals are read from the measured value: ``b ± se`` (the interval ``b ± 2 se``),
``b (se < s)`` (``b ± 2 s``) and ``b [low, high]`` (a 95 % interval, taken as it is). Its decision
boundary is read from the criterion: "below B" / "above B" (one B for every interval, or one per
interval, separated by " / "), "nearer to X (a) than to Y b, Z c" (the midpoints between the
candidates' exponents), "within … of B" and "separated from B"."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NUMBER = r"[-−]?\d+(?:\.\d+)?(?:e[-−]?\d+)?"
PLUS_MINUS = re.compile(rf"({NUMBER})\s*(?:±\s*({NUMBER})|\(se < ({NUMBER})\))")
BRACKETS = re.compile(rf"({NUMBER})\s*\[({NUMBER}),\s*({NUMBER})\]")
EXPONENT = re.compile(r"\bexponents?\b", re.IGNORECASE)


def num(text: str) -> float:
    return float(text.replace("−", "-"))


def intervals(measured: str) -> list[tuple[float, float]]:
    """The intervals a measured value names, in order, from its first "exponent" on if it names
    one (what comes before is another quantity)."""
    first = EXPONENT.search(measured)
    measured = measured[first.start() :] if first else measured
    found = []
    for m in PLUS_MINUS.finditer(measured):
        half = 2 * num(m.group(2) or m.group(3))
        found.append((m.start(), (num(m.group(1)) - half, num(m.group(1)) + half)))
    found += [(m.start(), (num(m.group(2)), num(m.group(3)))) for m in BRACKETS.finditer(measured)]
    return [iv for _, iv in sorted(found)]


def supports(criterion: str, spans: list[tuple[float, float]], holds: bool) -> str:
    """Empty when the intervals support the verdict under the criterion, else why not."""
    nearer = re.search(rf"nearer to .*?\(({NUMBER})\) than to (.*?)\(exponents", criterion)
    if nearer:
        mine = num(nearer.group(1))
        others = [num(x) for x in re.findall(NUMBER, nearer.group(2))]
        lo = max([(mine + o) / 2 for o in others if o < mine], default=-float("inf"))
        hi = min([(mine + o) / 2 for o in others if o > mine], default=float("inf"))
        inside = all(lo < a and b < hi for a, b in spans)
        outside = any(b < lo or a > hi for a, b in spans)
        return "" if (inside if holds else outside) else f"interval vs ({lo:.3f}, {hi:.3f})"
    side = re.search(rf"\b(below|above)\s+((?:{NUMBER})(?:\s*/\s*{NUMBER})*)", criterion)
    if side:
        bounds = [num(x) for x in re.findall(NUMBER, side.group(2))]
        if len(bounds) not in (1, len(spans)):
            return f"{len(bounds)} boundaries for {len(spans)} intervals"
        bounds = bounds * len(spans) if len(bounds) == 1 else bounds
        below = side.group(1) == "below"
        ok = [(b < x) if below else (a > x) for (a, b), x in zip(spans, bounds, strict=True)]
        wrong = [(a > x) if below else (b < x) for (a, b), x in zip(spans, bounds, strict=True)]
        return "" if (all(ok) if holds else any(wrong)) else f"intervals {spans} vs {bounds}"
    within = re.search(rf"within .*? of ({NUMBER})", criterion)
    if within and holds:
        x = num(within.group(1))
        return "" if all(a <= x <= b for a, b in spans) else f"{x} outside {spans}"
    apart = re.search(rf"separated from ({NUMBER})", criterion)
    if apart and not holds:
        x = num(apart.group(1))
        return "" if any(b < x or a > x for a, b in spans) else f"{x} inside {spans}"
    return "the criterion names no boundary this test can read"


def exponent_claims() -> list:
    out = []
    for path in sorted((ROOT / "book" / "chapters").glob("*.results.json")):
        for i, c in enumerate(json.loads(path.read_text())["claims"]):
            if c["holds"] is not None and EXPONENT.search(c["criterion"] + " " + c["measured"]):
                out.append(pytest.param(c, id=f"{path.name.split('.')[0]}-{i}"))
    return out


def test_there_are_exponent_claims():
    assert len(exponent_claims()) >= 20


@pytest.mark.parametrize("claim", exponent_claims())
def test_an_exponent_verdict_is_carried_by_its_interval(claim):
    spans = intervals(claim["measured"])
    assert spans, f"names no interval of its exponent: {claim['measured']}"
    why = supports(claim["criterion"], spans, claim["holds"])
    assert not why, f"{claim['claim']}: {why} (criterion: {claim['criterion']})"


def test_the_reader_itself():
    assert intervals("exponent -0.789 ± 0.021; -1.000 (se < 0.0005)") == [
        pytest.approx((-0.831, -0.747)),
        pytest.approx((-1.001, -0.999)),
    ]
    assert intervals("MiniLM -1.78 [-1.82, -1.76]") == [(-1.82, -1.76)]
    crit = "exponent against ℓ below -1.070, midway between k/(ℓf) (-1.139) and k log ℓ/(ℓf) -1.000"
    assert supports(crit, [(-1.4, -1.3)], True) == ""
    assert supports(crit, [(-1.1, -1.0)], True)  # straddles the boundary: no ✓
    assert supports(crit, [(-1.06, -1.0)], False) == ""
    near = (
        "exponent against ℓ nearer to a (0.650) than to b 0.500, c 0.801 (exponents on this grid)"
    )
    assert supports(near, [(0.63, 0.64)], True) == ""
    assert supports(near, [(0.56, 0.59)], True)
    assert supports(near, [(0.52, 0.55)], False) == ""
    assert supports("below 0.1 / 0.2", [(0, 0.05), (0, 0.15)], True) == ""
    assert supports("below 0.1 / 0.2", [(0, 0.05), (0, 0.25)], True)
    assert supports("a constant chosen afterwards", [(0, 1)], True)
