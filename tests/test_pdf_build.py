"""The PDF builder's own steps, without printing (tests/pdf_checks.py reads a printed PDF): the
title page names the version, and the dates and ids that would make two prints differ are fixed."""

from __future__ import annotations

import re

import pytest
import yaml

from attnspec import __version__
from attnspec.publish import pdf
from attnspec.publish.paths import ROOT


def test_title_page_names_title_author_version_and_release_date():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    page = pdf.title_page()
    for text in (config["title"], config["author"], f"Version {__version__}, released"):
        assert text in page
    assert pdf.release_date() in page


def test_release_date_is_citation_cffs():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert pdf.release_date() == str(cff["date-released"])


@pytest.mark.parametrize(
    "old, new",
    [
        ("D:20261201223300+01'00'", "D:20261129000000+00'00'"),
        ("D:20261201223300Z", "D:20261129000000Z"),
        ("D:20261201223300", "D:20261129000000"),
    ],
)
def test_dates_become_the_release_date_and_keep_their_length(old, new):
    before = f"<</CreationDate ({old})\n/ModDate ({old})>>".encode()
    after = pdf.fix_dates(before, "2026-11-29")
    assert after == before.replace(old.encode(), new.encode()) and len(after) == len(before)


def test_an_unexpected_date_is_an_error():
    with pytest.raises(RuntimeError, match="unexpected PDF date"):
        pdf.fix_dates(b"/CreationDate (D:2026)", "2026-11-29")


def test_random_icon_ids_are_numbered_consistently():
    dom = (
        '<svg aria-labelledby="svg-inline--fa-title-sJ692MaTi89Y"><title '
        'id="svg-inline--fa-title-sJ692MaTi89Y">Light</title></svg>'
        '<svg aria-labelledby="svg-inline--fa-title-kNF41ebMFw73"></svg>'
    )
    other = dom.replace("sJ692MaTi89Y", "ReuEIS145dOO").replace("kNF41ebMFw73", "Zq0aaaaaaaaa")
    assert pdf.stable_ids(dom) == pdf.stable_ids(other)
    assert re.findall(r"fa-title-(\w+)", pdf.stable_ids(dom)) == ["0", "0", "1"]


def test_a_symlinked_pdf_folder_is_refused_before_printing(tmp_path, monkeypatch, capsys):
    """Issue 29, item 8: ``_build/pdf`` is a fixed build path, never written through a symlink."""
    (tmp_path / "important").mkdir()
    (tmp_path / "_build").mkdir()
    (tmp_path / "_build" / "pdf").symlink_to(tmp_path / "important")
    monkeypatch.setattr(pdf, "ROOT", tmp_path)
    monkeypatch.setattr(pdf, "build", lambda: pytest.fail("printed through a symlink"))
    assert pdf.main() == 1
    err = capsys.readouterr().err
    refusal = "_build/pdf is a symlink: _build/pdf/attnspec.pdf is written only in place"
    assert err == f"make pdf: refused: {refusal}\n"
    assert list((tmp_path / "important").iterdir()) == []
