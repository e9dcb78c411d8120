"""The published site is self-contained: opened from disk with no network, every chapter page
typesets its math with the bundled MathJax and loads every figure; nothing comes from another host.

Needs the built site (`make book`; `make test` builds it first) and Debian's chromium. The pages are
opened in a copy of the site: tests never write into `_build/html`.
"""

import html
import re
from pathlib import Path

import pytest

from attnspec.publish.chapters import chapter, toc_chapter_names
from attnspec.publish.paths import ROOT
from tests.helpers import PROBE, chromium, copy_site, html_tables, probe_page

BUILT = ROOT / "_build" / "html"
pytestmark = pytest.mark.site  # needs the built site (make book) and chromium (make browser)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return copy_site(BUILT, tmp_path_factory.mktemp("site"))


def page(site: Path, name: str) -> Path:
    path = site / "book" / "chapters" / f"{name}.html"
    assert path.is_file(), f"{path} is missing: build the site with `make book` first"
    return path


def probe_scrolled(path: Path) -> dict:
    """What :data:`PROBE` sees on ``path`` once each interactive figure has been scrolled to
    (plotly.js loads on demand, when a figure nears the window) and has drawn."""
    with chromium(180) as tab:
        tab.goto(path.resolve().as_uri(), wait_until="load")
        for div in tab.locator("figure .plotly-graph-div").all():
            div.scroll_into_view_if_needed()
            tab.wait_for_function("d => !!d.querySelector('.main-svg')", arg=div.element_handle())
        return tab.evaluate(PROBE)


@pytest.mark.parametrize("name", toc_chapter_names())
def test_chapter_page_typesets_math_and_loads_figures_offline(name, site):
    result = probe_scrolled(page(site, name))
    result.pop("text")
    assert result["mathjax"], "MathJax did not load"
    assert result["math"] > 0 and result["untypeset"] == 0, result
    assert result["images"] + result["interactive"] >= result["figures"] > 0, result
    assert result["drawn"] == result["interactive"], result  # every plotly figure drew
    assert result["broken"] == [], result


def test_no_page_loads_anything_from_another_host(site):
    remote = re.compile(r'<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)="(?:https?:)?//', re.I)
    offenders = [
        p.relative_to(site).as_posix() for p in site.rglob("*.html") if remote.search(p.read_text())
    ]
    assert offenders == []


def claims_tables(html: str) -> list[list[list[str]]]:
    """The claims tables of a page: tables whose header starts with 'claim', 'measured',
    'criterion'."""
    header = ["claim", "measured", "criterion"]
    return [t for t in html_tables(html) if t and t[0][:3] == header]


@pytest.mark.parametrize("name", toc_chapter_names())
def test_claims_tables_render_with_one_verdict_per_row(name, site):
    """No cell content (e.g. a criterion `|z| < 3`) splits a row: each row has the header's cells
    and ends in a verdict (✓ ✗ ○)."""
    tables = claims_tables(page(site, name).read_text())
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


def test_probing_writes_nothing_into_the_site(site):
    before = sorted(p.relative_to(site) for p in site.rglob("*"))
    probe_page(page(site, toc_chapter_names()[0]), timeout=180)
    assert sorted(p.relative_to(site) for p in site.rglob("*")) == before


@pytest.mark.parametrize("name", toc_chapter_names())
def test_each_chapter_ends_with_its_bibtex_entry(name, site):
    """The last section is "Cite this chapter": an @incollection entry whose title is the page's,
    with the book, the version and, only when the site's address is known, the page's address."""
    from attnspec import __version__
    from attnspec.publish.pdf import release_date
    from attnspec.publish.repository import site_url

    text = page(site, name).read_text()
    title = chapter(name).title  # the source's level-one heading
    sections = re.findall(r'<section id="([^"]+)">', text)
    assert sections[-1] == "cite-this-chapter", sections[-3:]
    section = text[text.index('<section id="cite-this-chapter">') :]
    assert 'href="../citing.html"' in section
    entry = html.unescape(re.sub(r"<[^>]+>", "", section))  # the highlighted BibTeX as text
    assert f"@incollection{{attnspec-{release_date()[:4]}-{name}," in entry
    assert f"  title     = {{{title}}}," in entry
    assert f"  version   = {{{__version__}}}," in entry
    address = site_url()
    assert (f"{{{address}book/chapters/{name}.html}}" in entry) if address else ("url" not in entry)
