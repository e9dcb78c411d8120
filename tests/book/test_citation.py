"""CITATION.cff validates against the official CFF 1.2.0 schema and agrees with the How-to-cite
page.

The schema is vendored from citation-file-format/citation-file-format, file schema.json at tag 1.2.0
(commit 396f738fb025b1d8acdb02a56ffc923f95dc8999), so the test runs offline.
"""

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "tests" / "data" / "cff-1.2.0-schema.json").read_text())
CFF = yaml.safe_load((ROOT / "CITATION.cff").read_text())
GE_TITLE = (
    "Gaussian Equivalence for Self-Attention: Asymptotic Spectral Analysis of Attention Matrix"
)
SD_TITLE = "Spectral Degeneration of Self-Attention under Isotropic Score Geometry"


def errors(document) -> list[str]:
    validator = jsonschema.Draft7Validator(
        SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER
    )
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator.iter_errors(document)
    ]


def test_vendored_schema_is_cff_1_2_0():
    assert SCHEMA["$id"] == "https://citation-file-format.github.io/1.2.0/schema.json"
    jsonschema.Draft7Validator.check_schema(SCHEMA)


def test_citation_cff_validates():
    assert CFF["cff-version"] == "1.2.0"
    assert errors(CFF) == []


def test_the_schema_rejects_a_reference_without_authors():
    broken = {
        **CFF,
        "references": [{k: v for k, v in CFF["references"][0].items() if k != "authors"}],
    }
    assert any("'authors' is a required property" in e for e in errors(broken))


def test_both_papers_and_the_seed_notebook_are_cited():
    titles = [r["title"] for r in CFF["references"]]
    assert GE_TITLE in titles and SD_TITLE in titles
    assert any("Minimal Reproduction" in t for t in titles)
    ge = next(r for r in CFF["references"] if r["title"] == GE_TITLE)
    bib = (ROOT / "book" / "references.bib").read_text()
    entry = bib[bib.index("@inproceedings{gaussian-equivalence-2026") :]
    year = int(re.search(r"year\s*=\s*\{(\d+)\}", entry).group(1))
    assert ge["year"] == year == 2026  # AISTATS 2026, the key's year
    assert "arXiv:2510.06685" in json.dumps(ge) and "stat.ML" in json.dumps(ge)
    assert [a["family-names"] for a in ge["authors"]] == ["Hayase", "Collins", "Karakida"]


@pytest.mark.parametrize("path", ["book/citing.md", "book/references.bib"])
def test_citing_page_and_bibliography_use_the_same_titles(path):
    text = re.sub(r"\s+", " ", (ROOT / path).read_text())
    assert GE_TITLE in text and SD_TITLE in text and "2510.06685" in text
    assert CFF["version"] in (ROOT / "book" / "citing.md").read_text()
