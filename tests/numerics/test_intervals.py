"""One verdict rule: overlapping intervals decide nothing (○); only separated ones give ✓ or ✗.

The rule is :func:`attnspec.numerics.intervals.interval_below`; every stored claim of every chapter
is
checked against what its own sentences say.
"""

import json

import pytest

from attnspec.numerics.intervals import all_hold, interval_below
from attnspec.publish.chapters import toc_chapter_names
from attnspec.publish.paths import EXECUTED

OVERLAP_WORDS = ("overlap", "not separated")


def stored_claims() -> list[tuple[str, dict]]:
    out = []
    for name in toc_chapter_names():
        results = json.loads((EXECUTED / f"{name}.results.json").read_text(encoding="utf-8"))
        out += [(name, claim) for claim in results["claims"]]
    return out


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((0.0, 1.0), (2.0, 3.0), True),
        ((2.0, 3.0), (0.0, 1.0), False),
        ((0.0, 2.0), (1.0, 3.0), None),
        ((1.0, 2.0), (0.0, 3.0), None),  # one inside the other
        ((0.0, 1.0), (1.0, 2.0), None),  # touching is not separated
    ],
)
def test_interval_below_is_decided_only_by_separated_intervals(a, b, expected):
    assert interval_below(a, b) is expected


def test_a_claim_of_parts_fails_on_a_failed_part_and_is_open_on_an_open_one():
    assert all_hold([True, True]) is True
    assert all_hold([True, None]) is None
    assert all_hold([None, False]) is False


def test_no_stored_claim_fails_while_its_reason_says_the_intervals_overlap():
    decided_on_overlap = [
        f"{name}: {c['claim']} (✗: {c['if_fails']})"
        for name, c in stored_claims()
        if c["holds"] is False and any(w in c["if_fails"].lower() for w in OVERLAP_WORDS)
    ]
    assert decided_on_overlap == []
