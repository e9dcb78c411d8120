"""The Dask sweep: same numbers as the serial ladder, resumable after a kill, cached re-runs,
CLI."""

from __future__ import annotations

import contextlib
import csv
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from distributed import LocalCluster

from attnspec.cli import main
from attnspec.core import parallel
from attnspec.experiments.trials import run_ladder, trial, trial_entry
from attnspec.laws.distance import ks_to_limit_law
from attnspec.runner import cluster as runner_cluster
from attnspec.runner import sweep
from attnspec.runner.cluster import cached_trial, local_cluster
from attnspec.runner.sweep import make_grid, run_sweep
from attnspec.runner.tables import SweepResult, to_csv
from tests.helpers import in_this_process, peer

GRID = {"d": [64, 96], "beta": [0.5, 1.0], "trials": 2}
#: A grid of 40 trials that takes a few seconds with the cluster start, for the kill and interrupt
#: tests.
SLOW = {"d": [160, 200], "beta": [0.5, 1.0], "trials": 10}
SLOW_ARGS = ["--d", "160,200", "--beta", "0.5,1", "--trials", "10", "--workers", "2"]
SLOW_TASKS = 40


@pytest.fixture(scope="module")
def scheduler():
    """The address of one two-worker cluster that the tests of results (not of starting,
    killing or interrupting) share: each cluster start spawns two processes that import Dask and
    NumPy, seconds of CPU that the results do not depend on. Each test's trials still go to its
    own cache folder, which every task receives from its client."""
    with local_cluster(2) as cluster:
        yield cluster.scheduler_address


def cli(*argv: str) -> int:
    return main(["sweep", *argv])


def entries(folder: Path) -> dict[str, tuple[int, int]]:
    """Finished trial entries: name -> (inode, mtime in ns); a rewrite (os.replace) changes both.

    Temporary files of unfinished writes are hidden (``.trial_...tmp.npz``) and not counted.
    """
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.glob("trial_*.npz")}


def serial(result: SweepResult) -> SweepResult:
    """The same grid computed in this process by :func:`run_ladder`."""
    return SweepResult([run_ladder(ladder.config) for ladder in result.ladders], 0)


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def same_as_csv(table: np.ndarray, rows: list[dict[str, str]]) -> bool:
    return [tuple(map(str, r)) for r in table.tolist()] == [tuple(r.values()) for r in rows]


def test_cached_trial_reads_the_file_trial_writes(cache_dir):
    cfg = make_grid([64], [0.5], 2)[0]
    assert cached_trial(cfg, 1) is None
    trial(64, 0.5, cfg.c_poly, cfg.seed, 1)
    assert trial_entry(64, 0.5, cfg.c_poly, cfg.seed, 1).parent == cache_dir
    assert cached_trial(cfg, 1) is not None


@pytest.mark.cluster  # starts a Dask cluster or a sweep process
def test_sweep_equals_serial_ladder_and_rerun_computes_nothing(
    cache_dir, tmp_path, monkeypatch, scheduler
):
    result = run_sweep(**GRID, scheduler=scheduler)
    assert result.computed == 8 and len(result.table) == 8 * 7 and len(result.pooled) == 4 * 7
    stored = entries(cache_dir)
    assert len(stored) == 8

    def no_cluster(*args, **kwargs):
        raise AssertionError("a finished sweep must not start a cluster")

    monkeypatch.setattr(runner_cluster, "LocalCluster", no_cluster)
    monkeypatch.setattr(runner_cluster, "Client", no_cluster)
    again = run_sweep(**GRID)
    assert again.computed == 0 and entries(cache_dir) == stored
    assert np.array_equal(again.table, result.table) and np.array_equal(again.pooled, result.pooled)

    monkeypatch.setenv("ATTNSPEC_CACHE", str(tmp_path / "serial"))
    reference = serial(result)
    assert np.array_equal(result.table, reference.table)
    assert np.array_equal(result.pooled, reference.pooled)
    for ladder, ref in zip(result.ladders, reference.ladders, strict=True):
        assert result.pooled[
            (result.pooled["d"] == ladder.config.d) & (result.pooled["beta"] == ladder.config.beta)
        ]["ks"].tolist() == list(ref.distances("ks").values())


