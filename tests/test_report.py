"""Claims tables: pipes escaped (outside and inside math), claims embedded and read back."""

from attnspec.report import Claim, claims_from_markdown, claims_markdown, markdown_table


def test_pipes_are_escaped_so_every_row_keeps_its_cells():
    table = markdown_table(
        ["claim", "criterion"], [["a", "max |row sum − 1| < 1e-12"], ["b", "$|z| < 3$"]]
    )
    rows = table.splitlines()
    assert rows[2] == r"| a | max \|row sum − 1\| < 1e-12 |"
    assert rows[3] == r"| b | $\vert z\vert  < 3$ |"


def test_claims_round_trip_through_the_markdown_output():
    claims = [
        Claim("x -- y", "1.0", "|x| < 2", True, provenance="derived here"),
        Claim("z", "3", "< 2", False, "z is too large", "sanity check"),
    ]
    text = claims_markdown(claims)
    assert "1 of 2 claims hold" in text and "- ✗ *z*: z is too large" in text
    assert "-- y" not in text.split("<!--")[1].rsplit("-->")[0]  # "--" cannot end the comment early
    read = claims_from_markdown(text)
    assert [c["claim"] for c in read] == ["x -- y", "z"]
    assert [c["holds"] for c in read] == [True, False]
    assert read[0]["provenance"] == "derived here"


def test_text_without_claims_gives_none():
    assert claims_from_markdown("| a | b |") == []
