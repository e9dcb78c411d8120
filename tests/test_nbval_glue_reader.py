"""The nbval glue check's reader: glued values read back from a notebook's outputs, by kind (nbval
has no study object; the results file is written from the study's typed values)."""

from tests.helpers import glue_output, notebook_with
from tests.nbval_glue import glued_values, notebook_outputs


def test_glued_values_by_kind():
    nb = notebook_with(
        [
            glue_output("x_float", "0.0171"),
            glue_output("x_int", "8"),
            glue_output("x_nan", "nan"),
            glue_output(
                "x_md",
                {"text/markdown": "**a**", "text/plain": "<IPython.core.display.Markdown object>"},
            ),
            glue_output(
                "x_fig", {"image/png": "iVBOR", "text/plain": "<Figure size 10x4 with 1 Axes>"}
            ),
        ]
    )
    values = glued_values(notebook_outputs(nb))
    assert list(values) == ["x_float", "x_int", "x_nan", "x_md", "x_fig"]
    assert values["x_float"].number == 0.0171 and values["x_float"].kind == "number"
    assert values["x_int"].number == 8.0
    assert values["x_nan"].number is None and values["x_nan"].kind == "text"
    assert values["x_md"].kind == "markdown" and values["x_md"].text == "**a**"
    assert values["x_fig"].kind == "figure"