@pytest.mark.cluster  # starts a Dask cluster or a sweep process
def test_tables(cache_dir, scheduler):
    result = run_sweep([250], [1.0], 16, scheduler=scheduler)
    table, pooled, ladder = result.table, result.pooled, result.ladders[0]
    assert set(table.dtype.names) >= set(
        "d beta trial model ks w1 ks_law top_sq s1_A D_std".split()
    )
    assert table["trial"].tolist() == [k for k in range(16) for _ in range(7)]
    perp = table[table["model"] == "sqrt_d_A_perp"]
    assert np.all(perp["ks"] == 0) and np.all(perp["w1"] == 0)
    assert np.allclose(perp["s1_A"], ladder.s1_A) and np.allclose(
        perp["D_std"], [t["D"].std() for t in ladder.trials]
    )
    assert np.allclose(table[table["model"] == "Y"]["top_sq"], ladder.s2("Y")[:, 0])
    # 4000 pooled bulk values at d = 250, beta = 1: the reference is visibly off the exact law, the
    # linear model Y_f_lin within the Kolmogorov noise level of 4000 values (1.36/sqrt(4000) =
    # 0.022)
    law = dict(zip(pooled["model"], pooled["ks_law"], strict=True))
    assert 0.02 < law["sqrt_d_A_perp"] < 0.06 and law["Y_f_lin"] < 0.022
    assert law["Y_f_lin"] == ks_to_limit_law(
        ladder.bulk("Y_f_lin"), 1.0, 250, ladder.config.remove_top_k
    )


@pytest.mark.cluster  # starts a Dask cluster or a sweep process
def test_sweep_of_a_subset_of_rungs(cache_dir, scheduler):
    pair = ["Y_f_lin", "sqrt_d_A_perp"]
    result = run_sweep([64], [1.0], 2, scheduler=scheduler, models=pair)
    assert result.computed == 2 and sorted(set(result.pooled["model"])) == sorted(pair)
    assert np.isnan(result.table["s1_A"]).all()
    full = run_ladder(
        result.ladders[0].config
    )  # a full ladder recomputes (a subset does not serve it)
    for k in range(2):
        for name in pair:
            np.testing.assert_array_equal(result.ladders[0].trials[k][name], full.trials[k][name])
    assert (
        run_sweep([64], [1.0], 2, scheduler=scheduler, models=["Y"]).computed == 0
    )  # the full trials serve it


def test_grid_defaults_come_from_the_parameter_registry():
    from attnspec.core.config import PARAMETERS

    cfg = make_grid([64], [1.0])[0]
    assert (cfg.trials, cfg.seed, cfg.c_poly, cfg.remove_top_k) == tuple(
        PARAMETERS[n].default for n in ("trials", "seed", "c_poly", "remove_top_k")
    )


def test_no_limit_law_at_beta_zero():
    assert np.isnan(ks_to_limit_law(np.ones(10), 0.0))


def test_a_table_solves_the_limit_laws_quantile_once(monkeypatch):
    """Every row's distance to the limit law is taken below the same quantile of the law, a Newton
    solve: one per table, not one per trial and rung."""
    from attnspec.core.config import Config
    from attnspec.experiments.trials import LadderResult
    from attnspec.laws.gaussian_equivalent import GaussianEquivalentLaw as Law

    cfg = Config(d=10, beta=1.125, trials=6)  # a beta of no other test: nothing solved yet
    ladder = LadderResult(cfg, [trial(cfg.d, cfg.beta, cfg.c_poly, cfg.seed, k) for k in range(6)])
    ppf, solves = Law.ppf, []
    monkeypatch.setattr(Law, "ppf", lambda self, q: solves.append(q) or ppf(self, q))
    result = SweepResult([ladder], 0)
    assert (len(result.table), len(result.pooled)) == (6 * 7, 7)
    assert solves == [1 - cfg.remove_top_k / cfg.d]


@pytest.mark.cluster  # starts a Dask cluster or a sweep process
def test_damaged_entry_is_the_only_one_recomputed(cache_dir, scheduler):
    run_sweep([64], [0.5], 3, scheduler=scheduler)
    before = entries(cache_dir)
    cfg = make_grid([64], [0.5], 3)[0]
    damaged = trial_entry(cfg.d, cfg.beta, cfg.c_poly, cfg.seed, 1)
    damaged.write_bytes(damaged.read_bytes()[:100])
    again = run_sweep([64], [0.5], 3, scheduler=scheduler)
    assert again.computed == 1
    after = entries(cache_dir)
    assert {name for name in before if after[name] != before[name]} == {damaged.name}


