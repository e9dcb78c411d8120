"""Part III knows the spectral-degeneration paper only through seed 004, an AI-written summary: its
prose, claims and glued text say "the seed summary states …", never "the paper states". "The
paper" may appear only inside a quotation of seed 001 or 000 (the Gaussian-equivalence paper and
its notebook), marked by curly quotes in a paragraph that names the seed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
#: "the paper", "the paper's", "the papers", any case.
THE_PAPER = re.compile(r"\bthe\s+papers?\b", re.IGNORECASE)
QUOTED = re.compile(r"“[^”]*”", re.DOTALL)
SEEDS_001_000 = re.compile(r"seed\s+00[01]\b", re.IGNORECASE)


def part_three() -> list[str]:
    """The chapters of Part III, by short name, from the table of contents."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    part = next(p for p in toc["parts"] if p["caption"].startswith("Part III"))
    return [Path(c["file"]).name for c in part["chapters"]]


def offending(text: str) -> list[str]:
    """Each "the paper" in ``text`` outside a quotation of seed 001 or 000, with its context."""
    out = []
    for paragraph in re.split(r"\n\s*\n", text):
        allowed = (
            [m.span() for m in QUOTED.finditer(paragraph)]
            if SEEDS_001_000.search(paragraph)
            else []
        )
        for m in THE_PAPER.finditer(paragraph):
            if not any(a <= m.start() and m.end() <= b for a, b in allowed):
                out.append(paragraph[max(0, m.start() - 60) : m.end() + 60].replace("\n", " "))
    return out


def stored_texts(name: str) -> list[str]:
    """Every claim field and every glued text of a chapter's stored results."""
    results = json.loads((ROOT / "book" / "chapters" / f"{name}.results.json").read_text())
    texts = [str(v) for c in results["claims"] for v in c.values() if isinstance(v, str)]
    texts += [v["value"] for v in results["values"] if isinstance(v.get("value"), str)]
    return texts


def test_part_three_is_found():
    assert part_three()[0] == "canonical-model" and len(part_three()) >= 5


@pytest.mark.parametrize("name", part_three())
def test_part_three_never_says_the_paper(name):
    source = (ROOT / "notebooks" / f"{name}.md").read_text()
    found = offending(source) + [o for t in stored_texts(name) for o in offending(t)]
    assert not found, f"{name}: say 'the seed summary states …', not: " + " | ".join(found)


def test_the_rule_itself():
    assert offending("As the paper states, σ ≥ 1/(3i).")
    assert offending("The paper's constant.") and offending("the papers, and the rest")
    assert not offending("As the seed summary states, σ ≥ 1/(3i).")
    quote = "Seed 001 writes “the paper shows Gaussian equivalence”."
    assert not offending(quote)
    assert offending("Seed 004 writes “the paper shows a collapse”.")
    assert offending("Seed 001 is cited; the paper shows it.")
