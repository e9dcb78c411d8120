"""`attnspec diff` and the provenance records it reads: value by value, claims by verdict, bad
input."""

from __future__ import annotations

import json

import pytest

from attnspec.cli import main
from attnspec.core.atomic import write_json
from attnspec.core.errors import InvalidInput
from attnspec.present import record
from attnspec.present.claims import Claim
from attnspec.publish import diff, provenance
from tests.helpers import strict_json


def _write(folder, chapter, values, holds, parameters=None):
    """The results file of a run of ``chapter`` whose study glued ``values`` (typed, by key) and
    claimed claims that hold as ``holds`` says."""
    claims = [Claim(f"claim {i}", "1", "< 2", h) for i, h in enumerate(holds)]
    recorded = {
        "values": [record.entry(key, value) for key, value in values.items()],
        "claims": [c.as_dict() for c in claims],
    }
    path = folder / f"{chapter}{provenance.SUFFIX}"
    write_json(path, provenance.results(chapter, parameters or {"d": 1000}, recorded))
    return path


def test_results_file_holds_values_claims_versions(tmp_path):
    path = _write(
        tmp_path, "ladder", {"x_int": 8, "x_float": 0.0171, "x_str": "≤ 1e-12"}, [True, False]
    )
    data = provenance.load(path)
    assert data["chapter"] == "ladder" and data["parameters"] == {"d": 1000}
    assert data["values"][0] == {"key": "x_int", "kind": "number", "value": 8, "text": "8"}
    assert data["values"][1]["value"] == 0.0171 and data["values"][2]["value"] == "≤ 1e-12"
    assert [c["holds"] for c in data["claims"]] == [True, False]
    assert set(data["versions"]) >= {"python", "numpy", "scipy", "matplotlib", "blas", "attnspec"}
    assert data["time"].endswith("+00:00") and data["recorded_from"] == "execution"


def test_diff_lists_changed_values_and_claims(tmp_path, capsys):
    a = _write(tmp_path / "a", "ladder", {"k": 3, "x": 0.0421, "s": "same"}, [True, True])
    b = _write(tmp_path / "b", "ladder", {"k": 3, "x": 0.0148, "s": "same"}, [True, False])
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
    a = _write(tmp_path / "a", "ladder", {"k": 3}, [None, True, None])
    b = _write(tmp_path / "b", "ladder", {"k": 3}, [True, True])
    assert main(["diff", str(a), str(b), "-o", str(tmp_path / "d.json")]) == 0
    out = capsys.readouterr().out
    assert "✓ -> ○  claim 0" in out and "– -> ○  claim 2" in out and "claim 1" not in out
    data = json.loads((tmp_path / "d.json").read_text())
    assert [(c["b"], c["a"]) for c in data["claims"]] == [("✓", "○"), ("–", "○")]


