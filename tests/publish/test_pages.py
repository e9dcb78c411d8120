"""The generated pages (Main results, Findings, Notation): reading stored chapters, missing keys
shown visibly, the findings table, and the stored page notebooks in sync with their sources."""

import json

import nbformat
import pytest

from attnspec.core.atomic import write_json
from attnspec.present import record
from attnspec.present.claims import Claim
from attnspec.publish.chapters import toc_chapter_names
from attnspec.publish.pages import (
    BOOK,
    PAGES,
    StoredChapters,
    claims_sentence,
    farthest_rung,
    findings_markdown,
    provenance_kind,
    read_source,
    rung_symbol,
    stored_problems,
)
from tests.helpers import assert_cells_agree, glue_output, html_tables, notebook_with
from tests.nbval_glue import glued_values, notebook_outputs


def write_chapter(folder, name, title, glued=(), claim_list=()):
    """A stored chapter: its notebook (title, glued figures) and its results file (values, claims).

    ``glued`` holds ``(key, value)``: a typed value, or a figure's MIME dict.
    """
    figures = [glue_output(k, v) for k, v in glued if isinstance(v, dict)]
    nbformat.write(notebook_with(figures, f"# {title}\n\ntext"), folder / f"{name}.ipynb")
    values = [
        {"key": k, "kind": "figure", "value": None, "text": v["text/plain"]}
        if isinstance(v, dict)
        else record.entry(k, v)
        for k, v in glued
    ]
    claims = [c.as_dict() for c in claim_list]
    write_json(
        folder / f"{name}.results.json", {"chapter": name, "values": values, "claims": claims}
    )


@pytest.fixture
def stored(tmp_path):
    write_chapter(
        tmp_path,
        "alpha",
        "The alpha chapter",
        [("a_x", 0.0171), ("a_small", 1.1e-05), ("a_big", 6123456.0), ("a_str", "≤ 1e-12")],
        [
            Claim("x is small", "0.0171", "|x| < 0.05", True, provenance="derived in this book"),
            Claim("y is large", "3", "> 5", False, "y is not large here", ""),
        ],
    )
    write_chapter(
        tmp_path,
        "bulk-equivalence",
        "Bulk",
        [
            ("bulk_ks_Y", 0.0058),
            ("bulk_ks_Y_f_lin", 0.0153),
            ("bulk_ks_floor", 0.002),
            ("bulk_l1_Y", 0.03),
            ("bulk_l1_Y_f_lin", 0.05),
            ("bulk_w1_Y", 0.04),
            ("bulk_w1_Y_f_lin", 0.02),
            ("bulk_ratio_ks_Y_f_lin", 8.2),
            ("bulk_fig_law", {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}),
        ],
    )
    return StoredChapters(tmp_path, ["alpha", "bulk-equivalence", "never-executed"])


def test_values_keep_the_chapters_rounding_and_format_exponents(stored):
    assert stored.value("alpha", "a_x").text == "0.0171"
    assert stored.value("alpha", "a_x", ".2f").text == "0.02"
    assert stored.value("alpha", "a_small").text == "1.1 × 10⁻⁵"
    assert stored.value("alpha", "a_big", "sci").text == "6.1 × 10⁶"
    assert stored.value("alpha", "a_str").text == "≤ 1e-12"
    assert stored.missing() == []


def test_missing_keys_and_chapters_are_shown_not_raised(stored):
    gone = stored.value("alpha", "a_renamed")
    assert not gone.found and "a_renamed" in gone.text and "missing" in gone.text
    assert not stored.value("never-executed", "z").found
    assert stored.missing() == [("alpha", "a_renamed"), ("never-executed", "z")]
    note = stored.missing_note()
    assert note.startswith(":::{warning}") and "`a_renamed` of chapter *alpha*" in note


def test_farthest_rung_by_metric(stored):
    far = farthest_rung(stored)
    assert (
        f"${rung_symbol('Y_f_lin')}$ in Kolmogorov" in far.rung
        and "$Y$ in Wasserstein-1" in far.rung
    )
    # the ratio is the chapter's own glued number, not recomputed from rounded values
    assert (far.ks, far.ks_floor, far.ks_ratio) == ("0.0153", "0.002", "8.2")
    assert "missing" in farthest_rung(stored, "alpha").rung