def openblas_threads() -> list[int]:
    """Threads of every OpenBLAS loaded in this process (NumPy's and SciPy's scipy-openblas)."""
    # a maps line is "address perms offset dev inode path"; the path may contain spaces
    maps = [line.split(maxsplit=5) for line in open("/proc/self/maps")]
    libs = {f[5].rstrip("\n") for f in maps if len(f) == 6 and "openblas" in f[5].lower()}
    getters = [
        getattr(ctypes.CDLL(lib), name, None)
        for lib in sorted(libs)
        for name in ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads")
    ]
    return [get() for get in getters if get is not None]


def occupy_port(port: int) -> socket.socket:
    """A listening socket on ``port`` (or on any port, if something else already holds it)."""
    sock = socket.socket()
    with contextlib.suppress(OSError):
        sock.bind(("", port))
    sock.listen()
    return sock


@pytest.mark.cluster  # starts a Dask cluster or a sweep process
def test_workers_get_one_blas_thread_each():
    assert openblas_threads(), "the locked NumPy and SciPy wheels link scipy-openblas"
    before = os.environ.get("OPENBLAS_NUM_THREADS")
    with occupy_port(8787), warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # e.g. "Port 8787 is already in use"
        with local_cluster(2) as cluster, cluster.get_client() as client:
            threads = client.run(openblas_threads)
    expected = max(1, parallel.cores() // 2)
    assert parallel.blas_threads(2) == expected
    assert len(threads) == 2 and all(n and set(n) == {expected} for n in threads.values())
    assert os.environ.get("OPENBLAS_NUM_THREADS") == before


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--d", "1"], "d=1 is out of range"),
        (["--d", "64,abc"], "d='abc' is not of type int"),
        (["--d", ""], "d='' must be a non-empty"),
        (["--beta", "0.5,-1"], "beta=-1.0 is out of range"),
        (["--beta", "nan"], "beta=nan must be finite"),
        (["--trials", "0"], "trials=0 is out of range"),
        (["--remove-top-k", "64"], "remove_top_k=64 is out of range"),
        (["--workers", "0"], "workers=0 is out of range"),
        (["--workers", "two"], "workers='two' is not of type int"),
        (
            ["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
            "workers applies to the embedded cluster only",
        ),
        (["--scheduler", "nonsense"], "scheduler='nonsense': cannot connect"),
        (["--out", "missing/out.csv"], "folder"),
        (["--out", "."], "is a folder"),
    ],
)
def test_invalid_input(argv, message, cache_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    base = {"--d": "64", "--beta": "1", "--trials": "1", "--out": "out.csv"}
    given = base | dict(zip(argv[::2], argv[1::2], strict=True))  # an option given once
    args = [word for option, value in given.items() for word in (option, value)]
    assert cli(*args) == 2
    err = capsys.readouterr().err
    assert err.startswith("attnspec sweep: error: ") and message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == [] and not entries(cache_dir)


def test_empty_grid_is_refused():
    with pytest.raises(ValueError, match="beta must be a non-empty list"):
        run_sweep([64], [], 1)


@pytest.mark.cluster  # starts a Dask cluster or a sweep process
def test_cli_with_an_existing_scheduler(cache_dir, tmp_path, capsys):
    out = tmp_path / "sweep.csv"
    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        argv = *"--d 64 --beta 0.5,1 --trials 2 --out".split(), str(out)
        assert cli(*argv, "--scheduler", cluster.scheduler_address) == 0
    captured = capsys.readouterr()
    assert "computed 4 of 4 trials" in captured.err
    result = run_sweep([64], [0.5, 1.0], 2)
    assert result.computed == 0 and same_as_csv(result.table, read_csv(out))
    assert captured.out.count("\n") == 2 + len(result.pooled)
    assert f"{result.pooled['ks'][2]:8.4f}" in captured.out.splitlines()[4]


def start_slow_sweep(cache_dir: Path, out: Path) -> subprocess.Popen:
    """Start the slow grid in a subprocess; return once its first trial is in the cache."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "attnspec.cli", "sweep", *SLOW_ARGS, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not entries(cache_dir):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.005)
    return proc


@pytest.mark.cluster  # starts a Dask cluster or a sweep process
def test_killed_sweep_recomputes_only_what_is_missing(cache_dir, tmp_path, monkeypatch, scheduler):
    out = tmp_path / "sweep.csv"
    proc = start_slow_sweep(cache_dir, out)
    proc.kill()
    proc.communicate()
    time.sleep(0.5)  # the orphaned workers notice their parent is gone
    before = entries(cache_dir)
    assert 0 < len(before) < SLOW_TASKS and not out.exists()

    assert cli(*SLOW_ARGS, "--out", str(out)) == 0
    after = entries(cache_dir)
    assert len(after) == SLOW_TASKS and all(after[name] == before[name] for name in before)

    resumed = run_sweep(**SLOW)
    assert resumed.computed == 0 and same_as_csv(resumed.table, read_csv(out))
    monkeypatch.setenv("ATTNSPEC_CACHE", str(tmp_path / "uninterrupted"))
    uninterrupted = run_sweep(**SLOW, scheduler=scheduler)
    assert uninterrupted.computed == SLOW_TASKS
    assert np.array_equal(resumed.table, uninterrupted.table)
    assert np.array_equal(resumed.pooled, uninterrupted.pooled)


@pytest.mark.cluster  # starts a Dask cluster or a sweep process
def test_interrupted_sweep_keeps_finished_trials_and_writes_nothing(cache_dir, tmp_path):
    out = tmp_path / "sweep.csv"
    proc = start_slow_sweep(cache_dir, out)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "interrupted; finished trials are kept in the cache" in err
    assert [p.name for p in tmp_path.iterdir()] == ["cache"]  # no output, not even a temporary file
    assert 0 < len(entries(cache_dir)) < SLOW_TASKS


def test_to_csv_round_trips_exactly(tmp_path):
    table = np.array(
        [(1, 0.1, "Y"), (2, 1 / 3, "Y_f")], dtype=[("d", "i8"), ("x", "f8"), ("model", "U8")]
    )
    to_csv(table, tmp_path / "t.csv")
    rows = read_csv(tmp_path / "t.csv")
    assert [float(r["x"]) for r in rows] == table["x"].tolist() and rows[1]["model"] == "Y_f"


# ---- a bounded connection to the scheduler, one line for every failure ----------------------


#: The command line of ``attnspec sweep`` in a fresh interpreter.
SWEEP = (sys.executable, "-m", "attnspec.cli", "sweep")


def sweep_subprocess(
    tmp_path: Path, *args: str, timeout: float = 120
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*SWEEP, *"--d 50 --beta 1 --trials 1 --out".split(), str(tmp_path / "o.csv"), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@contextlib.contextmanager
def http_server():
    """An HTTP server: it accepts the connection, then waits for a request line that never comes."""
    import http.server
    import threading

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def http_answering_peer():
    """A peer that answers every connection at once with an HTTP response, then keeps it open."""
    reply = b"HTTP/1.0 400 Bad Request\r\nContent-Type: text/html\r\n\r\n<html>bad</html>\n"
    return peer(lambda conn: conn.sendall(reply), close=False)


@pytest.mark.cluster  # starts a Dask cluster or a sweep process
@pytest.mark.parametrize("peer", [http_server, http_answering_peer])
def test_scheduler_that_never_answers_is_one_line(peer, tmp_path):
    with peer() as address:
        done = sweep_subprocess(tmp_path, "--scheduler", address, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and f"scheduler={address!r}" in done.stderr, done.stderr
    assert not (tmp_path / "o.csv").exists()


@pytest.mark.parametrize("address", ["ucx://127.0.0.1:1", "inproc2://x"])
def test_unsupported_protocols_are_one_line(address, tmp_path, capsys):
    argv = *"--d 50 --beta 1 --trials 1 --out".split(), str(tmp_path / "o.csv")
    assert cli(*argv, "--scheduler", address) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "only tcp:// and tls:// addresses are supported" in err


@pytest.mark.cluster  # starts a Dask cluster or a sweep process
def test_killed_worker_is_one_line_and_keeps_finished_trials(cache_dir, tmp_path):
    import dask

    # d = 6000 needs far more than the workers' 400 MB: its worker is killed, and with no retries
    # the task fails at once; d = 48 finishes on the other worker.
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            memory_limit="400MB",
            dashboard_address=None,
            silence_logs=50,
        ) as cluster,
    ):
        done = subprocess.run(
            [
                *SWEEP,
                *"--d 48,6000 --beta 1 --trials 1 --out".split(),
                str(tmp_path / "o.csv"),
                *("--scheduler", cluster.scheduler_address),
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert done.returncode == 75, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "attnspec sweep: failed: the worker running trial 0 of d=6000, beta=1.0 died"
    )
    assert "Traceback" not in done.stderr and not (tmp_path / "o.csv").exists()
    assert cached_trial(make_grid([48], [1.0], 1)[0], 0) is not None  # the finished trial is kept


@pytest.mark.cluster  # starts a Dask cluster or a sweep process
def test_several_sweeps_share_their_trials(cache_dir):
    """The merging of several requests' trials: where the trials run does not matter here (the
    cluster is tested above), so they run in this process."""
    pair = ("sqrt_d_A_perp", "Y_f_lin")
    requests = [
        sweep.SweepRequest([64], [0.5, 1.0], 2),
        sweep.SweepRequest([64, 80], [1.0], {64: 3, 80: 1}, pair),
    ]
    with in_this_process():
        first, second = sweep.run_sweeps(requests)
    # (64, 1.0) trials 0, 1 are full (first request), trial 2 a subset; (80, 1.0) trial 0 a subset;
    # (64, 0.5) x 2
    assert first.computed == 6 and len(entries(cache_dir)) == 6
    assert [L.config.trials for L in second.ladders] == [3, 1]
    assert all(L.models == list(pair) for L in second.ladders)
    full = run_ladder(first.ladders[1].config)
    for k in range(2):
        np.testing.assert_array_equal(
            second.ladders[0].trials[k]["Y_f_lin"], full.trials[k]["Y_f_lin"]
        )
    again = sweep.run_sweeps(requests)
    assert again[0].computed == 0 and np.array_equal(again[1].pooled, second.pooled)


#: a module that shadows the standard library's, and records that it ran
PLANTED = "import os\nopen(os.path.join(os.path.dirname(__file__), 'RAN'), 'w').close()\n"


@pytest.mark.cluster  # starts a Dask cluster or a sweep process
@pytest.mark.parametrize("planted", ["multiprocessing.py", "multiprocessing/__init__.py"])
def test_a_sweep_worker_never_imports_from_the_working_folder(tmp_path, monkeypatch, planted):
    (tmp_path / planted).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / planted).write_text(PLANTED)
    monkeypatch.chdir(tmp_path)
    with local_cluster(1) as cluster, cluster.get_client() as client:
        assert client.submit(os.getpid).result(timeout=60) != os.getpid()
    ran = [p for p in tmp_path.rglob("RAN")]
    assert ran == []


@pytest.mark.cluster  # starts a Dask cluster or a sweep process
def test_trials_are_submitted_a_window_at_a_time_and_all_come_back(monkeypatch):
    """Many small trials never flood the scheduler: with a window of 5, never more than 5 trials
    pending, all 23 computed, in order."""
    from attnspec.core.config import Config

    monkeypatch.setattr(runner_cluster, "IN_FLIGHT", 5)
    tasks = [(Config(d=10 + (k % 3), trials=23), k, ["Y"]) for k in range(23)]
    with local_cluster(1) as cluster, cluster.get_client() as client:
        submitted, most = [], [0]
        submit = client.submit

        def counted(*args, **kwargs):
            future = submit(*args, **kwargs)
            submitted.append(future)
            most[0] = max(most[0], sum(1 for f in submitted if not f.done()))
            return future

        monkeypatch.setattr(client, "submit", counted)
        out = runner_cluster.compute_trials(tasks, client)
    assert len(submitted) == 23 and most[0] <= 5
    for (cfg, k, models), got in zip(tasks, out, strict=True):
        np.testing.assert_array_equal(
            got["Y"], trial(cfg.d, cfg.beta, cfg.c_poly, 0, k, models)["Y"]
        )
