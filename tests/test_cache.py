"""The disk cache: hits return identical arrays without recomputing, damaged entries are detected
and recomputed, writes are atomic and leave no temporary files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import attnspec.cache as cache
import attnspec.experiment as experiment
from attnspec.experiment import run_ladder, trial
from attnspec.ladder import MODEL_NAMES

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
    for changed in [(25, 1.0, 2.0, 0, 1), (24, 1.5, 2.0, 0, 1), (24, 1.0, 3.0, 0, 1), (24, 1.0, 2.0, 1, 1),
                    (24, 1.0, 2.0, 0, 2)]:
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
    assert all(n.startswith("trial_") and n.endswith(".npz") and ".tmp" not in n for n in names), names


@pytest.mark.parametrize("error", [OSError("disk full"), KeyboardInterrupt()])
def test_failure_during_save_leaves_no_partial_file(cache_dir, monkeypatch, capsys, error):
    def failing_savez(fh, **arrays):
        fh.write(b"PK\x03\x04 partial")  # some bytes reach the temporary file first
        raise error

    monkeypatch.setattr(cache.np, "savez", failing_savez)
    if isinstance(error, OSError):  # a storage fault: the result is returned, uncached, with a warning
        assert_same(trial(*ARGS), experiment.compute_trial(*ARGS))
        assert capsys.readouterr().err.count("warning: cannot write the cache") == 1
    else:
        with pytest.raises(type(error)):
            trial(*ARGS)
    assert entries(cache_dir) == []


def test_failed_save_keeps_the_previous_entry(cache_dir, monkeypatch):
    path = cache_dir / "entry.npz"
    cache.save(path, {"a": np.arange(3.0)})
    monkeypatch.setattr(cache.np, "savez", lambda fh, **arrays: (_ for _ in ()).throw(OSError("full")))
    with pytest.raises(OSError):
        cache.save(path, {"a": np.zeros(3)})
    np.testing.assert_array_equal(cache.load(path, {"a": (3,)})["a"], np.arange(3.0))
    assert [p.name for p in entries(cache_dir)] == ["entry.npz"]


def test_missing_entry_loads_as_none(cache_dir):
    assert cache.load(cache_dir / "nothing.npz", SHAPES) is None
