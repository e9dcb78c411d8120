"""The built site as files: light, and with plain-text titles.

- no page weighs more than :data:`MAX_PAGE` bytes: the HTML plus every script, stylesheet, image
  and preloaded font it loads, measured on disk. plotly.js (4.7 MB) is not part of it: the
  figures' pages load it on demand, when a figure first nears the window
  (``book/_ext/local_plotly.py``); it is counted apart, in :func:`test_plotly_loads_on_demand`;
- the site is under :data:`MAX_SITE` bytes, ships no source map (``*.map``) and no ``_sources``
  (no download button links to one);
- no page's ``<title>``, sidebar entry or search-index page title holds raw TeX (``\\(``, ``$``,
  ``\\ell``, ``_{``): those places show text as written, with no MathJax to typeset it;
- no page loads anything from another host;
- every chapter's claims tables have one verdict per row, and the chapter ends with its BibTeX
  entry.

Needs the built site (`make book`; `make test` builds it first).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from attnspec.publish.chapters import chapter, toc_chapter_names
from tests.helpers import html_tables
from tests.site.reader import toc_pages

pytestmark = pytest.mark.site  # needs the built site (make book)

MAX_PAGE = 6_000_000
MAX_SITE = 20_000_000  # the target; 18.6 MB once what no page uses was dropped (site_chrome)
RAW_TEX = re.compile(r"\\[(\[]|\$|\\[A-Za-z]+|_\{")
LOADS = re.compile(
    r"<script\b[^>]*\bsrc=\"([^\"]+)\"|<img\b[^>]*\bsrc=\"([^\"]+)\""
    r"|<link\b[^>]*\brel=\"(?:stylesheet|preload)\"[^>]*\bhref=\"([^\"]+)\"",
    re.I,
)


def html_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "_static" not in p.relative_to(site).parts)


def loaded(page: Path, text: str) -> set[Path]:
    """The local files ``page`` loads with it (scripts, images, stylesheets, preloads)."""
    found = set()
    for match in LOADS.finditer(text):
        url = html.unescape(next(g for g in match.groups() if g))
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or url.startswith("data:"):
            continue
        found.add((page.parent / unquote(parts.path)).resolve())
    return found


def weight(page: Path) -> tuple[int, list[Path]]:
    """The bytes ``page`` loads with it (itself included), and the files it names but the site
    lacks."""
    text = page.read_text(encoding="utf-8")
    files = loaded(page, text)
    missing = sorted(f for f in files if not f.is_file())
    return page.stat().st_size + sum(f.stat().st_size for f in files if f.is_file()), missing


def test_no_page_weighs_more_than_6_mb(site):
    heavy, missing = {}, {}
    for page in html_pages(site):
        size, lacks = weight(page)
        name = page.relative_to(site).as_posix()
        if size > MAX_PAGE:
            heavy[name] = size
        if lacks:
            missing[name] = [f.name for f in lacks]
    assert heavy == {} and missing == {}


def test_no_page_loads_anything_from_another_host(site):
    remote = re.compile(r'<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)="(?:https?:)?//', re.I)
    offenders = [
        p.relative_to(site).as_posix() for p in site.rglob("*.html") if remote.search(p.read_text())
    ]
    assert offenders == []


def test_plotly_loads_on_demand(site):
    """A figure's page loads the small on-demand loader, not plotly.js, and the loader's
    plotly.js is in the site; every figure's script waits for it."""
    figures = [p for p in html_pages(site) if "plotly-graph-div" in p.read_text(encoding="utf-8")]
    assert figures, "no page holds an interactive figure"
    for page in figures:
        text = page.read_text(encoding="utf-8")
        assert "plotly.min.js" not in {f.name for f in loaded(page, text)}
        (tag,) = re.findall(r"<script\b[^>]*plotly-on-demand\.js[^>]*>", text)
        assert "defer" in tag
        plotly = re.search(r'data-plotly="([^"]+)"', tag).group(1)
        assert (page.parent / plotly).resolve().is_file()
        assert "<script>                window.PLOTLYENV" not in text
        assert 'type="text/x-plotly-figure"' in text


def test_site_is_light(site):
    files = [p for p in site.rglob("*") if p.is_file()]
    assert [p.name for p in files if p.suffix == ".map"] == []
    assert not (site / "_sources").exists()
    assert sum(p.stat().st_size for p in files) < MAX_SITE
    linked = [p.name for p in html_pages(site) if "_sources/" in p.read_text(encoding="utf-8")]
    assert linked == []


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def titles_of(page: Path) -> list[str]:
    """The page's ``<title>`` and the entries of its sidebar (the book's table of contents)."""
    text = page.read_text(encoding="utf-8")
    found = [_text(t) for t in re.findall(r"<title>(.*?)</title>", text, re.S)]
    nav = re.search(r'<nav class="bd-docs-nav[^"]*".*?</nav>', text, re.S)
    if nav:
        found += [_text(a) for a in re.findall(r"<a\b[^>]*>(.*?)</a>", nav.group(0), re.S)]
    return found


