"""The command line at its edges: a closed stdout, long file
names, one rule for numbers, the beta range said the same way in help and messages, a law too small
to compute, full option names only, and an out-of-memory hint for the command that failed.

Every case runs the real command on temporary folders.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from attnspec.cli import main
from attnspec.commands.law import THETA1_MIN
from tests.helpers import ROOT, attnspec, cli_status, one_line, strict_json


def closed_stdout() -> None:
    os.close(1)


# ---- a closed stdout -------------------------------------------------------------------

CLOSED = [
    pytest.param(["law", "--beta", "1", "-o", "out.json"], "out.json", id="law"),
    pytest.param(
        ["ladder", "--d", "20", "--trials", "1", "-o", "out.json"], "out.json", id="ladder"
    ),
    pytest.param(["chapters", "--json"], None, id="chapters"),
    pytest.param(["diff", "{published}", "{published}", "-o", "out.json"], "out.json", id="diff"),
    pytest.param(
        ["run", "setup", "-p", "d", "100", "-o", "R"],
        "R/setup.results.json",
        id="run",
        marks=pytest.mark.slow,
    ),
    pytest.param(
        ["sweep", "--d", "20", "--beta", "1", "--trials", "1", "--workers", "1", "-o", "out.csv"],
        "out.csv",
        id="sweep",
        marks=pytest.mark.cluster,
    ),
]


@pytest.mark.parametrize("argv, written", CLOSED)
def test_a_closed_stdout_is_status_74_in_one_line_with_the_file_written(argv, written, tmp_path):
    """As in ``attnspec law >&-``: stdout is closed when the command starts. It
    was status 0 with the printed results lost, while a full stdout was 74; one rule now, 74."""
    from attnspec.publish.paths import EXECUTED

    published = str(EXECUTED / "setup.results.json")
    argv = [a.replace("{published}", published) for a in argv]
    done = attnspec(*argv, cwd=tmp_path, stdout=None, preexec_fn=closed_stdout, timeout=900)
    assert done.returncode == 74, done.stderr
    last = done.stderr.splitlines()[-1]  # sweep's progress and summary are on stderr before it
    assert last.startswith(f"attnspec {argv[0]}: system error: stdout is closed: the results")
    assert "Traceback" not in done.stderr
    if written:
        assert (tmp_path / written).stat().st_size > 0
        if written.endswith(".json"):
            strict_json(tmp_path / written)


# ---- long file names -------------------------------------------------------------------


@pytest.mark.parametrize("command", ["law", "ladder", "diff"])
def test_a_legal_long_file_name_is_written(command, tmp_path):
    from attnspec.publish.paths import EXECUTED

    name = "x" * 245 + ".json"  # 250 bytes: legal; its temporary name must still fit in 255
    argv = {
        "law": ["law", "--beta", "1"],
        "ladder": ["ladder", "--d", "20", "--trials", "1"],
        "diff": ["diff", str(EXECUTED / "setup.results.json")],
    }[command]
    done = attnspec(*argv, "-o", name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [p.name for p in tmp_path.iterdir() if p.name != "cache"] == [name]
    strict_json(tmp_path / name)


@pytest.mark.parametrize(
    "argv",
    [
        ["law", "-o", "x" * 251 + ".json"],
        ["ladder", "--d", "20", "--trials", "1", "-o", "x" * 256],
        ["run", "setup", "-o", "x" * 256 + "/R"],
        ["run", "setup", "-o", "R/" + "x" * 256],
    ],
    ids=["law", "ladder", "run, a long folder", "run, a long run folder"],
)
def test_a_name_longer_than_the_file_system_allows_is_refused_before_work(
    argv, tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    assert cli_status(argv) == 2
    one_line(capsys.readouterr().err, "longer than 255 bytes")
    assert list(tmp_path.iterdir()) == []


def test_a_long_name_in_a_multibyte_script_is_written(tmp_path):
    name = "é" * 122 + ".json"  # 249 bytes in UTF-8: cut on a character boundary
    assert cli_status(["law", "-o", str(tmp_path / name)]) == 0
    assert [p.name for p in tmp_path.iterdir()] == [name]


# ---- one rule for numbers: ASCII decimal only -----------------------------------------

REFUSED = [
    (["ladder", "--d", "1_000"], "d='1_000' is not of type int"),
    (["ladder", "--d", "٣٠"], "d='٣٠' is not of type int"),  # Arabic-Indic digits
    (["ladder", "--beta", "1_0"], "beta='1_0' is not of type float"),
    (["ladder", "--beta", "١"], "beta='١' is not of type float"),
    (["ladder", "--c-poly", "２"], "c_poly='２' is not of type float"),  # a fullwidth digit
    (["sweep", "--d", "64,1_00", "-o", "o.csv"], "d='1_00' is not of type int"),
    (["sweep", "--beta", "0.5,١", "-o", "o.csv"], "beta='١' is not of type float"),
    (["sweep", "--workers", "٢", "-o", "o.csv"], "workers='٢' is not of type int"),
    (["sweep", "--workers", "1_0", "-o", "o.csv"], "workers='1_0' is not of type int"),
    (["law", "--at", "1_0"], "at='1_0' is not a comma-separated list of float"),
    (["law", "--theta1", "١", "--theta2", "0"], "theta1='١' is not of type float"),
    (["run", "rank-one-mode", "-p", "d_values", "250,5_00"], "d_values='250,5_00' is not a"),
]


@pytest.mark.parametrize("argv, message", REFUSED)
def test_only_ascii_decimal_numbers_are_accepted(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli_status(argv) == 2
    err = capsys.readouterr().err
    one_line(err, message)
    assert "written with" in err  # the message says what is accepted
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("seed, value", [("007", 7), ("-0", 0), ("+12", 12), (" 5 ", 5)])
def test_a_decimal_with_leading_zeros_or_a_sign_is_that_number(seed, value, tmp_path):
    argv = [
        "ladder",
        "--d",
        "20",
        "--trials",
        "1",
        f"--seed={seed}",
        "-o",
        str(tmp_path / "l.json"),
    ]
    assert cli_status(argv) == 0
    assert strict_json(tmp_path / "l.json")["seed"] == value


def test_minus_zero_is_zero_for_a_float(tmp_path):
    assert cli_status(["law", "--beta", "-0", "-o", str(tmp_path / "l.json")]) == 2  # beta > 0
    assert cli_status(["ladder", "--d", "20", "--trials", "1", "--beta", "-0", "-o",
                       str(tmp_path / "l.json")]) == 0  # fmt: skip
    assert strict_json(tmp_path / "l.json")["beta"] == 0.0
    assert json.dumps(strict_json(tmp_path / "l.json")["beta"]) == "0.0"


def test_the_beta_range_is_said_the_same_way_in_help_and_messages(capsys):
    """``law --help``, ``chapters`` and the messages for beta = 0 state one range."""
    with pytest.raises(SystemExit):
        main(["law", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "(float, >= 0.000122 and <= 18.8; default 1.0)" in help_text
    assert main(["law", "--beta", "0"]) == 2
    law = capsys.readouterr().err
    assert "beta=0.0 is out of range for the limit law: must be >= 0.000122 and <= 18.8" in law
    assert main(["chapters", "--json"]) == 0
    listed = {c["name"]: c for c in json.loads(capsys.readouterr().out)}
    for name in ("limit-law", "convergence"):
        [beta] = [p for p in listed[name]["parameters"] if p["name"] == "beta"]
        assert beta["range"] == ">= 0.000122 and <= 18.8"
        assert cli_status(["run", name, "-p", "beta", "0"]) == 2
        assert f"must be {beta['range']} " in capsys.readouterr().err
    [beta] = [p for p in listed["ladder"]["parameters"] if p["name"] == "beta"]
    assert beta["range"] == ">= 0 and <= 18.8"  # beta = 0 is computable there


# ---- small inconsistencies -------------------------------------------------------------


@pytest.mark.parametrize("theta", ["5e-324", "1e-200", f"{THETA1_MIN * 0.99!r}"])
def test_a_law_too_small_to_compute_is_refused(theta, tmp_path):
    done = attnspec("law", "--theta1", theta, "--theta2", theta, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    one_line(done.stderr, f"theta1={float(theta)!r} is out of range: must be >= {THETA1_MIN!r}")


def test_the_smallest_law_is_computed_with_its_digits(tmp_path):
    done = subprocess.run(
        [sys.executable, "-W", "error", "-m", "attnspec.cli", "law", "--theta1", "2e-154",
         "--theta2", "2e-154", "-o", "l.json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr
    s = strict_json(tmp_path / "l.json")
    assert s["edge"] == pytest.approx(6.75 * 2e-154, rel=1e-12)  # 27/4 theta1 at theta2 = theta1
    assert "edge lambda_+ = 1.350000e-153" in done.stdout and " 0.000000 " not in done.stdout


@pytest.mark.parametrize(
    "argv",
    [
        ["ladder", "--tri", "1"],
        ["ladder", "--remove-top", "2"],
        ["law", "--be", "1"],
        ["sweep", "--work", "1", "-o", "o.csv"],
        ["run", "setup", "--for"],
        ["diff", "a.json", "--out", "o.json"],
    ],
)
def test_abbreviated_options_are_refused(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli_status(argv) == 2
    one_line(capsys.readouterr().err, "unrecognized arguments")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command, hint", [("ladder", False), ("sweep", True), ("run", False)])
def test_the_out_of_memory_hint_names_only_options_the_command_has(
    command, hint, monkeypatch, capsys
):
    from attnspec.commands import ladder, run, sweep

    module = {"ladder": ladder, "sweep": sweep, "run": run}[command]

    def out_of_memory(args):
        raise MemoryError

    monkeypatch.setattr(module, "run", out_of_memory)
    argv = {"ladder": ["ladder"], "sweep": ["sweep", "-o", "o.csv"], "run": ["run", "setup"]}
    assert main(argv[command]) == 71
    err = capsys.readouterr().err
    one_line(err, f"attnspec {command}: out of memory: try a smaller d, ")
    assert ("--workers" in err) is hint


# ---- a file name that is not UTF-8 ------------------------------------------


def test_a_file_name_that_is_not_utf8_is_written(tmp_path):
    """``law -o $'l\\xff.json'`` ended in UnicodeEncodeError (status 1)."""
    name = os.fsdecode(b"l\xff.json")
    done = attnspec("law", "--beta", "1", "-o", name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert os.fsencode(tmp_path) + b"/l\xff.json" in [os.fsencode(p) for p in tmp_path.iterdir()]


def test_a_folder_name_that_is_not_utf8_is_checked_as_any_other(tmp_path):
    from attnspec.core.atomic import check_folder, temporary_affixes
    from attnspec.core.errors import InvalidInput

    folder = tmp_path / os.fsdecode(b"r\xff")
    assert check_folder(folder, "-o") == folder
    with pytest.raises(InvalidInput, match="longer than 255 bytes"):
        check_folder(tmp_path / os.fsdecode(b"\xff" * 256), "-o")
    prefix, suffix = temporary_affixes(tmp_path / os.fsdecode(b"\xff" * 250 + b".json"))
    assert len(os.fsencode(prefix + "12345678" + suffix)) <= 255


# ---- messages about the value given ----------------------------------------


def test_a_beta_too_small_for_the_law_is_refused_as_a_beta(tmp_path):
    """``law --beta 1e-300`` was refused with a message about "theta1=0.0"; the limit-law
    chapter's bound applies."""
    from attnspec.chapters.rules import BETA_THETA_MIN

    done = attnspec("law", "--beta", "1e-300", cwd=tmp_path)
    assert done.returncode == 2
    one_line(done.stderr, "beta=1e-300 is out of range for the limit law: must be >= 0.000122")
    assert attnspec("law", "--beta", repr(BETA_THETA_MIN), cwd=tmp_path).returncode == 0


