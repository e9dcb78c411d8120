"""No visible defect and no accessibility violation on any page of the built site, as headless
Chromium shows it. Each page is opened once, in one tab, and every check reads what that visit saw
(:func:`visit`): read at 1280 px once MathJax has typeset it, measured at 390 px, then checked by
axe-core with every figure drawn, in light and in dark mode.

- its visible text, outside typeset math and code, holds no Python object repr, no unresolved MyST
  role, no ``$``, ``\\(`` or other TeX (a backslash command, a caret) and, outside the API pages,
  no Python literal (``True``, ``False``, ``None``: a debug print); it raised no console error;
- every image has descriptive alt text: words, not a file path, and not a copy of its caption;
- at 390 px (a phone) the page is no wider than the window (a wide table scrolls in its own box),
  every verdict of a chapter's claims tables is on screen (the table stacks each claim with its
  verdict first, book/_static/attnspec.css), and no highlighted source page (``_modules/…``) nor a
  page Sphinx writes itself (the indexes, search) is wider than the window either;
- at 1280 px no table is wider than the content column;
- the page shows at most :data:`MAX_WORDS` words: prose, tables, printed outputs and formulas (the
  words of their MathML), not code inputs, the "Source · Re-run" link lines or what sits in a
  closed dropdown. The API pages are reference pages, looked up rather than read, and are exempt;
  each module on them opens with a summary table of its members instead, checked here against the
  entries below it;
- axe finds no critical and no serious violation (tests/site/axe.py), on every page of the table
  of contents and every page the site ships besides (:data:`SHIPPED`);
- every chapter page, opened from disk with no network, typesets its math with the bundled MathJax
  and draws every figure (no broken image, every interactive figure drawn); reading a page writes
  nothing into the site.

And the site holds no stray page: every HTML page is an entry of ``_toc.yml``, besides the few
Sphinx writes itself (:data:`NOT_IN_TOC`). ``test_checks_see_each_defect`` and
``test_axe_sees_each_violation`` run the same checks on pages made of defects, so each check is
seen to fail.

Needs the built site (`make book`; `make test` builds it first) and Debian's chromium.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from attnspec.publish.chapters import toc_chapter_names
from tests.helpers import PROBE
from tests.site import axe
from tests.site.reader import API, PHONE, WIDTH, alt_problems, defects, read, toc_pages

pytestmark = pytest.mark.site  # needs the built site (make book) and chromium (make browser)

MAX_WORDS = 3500
#: Pages Sphinx writes that are not chapters: the redirect to the first page, the indexes (of
#: terms, modules and sphinx-proof's theorems), search.
NOT_IN_TOC = {"index.html", "genindex.html", "search.html", "py-modindex.html", "prf-prf.html"}
#: the pages the site ships besides its table of contents: the proof index, the indexes, search,
#: and the index of the highlighted sources
SHIPPED = ["prf-prf", "genindex", "py-modindex", "search", "_modules/index"]
TOC = toc_pages()
#: the right edge of each claims table's verdict cells
VERDICTS = """() => [...document.querySelectorAll(
    '.cell_output:has(> p.attnspec-source) table tbody tr')]
  .map(row => row.lastElementChild.getBoundingClientRect().right)"""


def visit(tab, page: Path) -> dict:
    """Everything the checks read on ``page``, in one visit: what :func:`read` sees, the verdict
    cells' right edges at 390 px, axe's severe violations per mode (:func:`axe.check`), what
    :data:`~tests.helpers.PROBE` sees once axe has had every figure drawn (the math typeset, the
    images loaded, the interactive figures drawn), and the console errors and uncaught exceptions
    the page raised meanwhile."""
    errors: list[str] = []

    def log(message):
        if message.type == "error":
            errors.append(message.text)

    def fault(error):
        errors.append(f"uncaught: {error}")

    tab.on("console", log)
    tab.on("pageerror", fault)
    try:
        tab.emulate_media(color_scheme="light")
        seen = read(tab, page)
        seen["verdicts"] = tab.evaluate(VERDICTS)
        seen["axe"] = axe.check(tab)
        seen["probe"] = tab.evaluate(PROBE)
        seen["probe"].pop("text")
    finally:
        tab.remove_listener("console", log)
        tab.remove_listener("pageerror", fault)
    seen["errors"] = errors
    return seen


@pytest.fixture(scope="module")
def pages(site, tab) -> dict[str, dict]:
    """Every page as :func:`visit` saw it, each visited when a test first asks for it."""

    class Seen(dict):
        def __missing__(self, name: str) -> dict:
            self[name] = visit(tab, site / f"{name}.html")
            return self[name]

    return Seen()


def test_every_page_of_the_site_is_a_toc_entry(site):
    pages = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    # the theme's templates, and viewcode's source listings of the chapter studies (linked from
    # every "Source" line: tests/site/test_files.py checks those links)
    pages = {p for p in pages if not p.startswith(("_static/", "_modules/"))}
    listed = {f"{name}.html" for name in TOC}
    assert listed <= pages, f"TOC entries not built: {sorted(listed - pages)}"
    assert pages - listed - NOT_IN_TOC == set(), "pages no TOC entry lists"


@pytest.mark.parametrize("name", TOC)
def test_no_repr_role_or_raw_tex_shows(pages, name):
    assert defects(pages[name]["text"], prose=not name.startswith(API)) == []


@pytest.mark.parametrize("name", TOC)
def test_no_console_error_or_uncaught_exception(pages, name):
    assert pages[name]["errors"] == []


@pytest.mark.parametrize("name", TOC)
def test_every_image_has_descriptive_alt_text(pages, name):
    assert alt_problems(pages[name]["images"]) == []


@pytest.mark.parametrize("name", [*TOC, *SHIPPED[:4]])
def test_page_fits_a_phone(pages, name):
    assert pages[name]["phone_width"] <= PHONE


def test_every_verdict_is_on_a_phones_screen(pages):
    edges = {name: pages[f"book/chapters/{name}"]["verdicts"] for name in toc_chapter_names()}
    late = {name: [round(e) for e in right if e > PHONE] for name, right in edges.items()}
    assert sum(map(len, edges.values())) > 100
    assert {name: off for name, off in late.items() if off} == {}


def test_highlighted_sources_fit_a_phone(site, tab):
    """viewcode's pages (``_modules/…``, linked from every "Source" line): long source lines
    scroll inside their block, and the title wraps."""
    sources = sorted(site.glob("_modules/**/*.html"))
    assert sources, "no highlighted source page"
    tab.set_viewport_size({"width": PHONE, "height": 900})
    widths = {}
    for page in sources:
        tab.goto(page.as_uri(), wait_until="load")
        widths[page.relative_to(site).as_posix()] = tab.evaluate(WIDTH)
    assert {name: w for name, w in widths.items() if w > PHONE} == {}


@pytest.mark.parametrize("name", toc_chapter_names())
def test_chapter_page_typesets_math_and_draws_figures_offline(pages, name):
    result = pages[f"book/chapters/{name}"]["probe"]
    assert result["mathjax"], "MathJax did not load"
    assert result["math"] > 0 and result["untypeset"] == 0, result
    assert result["images"] + result["interactive"] >= result["figures"] > 0, result
    assert result["drawn"] == result["interactive"], result  # every plotly figure drew
    assert result["broken"] == [], result


def test_reading_a_page_writes_nothing_into_the_site(site, tab):
    before = sorted(p.relative_to(site) for p in site.rglob("*"))
    read(tab, site / f"book/chapters/{toc_chapter_names()[0]}.html")
    tab.evaluate(PROBE)
    assert sorted(p.relative_to(site) for p in site.rglob("*")) == before


@pytest.mark.parametrize("name", TOC)
def test_tables_fit_the_content_column(pages, name):
    column = pages[name]["column"]
    tables = pages[name]["tables"]
    wide = [f"{t['width']:.0f} px: {t['head']}" for t in tables if t["width"] > column + 1]
    assert wide == [], f"content column {column:.0f} px"


@pytest.mark.parametrize("name", [n for n in TOC if not n.startswith(API)])
def test_page_length(pages, name):
    assert pages[name]["words"] <= MAX_WORDS


@pytest.mark.parametrize("name", [n for n in TOC if n.startswith(API + "/")])
def test_api_summary_tables_list_every_documented_member(pages, name):
    members, summarized = pages[name]["members"], pages[name]["summarized"]
    assert members, "no documented member"
    assert sorted(summarized) == sorted(members)


@pytest.mark.parametrize("mode", axe.MODES)
@pytest.mark.parametrize("name", [*TOC, *SHIPPED])
def test_no_critical_or_serious_accessibility_violation(pages, name, mode):
    assert pages[name]["axe"][mode] == []


DEFECTIVE = """<!DOCTYPE html><html><body><main><article class="bd-article">
<p>A box: &lt;IPython.core.display.Markdown object&gt;, a role {glue:md}`key`, raw TeX
$\\Sigma = 0$ and e^{βx} and \\(x\\), a debug print: applicable here: True.</p>
<p>Typeset math is fine: <mjx-container>$x^2$ \\sqrt{d}</mjx-container>, code too:
<code>$HOME ^ None</code>.</p>
<div class="cell_input"><pre>x = r"$\\beta$"  # None</pre></div>
<table><tr><td>{}</td></tr></table>
<figure><img src="../_images/abc.png" alt="../_images/abc.png">
<figcaption>Look at the curve.</figcaption></figure>
<figure><img src="../_images/def.png" alt="Look at the curve.">
<figcaption>Look at the curve.</figcaption></figure>
<img src="x.png" alt="Two curves of the distance against d, falling like one over root d.">
<details><summary>derivation</summary><p>{words}</p></details>
</article></main></body></html>"""


def test_checks_see_each_defect(tab, tmp_path):
    page = tmp_path / "defects.html"
    cells = "".join(f"<td>column {i} of a table far wider than any column</td>" for i in range(30))
    page.write_text(DEFECTIVE.replace("{}", cells).replace("{words}", "folded " * 5000))
    seen = read(tab, page)
    found = " | ".join(defects(seen["text"]))
    for what in (
        "object repr",
        "unresolved role",
        "dollar sign",
        "raw TeX delimiters",
        "backslash command",
        "caret TeX",
        "Python literal",
    ):
        assert what in found, what
    assert "x^2" not in seen["text"] and "HOME" not in seen["text"]  # math and code are left out
    problems = alt_problems(seen["images"])
    assert len(problems) == 2, problems
    assert "file path" in problems[0] and "repeats the caption" in problems[1]
    assert seen["phone_width"] > PHONE
    assert max(t["width"] for t in seen["tables"]) > seen["column"] + 1
    assert 300 < seen["words"] < 1000  # the table's 300 count, the closed dropdown's 5000 do not


AXE_DEFECTS = """<!DOCTYPE html><html lang="en"><head><title>defects</title></head><body><main>
<h1>Defects</h1>
<div role="list"><p>a citation that is not a listitem</p></div>
<button aria-label="Search">Find me</button>
<details><summary></summary><p>hidden</p></details>
<p style="color:#777;background:#fff">low contrast text</p>
<p style="color:#333;background-image:linear-gradient(#fff,#ccc)">text on a gradient</p>
</main></body></html>"""


def test_axe_sees_each_violation(tab, tmp_path):
    page = tmp_path / "defects.html"
    page.write_text(AXE_DEFECTS)
    tab.set_viewport_size(axe.VIEWPORT)
    tab.emulate_media(color_scheme="light")
    tab.goto(page.as_uri())
    rules = {v["rule"] for v in axe.run_axe(tab)}
    assert {
        "aria-required-children",
        "label-content-name-mismatch",
        "summary-name",
        "color-contrast",
        "color-contrast (undetermined)",
    } <= rules, rules
