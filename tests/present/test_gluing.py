"""Glue from the package: every value under the chapter's prefix, in the form glue wants, and
what it glued, typed, for the chapter's record."""

import numpy as np
import pytest

from attnspec.present import gluing


def test_uncertain_rounds_value_and_error_alike():
    assert gluing.uncertain("rate", 0.7634, 0.0213) == {
        "rate": 0.76,
        "rate_se": 0.02,
        "rate_txt": "0.76 ± 0.02",
    }
    assert gluing.uncertain("m", 1.01234, 0.0132)["m_txt"] == "1.012 ± 0.013"


def test_glue_values_converts_numpy_scalars_and_text(monkeypatch):
    glued = {}
    monkeypatch.setattr("myst_nb.glue", lambda key, value, display: glued.update({key: value}))
    entries = gluing.glue_values(
        "ch", {"n": np.int64(8), "x": np.float64(0.25), "t": "≤ 1e-12", "b": True}
    )
    assert glued["ch_n"] == 8 and type(glued["ch_n"]) is int
    assert glued["ch_x"] == 0.25 and type(glued["ch_x"]) is float
    assert glued["ch_t"].data == "≤ 1e-12"
    # what it glued, typed, for the chapter's record: as glued, in order
    assert entries == [
        {"key": "ch_n", "kind": "number", "value": 8, "text": "8"},
        {"key": "ch_x", "kind": "number", "value": 0.25, "text": "0.25"},
        {"key": "ch_t", "kind": "markdown", "value": "≤ 1e-12", "text": "≤ 1e-12"},
        {"key": "ch_b", "kind": "number", "value": 1, "text": "1"},
    ]
    assert [type(e["value"]) for e in entries] == [int, float, str, int]
    with pytest.raises(TypeError, match="ch_bad"):
        gluing.glue_values("ch", {"bad": [1, 2]})
