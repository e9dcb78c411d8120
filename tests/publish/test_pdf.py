"""The PDF builder's own steps (tests/site/pdf_checks.py reads the printed book): the title page,
the two byte fixes that make two prints the same, and, in Chromium, waiting for MathJax, preparing
the page and printing small pages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from attnspec import __version__
from attnspec.publish import pdf
from attnspec.publish.paths import ROOT


def test_title_lines_name_title_author_version_and_citation_cffs_release_date():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    released = yaml.safe_load((ROOT / "CITATION.cff").read_text())["date-released"]
    assert pdf.release_date() == str(released)
    assert pdf.title_lines() == [
        config["title"],
        config["author"],
        f"Version {__version__}, released {released}",
    ]


def tagged_pdf(printed: str, first: int) -> bytes:
    """A PDF as Chromium prints it: a print time, two table headers whose ids start at ``first``
    (the DOM node counter), a cell that refers to them, and an outline of two entries."""
    import io

    import pikepdf

    doc = pikepdf.new()
    doc.add_blank_page()
    doc.docinfo["/CreationDate"] = doc.docinfo["/ModDate"] = pikepdf.String(printed)
    ids = [pikepdf.String(f"node{first + k:08d}") for k in (2, 0)]
    cells = [doc.make_indirect(pikepdf.Dictionary(S=pikepdf.Name.TH, ID=i)) for i in ids]
    cells.append(
        pikepdf.Dictionary(
            S=pikepdf.Name.TD,
            A=pikepdf.Dictionary(Headers=pikepdf.Array(ids[::-1])),
            Alt=pikepdf.String("a (node12) in text"),
        )
    )
    doc.Root.StructTreeRoot = pikepdf.Dictionary(K=pikepdf.Array(cells))
    entries = [doc.make_indirect(pikepdf.Dictionary(Title=t)) for t in ("Seen  seen", "B")]
    entries[0].Next = entries[1]
    doc.Root.Outlines = pikepdf.Dictionary(First=entries[0], Last=entries[1])
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def test_reproducible_fixes_dates_node_ids_and_outline_titles():
    import io

    import pikepdf

    one = pdf.reproducible(tagged_pdf("D:20261201223300+01'00'", 6557), "2026-11-29", ["A", "B"])
    two = pdf.reproducible(tagged_pdf("D:20261202081500Z", 90), "2026-11-29", ["A", "B"])
    assert one == two and b"/CreationDate (D:20261129000000" in one
    with pikepdf.open(io.BytesIO(one)) as doc:
        assert str(doc.docinfo.ModDate) == "D:20261129000000Z"
        th1, th2, td = doc.Root.StructTreeRoot.K
        assert (str(th1.ID), str(th2.ID)) == ("node00000001", "node00000000")
        assert [str(i) for i in td.A.Headers] == ["node00000000", "node00000001"]
        assert str(td.Alt) == "a (node12) in text"
        assert [str(e.Title) for e in pdf._outline_entries(doc)] == ["A", "B"]
    with pytest.raises(RuntimeError, match="the outline has 2 entries for 1 headings"):
        pdf.reproducible(tagged_pdf("D:20261201223300Z", 1), "2026-11-29", ["A"])


def test_a_symlinked_pdf_folder_is_refused_before_printing(tmp_path, monkeypatch, capsys):
    """``_build/pdf`` is a fixed build path, never written through a symlink."""
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


# In Chromium (make browser), on small pages shaped like the book's.

#: typesets its one formula 300 ms after loading, as MathJax would (a stand-in for it)
LATE_MATHJAX = """<script>
window.MathJax = {startup: {promise: new Promise(done => setTimeout(() => {
  document.querySelector('.math').innerHTML = '<mjx-container>x</mjx-container>'; done();
}, 300))}};
</script>"""
BOOK_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title>{head}</head><body>
<main><p>Text with <span class="math">\\(x\\)</span>.</p>
<table><thead><tr><th>parameter</th><th>value</th></tr></thead>
<tbody><tr><td>d</td><td>1000</td></tr></tbody></table>
<details class="attnspec-provenance" id="provenance"><summary>Provenance</summary>
<p>Executed</p></details></main></body></html>"""


@pytest.fixture
def browser():
    """Chromium for one test (print_pdf starts a Playwright of its own: two cannot nest)."""
    assert Path(pdf.CHROMIUM).is_file(), f"{pdf.CHROMIUM} is missing: make browser"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=pdf.CHROMIUM, args=pdf.FLAGS)
        yield launched
        launched.close()