def test_a_bound_is_printed_with_every_digit_it_has():
    """``--theta1 1.49e-154`` was refused as "must be >= 1.49e-154"."""
    assert float(f"{THETA1_MIN!r}") == THETA1_MIN > 1.49e-154


def test_a_huge_value_is_not_echoed_whole(tmp_path):
    """A 5000-digit int was echoed whole, with a hint about sys.set_int_max_str_digits."""
    done = attnspec("ladder", "--d", "1" * 5000, cwd=tmp_path)
    assert done.returncode == 2
    one_line(done.stderr, "(5000 characters) is not of type int")
    assert len(done.stderr) < 400 and "set_int_max_str_digits" not in done.stderr


@pytest.mark.parametrize("option", ["--version", "--help"])
def test_version_or_help_into_a_full_or_closed_stdout_is_one_line_and_status_74(option, tmp_path):
    """``attnspec --version >/dev/full`` ended in a traceback; ``--help >&-``
    exited 0, having printed nothing."""
    with open("/dev/full", "w") as full:
        done = attnspec(option, cwd=tmp_path, stdout=full)
    assert done.returncode == 74
    one_line(done.stderr, "attnspec: system error: stdout: No space left on device")
    done = attnspec(option, cwd=tmp_path, stdout=None, preexec_fn=closed_stdout)
    assert done.returncode == 74
    one_line(done.stderr, "attnspec: system error: stdout is closed: nothing was printed")


