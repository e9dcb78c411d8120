"""No visible defect on any page of the built site, as headless Chromium shows it.

Every page of the table of contents is opened (from a copy of the site, at 1280 px, then at 390 px)
and read as a reader sees it, once MathJax has typeset it:

- its visible text, outside typeset math and code, holds no Python object repr, no unresolved MyST
  role, no ``$``, ``\\(`` or other TeX (a backslash command, a caret) and, outside the API pages,
  no Python literal (``True``, ``False``, ``None``: a debug print);
- every image has descriptive alt text: words, not a file path, and not a copy of its caption;
- at 390 px (a phone) the page is no wider than the window (a wide table scrolls in its own box),
  and neither is any highlighted source page (``_modules/…``) nor a page Sphinx writes itself
  (the indexes, search);
- at 1280 px no table is wider than the content column;
- the page shows at most :data:`MAX_WORDS` words: prose, tables, printed outputs and formulas (the
  words of their MathML), not code inputs, the "Source · Re-run" link lines or what sits in a
  closed dropdown. The API pages are reference pages, looked up rather than read, and are exempt;
  each module on them opens with a summary table of its members instead, checked here against the
  entries below it.

And the site holds no stray page: every HTML page is an entry of ``_toc.yml``, besides the few
Sphinx writes itself (:data:`NOT_IN_TOC`). ``test_checks_see_each_defect`` runs the same reader on a
page made of defects, so each check is seen to fail.

Needs the built site (`make book`; `make test` builds it first) and Debian's chromium.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from attnspec.publish.paths import ROOT, TOC
from tests.helpers import chromium, copy_site

BUILT = ROOT / "_build" / "html"
pytestmark = pytest.mark.site  # needs the built site (make book) and chromium (make browser)

PHONE, DESKTOP = 390, 1280
MAX_WORDS = 3500
#: Pages Sphinx writes that are not chapters: the redirect to the first page, the indexes (of
#: terms, modules and sphinx-proof's theorems), search.
NOT_IN_TOC = {"index.html", "genindex.html", "search.html", "py-modindex.html", "prf-prf.html"}
API = "book/api"

#: What must not show in a page's text outside typeset math and code: (what it is, pattern).
DEFECTS = [
    ("a Python object repr", r"<[A-Za-z_][\w.]* object(?: at 0x[0-9a-fA-F]+)?>"),
    ("a figure's repr", r"<Figure size [^>]*>"),
    ("a repr", r"<(?:function|module|class|built-in function|bound method) [^>]*>"),
    ("a NumPy scalar repr", r"\bnp\.(?:float|int)\d+\("),
    ("an unresolved role", r"\{(?:glue|numref|doc|ref|cite|eq|math|download)(?::\w+)?\}"),
    ("a dollar sign (raw TeX)", r"\$"),
    ("raw TeX delimiters", r"\\[()\[\]]"),
    ("a backslash command or escape (raw TeX)", r"\\[A-Za-z]+"),
    ("caret TeX", r"\^"),
]
#: What must not show outside the API pages (whose docstrings name True, False and None).
PROSE_DEFECTS = [("a Python literal (a debug print?)", r"\b(?:True|False|None)\b")]

READ = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    try { await MathJax.startup.promise; } catch (e) {}
  }
  const article = document.querySelector('article.bd-article') || document.body;
  const style = getComputedStyle(article);
  const column = article.clientWidth - parseFloat(style.paddingLeft)
                 - parseFloat(style.paddingRight);
  const textWithout = (selector, keepMath) => {
    const copy = article.cloneNode(true);
    copy.querySelectorAll(selector).forEach(e => e.remove());
    if (!keepMath) copy.querySelectorAll('mjx-container').forEach(e => e.replaceWith(' '));
    copy.style.position = 'absolute';
    copy.style.left = '-10000px';
    article.parentElement.appendChild(copy);
    const text = copy.innerText;
    copy.remove();
    return text;
  };
  const code = 'script, style, .cell_input, code, div[class^="highlight-"]:not(.cell_output *),'
               + ' dt.sig';
  const captionOf = img => {
    const figure = img.closest('figure');
    const caption = figure && figure.querySelector('figcaption');
    return caption ? caption.innerText : '';
  };
  const top = [...article.querySelectorAll('dl.py')].filter(d => !d.parentElement.closest('dl.py'));
  return {
    column: column,
    text: textWithout(code, false),
    words: (textWithout('script, style, .cell_input, .attnspec-source', true).match(/\\S+/g) || [])
      .length,
    images: [...article.querySelectorAll('img')].map(i => ({
      alt: i.getAttribute('alt') || '', src: i.getAttribute('src') || '', caption: captionOf(i)})),
    tables: [...article.querySelectorAll('table')].map(t => ({
      width: t.getBoundingClientRect().width,
      head: (t.rows[0] ? t.rows[0].innerText : '').replace(/\\s+/g, ' ').slice(0, 80)})),
    members: top.map(d => d.querySelector(':scope > dt[id]'))
                .filter(dt => dt).map(dt => dt.id),
    summarized: [...article.querySelectorAll('table.api-summary td:first-child a[href^="#"]')]
                .map(a => a.getAttribute('href').slice(1)),
  };
}"""


