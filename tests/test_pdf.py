"""The PDF supplement (`make pdf` -> _build/pdf/attnspec.pdf): every chapter, every glued figure,
every formula typeset (no raw TeX), no glue role left. Checked with poppler's pdftotext/pdfimages.

`make pdf` builds the PDF and then runs this file. Skipped without chromium and poppler, or when the
PDF has not been built (so `make test` does not need the five-minute PDF build).
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from attnspec.core.paths import EXECUTED
from attnspec.publish.chapters import chapters, toc_chapter_names
from attnspec.publish.pdf import TARGET

pytestmark = [
    pytest.mark.skipif(
        shutil.which("chromium") is None or shutil.which("pdftotext") is None,
        reason="needs Debian's chromium (`make browser`) and poppler-utils",
    ),
    pytest.mark.skipif(
        not TARGET.is_file(),
        reason=f"{TARGET.name} not built: run `make pdf` (builds and tests it)",
    ),
]


@pytest.fixture(scope="module")
def text() -> str:
    done = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(TARGET), "-"], capture_output=True, text=True, check=True
    )
    return done.stdout


def test_every_chapter_title_is_present(text):
    flat = " ".join(text.split())
    missing = [c.title for c in chapters() if " ".join(c.title.split()) not in flat]
    assert missing == []
    for page in ("Reproduce and re-execute", "References"):
        assert page in flat


def test_no_raw_tex_and_no_glue_roles(text):
    # (code cells may hold TeX in matplotlib labels, e.g. r"$\beta$"; prose and display math may
    # not)
    for raw in (r"\frac", "$$", r"\[", r"\(", r"\begin{aligned}", "{glue", "{numref", "{math}"):
        assert raw not in text, raw


def test_embedded_images_at_least_glued_figures():
    listed = subprocess.run(
        ["pdfimages", "-list", str(TARGET)], capture_output=True, text=True, check=True
    ).stdout
    images = sum(1 for line in listed.splitlines()[2:] if line.split()[2:3] == ["image"])
    figures = sum(
        1
        for name in toc_chapter_names()
        for v in json.loads((EXECUTED / f"{name}.results.json").read_text())["values"]
        if v["kind"] == "figure"
    )
    assert figures > 0 and images >= figures, (images, figures)
