"""A chapter reads as a paper: before its first result (the first output a reader sees) it shows
at most one code cell, its parameters; imports and setup fold (``hide-input``)."""

from __future__ import annotations

import json

import pytest

from attnspec.publish.chapters import toc_chapter_names
from attnspec.publish.paths import EXECUTED

HIDDEN_INPUT = {"remove-input", "hide-input", "remove-cell"}
HIDDEN_OUTPUT = {"hide-output", "remove-output", "remove-cell"}


def tags(cell: dict) -> set[str]:
    return set(cell["metadata"].get("tags", []))


def shows_output(cell: dict) -> bool:
    """Whether the page shows an output of ``cell`` (a glued value alone shows nothing)."""
    return not tags(cell) & HIDDEN_OUTPUT and any(
        not o.get("metadata", {}).get("scrapbook") for o in cell.get("outputs", [])
    )


def visible_before_first_result(notebook: dict) -> list[str]:
    """The first lines of the code cells whose source shows before the first shown output."""
    seen = []
    for cell in (c for c in notebook["cells"] if c["cell_type"] == "code"):
        if shows_output(cell):
            break
        if not tags(cell) & HIDDEN_INPUT:
            seen.append("".join(cell["source"]).splitlines()[0])
    return seen


@pytest.mark.parametrize("name", toc_chapter_names())
def test_a_chapter_shows_only_its_parameters_before_its_first_result(name):
    path = EXECUTED / f"{name}.ipynb"
    notebook = json.loads(path.read_text())
    shown = visible_before_first_result(notebook)
    assert len(shown) <= 1, shown
    parameters = [c for c in notebook["cells"] if "parameters" in tags(c)]
    assert not shown or "".join(parameters[0]["source"]).splitlines()[0] == shown[0]


def test_the_rule_sees_an_unfolded_import_cell():
    def cell(source, cell_tags=(), outputs=()):
        return {
            "cell_type": "code",
            "source": [source],
            "metadata": {"tags": list(cell_tags)},
            "outputs": list(outputs),
        }

    glued = {"output_type": "display_data", "metadata": {"scrapbook": {"name": "x"}}}
    table = {"output_type": "display_data", "metadata": {}}
    notebook = {
        "cells": [
            cell("d = 1", ["parameters"]),
            cell("import numpy"),
            cell("glue()", outputs=[glued]),
            cell("show()", outputs=[table]),
        ]
    }
    assert visible_before_first_result(notebook) == ["d = 1", "import numpy", "glue()"]
    notebook["cells"][1]["metadata"]["tags"] = ["hide-input"]
    notebook["cells"][2]["metadata"]["tags"] = ["remove-input"]
    assert visible_before_first_result(notebook) == ["d = 1"]