def search_titles(site: Path) -> list[str]:
    """The page titles of the search index (what a search result shows as its heading)."""
    text = (site / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    return [_text(t) for t in index["titles"]] + [
        title for title, places in index["alltitles"].items() if any(a is None for _, a in places)
    ]


@pytest.mark.parametrize("name", [*toc_pages(), "search", "genindex", "py-modindex", "prf-prf"])
def test_no_raw_tex_in_titles_or_sidebar(site, name):
    assert [t for t in titles_of(site / f"{name}.html") if RAW_TEX.search(t)] == []


def test_no_raw_tex_in_search_titles(site):
    assert [t for t in search_titles(site) if RAW_TEX.search(t)] == []


def test_title_check_sees_raw_tex(tmp_path):
    page = tmp_path / "p.html"
    page.write_text(
        '<title>Beyond \\(\\ell = d\\)</title><nav class="bd-docs-nav x">'
        '<a href="a.html">Where d_{qk} grows</a><a href="b.html">Plain</a></nav>'
    )
    assert [t for t in titles_of(page) if RAW_TEX.search(t)] == [
        "Beyond \\(\\ell = d\\)",
        "Where d_{qk} grows",
    ]


# ---- "Source · Re-run" under every figure and claims table (book/_ext/source_links.py) ----------

SOURCE_LINE = re.compile(
    r'<p class="attnspec-source"><a class="reference internal" href="([^"#]+)#([\w.]+)">Source</a>'
    r' · <a class="reference internal" href="#provenance">Re-run</a>: <code[^>]*>(.*?)</code></p>',
    re.S,
)
CLAIMS_TABLE = re.compile(r"<table\b(?:(?!</table>).)*?<th[^>]*>\s*(?:<p>)?verdict", re.S)


def source_lines(page: Path, chapter: str) -> list[tuple[str, str]]:
    """The page's Source lines as (hook, what follows), checked: each links a viewcode anchor that
    exists, the provenance block, and names ``attnspec run CHAPTER``."""
    text = page.read_text(encoding="utf-8")
    assert 'id="provenance"' in text
    found = []
    for match in SOURCE_LINE.finditer(text):
        target = (page.parent / match.group(1)).resolve()
        assert target.is_file() and f'id="{match.group(2)}"' in target.read_text(), match.group(0)
        assert _text(match.group(3)) == f"attnspec run {chapter}"
        found.append(match.group(2).rpartition(".")[2])
    return found


@pytest.mark.parametrize("name", [n for n in toc_pages() if n.startswith("book/chapters/")])
def test_every_figure_and_claims_table_has_a_source_line(site, name):
    page = site / f"{name}.html"
    text = page.read_text(encoding="utf-8")
    lines = source_lines(page, name.rpartition("/")[2])
    figures, tables = text.count("</figure>"), len(CLAIMS_TABLE.findall(text))
    assert figures and tables
    assert len(lines) == figures + tables
    after = re.findall(r"</figure>\s*(.{0,400})", text, re.S)
    assert all(SOURCE_LINE.match(rest) for rest in after)


def claims_tables(html: str) -> list[list[list[str]]]:
    """The claims tables of a page: tables whose header starts with 'claim', 'measured',
    'criterion'."""
    header = ["claim", "measured", "criterion"]
    return [t for t in html_tables(html) if t and t[0][:3] == header]


@pytest.mark.parametrize("name", toc_chapter_names())
def test_claims_tables_render_with_one_verdict_per_row(name, site):
    """No cell content (e.g. a criterion `|z| < 3`) splits a row: each row has the header's cells
    and ends in a verdict (✓ ✗ ○)."""
    tables = claims_tables((site / f"book/chapters/{name}.html").read_text())
    assert tables, f"{name}: no claims table in the built page"
    for table in tables:
        header, rows = table[0], table[1:]
        assert rows, f"{name}: an empty claims table"
        for row in rows:
            assert len(row) == len(header), (
                f"{name}: row {row} has {len(row)} cells, header has {len(header)}"
            )
            assert row[-1] in ("✓", "✗", "○"), f"{name}: row {row} does not end in a verdict"


def test_claims_table_parser_sees_a_split_row():
    good = (
        "<table><tr><th>claim</th><th>measured</th><th>criterion</th><th></th></tr>"
        "<tr><td>a</td><td>1</td><td>|z| &lt; 3</td><td>✓</td></tr></table>"
    )
    bad = good.replace("<td>|z| &lt; 3</td>", "<td></td><td>z</td><td> &lt; 3</td>")
    (table,) = claims_tables(good)
    assert table[1] == ["a", "1", "|z| < 3", "✓"]
    (table,) = claims_tables(bad)
    assert len(table[1]) != len(table[0])


@pytest.mark.parametrize("name", toc_chapter_names())
def test_each_chapter_ends_with_its_bibtex_entry(name, site):
    """The last section is "Cite this chapter": an @incollection entry whose title is the page's,
    with the book, the version and, only when the site's address is known, the page's address."""
    from attnspec import __version__
    from attnspec.publish.pdf import release_date
    from attnspec.publish.repository import site_url

    text = (site / f"book/chapters/{name}.html").read_text()
    title = chapter(name).title  # the source's level-one heading
    sections = re.findall(r'<section id="([^"]+)">', text)
    assert sections[-1] == "cite-this-chapter", sections[-3:]
    section = text[text.index('<section id="cite-this-chapter">') :]
    assert 'href="../citing.html"' in section
    entry = _text(section)  # the highlighted BibTeX as text
    assert f"@incollection{{attnspec-{release_date()[:4]}-{name}," in entry
    assert f"  title     = {{{title}}}," in entry
    assert f"  version   = {{{__version__}}}," in entry
    address = site_url()
    assert (f"{{{address}book/chapters/{name}.html}}" in entry) if address else ("url" not in entry)