def test_a_page_shows_a_figure_a_chapter_glued(stored):
    from IPython.display import Image, Markdown

    assert stored.figure_png("bulk-equivalence", "bulk_fig_law") == b"\x89PNG\r\n\x1a\n"
    assert isinstance(stored.figure("bulk-equivalence", "bulk_fig_law"), Image)
    gone = stored.figure("bulk-equivalence", "bulk_fig_other")
    assert isinstance(gone, Markdown) and "bulk_fig_other" in gone.data
    assert stored.missing() == [("bulk-equivalence", "bulk_fig_other")]


def test_findings_table_lists_every_claim_with_provenance(stored):
    text = findings_markdown(stored)
    assert "**1 of 2 claims hold** in the 3 chapters" in text
    assert "1 do not hold and 0 cannot be resolved by the data" in text
    assert "By provenance: 1 derived in this book, 1 provenance not stated." in text
    assert "| 1 | [The alpha chapter](chapters/alpha.ipynb) | 2 | 1 | 1 | 0 |" in text
    assert "### 1. [The alpha chapter](chapters/alpha.ipynb)" in text
    assert ":::{dropdown} 2 claims: 1 ✓, 1 ✗, 0 ○\n|" in text  # each chapter's table folded
    assert text.index("## Claims that do not hold") < text.index("## Every claim")
    rows = [line for line in text.splitlines() if line.startswith(("| ✓ |", "| ✗ |", "| ○ |"))]
    assert len(rows) == 2
    assert rows[0].startswith("| ✓ | x is small; *criterion*: \\|x\\| < 0.05 | 0.0171 |")
    assert rows[0].endswith("| derived in this book |")
    assert rows[1].startswith("| ✗ |") and rows[1].endswith("| *not stated* |")
    assert "y is not large here" in text
    assert ":::{warning}" in text and "3. [never-executed](chapters/never-executed.ipynb)" in text
    assert (
        claims_sentence(stored)
        == "1 of 2 claims hold, 1 do not hold and 0 cannot be resolved by the data"
    )


def test_unresolved_claims_are_counted_and_listed(tmp_path):
    write_chapter(
        tmp_path,
        "alpha",
        "A",
        claim_list=[
            Claim("x", "1", "c", True, provenance="seed notebook"),
            Claim("y", "2", "c", None, "the data cannot tell", provenance="derived here"),
        ],
    )
    stored = StoredChapters(tmp_path, ["alpha"])
    assert (
        claims_sentence(stored)
        == "1 of 2 claims hold, 0 do not hold and 1 cannot be resolved by the data"
    )
    text = findings_markdown(stored)
    assert "0 do not hold and 1 cannot be resolved" in text
    assert "## Claims the data cannot resolve" in text and "the data cannot tell" in text


def test_glue_all_glues_each_stored_value_under_the_prefix(stored, monkeypatch):
    import myst_nb

    glued = {}
    monkeypatch.setattr(myst_nb, "glue", lambda key, value, display: glued.update({key: value}))
    stored.glue_all("intro", {"x": ("alpha", "a_x"), "y": ("alpha", "a_x", ".2f")})
    assert {k: v.data for k, v in glued.items()} == {"intro_x": "0.0171", "intro_y": "0.02"}


@pytest.mark.parametrize(
    "text, kind",
    [
        ("paper §3.2", "from a paper"),
        ("seed notebook", "from the seed notebook"),
        ("seed summary: “…”", "from the seed summary of a paper"),
        ("Pennington and Worah (2017): the law of the linear model", "a known law"),
        ("derived in this book from the paper's Theorem 1", "derived in this book"),
        ("this book's test", "derived in this book"),
        ("sanity check", "sanity checks"),
        ("", "provenance not stated"),
        ("folklore", "other"),
    ],
)
def test_provenance_kind(text, kind):
    assert provenance_kind(text) == kind