def opened(browser, tmp_path, head: str):
    (tmp_path / "page.html").write_text(BOOK_PAGE.format(head=head))
    page = browser.new_page()
    page.goto((tmp_path / "page.html").as_uri())
    return page


@pytest.mark.site
def test_typeset_waits_for_mathjax(browser, tmp_path):
    page = opened(browser, tmp_path, LATE_MATHJAX)
    pdf.typeset(page)
    assert page.locator(".math mjx-container").count() == 1


@pytest.mark.site
def test_a_formula_left_untypeset_is_an_error(browser, tmp_path):
    with pytest.raises(RuntimeError, match="^1 formulas were not typeset$"):
        pdf.typeset(opened(browser, tmp_path, ""))


@pytest.mark.site
def test_prepare_opens_provenance_and_puts_the_title_page_first(browser, tmp_path):
    page = opened(browser, tmp_path, "")
    pdf.prepare(page)
    first = page.locator("body > :first-child")
    assert first.get_attribute("class") == "attnspec-title-page"
    assert first.locator("p").all_inner_texts() == pdf.title_lines()
    assert page.locator("details.attnspec-provenance").evaluate("d => d.open")
    assert page.locator("head > style").last.inner_text() == pdf.PRINT_CSS


#: a single page shaped like the book's: a chapter nested in the root document's toctree, a link
#: into the page by its file name, a link to a file, and a folded derivation
NESTED = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body>
<article class="bd-article"><section id="intro"><h1>Intro</h1>
<p>See <a href="book/intro.html#later">later</a>, <a href="_images/x.png">a file</a>,
<a href="https://example.org/">the web</a>.</p>
<div class="toctree-wrapper"><span id="document-book/chapters/one"></span>
<section id="one"><h3>1. One</h3><p>Start.</p><section id="later"><h4>1.1. Later</h4>
<details class="sd-dropdown"><summary>Derivation</summary><p>Folded text.</p></details>
</section></section></div></section></article></body></html>"""


@pytest.mark.site
def test_prepare_opens_folds_anchors_links_and_nests_headings_under_parts(
    browser, tmp_path, monkeypatch
):
    monkeypatch.setattr(pdf, "parts", lambda: [["Part I", "book/chapters/one"]])
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "intro.html").write_text(NESTED)
    page = browser.new_page()
    page.goto((tmp_path / "book" / "intro.html").as_uri())
    pdf.prepare(page)
    assert page.locator("details").evaluate("d => d.open")
    hrefs = page.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert hrefs == ["#later", None, "https://example.org/"]
    headings = page.locator("h1, h2, h3, h4, h5, h6").evaluate_all(
        "hs => hs.map(h => h.tagName + ' ' + h.textContent)"
    )
    assert headings == ["H1 Intro", "H1 Part I", "H2 1. One", "H3 1.1. Later"]
    assert page.locator("#one").evaluate("s => s.parentElement.tagName") == "ARTICLE"


@pytest.mark.site
def test_two_prints_of_a_page_differ_only_in_what_reproducible_fixes(browser, tmp_path):
    page = opened(browser, tmp_path, "")
    one = page.pdf(**pdf.PRINT)
    page.reload()  # the same page again: Chromium's node counter has moved on
    two = page.pdf(**pdf.PRINT)
    ids = [re.findall(rb"\(node\d+\)", p) for p in (one, two)]
    assert ids[0] and ids[0] != ids[1], "the table headers' ids no longer change: see reproducible"
    titles = page.evaluate(pdf.TITLES)
    assert pdf.reproducible(one, "2026-11-29", titles) == pdf.reproducible(
        two, "2026-11-29", titles
    )


@pytest.mark.site
def test_print_pdf_prints_the_same_bytes_twice_and_leaves_no_copy(tmp_path, monkeypatch):
    monkeypatch.setattr(pdf, "SINGLE", tmp_path)
    (tmp_path / "book").mkdir()
    source = tmp_path / "book" / "intro.html"
    source.write_text(BOOK_PAGE.format(head=LATE_MATHJAX))
    printed = [pdf.print_pdf(source, tmp_path / "out" / name) for name in ("a.pdf", "b.pdf")]
    first, second = (p.read_bytes() for p in printed)
    assert first.startswith(b"%PDF-") and first == second
    day = pdf.release_date().replace("-", "")
    assert f"/CreationDate (D:{day}000000".encode() in first
    assert sorted(p.name for p in tmp_path.rglob("*")) == [
        "a.pdf",
        "b.pdf",
        "book",
        "intro.html",
        "out",
    ]


def _checkout(root: Path) -> Path:
    """A git checkout at ``root`` with one tracked chapter."""
    import subprocess

    (root / "book").mkdir(parents=True)
    (root / "book" / "setup.ipynb").write_text("tested text")
    (root / ".gitignore").write_text("_build/\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "."], check=True)
    return root / "book" / "setup.ipynb"


def _printer(edit):
    def print_pdf(source, target):
        edit()  # what another process does to the tree while the book is printed
        Path(target).write_bytes(b"%PDF- printed")
        return target

    return print_pdf


def test_a_tree_edited_while_printing_and_restored_is_refused(tmp_path, monkeypatch):
    """A chapter changed during the single-page build and restored afterwards would
    put untested text in the PDF; the tree is hashed again after printing."""
    chapter = _checkout(tmp_path / "tree")
    target = tmp_path / "tree" / "_build" / "pdf" / "attnspec.pdf"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"%PDF- earlier")
    monkeypatch.setattr(pdf, "ROOT", tmp_path / "tree")
    monkeypatch.setattr(pdf, "build_singlehtml", lambda: chapter.write_text("untested text"))
    monkeypatch.setattr(pdf, "print_pdf", _printer(lambda: chapter.write_text("tested text ")))
    with pytest.raises(pdf.Refused, match="the tree changed while the PDF was printed"):
        pdf.build(target)
    assert target.read_bytes() == b"%PDF- earlier"
    assert not pdf.printed_record(target).exists()
    assert sorted(p.name for p in target.parent.iterdir()) == ["attnspec.pdf"]


def test_an_unchanged_tree_is_printed_and_recorded(tmp_path, monkeypatch):
    _checkout(tmp_path / "tree")
    target = tmp_path / "tree" / "_build" / "pdf" / "attnspec.pdf"
    monkeypatch.setattr(pdf, "ROOT", tmp_path / "tree")
    monkeypatch.setattr(pdf, "build_singlehtml", lambda: None)
    monkeypatch.setattr(pdf, "print_pdf", _printer(lambda: None))
    assert pdf.build(target) == target and target.read_bytes() == b"%PDF- printed"
    record = json.loads(pdf.printed_record(target).read_text())
    assert record["tree"] == pdf.tree_hash(tmp_path / "tree")


#: prints a page whose MathJax never finishes: it waits in :func:`pdf.typeset` until stopped
NEVER_TYPESET = """import sys; from pathlib import Path
from attnspec.core.stopping import one_line; from attnspec.publish import pdf
pdf.SINGLE = Path(sys.argv[1]); page = pdf.SINGLE / "book" / "intro.html"
page.write_text("<script>MathJax = {startup: {promise: new Promise(() => {})}}</script>")
sys.exit(one_line("make pdf", lambda: pdf.print_pdf(page, pdf.SINGLE / "a.pdf") and 0))"""


def chromium_under(pid: int) -> bool:
    """Does a Chromium process descend from process ``pid`` (read from /proc)?"""
    parent, chromium = {}, []
    for proc in Path("/proc").iterdir():
        try:
            parent[int(proc.name)] = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if b"chrom" in (proc / "cmdline").read_bytes():
                chromium.append(int(proc.name))
        except (OSError, ValueError, IndexError):
            continue
    for p in chromium:
        while p > 1:
            p = parent.get(p, 0)
            if p == pid:
                return True
    return False


@pytest.mark.site
def test_ctrl_c_while_printing_is_one_line_status_130_and_no_file(tmp_path):
    """Ctrl-C reaches the printer: Playwright's driver stops too, and its failed futures printed
    "Future exception was never retrieved" after the one line."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.helpers import one_line

    (tmp_path / "book").mkdir()
    run = subprocess.Popen(
        [sys.executable, "-c", NEVER_TYPESET, str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # as in a terminal, whatever the shell that started the tests ignores (a background job)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 240
    while (
        not ((tmp_path / "_attnspec_print.html").exists() and chromium_under(run.pid))
        and time.monotonic() < deadline
    ):
        time.sleep(0.1)
    time.sleep(2)  # the page loaded: Chromium waits for MathJax
    os.kill(run.pid, signal.SIGINT)
    out, err = run.communicate(timeout=120)
    assert run.returncode == 130 and out == ""
    one_line(err, "make pdf: interrupted (Ctrl-C); nothing partial is left")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["book", "intro.html"]
