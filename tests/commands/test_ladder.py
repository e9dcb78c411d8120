"""``attnspec ladder``: the printed summary, the -o/--output file (formerly --json), and one-line
errors with status 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import attnspec.core.config as config
from attnspec.experiments.trials import run_ladder
from attnspec.models.ladder import MODEL_NAMES
from attnspec.models.nonlinearity import poly_degree, theta_f, theta_q
from tests.helpers import cli_status

SMALL = ["--d", "48", "--trials", "2", "--seed", "3"]
KEYS = {
    "d",
    "beta",
    "trials",
    "seed",
    "poly_degree",
    "theta_f",
    "theta_q",
    "theta_q_mc",
    "theta_q_mc_se",
    "s1_A_mean",
    "D_mean",
    "D_std",
    "D_max_dev",
    "l1",
    "top_sq",
}


def test_prints_summary_and_writes_json(tmp_path, capsys):
    out_json = tmp_path / "summary.json"
    assert cli_status(["ladder", *SMALL, "-o", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert "polynomial degree n_d = " + str(poly_degree(48, 2.0)) in out
    assert "theta statistics" in out and "mean s1(A)" in out and "normalizers D_i" in out
    for name in MODEL_NAMES:
        assert name in out

    s = json.loads(out_json.read_text())
    assert KEYS <= s.keys()
    assert (s["d"], s["beta"], s["trials"], s["seed"]) == (48, 1.0, 2, 3)
    assert s["poly_degree"] == poly_degree(48, 2.0)
    assert s["theta_f"] == pytest.approx(list(theta_f(1.0)))
    assert s["theta_q"] == pytest.approx(list(theta_q(1.0, s["poly_degree"])))
    assert s["s1_A_mean"] >= 1 - 1e-12

    # every value of the file is what the library computes for the same parameters
    expected = run_ladder(d=48, trials=2, seed=3).summary()
    for key in KEYS - {"d", "beta", "trials", "seed", "poly_degree", "l1", "top_sq"}:
        assert s[key] == pytest.approx(expected[key], rel=1e-12), key
    for name in MODEL_NAMES:
        assert s["l1"][name] == pytest.approx(expected["l1"][name], rel=1e-12, abs=1e-15)
        assert s["top_sq"][name] == pytest.approx(expected["top_sq"][name], rel=1e-12)
        assert len(s["top_sq"][name]) == 5
        assert s["top_sq"][name] == sorted(s["top_sq"][name], reverse=True)
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*"))


def test_printed_numbers_match_the_json(tmp_path, capsys):
    out_json = tmp_path / "s.json"
    cli_status(["ladder", *SMALL, "--beta", "0.5", "--output", str(out_json)])
    out = capsys.readouterr().out
    s = json.loads(out_json.read_text())
    assert f"{s['s1_A_mean']:.6f}" in out and f"{s['D_std']:.6f}" in out
    assert f"{s['theta_q'][0]:9.6f}" in out


def test_without_json_writes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli_status(["ladder", "--d", "16", "--trials", "1"]) == 0
    assert capsys.readouterr().out
    assert [p.name for p in tmp_path.iterdir()] == ["cache"]


INVALID = [
    (["--d", "1"], "d=1"),
    (["--d", "2.5"], "d='2.5'"),
    (["--d", "abc"], "d='abc'"),
    (["--beta", "nan"], "beta=nan"),
    (["--beta", "inf"], "beta=inf"),
    (["--beta", "-1"], "beta=-1"),
    (["--trials", "0"], "trials=0"),
    (["--seed", "-1"], "seed=-1"),
    (["--d", "10", "--remove-top-k", "10"], "remove_top_k=10"),
    (["--d", "10", "--remove_top_k", "10"], "remove_top_k=10"),
    (["--c-poly", "0"], "c_poly=0"),
    (["--c-poly", "-1"], "c_poly=-1"),
    (["--bogus", "1"], "--bogus"),
    (["--d"], "--d"),
]


@pytest.mark.parametrize("args, fragment", INVALID)
def test_invalid_input_one_line_status_2_nothing_written(tmp_path, capsys, args, fragment):
    out_json = tmp_path / "out.json"
    assert cli_status(["ladder", *args, "-o", str(out_json)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    assert fragment in lines[0] and "error" in lines[0]
    assert not out_json.exists()
    assert not (tmp_path / "cache").exists()  # no work was done


def test_parse_errors_state_the_valid_range(capsys):
    assert cli_status(["ladder", "--d", "2.5"]) == 2
    assert ">= 2 and <= 20000" in capsys.readouterr().err


def test_memory_refusal(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(config, "available_memory_bytes", lambda: 2**20)
    out_json = tmp_path / "out.json"
    assert cli_status(["ladder", "--d", "1000", "-o", str(out_json)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "GiB" in err and "d=1000" in err
    assert not out_json.exists()


@pytest.mark.parametrize("option", ["-o", "--output", "--json"])
@pytest.mark.parametrize("target", ["missing/out.json", "."])
def test_unwritable_output_path_is_refused_before_work(tmp_path, capsys, target, option):
    assert cli_status(["ladder", *SMALL, option, str(tmp_path / target)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and f"{option} " in err  # the spelling that was typed
    assert not (tmp_path / "cache").exists()


def test_no_command(capsys):
    assert cli_status([]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


def _command() -> list[str]:
    script = Path(sys.executable).with_name("attnspec")
    return [str(script)] if script.exists() else [sys.executable, "-m", "attnspec.cli"]


def test_installed_command_in_a_subprocess(tmp_path):
    out_json = tmp_path / "s.json"
    env = dict(os.environ)  # carries the temporary ATTNSPEC_CACHE
    ok = subprocess.run(
        _command() + ["ladder", "--d", "32", "--trials", "1", "-o", str(out_json)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert ok.returncode == 0, ok.stderr
    assert "polynomial degree n_d" in ok.stdout and "Traceback" not in ok.stderr
    assert KEYS <= json.loads(out_json.read_text()).keys()
    assert list(Path(env["ATTNSPEC_CACHE"]).glob("*.npz"))

    bad_json = tmp_path / "bad.json"
    bad = subprocess.run(
        [sys.executable, "-m", "attnspec.cli", "ladder", "--beta", "nan", "--json", str(bad_json)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1 and "beta=nan" in bad.stderr
    assert "Traceback" not in bad.stderr
    assert not bad_json.exists()


def test_remove_top_k_with_underscores_is_the_same_option(tmp_path, capsys):
    dashed, underscored = tmp_path / "a.json", tmp_path / "b.json"
    assert cli_status(["ladder", *SMALL, "--remove-top-k", "2", "-o", str(dashed)]) == 0
    assert cli_status(["ladder", *SMALL, "--remove_top_k", "2", "-o", str(underscored)]) == 0
    assert json.loads(dashed.read_text()) == json.loads(underscored.read_text())


def test_deprecated_json_spelling_writes_the_same_file(tmp_path, capsys):
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    assert cli_status(["ladder", *SMALL, "--output", str(new)]) == 0
    assert cli_status(["ladder", *SMALL, "--json", str(old)]) == 0
    assert new.read_text() == old.read_text()


def test_output_and_its_deprecated_alias_together_are_refused(tmp_path, capsys):
    args = ["ladder", *SMALL, "-o", str(tmp_path / "a.json"), "--json", str(tmp_path / "b.json")]
    assert cli_status(args) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "not allowed with" in err
    assert list(tmp_path.iterdir()) == []
