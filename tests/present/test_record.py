"""The record a chapter's study hands to the executor (attnspec.present.record): every glued value
typed as the study gave it, with the text the page shows, and every claim; the results file is
built from it, and an executed chapter's results file equals the study's values and claims."""

from __future__ import annotations

import json
import numbers

import matplotlib.pyplot as plt
import pytest
from IPython.core.formatters import DisplayFormatter

from attnspec.chapters.base import ChapterStudy
from attnspec.chapters.setup import Setup
from attnspec.cli import main
from attnspec.present import record
from attnspec.present.claims import Claim
from attnspec.present.interactive import InteractiveFigure
from attnspec.publish import provenance

SMALL = dict(d=40, beta=1.0, seed=0, c_poly=2.0)


@pytest.fixture
def shown(monkeypatch) -> dict[str, dict]:
    """What each ``glue`` call stores, by key: the MIME bundle IPython's display formatter gives
    the glued object, as in a kernel (``text/plain``, and ``text/markdown`` for Markdown)."""
    formatter, bundles = DisplayFormatter(), {}
    monkeypatch.setattr(
        "myst_nb.glue",
        lambda key, value, display: bundles.update({key: formatter.format(value)[0]}),
    )
    return bundles


@pytest.fixture
def recording(tmp_path, monkeypatch):
    """The record's file, named by the environment as the executor names it for the kernel."""
    path = tmp_path / "kernel" / "record.json"
    monkeypatch.setenv(record.RECORD, str(path))
    return path


def typed(value):
    """``value`` as glued: a Python int, float or str (NumPy scalars and bools converted)."""
    if isinstance(value, bool | numbers.Integral):
        return int(value)
    return float(value) if isinstance(value, numbers.Real) else str(value)


def page_text(bundle: dict) -> str:
    """The text a glued output shows: its Markdown, else its plain text."""
    return bundle.get("text/markdown", bundle["text/plain"])


def test_each_value_is_recorded_typed_with_the_text_it_shows(shown):
    fig = plt.figure(figsize=(7, 3.4))
    fig.add_subplot()
    for key, value in [("a_n", 8), ("a_x", 0.1), ("a_small", 1.1e-05), ("a_s", "≤ 1e-12")]:
        assert record.entry(key, value)["value"] == value
        assert type(record.entry(key, value)["value"]) is type(value)
    assert record.entry("a_n", 8)["kind"] == "number" and record.entry("a_s", "x")["kind"] == (
        "markdown"
    )
    assert record.entry("a_fig", fig) == {
        "key": "a_fig",
        "kind": "figure",
        "value": None,
        "text": "<Figure size 700x340 with 1 Axes>",
    }
    plt.close(fig)
    live = InteractiveFigure(figure=None, div_id="demo-div", static=None, label="")
    assert record.entry("a_live", live)["text"] == "<interactive figure demo-div>"
    # a float that is not finite is text in strict JSON, as the page prints it
    assert record.entry("a_nan", float("nan")) == {
        "key": "a_nan",
        "kind": "text",
        "value": "nan",
        "text": "nan",
    }
    assert record.entry("a_inf", -float("inf"))["value"] == "-inf"


def test_without_the_variable_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.delenv(record.RECORD, raising=False)
    monkeypatch.chdir(tmp_path)
    assert record.write("setup", [record.entry("setup_d", 40)], []) is None
    assert list(tmp_path.iterdir()) == []


def test_a_missing_or_foreign_record_is_an_error(tmp_path, recording):
    with pytest.raises(RuntimeError, match="must call study.glue"):
        record.read(recording, "setup")
    record.write("ladder", [], [])
    assert record.read(recording, "ladder") == {"chapter": "ladder", "values": [], "claims": []}
    with pytest.raises(RuntimeError, match="ran the study of 'ladder'"):
        record.read(recording, "setup")


class Demo(ChapterStudy):
    """A study with a value of every kind, a figure, a shared value and two claims."""

    name, prefix = "demo", "demo"

    def compute(self) -> None:
        pass

    def values(self):
        return {"n": 3, "x": 0.0421, "s": "≤ 1e-12"}

    def figures(self):
        def draw():
            fig = plt.figure(figsize=(7, 3))
            fig.add_subplot()
            return fig

        return {"fig": draw}

    def shared_values(self):
        return {"book": {"scale": 2.718}}

    def claims(self):
        return [Claim("holds", "1", "< 2", True), Claim("open", "2", "< 2", None, "no power")]


def test_glue_records_values_figures_shared_values_and_claims_in_order(shown, recording):
    Demo({}).glue()
    got = record.read(recording, "demo")
    assert (
        [v["key"] for v in got["values"]]
        == list(shown)
        == [
            "demo_n",
            "demo_x",
            "demo_s",
            "demo_fig",
            "book_scale",
        ]
    )
    assert [v["kind"] for v in got["values"]] == [
        "number",
        "number",
        "markdown",
        "figure",
        "number",
    ]
    assert [v["text"] for v in got["values"]] == [page_text(b) for b in shown.values()]
    assert got["claims"] == [c.as_dict() for c in Demo({}).claims()]


def test_a_study_run_gives_a_results_file_of_its_typed_values_and_claims(shown, recording):
    study = Setup.run(**SMALL)
    study.glue()
    data = provenance.results("setup", study.params, record.read(recording, "setup"))
    provenance.check_results(json.loads(json.dumps(data)), "setup.results.json")
    by_key = {v["key"]: v for v in data["values"]}
    expected = {f"setup_{k}": typed(v) for k, v in study.values().items()}
    assert {k: v["value"] for k, v in by_key.items() if v["kind"] != "figure"} == expected
    for key, value in expected.items():
        assert type(by_key[key]["value"]) is type(value), key
    assert {k for k, v in by_key.items() if v["kind"] == "figure"} == {
        f"setup_{k}" for k in study.figures()
    }
    assert {k: v["text"] for k, v in by_key.items()} == {k: page_text(b) for k, b in shown.items()}
    assert data["claims"] == [c.as_dict() for c in study.claims()]
    assert [c["holds"] for c in data["claims"]] == [True, True, True]


@pytest.mark.slow  # executes the chapter in a kernel
def test_an_executed_chapters_results_file_is_its_studys_values_and_claims(tmp_path):
    overrides = [x for name, value in SMALL.items() for x in ("-p", name, str(value))]
    assert main(["run", "setup", *overrides, "-o", str(tmp_path)]) == 0
    data = provenance.load(tmp_path / "setup.results.json")
    study = Setup.run(**SMALL)
    values = {v["key"]: v["value"] for v in data["values"] if v["kind"] != "figure"}
    expected = {f"setup_{k}": typed(v) for k, v in study.values().items()}
    assert values == expected
    assert [type(values[k]) for k in expected] == [type(v) for v in expected.values()]
    assert data["claims"] == [c.as_dict() for c in study.claims()]
    assert not list(tmp_path.glob("record*"))  # the record stays in the kernel's private folder
