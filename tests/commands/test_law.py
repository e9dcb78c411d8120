"""Tests of ``attnspec law``: output, JSON, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import math

import pytest

from attnspec.cli import main
from attnspec.laws.gaussian_equivalent import GaussianEquivalentLaw


def test_prints_edge_mean_pdf_cdf(capsys):
    assert main(["law", "--beta", "1", "--at", "0.5,1,2,9.5"]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert "edge lambda_+ = 9.009543" in out.out
    assert "operator norm 3.001590" in out.out
    assert "mean = 1.718282" in out.out
    law = GaussianEquivalentLaw.for_f(1.0)
    lines = out.out.splitlines()
    row = next(line for line in lines if line.split() and line.split()[0] == "1.000000")
    assert row.split()[1:] == [f"{law.pdf(1.0):.6f}", f"{law.cdf(1.0):.6f}"]
    row = next(line for line in lines if line.split() and line.split()[0] == "9.500000")
    assert row.split()[1:] == ["0.000000", "1.000000"]


def test_default_points_and_stable_output(capsys):
    assert main(["law"]) == 0  # beta defaults to 1
    out = capsys.readouterr().out
    assert main(["law"]) == 0 and capsys.readouterr().out == out
    # 0.1, 0.25, 0.5, 0.75, 0.9 of the edge 9.00954, to 4 significant digits
    for x in ["0.901000", "2.252000", "4.505000", "6.757000", "8.109000"]:
        assert x in out


@pytest.mark.parametrize("option", ["-o", "--output", "--json"])  # --json: deprecated alias
def test_json(tmp_path, capsys, option):
    path = tmp_path / "law.json"
    assert main(["law", "--beta", "1", "--at", "0,1,2", option, str(path)]) == 0
    data = json.loads(path.read_text())
    law = GaussianEquivalentLaw.for_f(1.0)
    assert data["edge"] == pytest.approx(9.00954, abs=1e-4)
    assert data["mean"] == pytest.approx(math.e - 1)
    assert set(data["pdf"]) == set(data["cdf"]) == {"0.0", "1.0", "2.0"}
    assert data["pdf"]["2.0"] == pytest.approx(float(law.pdf(2.0)), rel=1e-12)
    assert data["cdf"]["1.0"] == pytest.approx(float(law.cdf(1.0)), rel=1e-12)
    assert data["pdf"]["0.0"] is None  # infinite density at 0
    assert data["cdf"]["0.0"] == 0.0


def test_theta_override(tmp_path, capsys):
    path = tmp_path / "t.json"
    assert main(["law", "--theta1", "2", "--theta2", "0", "--at", "8", "-o", str(path)]) == 0
    data = json.loads(path.read_text())
    assert data["edge"] == pytest.approx(8.0)  # Marchenko-Pastur: 4 theta1
    assert data["cdf"]["8.0"] == 1.0
    assert "(given)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, text",
    [
        (["--theta1", "1"], "--theta1 and --theta2 must be given together"),
        (["--theta2", "1"], "--theta1 and --theta2 must be given together"),
        (["--theta1", "1", "--theta2", "2"], "theta2=2.0 is out of range"),
        (["--theta1", "-1", "--theta2", "0"], "theta1=-1.0 is out of range"),
        (["--theta1", "nan", "--theta2", "0"], "theta1=nan is not finite"),
        (["--theta1", "x", "--theta2", "0"], "theta1='x' is not of type float"),
        (["--beta", "0"], "beta=0.0 is out of range"),
        (["--beta", "-1"], "beta=-1.0 is out of range"),
        (["--beta", "abc"], "beta='abc' is not of type float"),
        (["--at", "a,b"], "at='a,b'"),
        (["--at", ","], "at=','"),
        (["--at", "1,inf"], "finite"),
    ],
)
def test_invalid_input(argv, text, tmp_path, capsys):
    path = tmp_path / "out.json"
    assert main(["law", *argv, "-o", str(path)]) == 2
    err = capsys.readouterr()
    assert err.out == ""
    lines = err.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("attnspec law: error:")
    assert text in lines[0]
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", ["--output", "--json"])
def test_missing_json_folder(tmp_path, capsys, option):
    target = tmp_path / "no" / "x.json"
    assert main(["law", option, str(target)]) == 2
    err = capsys.readouterr()
    assert (
        err.out == ""
        and "does not exist" in err.err
        and f"{option} " in err.err
        and len(err.err.strip().splitlines()) == 1
    )
    assert not target.parent.exists()


def test_unknown_option(capsys):
    with pytest.raises(SystemExit) as info:
        main(["law", "--nope"])
    assert info.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