def test_diff_defaults_to_the_published_chapter(tmp_path, capsys):
    from attnspec.publish.paths import EXECUTED

    published = json.loads((EXECUTED / "ladder.results.json").read_text())
    values = {v["key"]: v["value"] for v in published["values"] if v["kind"] != "figure"}
    first = next(iter(values))
    values[first] = 12345.0
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
    a = _write(tmp_path / "a", "ladder", {"k": 3}, [])
    b = _write(tmp_path / "b", "setup", {"k": 3}, [])
    (tmp_path / "a" / "notes.txt").write_text("not JSON")
    args = {
        "missing": [str(tmp_path / "nope.results.json")],
        "other-chapter": [str(a), str(b)],
        "not-json": [str(tmp_path / "a" / "notes.txt")],
        "empty-folder": [str(tmp_path / "a"), str(tmp_path)],
        "json-folder": [str(a), str(a), "--json", str(tmp_path / "no" / "d.json")],
    }[case]
    assert main(["diff", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "no").exists()


def test_diff_raises_invalid_input_for_different_chapters():
    with pytest.raises(InvalidInput, match="different chapters"):
        diff.diff(
            {"chapter": "a", "values": [], "claims": []},
            {"chapter": "b", "values": [], "claims": []},
        )


def test_relative_change_only_for_numbers():
    num = {"kind": "number", "value": 2.0}
    assert diff._rel_change(dict(num, value=3.0), num) == pytest.approx(0.5)
    assert diff._rel_change({"kind": "text", "value": "x"}, num) is None
    assert diff._rel_change(num, dict(num, value=0.0)) is None


# ---- files before stdout, a chapter name is no path, no file is trusted --------------------------


def _results(tmp_path, name: str, **fields) -> str:
    """A results file of the ladder with one numeric value, ``fields`` replacing its own."""
    data = {
        "chapter": "ladder",
        "values": [{"key": "k", "kind": "number", "value": 3, "text": "3"}],
        "claims": [{"claim": "c", "holds": None}],
    } | fields
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


@pytest.mark.parametrize("stdout", ["full", "closed pipe"])
def test_diff_writes_its_file_before_printing(stdout, tmp_path):
    import os
    import stat

    from tests.helpers import attnspec

    values = [{"key": f"k{i}", "kind": "number", "value": i, "text": str(i)} for i in range(400)]
    a = _results(tmp_path, "a.json", values=values)
    b = _results(tmp_path, "b.json", values=[dict(v, value=-1, text="-1") for v in values])
    if stdout == "full":
        os.mknod(tmp_path / "full", stat.S_IFCHR | 0o666, os.makedev(1, 7))  # a /dev/full node
        with open(tmp_path / "full", "w") as out:
            done = attnspec("diff", a, b, "-o", "o.json", cwd=tmp_path, stdout=out)
        assert done.returncode == 74 and "No space left on device" in done.stderr
    else:  # as in `attnspec diff ... | head -1`, the reader gone before the first line
        read_end, write_end = os.pipe()
        os.close(read_end)
        try:
            done = attnspec("diff", a, b, "-o", "o.json", cwd=tmp_path, stdout=write_end)
        finally:
            os.close(write_end)
        assert done.returncode == 0 and done.stderr == ""
    assert len(json.loads((tmp_path / "o.json").read_text())["values"]) == 400


def test_diff_refuses_a_chapter_that_is_a_path(tmp_path, capsys):
    """A file naming ``"chapter": "/…/abs"`` would be compared with ``/…/abs.results.json``."""
    fake = str(tmp_path / "abs")
    path = _results(tmp_path, "abs.results.json", chapter=fake)
    assert main(["diff", path]) == 2
    err = capsys.readouterr().err
    assert f"chapter {fake!r} is not a chapter of the book" in err and err.count("\n") == 1


DEEP = "[" * 100_000 + "]" * 100_000
MALFORMED = {
    "values [1]": {"values": [1]},
    'values "x"': {"values": "x"},
    'claims "abc"': {"claims": "abc"},
    "claims [1]": {"claims": [1]},
    "holds 1": {"claims": [{"claim": "c", "holds": 1}]},
    "holds missing": {"claims": [{"claim": "c"}]},
    'value "abc"': {"values": [{"key": "k", "kind": "number", "value": "abc", "text": "3"}]},
    "value null": {"values": [{"key": "k", "kind": "number", "value": None, "text": "3"}]},
    "value 1e400": '{"chapter": "ladder", "values": [{"key": "k", "kind": "number", '
    '"value": 1e400, "text": "3"}], "claims": []}',
    "value 10^400": {"values": [{"key": "k", "kind": "number", "value": 10**400, "text": "3"}]},
    "value NaN": '{"chapter": "ladder", "values": [{"key": "k", "kind": "number", '
    '"value": NaN, "text": "3"}], "claims": []}',
    "value true": {"values": [{"key": "k", "kind": "number", "value": True, "text": "3"}]},
    "text missing": {"values": [{"key": "k", "kind": "number", "value": 3}]},
    "kind unknown": {"values": [{"key": "k", "kind": "table", "value": 3, "text": "3"}]},
    "chapter 7": {"chapter": 7},
    "100k-deep nesting": {"values": "DEEP"},
    "a list": "[]",
}


@pytest.mark.parametrize("case", list(MALFORMED))
@pytest.mark.parametrize("side", ["A", "B"])
def test_a_malformed_results_file_is_one_line_and_status_2(case, side, tmp_path, capsys):
    fields = MALFORMED[case]
    if isinstance(fields, str):
        bad = tmp_path / "bad.json"
        bad.write_text(fields)
        bad = str(bad)
    else:
        bad = _results(tmp_path, "bad.json", **fields)
        if fields.get("values") == "DEEP":
            (tmp_path / "bad.json").write_text(
                (tmp_path / "bad.json").read_text().replace('"DEEP"', DEEP)
            )
    good = _results(tmp_path, "good.json")
    a, b = (bad, good) if side == "A" else (good, bad)
    assert main(["diff", a, b, "-o", str(tmp_path / "o.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("attnspec diff: error: ") and err.count("\n") == 1, err
    assert "not a results file" in err and "Traceback" not in err
    assert not (tmp_path / "o.json").exists()


def test_a_change_from_minus_to_plus_the_largest_float_is_written_strictly(tmp_path, capsys):
    a = _results(
        tmp_path, "a.json", values=[{"key": "k", "kind": "number", "value": 1e308, "text": "1e308"}]
    )
    b = _results(
        tmp_path,
        "b.json",
        values=[{"key": "k", "kind": "number", "value": -1e308, "text": "-1e308"}],
    )
    assert main(["diff", a, b, "-o", str(tmp_path / "o.json")]) == 0
    assert "+200 %" in capsys.readouterr().out
    [value] = strict_json(tmp_path / "o.json")["values"]
    assert value["rel_change"] == 2.0


# ---- diff on untrusted files ---------------------------------------------------------------------


def test_terminal_escapes_in_a_file_are_printed_escaped(tmp_path, capsys):
    key = "k\x1b[2K\r0 of 1 glued values changed"
    a = _results(
        tmp_path, "a.json", values=[{"key": key, "kind": "number", "value": 3, "text": "3"}]
    )
    b = _results(
        tmp_path, "b.json", values=[{"key": key, "kind": "number", "value": 4, "text": "4\x1b[1A"}]
    )
    assert main(["diff", a, b]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\r" not in out
    assert "k\\x1b[2K\\r0 of 1" in out and "4\\x1b[1A" in out


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "too large"])
def test_only_a_regular_file_of_bounded_size_is_read(kind, tmp_path, capsys, monkeypatch):
    import os

    path = tmp_path / "x.results.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    else:
        monkeypatch.setattr(provenance, "MAX_RESULTS_BYTES", 10)
        path.write_text(_results(tmp_path, "big.json") and (tmp_path / "big.json").read_text())
    for given in (path, tmp_path):  # the file, or the run folder that holds it
        assert main(["diff", str(given), _results(tmp_path, "good.json")]) == 2
        err = capsys.readouterr().err
        assert "not a results file" in err and err.count("\n") == 1, err


def test_claims_are_paired_by_claim_not_by_position(tmp_path, capsys):
    claims = [{"claim": n, "holds": True} for n in ("first", "second", "third")]
    a = _results(tmp_path, "a.json", claims=claims[1:])  # the re-run lacks claim 0
    b = _results(tmp_path, "b.json", claims=claims)
    result = diff.diff(provenance.load(a), provenance.load(b))
    assert [(c.claim, c.a, c.b) for c in result.claims] == [("first", "–", "✓")]


def test_a_repeated_key_among_many_values_is_found_in_linear_time(tmp_path):
    """The repeated key was searched with ``list.count`` for each key, quadratic in
    the number of values (160k values did not finish in 900 s). Counted in key comparisons, not
    in seconds: a linear search compares each key a few times at most."""
    compared = [0]

    class Key(str):
        __hash__ = str.__hash__

        def __eq__(self, other):
            compared[0] += 1
            return str.__eq__(self, other)

    n = 3000
    keys = [Key(f"k{i}") for i in range(n)] + [Key(f"k{n - 1}")]
    values = [{"key": k, "kind": "number", "value": 1, "text": "1"} for k in keys]
    data = {"chapter": "ladder", "values": values, "claims": []}
    with pytest.raises(InvalidInput, match=f"the value key 'k{n - 1}' appears more than once"):
        provenance.check_results(data, "x.results.json")
    assert compared[0] <= 4 * n


def test_diff_never_writes_into_the_books_chapters_or_over_its_inputs(
    tmp_path, capsys, monkeypatch
):
    """``diff … -o book/chapters/setup.results.json`` replaced the book's file, and
    ``-o A`` its own input."""
    from attnspec.publish import paths

    stored = tmp_path / "book" / "chapters"
    stored.mkdir(parents=True)
    monkeypatch.setattr(paths, "EXECUTED", stored)
    a, b = _results(tmp_path, "a.json"), _results(tmp_path, "b.json")
    before = {p: (tmp_path / p).read_bytes() for p in ("a.json", "b.json")}
    for output, words in (
        (stored / "ladder.results.json", "is in the book's stored chapters"),
        (stored / "other.json", "is in the book's stored chapters"),
        (a, "is an input of this diff"),
        (b, "is an input of this diff"),
    ):
        assert main(["diff", a, b, "-o", str(output)]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err
    assert {p: (tmp_path / p).read_bytes() for p in before} == before
    assert list(stored.iterdir()) == []


def test_a_key_given_twice_in_a_results_file_is_refused(tmp_path, capsys):
    """A results file with ``"chapter"`` twice was read last-wins."""
    good = json.loads(open(_results(tmp_path, "good.json")).read())
    text = json.dumps(good)
    twice = tmp_path / "twice.json"
    twice.write_text(text.replace('"chapter": "ladder"', '"chapter": "setup", "chapter": "ladder"'))
    assert main(["diff", str(twice), str(tmp_path / "good.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the key 'chapter' appears twice" in err