def test_a_copied_checkouts_console_script_warns_that_it_runs_the_originals_code(tmp_path):
    """After ``cp -a``, the copy's ``.venv/bin/attnspec`` runs the original's code
    (its shebang and the editable install) until ``make install``; it says so, in one line."""
    script = tmp_path / "copy" / ".venv" / "bin" / "attnspec"
    script.parent.mkdir(parents=True)
    (tmp_path / "copy" / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
    script.write_bytes((ROOT / ".venv" / "bin" / "attnspec").read_bytes())
    script.chmod(0o755)
    done = subprocess.run([str(script), "chapters"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout
    one_line(done.stderr, f"runs the code of {ROOT}, not of {tmp_path / 'copy'}")
    assert "make install" in done.stderr
    own = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "attnspec"), "chapters"], capture_output=True, text=True
    )
    assert own.returncode == 0 and own.stderr == ""


@pytest.mark.parametrize("raised", ["KeyboardInterrupt", "Terminated"])
@pytest.mark.parametrize("command", ["diff", "law", "chapters"])
def test_stopping_a_command_without_trials_does_not_talk_about_trials(
    command, raised, monkeypatch, capsys
):
    """SIGTERM during ``diff`` said "finished trials are kept in the cache"."""
    from attnspec import commands
    from attnspec.core.stopping import Terminated

    def stopped(args):
        raise {"KeyboardInterrupt": KeyboardInterrupt, "Terminated": Terminated}[raised]()

    monkeypatch.setattr(getattr(commands, command), "run", stopped)
    argv = {"diff": ["diff", "a.json"], "law": ["law"], "chapters": ["chapters"]}[command]
    assert main(argv) in (130, 143)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "trials" not in err and "nothing partial is left" in err
