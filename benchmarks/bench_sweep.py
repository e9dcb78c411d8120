"""Speed of the Dask sweep: two workers against one, on this machine, in one run.

The sweep is d = 1000, beta in {0.5, 1}, 4 trials each (8 tasks), computed from scratch: every run
uses a fresh temporary cache folder. Setups, run in turn ``--repeat`` times:

- serial: :func:`attnspec.experiments.trials.run_ladder` in this process (BLAS with its default
threads);
- one worker with as many BLAS threads as cores (what ``attnspec sweep --workers 1`` does);
- one worker with one BLAS thread;
- one worker per core with one BLAS thread each (the default of ``attnspec sweep``).

For each, "start" is the cluster start, "compute" the time from submitting the tasks to the last
result, and "total" both plus the shutdown. Other processes on the machine make the figures noisy;
the load average is printed, and the minimum over the repeats is the least disturbed figure.

Run by hand: ``.venv/bin/python benchmarks/bench_sweep.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from attnspec.core import cache
from attnspec.core.parallel import cores
from attnspec.experiments.trials import run_ladder
from attnspec.runner.cluster import compute_trials, local_cluster
from attnspec.runner.sweep import make_grid

GRID = make_grid([1000], [0.5, 1.0], 4)
TASKS = [(cfg, k, None) for cfg in GRID for k in range(cfg.trials)]
CORES = cores()


def fresh_cache() -> tempfile.TemporaryDirectory:
    folder = tempfile.TemporaryDirectory(prefix="bench_sweep_")
    os.environ[cache.CACHE_ENV] = folder.name
    return folder


def time_serial() -> dict[str, float]:
    with fresh_cache():
        t0 = time.perf_counter()
        for cfg in GRID:
            run_ladder(cfg)
        elapsed = time.perf_counter() - t0
    return {"start": 0.0, "compute": elapsed, "total": elapsed}


def time_cluster(workers: int, blas: int) -> dict[str, float]:
    with fresh_cache():
        t0 = time.perf_counter()
        cluster = local_cluster(workers, blas)
        t1 = time.perf_counter()
        with cluster, cluster.get_client() as client:
            compute_trials(TASKS, client)
            t2 = time.perf_counter()
        t3 = time.perf_counter()
    return {"start": t1 - t0, "compute": t2 - t1, "total": t3 - t0}


SETUPS = {
    "serial, in process": time_serial,
    f"1 worker x {CORES} BLAS threads": lambda: time_cluster(1, CORES),
    "1 worker x 1 BLAS thread": lambda: time_cluster(1, 1),
    f"{CORES} workers x 1 BLAS thread": lambda: time_cluster(CORES, 1),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs of every setup (default 2)")
    repeat = parser.parse_args().repeat
    print(
        f"{len(TASKS)} trials at d = 1000 on {CORES} cores; load average before: "
        f"{os.getloadavg()[0]:.2f}"
    )
    runs = {name: [] for name in SETUPS}
    for _ in range(repeat):
        for name, setup in SETUPS.items():
            runs[name].append(setup())
    print(f"load average after: {os.getloadavg()[0]:.2f}\n")
    print(
        f"{'setup':<28} {'start':>7} {'compute min':>12} {'median':>7} "
        f"{'total min':>10} {'median':>7}  (s)"
    )
    for name, rs in runs.items():
        comp, tot = [r["compute"] for r in rs], [r["total"] for r in rs]
        print(
            f"{name:<28} {min(r['start'] for r in rs):7.2f} {min(comp):12.2f} "
            f"{statistics.median(comp):7.2f} {min(tot):10.2f} {statistics.median(tot):7.2f}"
        )
    parallel = runs[f"{CORES} workers x 1 BLAS thread"]
    print(f"\nspeed-up of {CORES} workers (min over runs; median in brackets):")
    for name in list(SETUPS)[:3]:
        for key in ("compute", "total"):
            base, par = [r[key] for r in runs[name]], [r[key] for r in parallel]
            print(
                f"  vs {name:<28} {key:>8}: {min(base) / min(par):5.2f}x "
                f"({statistics.median(base) / statistics.median(par):.2f}x)"
            )


if __name__ == "__main__":
    main()
