"""Citing from the built site: the landing page's first screen holds a citation, every page's
footer links How to cite, the Citing page links only files the site has (the PDF and the archive
are linked in the published layout, ``make pages``, where ``downloads/`` exists), says why its
``@software`` entry has no url when the repository is unknown, and its reference list shows no
internal "Checked: …" note (those stay in ``references.bib``).

Needs the built site (`make book`); tests read a copy of it, never the site itself.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from attnspec.publish import archive, downloads
from attnspec.publish.paths import ROOT
from attnspec.publish.repository import repository_url

pytestmark = pytest.mark.site  # needs the built site (make book)


def local_links(page: Path) -> list[tuple[str, Path]]:
    """``(href, file)`` of every link of ``page`` to a file of the site (not an anchor in it)."""
    found = []
    for href in re.findall(r'<a\b[^>]*\bhref="([^"]+)"', page.read_text(encoding="utf-8")):
        parts = urlsplit(html.unescape(href))
        if parts.scheme or parts.netloc or not parts.path:
            continue
        found.append((href, (page.parent / unquote(parts.path)).resolve()))
    return found


def test_citing_and_landing_pages_link_no_file_the_site_lacks(site):
    for name in ("book/citing.html", "book/intro.html"):
        dead = [href for href, file in local_links(site / name) if not file.exists()]
        assert dead == [], f"{name}: {dead}"
        text = (site / name).read_text(encoding="utf-8")
        assert downloads.UNPUBLISHED in text, f"{name} does not say how to make the downloads"


def test_the_published_layout_links_the_downloads(site, tmp_path):
    """``make pages`` (:func:`downloads.assemble`) links the PDF, the archive and their index page
    from the Citing page and the landing page, still says how to make them locally, and leaves
    every other page as built."""
    pdf = tmp_path / "attnspec.pdf"
    pdf.write_bytes(b"%PDF-1.7 stand-in")
    files = {"index.html": b"redirect"}
    files[archive.SUMS] = archive.sums(files)
    zipped = archive.write_zip(files, tmp_path / archive.name(), archive.folder(), "2026-12-01")
    pages = downloads.assemble(site, pdf, zipped, tmp_path / "pages")
    shipped = pages / downloads.DOWNLOADS
    wanted = {shipped / f"{archive.folder()}.pdf", shipped / archive.name(), shipped / "index.html"}
    assert all(f.is_file() for f in wanted)
    linking = {"book/citing.html", "book/intro.html"}
    for name in linking:
        text = (pages / name).read_text(encoding="utf-8")
        assert downloads.UNPUBLISHED not in text
        assert {f.resolve() for f in wanted} <= {file for _, file in local_links(pages / name)}
    prose = html.unescape(re.sub(r"<[^>]+>", "", (pages / "book" / "citing.html").read_text()))
    assert "make pdf" in prose and "make dist" in prose
    changed = {
        p.relative_to(site).as_posix()
        for p in site.rglob("*.html")
        if p.read_bytes() != (pages / p.relative_to(site)).read_bytes()
    }
    assert changed == linking


def test_every_footer_links_how_to_cite(site):
    citing = (site / "book" / "citing.html").resolve()
    pages = [p for p in site.rglob("*.html") if "_static" not in p.parts]
    unlinked = [
        p.relative_to(site).as_posix()
        for p in pages
        if p.resolve() != citing  # (its own footer links the top of the page)
        and 'class="extra_footer"' in p.read_text(encoding="utf-8")
        and citing not in {file for href, file in local_links(p)}
    ]
    assert pages and unlinked == []


def test_reference_lists_show_no_internal_notes(site):
    shown = [
        p.relative_to(site).as_posix()
        for p in site.rglob("*.html")
        if "_static" not in p.parts and "Checked:" in p.read_text(encoding="utf-8")
    ]
    assert shown == []
    assert "Checked:" in (ROOT / "book" / "references.bib").read_text()  # kept for the authors


def test_software_entry_has_a_url_or_says_why_not(site):
    text = (site / "book" / "citing.html").read_text(encoding="utf-8")
    plain = html.unescape(re.sub(r"<[^>]+>", "", text))
    entry = re.search(r"@software\{.*?\n\}", plain, re.S).group(0)
    if repository_url():
        assert f"url     = {{{repository_url()}}}" in entry
    else:
        assert "url" not in entry and 'class="attnspec-no-url"' in text


def test_the_landing_pages_first_screen_cites_the_book(site, tab):
    tab.set_viewport_size({"width": 1280, "height": 800})
    tab.goto((site / "book" / "intro.html").as_uri(), wait_until="load")
    box = tab.locator(".attnspec-cite-box")
    assert box.count() == 1
    title = box.locator(".admonition-title").bounding_box()
    entry = box.locator("pre").bounding_box()
    assert title["y"] + title["height"] <= 800 and entry["y"] + 40 <= 800, (title, entry)
    assert "@software{attnspec-" in box.inner_text() and "version" in box.inner_text()
