"""Claims tables (pipes escaped, the three verdicts, the sentences below), claims as results files
hold them, and number formats."""

import math

import numpy as np

from attnspec.present.claims import Claim, verdict
from attnspec.present.formatting import (
    ONE_OR_TWO,
    decimals_for,
    fixed,
    format_uncertain,
    significant,
)
from attnspec.present.tables import claims_markdown, markdown_table


def test_pipes_are_escaped_so_every_row_keeps_its_cells():
    table = markdown_table(
        ["claim", "criterion"], [["a", "max |row sum − 1| < 1e-12"], ["b", "$|z| < 3$"]]
    )
    rows = table.splitlines()
    assert rows[2] == r"| a | max \|row sum − 1\| < 1e-12 |"
    assert rows[3] == r"| b | $\vert z\vert  < 3$ |"


def test_claims_markdown_shows_the_table_and_sentences_and_nothing_else():
    claims = [
        Claim("x -- y", "1.0", "|x| < 2", True, provenance="derived here"),
        Claim("z", "3", "< 2", False, "z is too large", "sanity check"),
    ]
    text = claims_markdown(claims)
    assert "1 of 2 claims hold" in text and text.endswith("\n\n- ✗ *z*: z is too large")
    assert "derived here" not in text and "<!--" not in text


def test_a_claim_as_a_results_file_holds_it():
    assert Claim("ok", "1", "< 2", np.bool_(True), provenance="sanity check").as_dict() == {
        "claim": "ok",
        "measured": "1",
        "criterion": "< 2",
        "holds": True,
        "if_fails": "",
        "provenance": "sanity check",
    }
    assert type(Claim("ok", "1", "< 2", np.bool_(False)).as_dict()["holds"]) is bool
    assert Claim("open", "1", "< 2", None).as_dict()["holds"] is None


def test_claims_markdown_table_rows_marks_and_sentences():
    claims = [
        Claim("held", "0.5", "$|x| < 1$", True, "never shown"),
        Claim("a | b", "2", "< 1", False, "b is too large"),
    ]
    text = claims_markdown(claims)
    lines = text.splitlines()
    assert lines[0] == "| claim | measured | criterion | verdict |"  # a header for every column
    assert lines[2] == r"| held | 0.5 | $\vert x\vert  < 1$ | ✓ |"
    assert lines[3] == r"| a \| b | 2 | < 1 | ✗ |"
    assert "1 of 2 claims hold at these parameters, 1 do not hold and 0 cannot be" in text
    assert "- ✗ *a | b*: b is too large" in text and "never shown" not in text


def test_claims_markdown_without_failures_has_no_sentences():
    text = claims_markdown([Claim("ok", "1", "< 2", True)])
    assert "✗" not in text and "2 of" not in text and "1 of 1 claims hold" in text


def test_fixed_prints_no_signed_zero_and_marks_missing_values():
    assert fixed(0.123456) == "0.1235" and fixed(-0.00001, 3) == "0.000"
    assert fixed(float("nan")) == "–" and fixed(None, 2) == "–"
    assert fixed(math.inf, 2, missing="n/a") == "n/a"


def test_decimals_follow_the_standard_error():
    assert decimals_for(0.0004) == 5 and decimals_for(0.0004, 1) == 4
    assert decimals_for(25.0) == 0 and decimals_for(float("nan")) == 6
    assert decimals_for(0.023, ONE_OR_TWO) == 2 and decimals_for(0.013, ONE_OR_TWO) == 3
    assert decimals_for(0.4, ONE_OR_TWO) == 1
    assert decimals_for(float("nan"), ONE_OR_TWO, fallback=3) == 3


def test_format_uncertain_with_both_rules():
    assert format_uncertain(0.04703, 0.00041) == "0.04703 ± 0.00041"
    assert format_uncertain(0.04703, 0.00041, 1) == "0.0470 ± 0.0004"
    assert format_uncertain(1.01234, 0.023, ONE_OR_TWO) == "1.01 ± 0.02"
    assert format_uncertain(1.01234, 0.013, ONE_OR_TWO) == "1.012 ± 0.013"
    assert format_uncertain(1.01234, float("nan"), ONE_OR_TWO, fallback=2) == "1.01"
    assert format_uncertain(1.5, 0.0) == "1.500000"
    assert format_uncertain(float("nan"), 0.1) == "n/a"


def test_significant_digits_as_float():
    assert significant(0.012345) == 0.012 and significant(987654, 3) == 988000.0


def test_a_capped_standard_error_never_prints_as_plus_minus_zero():
    assert format_uncertain(0.123456789, 1e-9, ONE_OR_TWO, most=5) == "0.12346 (se < 0.000005)"


def test_a_claim_the_data_cannot_resolve_is_a_third_verdict():
    claims = [
        Claim("held", "0.5", "< 1", True),
        Claim("open", "0.00025 ± 0.00037", "detectable: ≥ 0.0007", None, "the test has no power"),
    ]
    text = claims_markdown(claims)
    assert text.splitlines()[3].endswith("| ○ |")
    counts = "1 of 2 claims hold at these parameters, 0 do not hold and 1 cannot be resolved"
    assert f"{counts} by the data." in text
    assert "- ○ *open*: the test has no power" in text
    assert [c.as_dict()["holds"] for c in claims] == [True, None]
    assert [verdict(h) for h in (True, False, None)] == ["✓", "✗", "○"]


def test_a_claim_is_one_emphasis_whatever_its_stars_and_underscores():
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    from attnspec.present.tables import emphasized

    myst = MarkdownIt().use(dollarmath_plugin)  # the book's Markdown: CommonMark with $…$ math

    for claim, shown in [
        ("Hadamard-power hypothesis: α* = 1/2", "Hadamard-power hypothesis: α* = 1/2"),
        ("below α*, d_qk = 64 lies above α*", "below α*, d_qk = 64 lies above α*"),
        (
            "$a_*$ and `x*y`, *not* it",
            '<span class="math inline">a_*</span> and <code>x*y</code>, *not* it',
        ),
    ]:
        assert myst.render(emphasized(claim)) == f"<p><em>{shown}</em></p>\n"
    text = claims_markdown([Claim("α* = 1/2", "0.4", "< 1", False, "too low")])
    assert text.endswith(r"- ✗ *α\* = 1/2*: too low")
