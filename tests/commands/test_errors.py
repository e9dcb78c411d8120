"""Errors: accepted parameters are computable and give strict JSON;
InvalidInput is the one type for invalid input; other failures are one line with their own status;
real bugs keep their traceback."""

from __future__ import annotations

import math
import resource
import subprocess
import sys

import pytest

import attnspec.commands.law as law_command
from attnspec.chapters.parameters import declared
from attnspec.cli import main
from attnspec.core.config import Config, available_memory_bytes, trial_memory_bytes
from attnspec.core.errors import InvalidInput
from attnspec.core.kinds import PARAMETERS
from attnspec.laws.gaussian_equivalent import GaussianEquivalentLaw
from attnspec.models.nonlinearity import theta_f, theta_q
from attnspec.runner.cluster import check_workers
from attnspec.runner.sweep import make_grid
from tests.helpers import strict_json


def one_line_error(capsys, command: str, fragment: str) -> None:
    err = capsys.readouterr().err
    assert err.startswith(f"attnspec {command}: ") and err.count("\n") == 1 and fragment in err, err


# ---- 8. c_poly: the whole validated range is computable ------------------------------------------


def test_largest_c_poly_runs(tmp_path, capsys):
    assert (
        main(
            [
                "ladder",
                "--d",
                "50",
                "--trials",
                "1",
                "--c-poly",
                "100",
                "--json",
                str(tmp_path / "c.json"),
            ]
        )
        == 0
    )
    s = strict_json(tmp_path / "c.json")
    assert s["poly_degree"] == 287
    # Q_n of degree 287 is f to double precision at beta = 1
    assert s["theta_q"] == pytest.approx(list(theta_f(1.0)), rel=1e-12)


def test_theta_q_exact_at_high_degree_and_large_beta():
    beta = PARAMETERS["beta"].high
    theta1, theta2 = theta_q(beta, 432)  # the largest degree: c_poly = 100, d = 20000
    assert math.isfinite(theta1) and math.isfinite(theta2) and 0 < theta2 < theta1
    assert theta_q(1.0, 8) == pytest.approx((1.6860913, 0.9964998), abs=1e-7)


# ---- 9. strict JSON for every accepted input -----------------------------------------------------


def test_ladder_json_is_strict_where_a_distance_is_undefined(tmp_path, capsys):
    assert (
        main(
            [
                "ladder",
                "--d",
                "200",
                "--beta",
                "5",
                "--trials",
                "1",
                "--json",
                str(tmp_path / "b.json"),
            ]
        )
        == 0
    )
    s = strict_json(tmp_path / "b.json")
    assert s["l1"]["Y_f_lin"] is None  # its bulk has no value inside the histogram range
    assert "Warning" not in capsys.readouterr().err


def test_law_refuses_a_theta1_whose_law_overflows(tmp_path, capsys):
    assert (
        main(["law", "--theta1", "1e308", "--theta2", "1", "--json", str(tmp_path / "l.json")]) == 2
    )
    one_line_error(capsys, "law", "theta1=1e+308 is out of range")
    assert not (tmp_path / "l.json").exists()


@pytest.mark.parametrize(
    "argv", [["--beta", str(PARAMETERS["beta"].high)], ["--theta1", "1e150", "--theta2", "1"]]
)
def test_law_at_the_end_of_the_range_is_strict_json(argv, tmp_path):
    assert main(["law", *argv, "--json", str(tmp_path / "l.json")]) == 0
    s = strict_json(tmp_path / "l.json")
    assert len(s["cdf"]) == 5 and math.isfinite(s["edge"])


def test_beta_beyond_the_computable_range_is_one_line(capsys):
    assert main(["ladder", "--beta", "25", "--trials", "1"]) == 2
    one_line_error(
        capsys, "ladder", "beta=25.0 is out of range: must be >= 0 and <= 18.8 (theta1^2"
    )


# ---- 11. InvalidInput, exact values, one line per kind of failure --------------------------------


def test_values_are_shown_exactly(capsys):
    assert main(["ladder", "--beta", "25.0000001"]) == 2
    one_line_error(capsys, "ladder", "beta=25.0000001 is out of range")


@pytest.mark.parametrize(
    "call",
    [
        lambda: Config(beta=-1.0),
        lambda: Config(d=10, remove_top_k=10),
        lambda: declared("setup").validate({"nope": 1}),
        lambda: PARAMETERS["d"].parse("x"),
        lambda: make_grid([], [1.0], 1),
        lambda: check_workers(0, None),
        lambda: GaussianEquivalentLaw(-1.0, 0.0),
        lambda: GaussianEquivalentLaw.for_f(30.0),
        lambda: law_command.parse_points("a"),
    ],
)
def test_validation_raises_invalid_input(call):
    with pytest.raises(InvalidInput):
        call()


def test_a_bug_keeps_its_traceback(monkeypatch):
    def bug(law, points):
        raise ValueError("operands could not be broadcast together with shapes (3,) (4,)")

    monkeypatch.setattr(law_command, "summary", bug)
    with pytest.raises(ValueError, match="broadcast"):
        main(["law", "--beta", "1"])


def test_os_error_is_one_line_with_its_own_status(tmp_path, capsys):
    full = tmp_path / "full"
    full.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(full)]).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        (full / "filler").write_bytes(b"x" * 4096)
        assert main(["law", "--beta", "1", "--json", str(full / "l.json")]) == 74
        one_line_error(capsys, "law", "system error: No space left on device")
        assert not (full / "l.json").exists()
    finally:
        subprocess.run(["umount", str(full)])


def test_memory_error_is_one_line(tmp_path):
    d, limit = 13000, 1_200_000_000  # one d x d array is larger than the address-space limit
    if available_memory_bytes() < trial_memory_bytes(d):
        pytest.skip("the memory guard refuses this d here")

    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run(
        [sys.executable, "-m", "attnspec.cli", "ladder", "--d", str(d), "--trials", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=limit_memory,
    )
    assert done.returncode == 71
    assert done.stderr.strip().splitlines()[-1].startswith("attnspec ladder: out of memory")
    assert "Traceback" not in done.stderr
