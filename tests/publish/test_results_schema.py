"""The results file's JSON Schema (attnspec/publish/results.schema.json): every stored results file
meets it, a file that does not is refused in one line naming where, and the schema ships with the
package."""

from __future__ import annotations

import copy
import json
import math
import tomllib

import matplotlib.pyplot as plt
import pytest
from jsonschema import Draft202012Validator

from attnspec.core.errors import InvalidInput
from attnspec.present import record
from attnspec.present.claims import Claim
from attnspec.publish import provenance
from attnspec.publish.paths import EXECUTED, ROOT

STORED = sorted(EXECUTED.glob("*.results.json"))


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(json.loads(provenance.SCHEMA.read_text()))


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.name)
def test_every_stored_results_file_meets_the_schema(path):
    data = json.loads(path.read_text())
    assert list(provenance.schema_validator().iter_errors(data)) == []
    assert provenance.check_results(data, path) is data


@pytest.mark.parametrize(
    "break_it, where",
    [
        (lambda d: d["values"][1].update(kind="colour"), "values[1].kind"),
        (lambda d: d["values"][0].update(value="3"), "values[0].value"),
        (lambda d: d["claims"][0].update(holds="yes"), "claims[0].holds"),
        (lambda d: d.pop("claims"), "the file"),
        (lambda d: d["attnspec"].update(commit="abc-dirty"), "attnspec.commit"),
    ],
)
def test_a_file_off_the_schema_is_refused_in_one_line_naming_where(break_it, where):
    data = copy.deepcopy(json.loads((EXECUTED / "ladder.results.json").read_text()))
    assert data["values"][0]["kind"] == "number"
    break_it(data)
    with pytest.raises(InvalidInput) as raised:
        provenance.check_results(data, "x.results.json")
    message = str(raised.value)
    assert (
        message.startswith(f"x.results.json: not a results file ({where}: ") and "\n" not in message
    )


def test_the_schema_is_package_data():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert provenance.SCHEMA.name in data["package-data"]["attnspec.publish"]


def test_a_record_of_every_kind_meets_the_schema():
    """What a study records (attnspec.present.record) is strict JSON and a valid results file: a
    float that is not finite is text, never a number NaN."""
    fig = plt.figure()
    values = [
        record.entry(key, value)
        for key, value in [("k_n", 3), ("k_x", 0.5), ("k_s", "≤ 1e-12"), ("k_nan", math.nan)]
    ] + [record.entry("k_fig", fig)]
    plt.close(fig)
    claims = [Claim("c", "1", "< 2", None, "no power").as_dict()]
    strict = json.dumps({"chapter": "ladder", "values": values, "claims": claims}, allow_nan=False)
    data = json.loads(strict)
    assert provenance.check_results(data, "x.results.json") is data
    assert [v["kind"] for v in data["values"]] == ["number", "number", "markdown", "text", "figure"]
