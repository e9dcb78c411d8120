"""`attnspec run`'s output folder: the kernel runs no code of the
output folder, a run never replaces or mixes with a previous one unless told to, a bad ``-o`` is
one line and status 2 as for the other commands, and what killed runs left behind is removed.

Every case runs the real command on temporary folders; the refusals happen before any kernel starts
(fast), the runs execute the setup chapter at d = 100 (``slow``).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from attnspec.core.atomic import new_file_mode
from attnspec.core.cleanup import STALE_SECONDS
from attnspec.core.errors import InvalidInput
from tests.helpers import attnspec, cli_status, one_line, tmpfs_mounts

SETUP = ["run", "setup", "-p", "d", "100"]
#: a pid above any pid_max: its process is gone
DEAD = 2**31 - 1


@pytest.fixture
def mounted(tmp_path):
    yield from tmpfs_mounts(tmp_path)


def plant_code(folder: Path, marker: Path) -> None:
    """Files that run code when a Python process imports from, or an IPython kernel starts in,
    ``folder``: each creates ``marker``."""
    folder.mkdir(parents=True, exist_ok=True)
    code = f"open({str(marker)!r}, 'w').close()\n"
    for name in ("myst_nb.py", "numpy.py", "ipython_kernel_config.py", "sitecustomize.py"):
        (folder / name).write_text(code)


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def stale(folder: Path, name: str, age: float = 2 * STALE_SECONDS) -> Path:
    """A folder ``name`` in ``folder`` with one file, last modified ``age`` seconds ago."""
    path = folder / name
    path.mkdir(parents=True)
    (path / "partial.ipynb").write_text("{")
    when = time.time() - age
    os.utime(path, (when, when))
    return path


# ---- the kernel runs no code of the output folder ------------------------------------------------


def test_run_refuses_an_output_folder_that_holds_code(tmp_path, capsys):
    out, marker = tmp_path / "R", tmp_path / "pwned"
    plant_code(out, marker)
    before = tree(out)
    for force in ([], ["--force"]):
        assert cli_status([*SETUP, "-o", str(out), *force]) == 2
        err = capsys.readouterr().err
        one_line(err, "not empty" if not force else "which is not a file of this chapter's run")
    assert not marker.exists() and tree(out) == before


@pytest.mark.slow  # executes a chapter
def test_the_kernel_imports_nothing_from_the_output_or_the_current_folder(tmp_path, monkeypatch):
    """Below the command's refusal: the executor itself, with code planted in both folders."""
    from attnspec.publish.chapters import chapter, execute

    out, here, marker = tmp_path / "R", tmp_path / "here", tmp_path / "pwned"
    plant_code(out, marker)
    plant_code(here, marker)
    monkeypatch.chdir(here)
    notebook = execute(chapter("setup").resolve({"d": 100}), out / "setup.ipynb")
    assert not marker.exists()
    assert json.loads((out / "setup.results.json").read_text())["parameters"]["d"] == 100
    assert notebook == out / "setup.ipynb"
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["myst_nb.py", "numpy.py", "ipython_kernel_config.py", "sitecustomize.py"]
        + ["setup.ipynb", "setup.results.json"]
    )


@pytest.mark.slow  # starts a kernel
def test_the_kernel_works_in_an_empty_private_folder_with_no_folder_on_its_path(
    tmp_path, monkeypatch
):
    import nbformat

    from attnspec.publish.execution import execute_notebook

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import json, os, sys\n"
            "print(json.dumps({'cwd': os.getcwd(), 'listing': os.listdir('.'), 'path': sys.path}))"
        )
    ]
    work, here = tmp_path / "work", tmp_path / "here"
    work.mkdir()
    here.mkdir()
    monkeypatch.chdir(here)
    done = execute_notebook(nb, work)
    seen = json.loads(done.cells[0].outputs[0]["text"])
    assert Path(seen["cwd"]).parent == work and seen["listing"] == []
    assert "" not in seen["path"] and seen["cwd"] not in seen["path"]
    assert str(here) not in seen["path"]