def toc_pages() -> list[str]:
    """Every page of ``_toc.yml`` (``book/intro``, ``book/chapters/setup``, …), in order."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            for key in ("root", "file"):
                if key in node:
                    found.append(node[key])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(yaml.safe_load(TOC.read_text()))
    return found


def read(tab, page: Path) -> dict:
    """What a reader sees on ``page``: read at 1280 px, and its width at 390 px."""
    tab.set_viewport_size({"width": DESKTOP, "height": 900})
    tab.goto(page.resolve().as_uri(), wait_until="load")
    seen = tab.evaluate(READ)
    tab.set_viewport_size({"width": PHONE, "height": 900})
    tab.wait_for_timeout(200)
    seen["phone_width"] = tab.evaluate("() => document.documentElement.scrollWidth")
    return seen


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return copy_site(BUILT, tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def pages(site) -> dict[str, dict]:
    """Every TOC page as a reader sees it, read in one browser, with the console errors and
    uncaught exceptions it raised."""
    errors: list[str] = []
    seen = {}
    with chromium() as tab:
        tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        tab.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        for name in toc_pages():
            errors.clear()
            seen[name] = read(tab, site / f"{name}.html")
            seen[name]["errors"] = list(errors)
    return seen


def defects(text: str, prose: bool = True) -> list[str]:
    """Every defect of :data:`DEFECTS` (and :data:`PROSE_DEFECTS`) in ``text``, in context."""
    found = []
    for what, pattern in DEFECTS + (PROSE_DEFECTS if prose else []):
        for m in re.finditer(pattern, text):
            context = " ".join(text[max(0, m.start() - 40) : m.end() + 40].split())
            found.append(f"{what}: …{context}…")
    return found


def alt_problems(images: list[dict]) -> list[str]:
    found = []
    for image in images:
        alt = " ".join(image["alt"].split())
        name = image["src"].rsplit("/", 1)[-1]
        if re.search(r"[/\\]|\.(?:png|jpe?g|svg|gif)\b", alt):
            found.append(f"{name}: alt text {alt!r} is a file path")
        elif len(re.findall(r"[^\W\d_]{2,}", alt)) < 4:
            found.append(f"{name}: alt text {alt!r} is not a description (four words at least)")
        elif alt == " ".join(image["caption"].split()):
            found.append(f"{name}: alt text repeats the caption")
    return found


def test_every_page_of_the_site_is_a_toc_entry(site):
    pages = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    # the theme's templates, and viewcode's source listings of the chapter studies (linked from
    # every "Source" line: tests/test_site_files.py checks those links)
    pages = {p for p in pages if not p.startswith(("_static/", "_modules/"))}
    listed = {f"{name}.html" for name in toc_pages()}
    assert listed <= pages, f"TOC entries not built: {sorted(listed - pages)}"
    assert pages - listed - NOT_IN_TOC == set(), "pages no TOC entry lists"


@pytest.mark.parametrize("name", toc_pages())
def test_no_repr_role_or_raw_tex_shows(pages, name):
    assert defects(pages[name]["text"], prose=not name.startswith(API)) == []


@pytest.mark.parametrize("name", toc_pages())
def test_no_console_error_or_uncaught_exception(pages, name):
    assert pages[name]["errors"] == []


@pytest.mark.parametrize("name", toc_pages())
def test_every_image_has_descriptive_alt_text(pages, name):
    assert alt_problems(pages[name]["images"]) == []


@pytest.mark.parametrize("name", toc_pages())
def test_page_fits_a_phone(pages, name):
    assert pages[name]["phone_width"] <= PHONE


def test_highlighted_sources_fit_a_phone(site):
    """viewcode's pages (``_modules/…``, linked from every "Source" line): long source lines
    scroll inside their block, and the title wraps."""
    sources = sorted(site.glob("_modules/**/*.html"))
    assert sources, "no highlighted source page"
    widths = {}
    with chromium() as tab:
        tab.set_viewport_size({"width": PHONE, "height": 900})
        for page in sources:
            tab.goto(page.as_uri(), wait_until="load")
            widths[page.relative_to(site).as_posix()] = tab.evaluate(
                "() => document.documentElement.scrollWidth"
            )
    assert {name: w for name, w in widths.items() if w > PHONE} == {}


@pytest.mark.parametrize("name", ["genindex", "py-modindex", "search", "prf-prf"])
def test_generated_pages_fit_a_phone(site, name):
    """The pages Sphinx writes itself (the indexes, search) are no wider than a phone either."""
    with chromium() as tab:
        tab.set_viewport_size({"width": PHONE, "height": 900})
        tab.goto((site / f"{name}.html").as_uri(), wait_until="load")
        assert tab.evaluate("() => document.documentElement.scrollWidth") <= PHONE


@pytest.mark.parametrize("name", toc_pages())
def test_tables_fit_the_content_column(pages, name):
    column = pages[name]["column"]
    tables = pages[name]["tables"]
    wide = [f"{t['width']:.0f} px: {t['head']}" for t in tables if t["width"] > column + 1]
    assert wide == [], f"content column {column:.0f} px"


@pytest.mark.parametrize("name", [n for n in toc_pages() if not n.startswith(API)])
def test_page_length(pages, name):
    assert pages[name]["words"] <= MAX_WORDS


@pytest.mark.parametrize("name", [n for n in toc_pages() if n.startswith(API + "/")])
def test_api_summary_tables_list_every_documented_member(pages, name):
    members, summarized = pages[name]["members"], pages[name]["summarized"]
    assert members, "no documented member"
    assert sorted(summarized) == sorted(members)


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


def test_checks_see_each_defect(tmp_path):
    page = tmp_path / "defects.html"
    cells = "".join(f"<td>column {i} of a table far wider than any column</td>" for i in range(30))
    page.write_text(DEFECTIVE.replace("{}", cells).replace("{words}", "folded " * 5000))
    with chromium() as tab:
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
