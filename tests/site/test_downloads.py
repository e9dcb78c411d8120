"""make pages: the published site with downloads/ (the PDF, the archive, their SHA256SUMS and a
page with each one's size and SHA-256), whole or not at all, never through a symlink."""

from __future__ import annotations

import hashlib
import re

import pytest

from attnspec.present.formatting import size_text
from attnspec.publish import archive, downloads

DATE = "2026-12-01"


@pytest.fixture
def inputs(tmp_path):
    """A stand-in site, PDF and archive (a real zip with its checksums)."""
    site = tmp_path / "_build" / "site"
    (site / "book").mkdir(parents=True)
    (site / "index.html").write_text("<p>book</p>")
    (site / "book" / "intro.html").write_text("<p>intro</p>")
    pdf = tmp_path / "attnspec.pdf"
    pdf.write_bytes(b"%PDF-1.7 stand-in" * 100)
    files = {"index.html": b"redirect", "site/index.html": b"<p>book</p>"}
    files[archive.SUMS] = archive.sums(files)
    zipped = archive.write_zip(files, tmp_path / archive.name(), archive.folder(), DATE)
    return site, pdf, zipped


def test_the_pages_hold_the_site_and_the_checked_downloads(inputs, tmp_path):
    site, pdf, zipped = inputs
    out = downloads.assemble(site, pdf, zipped, tmp_path / "_build" / "pages")
    assert (out / "book" / "intro.html").read_text() == "<p>intro</p>"
    shipped = out / "downloads"
    names = [f"{archive.folder()}.pdf", archive.name()]
    assert sorted(p.name for p in shipped.iterdir()) == sorted([*names, "SHA256SUMS", "index.html"])
    assert (shipped / names[0]).read_bytes() == pdf.read_bytes()
    assert (shipped / names[1]).read_bytes() == zipped.read_bytes()
    sums = (shipped / "SHA256SUMS").read_text().splitlines()
    assert sums == [f"{hashlib.sha256((shipped / f).read_bytes()).hexdigest()}  {f}" for f in names]
    page = (shipped / "index.html").read_text()
    for f in names:
        digest = hashlib.sha256((shipped / f).read_bytes()).hexdigest()
        assert re.search(
            rf'<a href="{re.escape(f)}">.*?<td>[\d.]+ (kB|MB|bytes)</td><td><code>{digest}', page
        )
    assert '<a href="../index.html">' in page and '<html lang="en">' in page


def test_a_changed_archive_or_a_missing_site_is_refused_and_the_previous_pages_kept(
    inputs, tmp_path
):
    site, pdf, zipped = inputs
    out = tmp_path / "_build" / "pages"
    downloads.assemble(site, pdf, zipped, out)
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    stale = {"index.html": b"redirect", "site/index.html": b"<p>changed</p>"}
    stale[archive.SUMS] = archive.sums(
        {"index.html": b"redirect", "site/index.html": b"<p>book</p>"}
    )
    archive.write_zip(stale, zipped, archive.folder(), DATE)
    with pytest.raises(downloads.Refused, match="site/index.html: SHA-256 differs"):
        downloads.assemble(site, pdf, zipped, out)
    with pytest.raises(downloads.Refused, match="make site makes it"):
        downloads.assemble(tmp_path / "nowhere", pdf, zipped, out)
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert sorted(p.name for p in out.parent.iterdir()) == ["pages", "site"]  # no partial


def test_make_pages_refuses_a_symlinked_folder_in_one_line(inputs, tmp_path, monkeypatch, capsys):
    site, pdf, zipped = inputs
    monkeypatch.setattr(downloads, "check_printed", lambda pdf, root: None)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "_build" / "pages").symlink_to(tmp_path / "elsewhere")
    argv = ["--site", str(site), "--pdf", str(pdf), "--archive", str(zipped)]
    assert downloads.main(argv, root=tmp_path) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("make pages: refused: ") and "symlink" in err
    assert list((tmp_path / "elsewhere").iterdir()) == []
    (tmp_path / "_build" / "pages").unlink()
    assert downloads.main(argv, root=tmp_path) == 0
    assert "with downloads/index.html" in capsys.readouterr().out


def test_sizes_read_as_a_reader_expects():
    assert [size_text(n) for n in (789, 45_600, 12_340_000)] == [
        "789 bytes",
        "46 kB",
        "12.3 MB",
    ]