def test_claims_sentence_without_claims_is_visible(tmp_path):
    write_chapter(tmp_path, "alpha", "A", [("a_x", 1)])
    assert "no stored chapter records its claims" in claims_sentence(
        StoredChapters(tmp_path, ["alpha"])
    )


def test_notation_lists_every_rung_and_links_the_one_table_of_rungs():
    from attnspec.models.notation import SYMBOLS

    text = (BOOK.parent / "notebooks" / "pages" / "notation.md").read_text()
    assert "{ref}`ladder-table`" in text and "u_d" in text and r"\rho" in text
    listed = text.replace(r"\mathrm{lin}", r"\rm lin").replace(r"\sqrt{d}\,", r"\sqrt d ")
    for sym in SYMBOLS.values():
        short = sym.replace(r"\mathrm{lin}", r"\rm lin").replace(r"\sqrt{d}\,", r"\sqrt d ")
        assert short in listed, sym


def test_toc_lists_chapters_and_the_generated_pages():
    names = toc_chapter_names()
    assert "limit-law" in names and "real-attention" in names
    toc = (BOOK.parent / "_toc.yml").read_text()
    assert "root: book/intro" in toc and "book/findings" in toc and "book/notation" in toc


def test_check_lists_what_the_stored_pages_show_as_missing(monkeypatch, tmp_path):
    import attnspec.publish.pages as pages

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("...")
    cell.outputs = [
        glue_output("intro_x", "x"),
        nbformat.v4.new_output(
            "display_data", data={"text/markdown": "a **[missing: `law_edge` of limit-law]**"}
        ),
    ]
    nb.cells = [cell]
    nbformat.write(nb, tmp_path / "intro.ipynb")
    monkeypatch.setattr(pages, "BOOK", tmp_path)
    assert pages.stored_problems(("intro", "findings")) == [
        "intro: glue key law_edge of chapter limit-law is missing",
        "findings: page not executed",
    ]


def test_the_stored_pages_show_no_missing_value():
    assert stored_problems() == []


@pytest.mark.parametrize("name", PAGES)
def test_stored_page_is_in_sync_with_its_source_and_clean(name):
    src, run = read_source(name), nbformat.read(BOOK / f"{name}.ipynb", as_version=4)
    assert_cells_agree(src, run)
    for cell in run.cells:
        assert "execution" not in cell.metadata
        for output in cell.get("outputs", []):
            assert output["output_type"] != "error"
        if cell.cell_type == "code":
            assert "remove-input" in cell.metadata.get("tags", [])
    text = json.dumps(run.cells)
    assert "/work/" not in text and " at 0x" not in text


def test_page_glue_keys_are_prefixed_and_not_used_by_chapters():
    stored = StoredChapters()
    chapter_keys = {key for name in stored.names for key in stored.values(name)}
    page_keys = set(glued_values(notebook_outputs(nbformat.read(BOOK / "intro.ipynb", 4))))
    assert page_keys and all(k.startswith("intro_") for k in page_keys)
    assert not page_keys & chapter_keys


def test_findings_page_shows_as_many_claims_as_the_chapters_record():
    stored = StoredChapters()
    total = sum(len(stored.results(n)["claims"]) for n in stored.names)
    page = nbformat.read(BOOK / "findings.ipynb", as_version=4)
    text = "".join(
        o.get("data", {}).get("text/markdown", "") for c in page.cells for o in c.get("outputs", [])
    )
    assert f" of {total} claims hold**" in text


@pytest.mark.site  # needs the built site (make book) and chromium (make browser)
def test_built_findings_page_keeps_every_cell_of_every_row():
    path = BOOK.parent / "_build" / "html" / "book" / "findings.html"
    assert path.is_file(), f"{path} is missing: build the site first (`make book`)"
    tables = html_tables(path.read_text())
    assert tables, "no table on the Findings page"
    for rows in tables:
        assert all(len(row) == len(rows[0]) for row in rows), rows
        if rows[0][:2] == ["", "claim and criterion"]:
            assert all(row[0] in ("✓", "✗", "○") for row in rows[1:]), rows
