"""Reading glued values and claims back from an executed notebook."""

import nbformat

from attnspec.publish.executed import claims, glued_values
from attnspec.publish.report import Claim, claims_markdown


def _glue(key, data):
    return nbformat.v4.new_output(
        "display_data",
        data=data,
        metadata={"scrapbook": {"name": key, "mime_prefix": "application/papermill.record/"}},
    )


def _notebook():
    rec = "application/papermill.record/"
    cell = nbformat.v4.new_code_cell("...")
    cell.outputs = [
        _glue("x_float", {rec + "text/plain": "0.0171"}),
        _glue("x_int", {rec + "text/plain": "8"}),
        _glue("x_str", {rec + "text/plain": "'≤ 1e-12'"}),
        _glue(
            "x_md",
            {
                rec + "text/markdown": "**a**",
                rec + "text/plain": "<IPython.core.display.Markdown object>",
            },
        ),
        _glue(
            "x_fig",
            {rec + "image/png": "iVBOR", rec + "text/plain": "<Figure size 10x4 with 1 Axes>"},
        ),
        nbformat.v4.new_output(
            "display_data", data={"text/markdown": claims_markdown([Claim("c", "1", "< 2", True)])}
        ),
    ]
    nb = nbformat.v4.new_notebook()
    nb.cells = [cell]
    return nb


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
