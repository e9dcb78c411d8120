"""Ctrl-C or SIGTERM during `attnspec run`: one line, status 130 or 143, nothing left anywhere."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

#: A ladder run of about 30 s after its kernel starts (d = 300 and 3 trials took 6 s, and a faster
#: machine finished it before the signal 3 s in): every signal below lands while the run works.
LONG_RUN = "run ladder -p d 1200 -p trials 20 -p seed 11"


@pytest.mark.slow  # executes a chapter
@pytest.mark.parametrize("delay", [0.0, 3.0])  # during the kernel's start-up, during execution
@pytest.mark.parametrize(
    "signum, status, name", [(signal.SIGINT, 130, "Ctrl-C"), (signal.SIGTERM, 143, "SIGTERM")]
)
def test_interrupted_run_leaves_nothing(signum, status, name, delay, tmp_path):
    out = tmp_path / "runs"
    scratch = tmp_path / "tmp"  # the run's system temporary folder, to check it too
    scratch.mkdir()
    env = dict(os.environ, TMPDIR=str(scratch))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "attnspec.cli",
            *LONG_RUN.split(),
            "-o",
            out,
        ],
        start_new_session=True,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 300
    # wait until the kernel runs the notebook (its connection file exists in its private folder)
    while (
        not list(scratch.glob("attnspec-ladder-*/kernel.json"))
        and proc.poll() is None
        and time.time() < deadline
    ):
        time.sleep(0.1)
    assert proc.poll() is None, proc.communicate()
    time.sleep(delay)
    assert proc.poll() is None, "the run ended before the signal"
    os.killpg(proc.pid, signum)  # as a terminal does: the whole process group, kernel included
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == status, stderr
    assert stderr.strip() == f"attnspec run: interrupted ({name}); nothing written"
    assert [p for p in out.rglob("*")] == []
    assert list(scratch.iterdir()) == []


def test_cleanup_now_removes_folders_and_kills_children(tmp_path):
    from attnspec.core import cleanup

    with cleanup.temporary_folder(tmp_path, ".x-") as folder:
        (folder / "partial.ipynb").write_text("{")
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        cleanup._processes.append(child)
        try:
            cleanup.now()
            assert child.wait(timeout=10) != 0 and not folder.exists()
        finally:
            cleanup._processes.remove(child)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # executes a chapter
def test_an_interrupted_forced_run_keeps_the_previous_run_whole(tmp_path):
    """``--force`` replaces the run folder only at the end, as a whole."""
    out, scratch = tmp_path / "R", tmp_path / "tmp"
    out.mkdir()
    scratch.mkdir()
    for name in ("ladder.ipynb", "ladder.results.json", "ladder.html"):
        (out / name).write_text(f"previous {name}\n")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "attnspec.cli",
            *LONG_RUN.split(),
            "--force",
            "-o",
        ]
        + [str(out)],
        start_new_session=True,
        env=dict(os.environ, TMPDIR=str(scratch)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 300
    while not list(scratch.glob("attnspec-ladder-*/kernel.json")) and time.time() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    time.sleep(2.0)
    assert proc.poll() is None, "the run ended before the signal"
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    left = sorted(p.name for p in tmp_path.iterdir() if p.name != "cache")
    assert left == ["R", "tmp"]  # no staging folder left
    assert {p.name: p.read_text() for p in out.iterdir()} == {
        name: f"previous {name}\n"
        for name in ("ladder.ipynb", "ladder.results.json", "ladder.html")
    }
    assert list(scratch.iterdir()) == []