# ---- a run never replaces another unless --force, and then as a whole ----------------------------


@pytest.mark.slow  # executes a chapter
def test_a_second_run_is_refused_and_force_replaces_the_whole_previous_run(tmp_path):
    """With code planted in the current folder, which the page's build must not import either (the
    command runs as its console script does, without the current folder on its path: ``-P``)."""
    out, here, marker = tmp_path / "R", tmp_path / "here", tmp_path / "pwned"
    plant_code(here, marker)
    first = subprocess.run(
        [sys.executable, "-P", "-m", "attnspec.cli", *SETUP[:-1], "120", "-o", str(out), "--html"],
        cwd=here,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert first.returncode == 0, first.stderr
    assert not marker.exists()
    assert sorted(p.name for p in out.iterdir()) == [
        "setup.html",
        "setup.ipynb",
        "setup.results.json",
    ]
    os.chmod(out / "setup.results.json", 0o444)
    os.chmod(out, 0o750)
    before = tree(out)

    again = attnspec(*SETUP[:-1], "130", "-o", "R", cwd=tmp_path)
    assert again.returncode == 2
    one_line(again.stderr, "-o 'R': folder is not empty (a previous run?); give --force")
    assert tree(out) == before
    assert stat.S_IMODE(os.stat(out / "setup.results.json").st_mode) == 0o444

    forced = attnspec(*SETUP[:-1], "130", "-o", "R", "--force", cwd=tmp_path, timeout=900)
    assert forced.returncode == 0, forced.stderr
    assert sorted(p.name for p in out.iterdir()) == ["setup.ipynb", "setup.results.json"]
    assert json.loads((out / "setup.results.json").read_text())["parameters"]["d"] == 130
    assert stat.S_IMODE(os.stat(out / "setup.results.json").st_mode) == new_file_mode()
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o750  # the folder keeps its mode
    assert [p.name for p in tmp_path.iterdir() if p.name not in ("cache", "here")] == ["R"]


@pytest.mark.parametrize(
    "entry, fragment",
    [
        ("notes.txt", "holds 'notes.txt', which is not a file of this chapter's run"),
        ("sub/", "holds 'sub', which is not a file of this chapter's run"),
        # a symlink
        ("setup.ipynb->", "holds 'setup.ipynb', which is not a file of this chapter's run"),
    ],
)
def test_force_replaces_only_a_folder_of_runs(entry, fragment, tmp_path, capsys):
    out = tmp_path / "R"
    out.mkdir()
    (out / "setup.results.json").write_text("{}\n")
    if entry.endswith("/"):
        (out / entry).mkdir()
    elif entry.endswith("->"):
        (out / entry[:-2]).symlink_to(tmp_path / "elsewhere.ipynb")
    else:
        (out / entry).write_text("mine\n")
    before = sorted(p.name for p in out.iterdir())
    assert cli_status([*SETUP, "-o", str(out), "--force"]) == 2
    one_line(capsys.readouterr().err, fragment)
    assert sorted(p.name for p in out.iterdir()) == before


def test_force_replaces_only_this_chapters_run_never_another_chapters(tmp_path, capsys):
    """A folder holding another chapter's run is refused, even with --force."""
    out = tmp_path / "R"
    out.mkdir()
    for name in ("setup.ipynb", "setup.results.json", "ladder.ipynb", "ladder.results.json"):
        (out / name).write_text("{}\n")
    before = tree(out)
    assert cli_status([*SETUP, "-o", str(out), "--force"]) == 2
    one_line(capsys.readouterr().err, "holds 'ladder.ipynb', which is not a file of this chapter")
    assert tree(out) == before


def test_the_books_stored_chapters_are_never_a_run_folder(tmp_path, monkeypatch, capsys):
    """``-o book/chapters --force`` once deleted the other chapters' runs. The
    stored folder is a stand-in here (a link to it counts as it), so a regression harms nothing."""
    from attnspec.publish import paths

    stored = tmp_path / "book" / "chapters"
    stored.mkdir(parents=True)
    (stored / "setup.ipynb").write_text("{}\n")
    (tmp_path / "link").symlink_to(stored)
    monkeypatch.setattr(paths, "EXECUTED", stored)
    for folder, extra in ((stored, []), (stored, ["--force"]), (tmp_path / "link", ["--force"])):
        assert cli_status([*SETUP, "-o", str(folder), *extra]) == 2
        one_line(capsys.readouterr().err, "is the book's stored chapters")
    assert tree(stored) == {"setup.ipynb": b"{}\n"}


def test_a_second_run_into_a_reserved_folder_is_refused_and_names_the_holder(tmp_path, capsys):
    """While one run works in R, another run into R is refused (status 2)."""
    from attnspec.core.lock import lock_path, reserved

    out = tmp_path / "R"
    with reserved(out, "held"):
        assert cli_status([*SETUP, "-o", str(out)]) == 2
        one_line(capsys.readouterr().err, f"another run is writing into it (process {os.getpid()})")
        assert not out.exists()
    assert not lock_path(out).exists()  # the holder removes its lock file
    with reserved(out, "held again"):  # and a released folder can be reserved again
        pass


def test_force_never_replaces_the_current_folder(tmp_path, monkeypatch, capsys):
    (tmp_path / "setup.ipynb").write_text("{}\n")
    monkeypatch.chdir(tmp_path)
    assert cli_status([*SETUP, "-o", ".", "--force"]) == 2
    one_line(capsys.readouterr().err, "is the current folder or holds it")
    assert (tmp_path / "setup.ipynb").read_text() == "{}\n"


def test_the_default_run_folder_is_runs_chapter(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs" / "setup").mkdir(parents=True)
    (tmp_path / "runs" / "setup" / "setup.ipynb").write_text("{}\n")
    assert cli_status(SETUP) == 2
    one_line(capsys.readouterr().err, "'runs/setup': folder is not empty")


# ---- a bad -o is one line and status 2, as for every command -------------------------------------


@pytest.mark.parametrize("case", ["empty", "under a file", "dangling symlink", "read-only"])
def test_a_bad_output_folder_is_one_line_and_status_2(case, tmp_path, mounted):
    (tmp_path / "FILE").write_text("x\n")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    target, fragment = {
        "empty": ("", "-o '': must be the path of a folder"),
        "under a file": ("FILE/sub", "'FILE' is a file, not a folder"),
        "dangling symlink": ("dangling", "'dangling' is a dangling symlink"),
        "read-only": ("read-only", "cannot write in folder"),
    }[case]
    if case == "read-only":
        target = str(mounted("ro,size=64k") / "R")
    before = sorted(p.name for p in tmp_path.iterdir())
    done = attnspec(*SETUP, "-o", target, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    one_line(done.stderr, fragment)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert not (tmp_path / "nowhere").exists()
    file_target = f"{target}/l.json" if target else ""
    ladder = attnspec("ladder", "--d", "20", "--trials", "1", "-o", file_target, cwd=tmp_path)
    assert ladder.returncode == 2  # the same answer as the other commands


# ---- what killed runs left, a relative cache -----------------------------------------------------


def test_debris_of_killed_runs_is_removed_and_nothing_else(tmp_path, capsys):
    out = tmp_path / "R"
    debris = [
        stale(out, f".setup-{DEAD}-abcd1234.tmp"),
        stale(out, f".ladder-html-{DEAD}-abcd1234.tmp"),
    ]
    kept = [
        stale(out, f".setup-{os.getpid()}-abcd1234.tmp"),  # its writer is alive
        stale(out, f".setup-{DEAD}-abcd5678.tmp", age=60),  # recent
        stale(out, f".other-{DEAD}-abcd1234.tmp"),  # another program's
    ]
    assert cli_status([*SETUP, "-o", str(out)]) == 2  # the folder still holds the others' folders
    one_line(capsys.readouterr().err, "folder is not empty")
    assert not any(p.exists() for p in debris) and all(p.is_dir() for p in kept)


@pytest.mark.slow  # executes a chapter
def test_a_run_removes_the_debris_of_killed_runs_and_resolves_a_relative_cache(tmp_path):
    scratch, out = tmp_path / "tmp", tmp_path / "R"
    scratch.mkdir()
    debris = [
        stale(scratch, f"attnspec-ladder-{DEAD}-abcd1234.tmp"),  # a killed kernel's folder
        stale(out, f".setup-{DEAD}-abcd1234.tmp"),
    ]
    foreign = stale(scratch, f"attnspec-other-{DEAD}-abcd1234.tmp")
    debris.append(stale(out, f".ladder-{DEAD}-abcd1234.tmp"))
    env = {"TMPDIR": str(scratch), "ATTNSPEC_CACHE": "relative-cache"}
    argv = ["run", "ladder", "-p", "d", "100", "-p", "trials", "1", "-o", "R"]
    done = attnspec(*argv, cwd=tmp_path, env=env, timeout=900)
    assert done.returncode == 0, done.stderr
    assert not any(p.exists() for p in debris) and foreign.is_dir()
    assert sorted(p.name for p in out.iterdir()) == ["ladder.ipynb", "ladder.results.json"]
    assert any((tmp_path / "relative-cache").iterdir())  # resolved at start-up, not in R
    assert list(scratch.iterdir()) == [foreign]


def test_a_symlinked_run_folder_is_refused_before_any_kernel(tmp_path, capsys):
    """``-o LINK`` wrote into the folder the link names."""
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    for extra in ([], ["--force"]):
        assert cli_status([*SETUP, "-o", str(tmp_path / "link"), *extra]) == 2
        one_line(capsys.readouterr().err, "is a symlink; attnspec never writes through one")
    assert list((tmp_path / "real").iterdir()) == []


@pytest.mark.parametrize("added", ["notes.txt", "data/x.csv"])
def test_force_refuses_to_replace_a_folder_that_changed_during_the_run(
    added, tmp_path, monkeypatch, capsys
):
    """Files another process wrote into the run folder while the kernel ran were
    deleted with the old run. The kernel is a stand-in here: it writes the notebook, while
    "another process" adds a file to the folder."""
    from attnspec.publish import chapters

    out = tmp_path / "G2"
    out.mkdir()
    (out / "setup.ipynb").write_text("old run\n")

    def kernel_while_another_writes(run, output):
        (out / added).parent.mkdir(exist_ok=True)
        (out / added).write_text("someone else's\n")
        Path(output).write_text("new run\n")
        return Path(output)

    monkeypatch.setattr(chapters, "execute", kernel_while_another_writes)
    assert cli_status([*SETUP, "-o", str(out), "--force"]) == 2
    one_line(capsys.readouterr().err, f"{added.split('/')[0]!r} appeared in it during the run")
    assert tree(out) == {"setup.ipynb": b"old run\n", added: b"someone else's\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["G2"]


def test_a_run_through_another_path_to_a_reserved_folder_is_refused(tmp_path, capsys):
    """The lock was keyed on the path as given, so a run into ``alias/R`` (alias a
    link to the folder holding R) did not see the run into ``R``."""
    from attnspec.core.lock import reserved

    (tmp_path / "real").mkdir()
    (tmp_path / "alias").symlink_to("real")
    with reserved(tmp_path / "real" / "R", "held"):
        assert cli_status([*SETUP, "-o", str(tmp_path / "alias" / "R")]) == 2
        one_line(capsys.readouterr().err, f"another run is writing into it (process {os.getpid()})")
    assert not (tmp_path / "real" / "R").exists()
    (tmp_path / "real" / "R").mkdir()
    (tmp_path / "G2").symlink_to(tmp_path / "real" / "R")  # the folder's own alias
    with reserved(tmp_path / "real" / "R", "held"):
        with pytest.raises(InvalidInput, match="another run is writing into it"):
            with reserved(tmp_path / "G2", "an alias"):
                pass


@pytest.mark.slow  # starts a kernel
def test_a_run_out_of_memory_is_one_line_status_71_and_leaves_no_folder(tmp_path):
    """Under ``ulimit -v`` the kernel's MemoryError came out as a papermill
    traceback with status 1, and an empty run folder stayed; ``ladder`` gives 71 and one line."""
    import resource

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (2 * 10**9, 2 * 10**9))

    done = attnspec(
        "run", "setup", "-p", "d", "8000", "-o", "R", cwd=tmp_path, preexec_fn=limited, timeout=300
    )
    assert done.returncode == 71 and done.stdout == ""
    one_line(done.stderr, "attnspec run: out of memory: try a smaller d, or more memory")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("errno_name", ["EACCES", "EROFS"])
def test_a_folder_whose_parent_cannot_be_written_is_refused_saying_why(
    errno_name, tmp_path, monkeypatch, capsys
):
    """A writable run folder in a read-only parent gave "Permission denied:
    …/.attnspec-….lock". The parent is read-only here by the lock's open failing as it would."""
    import errno

    from attnspec.core import lock

    (tmp_path / "R").mkdir()
    real_open = os.open

    def read_only(path, *args, **kwargs):
        if str(path).endswith(".lock"):
            code = getattr(errno, errno_name)
            raise (PermissionError if code == errno.EACCES else OSError)(code, os.strerror(code))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(lock.os, "open", read_only)
    assert cli_status([*SETUP, "-o", str(tmp_path / "R")]) == 2
    one_line(capsys.readouterr().err, "its lock file goes beside it, in")


@pytest.mark.slow  # executes a chapter and a sweep
def test_nothing_is_written_to_home_or_tmpdir_and_a_read_only_home_gives_no_warning(
    tmp_path, mounted
):
    """A run wrote ``~/.ipython`` and ``~/.cache/matplotlib``, a sweep
    ``$TMPDIR/dask-scratch-space``; under a read-only home IPython and matplotlib warned in many
    lines. Their folders are the command's own temporary folder, removed at its end."""
    home, scratch = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    scratch.mkdir()
    sweep = ["sweep", "--d", "20", "--trials", "2", "--workers", "1", "-o", "s.csv"]
    for folder, argv in ((home, [*SETUP, "-o", "R1"]), (mounted("ro"), [*SETUP, "-o", "R2"])):
        done = attnspec(*argv, cwd=tmp_path, env={"HOME": str(folder), "TMPDIR": str(scratch)})
        assert done.returncode == 0 and done.stderr == "", done.stderr
    done = attnspec(*sweep, cwd=tmp_path, env={"HOME": str(home), "TMPDIR": str(scratch)})
    assert done.returncode == 0, done.stderr
    assert list(home.rglob("*")) == [] and list(scratch.rglob("*")) == []


def test_with_loopback_down_a_run_is_one_line_at_once_and_leaves_no_folder(
    tmp_path, monkeypatch, capsys
):
    """With loopback down, a run waited a minute for a kernel it could not reach,
    then ended in a "Kernel didn't respond" traceback."""
    import errno
    import socket

    def unreachable(*args, **kwargs):
        raise OSError(errno.ENETUNREACH, os.strerror(errno.ENETUNREACH))

    monkeypatch.setattr(socket, "create_connection", unreachable)
    monkeypatch.chdir(tmp_path)
    assert cli_status([*SETUP, "-o", "R"]) == 74
    message = "system error: no connection to 127.0.0.1 (Network is unreachable)"
    one_line(capsys.readouterr().err, f"attnspec run: {message}")
    assert list(tmp_path.iterdir()) == []
