"""Reading glued values and claims back from an executed notebook."""

from attnspec.present.claims import Claim
from attnspec.publish.executed import claims, glued_values
from tests.helpers import claims_output, glue_output, notebook_with


def _notebook():
    return notebook_with(
        [
            glue_output("x_float", "0.0171"),
            glue_output("x_int", "8"),
            glue_output("x_str", "'≤ 1e-12'"),
            glue_output(
                "x_md",
                {"text/markdown": "**a**", "text/plain": "<IPython.core.display.Markdown object>"},
            ),
            glue_output(
                "x_fig", {"image/png": "iVBOR", "text/plain": "<Figure size 10x4 with 1 Axes>"}
            ),
            claims_output([Claim("c", "1", "< 2", True)]),
        ]
    )


def test_glued_values_by_kind():
    values = glued_values(_notebook())
    assert list(values) == ["x_float", "x_int", "x_str", "x_md", "x_fig"]
    assert values["x_float"].number == 0.0171 and values["x_float"].kind == "number"
    assert values["x_int"].number == 8.0
    assert values["x_str"].number is None and values["x_str"].kind == "text"
    assert values["x_md"].kind == "markdown" and values["x_md"].text == "**a**"
    assert values["x_fig"].kind == "figure"


def test_claims_are_read_from_markdown_outputs():
    assert [c["claim"] for c in claims(_notebook())] == ["c"]
