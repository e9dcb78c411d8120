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

from attnspec.publish import downloads
from attnspec.publish.paths import ROOT
from attnspec.publish.repository import repository_url
from tests.helpers import copy_site

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


def test_the_published_layout_links_the_downloads_from_the_landing_page(site, tmp_path):
    copy = copy_site(site, tmp_path)
    (copy / "downloads").mkdir()
    files = ["attnspec-x.pdf", "attnspec-x-supplement.zip"]
    for name in [*files, "index.html"]:
        (copy / "downloads" / name).write_text("stand-in")
    changed = downloads.link_downloads(copy, files)
    assert {p.relative_to(copy).as_posix() for p in changed} == {
        "book/citing.html",
        "book/intro.html",
    }
    for page in changed:
        text = page.read_text(encoding="utf-8")
        assert downloads.UNPUBLISHED not in text
        linked = {file for _, file in local_links(page)}
        assert {(copy / "downloads" / f).resolve() for f in [*files, "index.html"]} <= linked


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
