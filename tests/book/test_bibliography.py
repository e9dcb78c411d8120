"""Every reference is one that was found: an identifier, and a note saying where it was checked.

The rule (CONTRIBUTING.md, "References"): each entry of ``book/references.bib`` carries an
identifier (a DOI, an arXiv id, an ISBN with a valid check digit, the file name of the seed it
comes from, or, for a paper that has none of these, its page in the official proceedings,
:data:`PROCEEDINGS`) and a ``note`` that starts with ``Checked:`` and says where it was checked (a
seed, or the public record where it was found). Every key the book cites is an entry, and every
entry is cited.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIB = ROOT / "book" / "references.bib"
SOURCES = [*sorted((ROOT / "notebooks").rglob("*.md")), *sorted((ROOT / "book").glob("*.md"))]

DOI = re.compile(r"10\.\d{4,9}/\S+")
ARXIV = re.compile(r"\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?/\d{7}")
SEED = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")
#: the official proceedings whose pages identify a paper that has no DOI, arXiv id or ISBN
PROCEEDINGS = ("papers.nips.cc", "proceedings.neurips.cc", "ieeexplore.ieee.org")


def entries(text: str) -> dict[str, dict[str, str]]:
    """``{key: {field: value}}`` of a BibTeX text (fields in braces, one level of nesting)."""
    out = {}
    for match in re.finditer(r"@\w+\{([^,\s]+),(.*?)\n\}", text, re.S):
        fields = re.findall(r"(\w+)\s*=\s*\{((?:[^{}]|\{[^{}]*\})*)\}", match.group(2))
        out[match.group(1)] = {name.lower(): re.sub(r"\s+", " ", v) for name, v in fields}
    return out


def isbn_valid(isbn: str) -> bool:
    """ISBN-13 (weights 1, 3) or ISBN-10 (weights 10 … 1, X = 10) check digit."""
    digits = isbn.replace("-", "")
    if re.fullmatch(r"\d{13}", digits):
        return sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(digits)) % 10 == 0
    if re.fullmatch(r"\d{9}[\dX]", digits):
        values = [10 if c == "X" else int(c) for c in digits]
        return sum(v * (10 - i) for i, v in enumerate(values)) % 11 == 0
    return False


def identifiers(entry: dict[str, str]) -> list[str]:
    """The identifiers of an entry that are well formed."""
    found = []
    if DOI.fullmatch(entry.get("doi", "")):
        found.append("doi")
    arxiv = entry.get("archiveprefix", "").lower() == "arxiv"
    if arxiv and ARXIV.fullmatch(entry.get("eprint", "")):
        found.append("arxiv")
    if isbn_valid(entry.get("isbn", "")):
        found.append("isbn")
    if SEED.fullmatch(entry.get("seed", "")):
        found.append("seed")
    host = re.fullmatch(r"https://([^/\s]+)/\S+", entry.get("url", ""))
    if not found and host and host.group(1) in PROCEEDINGS:
        found.append("proceedings")
    return found


ENTRIES = entries(BIB.read_text(encoding="utf-8"))


def test_the_bibliography_parses():
    assert len(ENTRIES) == BIB.read_text(encoding="utf-8").count("\n@") + 1


@pytest.mark.parametrize("key", sorted(ENTRIES))
def test_every_entry_has_an_identifier_and_says_where_it_was_checked(key):
    entry = ENTRIES[key]
    assert identifiers(entry), f"{key}: no DOI, arXiv id, valid ISBN or seed file name"
    assert re.match(r"Checked: \S.{20,}", entry.get("note", "")), (
        f"{key}: its note must start with 'Checked:' and say where it was checked"
    )


def cited_keys() -> set[str]:
    keys = set()
    for path in SOURCES:
        for group in re.findall(r"\{cite(?::\w+)?\}`([^`]+)`", path.read_text(encoding="utf-8")):
            keys |= {k.strip() for k in group.split(",")}
    return keys


def test_every_cited_key_is_an_entry_and_every_entry_is_cited():
    cited = cited_keys()
    assert sorted(cited - set(ENTRIES)) == []
    assert sorted(set(ENTRIES) - cited) == []


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({"doi": "10.1214/08-AOS648"}, ["doi"]),
        ({"doi": "see the journal"}, []),
        ({"eprint": "2205.06308", "archiveprefix": "arXiv"}, ["arxiv"]),
        ({"eprint": "2205.06308"}, []),
        ({"isbn": "978-1-4939-6941-8"}, ["isbn"]),
        ({"isbn": "978-1-4939-6941-9"}, []),
        ({"isbn": "0-521-35880-9"}, ["isbn"]),
        ({"seed": "004_4f819635c60d9888.txt"}, ["seed"]),
        ({"seed": "the summary"}, []),
        (
            {"url": "https://papers.nips.cc/paper_files/paper/2017/hash/x-Abstract.html"},
            ["proceedings"],
        ),
        ({"url": "https://example.org/paper.pdf"}, []),
        ({"url": "https://ieeexplore.ieee.org/document/1/", "doi": "10.1109/x"}, ["doi"]),
    ],
)
def test_a_malformed_identifier_is_not_an_identifier(entry, expected):
    assert identifiers(entry) == expected


#: An author field that stands in for unknown authors instead of naming them.
PLACEHOLDER = re.compile(r"authors? of|unknown|anonymous author", re.IGNORECASE)


@pytest.mark.parametrize("key", sorted(ENTRIES))
def test_no_entry_invents_an_author(key):
    entry = ENTRIES[key]
    assert not PLACEHOLDER.search(entry.get("author", "")), f"{key}: a placeholder author"
    if "author" not in entry:
        assert re.search(r"names? (neither|no)", entry["note"]), (
            f"{key}: an entry without authors says in its note that its source names none"
        )


def test_the_citing_page_gives_an_unknown_author_as_unknown():
    page = (ROOT / "book" / "citing.md").read_text(encoding="utf-8")
    block = page[page.index("@misc{spectral-degeneration,") :]
    block = block[: block.index("\n}")]
    assert not re.search(r"^\s*(author|year)\s*=", block, re.MULTILINE)
    assert "authors and year not known" in block


def test_the_placeholder_rule_itself():
    assert PLACEHOLDER.search("{The authors of the spectral-degeneration paper}")
    assert not PLACEHOLDER.search("Cheng, Xiuyuan and Singer, Amit")
