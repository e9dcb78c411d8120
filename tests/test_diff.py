"""`attnspec diff` and the provenance records it reads: value by value, claims by verdict, bad
input."""

from __future__ import annotations

import json

import nbformat
import pytest

from attnspec.cli import main
from attnspec.core.claims import Claim
from attnspec.core.errors import InvalidInput
from attnspec.publish import provenance
from tests.helpers import claims_output, glue_output, notebook_with


def _notebook(values: dict, holds: list[bool]) -> nbformat.NotebookNode:
    claims = [Claim(f"claim {i}", "1", "< 2", h) for i, h in enumerate(holds)]
    return notebook_with(
        [glue_output(key, text) for key, text in values.items()] + [claims_output(claims)]
    )


def _write(folder, chapter, values, holds, parameters=None):
    folder.mkdir(parents=True, exist_ok=True)
    notebook = folder / f"{chapter}.ipynb"
    nbformat.write(_notebook(values, holds), notebook)
    return provenance.write_results(notebook, chapter, parameters or {"d": 1000})


def test_results_file_holds_values_claims_versions(tmp_path):
    path = _write(
        tmp_path, "ladder", {"x_int": "8", "x_float": "0.0171", "x_str": "'≤ 1e-12'"}, [True, False]
    )
    data = json.loads(path.read_text())
    assert (
        path.name == "ladder.results.json"
        and data["chapter"] == "ladder"
        and data["parameters"] == {"d": 1000}
    )
    assert data["values"][0] == {"key": "x_int", "kind": "number", "value": 8, "text": "8"}
    assert data["values"][1]["value"] == 0.0171 and data["values"][2]["value"] == "'≤ 1e-12'"
    assert [c["holds"] for c in data["claims"]] == [True, False]
    assert set(data["versions"]) >= {"python", "numpy", "scipy", "matplotlib", "blas", "attnspec"}
    assert data["time"].endswith("+00:00")
    assert list(tmp_path.glob(".*")) == []  # written atomically, nothing temporary left


def test_diff_lists_changed_values_and_claims(tmp_path, capsys):
    a = _write(tmp_path / "a", "ladder", {"k": "3", "x": "0.0421", "s": "'same'"}, [True, True])
    b = _write(tmp_path / "b", "ladder", {"k": "3", "x": "0.0148", "s": "'same'"}, [True, False])
    assert main(["diff", str(a.parent), str(b), "--json", str(tmp_path / "d.json")]) == 0
    out = capsys.readouterr().out
    assert "1 of 3 glued values changed" in out and "2 values unchanged" in out
    line = next(x for x in out.splitlines() if x.startswith("x "))
    assert "0.0148" in line and "0.0421" in line and "+184 %" in line
    assert "✗ -> ✓  claim 1" in out
    data = json.loads((tmp_path / "d.json").read_text())
    assert data["chapter"] == "ladder"
    x = next(v for v in data["values"] if v["key"] == "x")
    assert (
        x["a"] == "0.0421"
        and x["b"] == "0.0148"
        and x["rel_change"] == pytest.approx((0.0421 - 0.0148) / 0.0148)
    )
    assert data["claims"] == [{"claim": "claim 1", "a": "✓", "b": "✗"}]


def test_diff_treats_not_resolvable_as_a_third_verdict(tmp_path, capsys):
    """○ (holds None) is a verdict of its own: a change to or from it is a change, and a claim that
    one run does not have shows –."""
    a = _write(tmp_path / "a", "ladder", {"k": "3"}, [None, True, None])
    b = _write(tmp_path / "b", "ladder", {"k": "3"}, [True, True])
    assert main(["diff", str(a), str(b), "-o", str(tmp_path / "d.json")]) == 0
    out = capsys.readouterr().out
    assert "✓ -> ○  claim 0" in out and "– -> ○  claim 2" in out and "claim 1" not in out
    data = json.loads((tmp_path / "d.json").read_text())
    assert [(c["b"], c["a"]) for c in data["claims"]] == [("✓", "○"), ("–", "○")]


def test_diff_defaults_to_the_published_chapter(tmp_path, capsys):
    from attnspec.core.paths import EXECUTED

    published = json.loads((EXECUTED / "ladder.results.json").read_text())
    values = {v["key"]: v["text"] for v in published["values"] if v["kind"] != "figure"}
    first = next(iter(values))
    values[first] = "12345.0"
    a = _write(tmp_path, "ladder", values, [])
    assert main(["diff", str(a)]) == 0
    out = capsys.readouterr().out
    assert f"1 of {len(values)} glued values changed" in out and first in out


@pytest.mark.parametrize(
    "case, message",
    [
        ("missing", "no such file or folder"),
        ("other-chapter", "different chapters"),
        ("not-json", "not a results file"),
        ("empty-folder", "holds no"),
        ("json-folder", "does not exist"),
    ],
)
def test_diff_bad_input_is_one_line_and_status_2(case, message, tmp_path, capsys):
    a = _write(tmp_path / "a", "ladder", {"k": "3"}, [])
    b = _write(tmp_path / "b", "setup", {"k": "3"}, [])
    args = {
        "missing": [str(tmp_path / "nope.results.json")],
        "other-chapter": [str(a), str(b)],
        "not-json": [str(tmp_path / "a" / "ladder.ipynb")],
        "empty-folder": [str(tmp_path / "a"), str(tmp_path)],
        "json-folder": [str(a), str(a), "--json", str(tmp_path / "no" / "d.json")],
    }[case]
    assert main(["diff", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "no").exists()


def test_diff_raises_invalid_input_for_different_chapters():
    with pytest.raises(InvalidInput, match="different chapters"):
        provenance.diff(
            {"chapter": "a", "values": [], "claims": []},
            {"chapter": "b", "values": [], "claims": []},
        )


def test_relative_change_only_for_numbers():
    num = {"kind": "number", "value": 2.0}
    assert provenance._rel_change(dict(num, value=3.0), num) == pytest.approx(0.5)
    assert provenance._rel_change({"kind": "text", "value": "x"}, num) is None
    assert provenance._rel_change(num, dict(num, value=0.0)) is None
