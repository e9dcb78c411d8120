"""The disk cache: hits return identical arrays without recomputing, damaged entries are detected
and recomputed, writes are atomic and leave no temporary files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

import attnspec.core.cache as cache
import attnspec.experiments.trials as experiment
from attnspec.experiments.trials import run_ladder, trial
from attnspec.models.ladder import MODEL_NAMES

ARGS = (24, 1.0, 2.0, 0, 1)  # d, beta, c_poly, seed, k
SHAPES = experiment.trial_shapes(24)


@pytest.fixture
def calls(monkeypatch):
    """Count calls of experiment.compute_trial (the work a cache hit must skip)."""
    counter = {"n": 0}
    original = experiment.compute_trial

    def counting(*args, **kwargs):
        counter["n"] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(experiment, "compute_trial", counting)
    return counter


def entries(folder: Path) -> list[Path]:
    return sorted(folder.iterdir()) if folder.exists() else []


def assert_same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for name in a:
        np.testing.assert_array_equal(a[name], b[name])


def test_cache_location_follows_the_environment(cache_dir, tmp_path, monkeypatch):
    assert cache.cache_dir() == cache_dir
    monkeypatch.delenv(cache.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "attnspec"


def test_hit_returns_identical_arrays_without_recomputing(calls, cache_dir):
    first = trial(*ARGS)
    assert calls["n"] == 1
    [path] = entries(cache_dir)
    assert path.suffix == ".npz"
    second = trial(*ARGS)
    assert calls["n"] == 1
    assert_same(first, second)
    assert_same(second, cache.load(path, SHAPES))


def test_run_ladder_reuses_trials(calls):
    run_ladder(d=24, trials=2)
    assert calls["n"] == 2
    again = run_ladder(d=24, trials=4)  # trials 0 and 1 are read back
    assert calls["n"] == 4
    assert len(again.trials) == 4


def test_every_parameter_is_part_of_the_key(calls, cache_dir):
    trial(*ARGS)
    for changed in [
        (25, 1.0, 2.0, 0, 1),
        (24, 1.5, 2.0, 0, 1),
        (24, 1.0, 3.0, 0, 1),
        (24, 1.0, 2.0, 1, 1),
        (24, 1.0, 2.0, 0, 2),
    ]:
        trial(*changed)
    assert calls["n"] == 6
    assert len(entries(cache_dir)) == 6


def test_version_is_part_of_the_key(monkeypatch):
    params = {"d": 24, "k": 0}
    before = cache.entry_path("trial", params)
    monkeypatch.setattr(cache, "__version__", "999")
    assert cache.entry_path("trial", params) != before


def test_truncated_entry_is_recomputed(calls, cache_dir):
    good = trial(*ARGS)
    [path] = entries(cache_dir)
    raw = path.read_bytes()
    for size in (0, 1, len(raw) // 2, len(raw) - 1):
        path.write_bytes(raw[:size])
        assert cache.load(path, SHAPES) is None
        before = calls["n"]
        assert_same(trial(*ARGS), good)
        assert calls["n"] == before + 1
        assert_same(cache.load(path, SHAPES), good)  # the damaged entry was replaced by a whole one


def test_corrupted_data_byte_is_recomputed(calls, cache_dir):
    good = trial(*ARGS)
    [path] = entries(cache_dir)
    raw = bytearray(path.read_bytes())
    # flip one byte inside the stored float64 data of the "Y" array
    marker = raw.index(b"Y.npy") + len(b"Y.npy")
    header_end = raw.index(b"\n", raw.index(b"{'descr'", marker)) + 1
    raw[header_end + 40] ^= 0x10
    path.write_bytes(bytes(raw))
    assert cache.load(path, SHAPES) is None  # zip CRC mismatch
    before = calls["n"]
    assert_same(trial(*ARGS), good)
    assert calls["n"] == before + 1


def test_every_single_byte_corruption_is_harmless(cache_dir):
    """Flip each byte of a stored entry in turn: loading never raises and never returns wrong
    data; at worst the entry is reported damaged (None)."""
    good = experiment.compute_trial(2, 1.0, 2.0, 0, 0)  # small arrays: the file is mostly headers
    path = cache_dir / "entry.npz"
    cache.save(path, good)
    raw = path.read_bytes()
    for i in range(len(raw)):
        damaged = bytearray(raw)
        damaged[i] ^= 0xFF
        path.write_bytes(bytes(damaged))
        got = cache.load(path, experiment.trial_shapes(2))  # must not raise
        if got is not None:
            assert_same(got, good)


def test_entry_missing_a_name_is_recomputed(calls, cache_dir):
    good = trial(*ARGS)
    [path] = entries(cache_dir)
    cache.save(path, {k: v for k, v in good.items() if k != "Y_Q"})
    assert_same(trial(*ARGS), good)
    assert calls["n"] == 2
    assert set(cache.load(path, SHAPES)) == {"D", *MODEL_NAMES}


def test_no_temporary_files_are_left(cache_dir):
    run_ladder(d=24, trials=3)
    trial(*ARGS)
    names = [p.name for p in entries(cache_dir)]  # hidden files included
    assert len(names) == 3  # trial(*ARGS) is trial 1 of the run: a cache hit
    assert all(n.startswith("trial_") and n.endswith(".npz") and ".tmp" not in n for n in names), (
        names
    )


@pytest.mark.parametrize("error", [OSError("disk full"), KeyboardInterrupt()])
def test_failure_during_save_leaves_no_partial_file(cache_dir, monkeypatch, capsys, error):
    def failing_savez(fh, **arrays):
        fh.write(b"PK\x03\x04 partial")  # some bytes reach the temporary file first
        raise error

    monkeypatch.setattr(cache.np, "savez", failing_savez)
    if isinstance(
        error, OSError
    ):  # a storage fault: the result is returned, uncached, with a warning
        assert_same(trial(*ARGS), experiment.compute_trial(*ARGS))
        assert capsys.readouterr().err.count("warning: cannot write the cache") == 1
    else:
        with pytest.raises(type(error)):
            trial(*ARGS)
    assert entries(cache_dir) == []


def test_failed_save_keeps_the_previous_entry(cache_dir, monkeypatch):
    path = cache_dir / "entry.npz"
    cache.save(path, {"a": np.arange(3.0)})
    monkeypatch.setattr(
        cache.np, "savez", lambda fh, **arrays: (_ for _ in ()).throw(OSError("full"))
    )
    with pytest.raises(OSError):
        cache.save(path, {"a": np.zeros(3)})
    np.testing.assert_array_equal(cache.load(path, {"a": (3,)})["a"], np.arange(3.0))
    assert [p.name for p in entries(cache_dir)] == ["entry.npz"]


def test_missing_entry_loads_as_none(cache_dir):
    assert cache.load(cache_dir / "nothing.npz", SHAPES) is None


# ---- wrong entries, storage faults, debris (the real command on temporary folders) ---------------

LADDER = ["ladder", "--d", "24", "--trials", "2"]


def run_cli(*argv: str) -> int:
    from attnspec.cli import main

    return main(list(argv))


def rewrite(path: Path, arrays: dict) -> None:
    """Store ``arrays`` at ``path`` as a plain npz (whatever their shapes and dtypes)."""
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)


def huge_header(path: Path, arrays: dict) -> None:
    """An entry whose ``Y`` member declares 10^12 float64 values but holds 8 KB."""
    import io
    import zipfile

    rewrite(path, {k: v for k, v in arrays.items() if k != "Y"})
    member = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        member, {"descr": "<f8", "fortran_order": False, "shape": (10**12,)}
    )
    member.write(bytes(8192))
    with zipfile.ZipFile(path, "a") as zf:
        zf.writestr("Y.npy", member.getvalue())


DAMAGE = {
    "truncated to 5 values": lambda p, a: rewrite(p, {k: v[:5] for k, v in a.items()}),
    "float32": lambda p, a: rewrite(p, {k: v.astype(np.float32) for k, v in a.items()}),
    "NaN values": lambda p, a: rewrite(
        p, {k: np.where(np.arange(v.size) == 3, np.nan, v) for k, v in a.items()}
    ),
    "header claims 10^12 values": huge_header,
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_wrong_entries_are_recomputed_and_replaced(damage, cache_dir, tmp_path, capsys):
    assert run_cli(*LADDER, "--json", str(tmp_path / "a.json")) == 0
    paths = entries(cache_dir)
    good = {p: cache.load(p, experiment.trial_shapes(24)) for p in paths}
    for path in paths:
        DAMAGE[damage](path, good[path])
    assert run_cli(*LADDER, "--json", str(tmp_path / "b.json")) == 0
    assert (tmp_path / "b.json").read_text() == (tmp_path / "a.json").read_text()
    for path in paths:  # replaced by valid entries
        assert_same(cache.load(path, experiment.trial_shapes(24)), good[path])


def test_extra_members_are_ignored(cache_dir, tmp_path, calls):
    assert run_cli(*LADDER, "--json", str(tmp_path / "a.json")) == 0
    for path in entries(cache_dir):
        rewrite(path, {**cache.load(path, experiment.trial_shapes(24)), "extra": np.zeros(7)})
    assert run_cli(*LADDER, "--json", str(tmp_path / "b.json")) == 0
    assert calls["n"] == 2  # the entries were used
    assert (tmp_path / "b.json").read_text() == (tmp_path / "a.json").read_text()


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_fifo_or_folder_at_an_entry_neither_hangs_nor_crashes(kind, cache_dir, tmp_path):
    import subprocess
    import sys

    assert run_cli(*LADDER, "--json", str(tmp_path / "a.json")) == 0
    path = entries(cache_dir)[0]
    path.unlink()
    os.mkfifo(path) if kind == "fifo" else path.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "attnspec.cli", *LADDER, "--json", str(tmp_path / "b.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "b.json").read_text() == (tmp_path / "a.json").read_text()
    if kind == "fifo":  # replaced by a valid entry
        assert cache.load(path, experiment.trial_shapes(24)) is not None and done.stderr == ""
    else:  # a folder is never removed: the run goes on without caching that trial, and says so
        assert path.is_dir() and done.stderr.count("warning: cannot write the cache") == 1


def assert_finishes_uncached(tmp_path, capsys, folder: str) -> None:
    assert run_cli(*LADDER, "--json", str(tmp_path / "a.json")) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"warning: cannot write the cache in {folder!r}" in err, err
    assert json.loads((tmp_path / "a.json").read_text())["trials"] == 2


def test_cache_path_that_is_a_file(tmp_path, monkeypatch, capsys):
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "file"))
    assert_finishes_uncached(tmp_path, capsys, str(tmp_path / "file"))


@pytest.mark.parametrize("options", ["ro,size=1m", "size=4k"])  # read-only; full after 4 KB
def test_read_only_or_full_cache(options, tmp_path, monkeypatch, capsys):
    import subprocess

    point = tmp_path / "mnt"
    point.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)]).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        monkeypatch.setenv(cache.CACHE_ENV, str(point))
        assert_finishes_uncached(tmp_path, capsys, str(point))
        assert not any(".tmp" in p.name for p in point.iterdir())
    finally:
        subprocess.run(["umount", str(point)])


def test_stale_temporary_files_are_removed_on_open(cache_dir):
    """Only the cache's own debris goes: other programs' hidden temporary files
    in the same folder stay, however old."""
    import time

    from attnspec.core.cleanup import STALE_SECONDS

    cache_dir.mkdir()
    hours_ago = time.time() - 2 * STALE_SECONDS
    dead = 2**31 - 1  # above any pid_max
    files = {
        f".trial_a-{dead}-k2j4h1.tmp.npz": (hours_ago, False),  # old, writer gone: debris
        ".trial_b-x3k9q0z1.tmp.npz": (hours_ago, False),  # old, no pid (an older release): debris
        f".trial_c-{os.getpid()}-k2j4h1.tmp.npz": (hours_ago, True),  # old but its writer is alive
        f".trial_d-{dead}-k2j4h1.tmp.npz": (time.time(), True),  # writer gone, but recent
        "unrelated.tmp": (hours_ago, True),
        ".editor-swap.tmp": (hours_ago, True),  # other programs' hidden temporary files
        f".download-{dead}-k2j4h1.tmp": (hours_ago, True),
        f".sync-{dead}-k2j4h1.tmp.part": (hours_ago, True),
    }
    for name, (mtime, _) in files.items():
        (cache_dir / name).write_bytes(b"partial")
        os.utime(cache_dir / name, (mtime, mtime))
    assert run_cli(*LADDER) == 0
    left = {p.name for p in cache_dir.iterdir()}
    assert {name for name, (_, kept) in files.items() if kept} == {n for n in left if n in files}


def test_a_replaced_entry_gets_the_mode_of_a_new_file(cache_dir, tmp_path):
    """A damaged entry of mode 000 is replaced by one of mode 0666 minus the umask, not by
    another of mode 000."""
    from attnspec.core.atomic import new_file_mode

    assert run_cli(*LADDER, "--json", str(tmp_path / "a.json")) == 0
    paths = entries(cache_dir)
    for path in paths:
        path.write_bytes(b"not a zip")
        os.chmod(path, 0)
    assert run_cli(*LADDER, "--json", str(tmp_path / "b.json")) == 0
    assert (tmp_path / "b.json").read_text() == (tmp_path / "a.json").read_text()
    for path in paths:
        assert os.stat(path).st_mode & 0o777 == new_file_mode()
        assert cache.load(path, experiment.trial_shapes(24)) is not None


def test_sigterm_removes_temporary_files(cache_dir, tmp_path):
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "attnspec.cli", "ladder", "--d", "200", "--trials", "10000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while len([p for p in entries(cache_dir) if p.name.startswith("trial_")]) < 3:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143
    assert (
        "attnspec ladder: terminated; finished trials are kept in the cache\n" in err
        and "Traceback" not in err
    )
    assert not [p.name for p in entries(cache_dir) if ".tmp" in p.name]


# the caller's cache, resolved at collection (before any fixture has set $ATTNSPEC_CACHE)
CALLERS_CACHE = cache.cache_dir()


@pytest.fixture(scope="module")
def module_cache_folder():
    """The cache a module-scoped fixture sees: it runs before any per-test cache is set."""
    return cache.cache_dir()


def test_neither_a_test_nor_a_module_fixture_sees_the_callers_cache(module_cache_folder, cache_dir):
    assert cache.cache_dir() == cache_dir
    assert module_cache_folder != cache_dir
    assert CALLERS_CACHE not in (module_cache_folder, cache_dir)
