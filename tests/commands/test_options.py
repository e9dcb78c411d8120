"""One CLI vocabulary: ``-o/--output`` everywhere with the old spellings as
aliases, parameter names with dashes or underscores, ``attnspec notebooks``, and a parser that
imports nothing heavy."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from attnspec.cli import build_parser
from attnspec.commands.notebooks import plan
from attnspec.commands.options import parameter_name, parameter_pairs
from attnspec.core.errors import InvalidInput
from attnspec.publish.chapters import chapter, read_title, toc_chapter_names
from attnspec.publish.pages import PAGES
from tests.helpers import cli_status

#: Modules that building the parser must not import (each sub-command imports them when it runs).
HEAVY = [
    "numpy",
    "scipy",
    "scipy.stats",
    "papermill",
    "nbclient",
    "nbformat",
    "jupytext",
    "jupyter_client",
    "matplotlib",
    "dask",
    "distributed",
]


def test_parser_imports_nothing_heavy():
    code = (
        "import sys, attnspec.cli; attnspec.cli.build_parser(); "
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_listing_chapters_imports_no_notebook_machinery():
    code = (
        "import sys, attnspec.cli; attnspec.cli.main(['chapters', '--json']); "
        f"print([m for m in {HEAVY!r} if m in sys.modules], file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "[]"
    assert len(json.loads(done.stdout)) == len(toc_chapter_names())


def test_python_dash_m_attnspec_is_the_command():
    done = subprocess.run(
        [sys.executable, "-m", "attnspec", "--help"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and "notebooks" in done.stdout


def test_python_dash_m_imports_nothing_from_the_current_folder(tmp_path):
    (tmp_path / "numpy.py").write_text('raise SystemExit("imported from the current folder")\n')
    done = subprocess.run(
        [sys.executable, "-m", "attnspec", "law", "--beta", "1", "--at", "1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "edge lambda_+" in done.stdout


@pytest.mark.parametrize("name", toc_chapter_names())
def test_listing_reads_the_title_jupytext_reads(name):
    nb = chapter(name).read_source()
    markdown = next(c.source for c in nb.cells if c.cell_type == "markdown")
    assert read_title(name) == markdown.splitlines()[0].lstrip("# ")


@pytest.mark.parametrize(
    "argv, old",
    [
        (["ladder", "--json", "x.json"], "--json"),
        (["law", "--json", "x.json"], "--json"),
        (["diff", "a", "--json", "x.json"], "--json"),
        (["sweep", "--out", "x.csv"], "--out"),
    ],
)
def test_every_written_path_is_dash_o_and_the_old_flags_are_aliases(argv, old):
    parser = build_parser()
    assert parser.parse_args(argv).output == argv[-1]
    assert parser.parse_args(argv).output_option == old
    new = [a if a != old else "-o" for a in argv]
    assert parser.parse_args(new).output == argv[-1]
    assert parser.parse_args([*argv[:-2], "--output", argv[-1]]).output == argv[-1]


@pytest.mark.parametrize("command", ["ladder", "law", "diff", "sweep"])
def test_help_names_output_and_the_deprecated_spelling(command, capsys):
    assert cli_status([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert "-o" in out and "--output" in out and "deprecated" in out


def test_sweep_requires_an_output(capsys):
    assert cli_status(["sweep", "--d", "24"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "-o/--output" in err


def test_run_output_is_optional():  # the run folder defaults to runs/CHAPTER (test_run_folder)
    assert build_parser().parse_args(["run", "setup"]).output is None


def test_parameter_names_with_dashes_or_underscores():
    assert parameter_name("remove-top-k") == parameter_name("remove_top_k") == "remove_top_k"
    assert parameter_pairs([["remove-top-k", "3"], ["d", "5"]]) == [
        ("remove_top_k", "3"),
        ("d", "5"),
    ]
    for spelling in ("--remove-top-k", "--remove_top_k"):
        for command in (["ladder"], ["sweep", "-o", "x.csv"]):
            assert build_parser().parse_args([*command, spelling, "7"]).remove_top_k == "7"


@pytest.mark.parametrize("pairs", [[["d", "50"], ["d", "60"]], [["c-poly", "1"], ["c_poly", "2"]]])
def test_a_parameter_given_twice_is_refused_not_silently_the_last(pairs, tmp_path, capsys):
    """``-p d 50 -p d 60`` kept 60 without a word."""
    with pytest.raises(InvalidInput, match="is given twice"):
        parameter_pairs(pairs)
    argv = ["run", "convergence-threshold", *(x for p in pairs for x in ("-p", *p))]
    assert cli_status([*argv, "-o", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "is given twice" in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("spelling", ["remove_top_k", "remove-top-k"])
def test_run_accepts_both_spellings(spelling, tmp_path, capsys):
    argv = ["run", "ladder", "-p", "d", "50", "-p", spelling, "60", "-o", str(tmp_path / "r")]
    assert cli_status(argv) == 2
    err = capsys.readouterr().err
    assert "remove_top_k=60 is out of range" in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_notebooks_plan():
    chapters = toc_chapter_names()
    assert plan([]) == (chapters, list(PAGES))
    assert plan([], no_pages=True) == (chapters, [])
    assert plan(["ladder", "setup"]) == (["setup", "ladder"], list(PAGES))  # book order
    assert plan(["findings"]) == ([], ["findings"])
    assert plan(["ladder", "notation"]) == (["ladder"], ["notation"])
    with pytest.raises(InvalidInput, match="unknown chapter or page 'nope'"):
        plan(["ladder", "nope"])


def test_notebooks_rejects_unknown_names_before_running(capsys):
    assert cli_status(["notebooks", "nope"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "nope" in err and "ladder" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "convergence", "-p", "d_values", "50,,60"],
        ["run", "convergence", "-p", "d_values", "50,"],
        ["sweep", "--d", "50,,60", "--beta", "1", "-o", "o.csv"],
        ["law", "--beta", "1", "--at", "1,,4"],
    ],
)
def test_an_empty_list_item_is_refused_by_every_command(argv, tmp_path, capsys, monkeypatch):
    """``-p d_values 50,,60`` dropped the empty item, sweep refused it."""
    monkeypatch.chdir(tmp_path)
    assert cli_status(argv) == 2
    err = capsys.readouterr().err
    assert "empty item" in err or "is not of type int" in err, err
    assert len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


# ---- one rule and one message for each of these --------------------------------------------------


@pytest.mark.parametrize("value", ["-inf", "-1e-3", "-nan"])
def test_a_negative_or_infinite_float_is_a_value_not_an_option(value, capsys):
    """``--beta -inf`` gave argparse's "expected one argument": the value is checked as any
    other, against the range."""
    assert cli_status(["law", "--beta", value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"beta={float(value)!r} " in err and "expected one" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["ladder", "--d", "10", "--d", "12"],
        ["ladder", "--remove-top-k", "1", "--remove_top_k", "2"],
        ["law", "--beta", "1", "--beta", "2"],
    ],
)
def test_an_option_given_twice_is_refused_as_a_parameter_given_twice(argv, capsys):
    """``--d 10 --d 12`` took 12 silently, while ``-p d 10 -p d 12`` is refused."""
    assert cli_status(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is given twice" in err and "give it once" in err


@pytest.mark.parametrize("command", [["law", "--beta", "1"], ["run", "setup"]])
def test_dash_is_no_output_path(command, tmp_path, monkeypatch, capsys):
    """``law -o -`` wrote a file named ``-``."""
    monkeypatch.chdir(tmp_path)
    assert cli_status([*command, "-o", "-"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "-o '-': names no file here" in err
    assert list(tmp_path.iterdir()) == []
