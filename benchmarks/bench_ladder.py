"""Speed and peak memory of the ladder computation: the seed notebook's method against attnspec.

Run by hand (not by CI), from the repository root::

    .venv/bin/python benchmarks/bench_ladder.py           # d=1000 x 5 trials, d=2000 x 2 trials
    .venv/bin/python benchmarks/bench_ladder.py --cases 500x3 --repeats 2
    .venv/bin/python benchmarks/bench_ladder.py --profile 2000x1   # where compute_trial's time goes

Three methods, timed on the same parameters in the same run:

``baseline``
    the seed notebook's trial loop (``seed_baseline.run``): all model matrices alive at once,
    ``np.linalg.svd(compute_uv=False)`` of each of the seven models plus a separate SVD of A.
``attnspec``
    ``attnspec.experiments.trials.compute_trial(d, beta, c, seed, k)`` for k = 0 .. trials-1, called
    directly (the disk cache is bypassed): one model and one Gram matrix at a time, ``eigvalsh``
    of the Gram matrix, two rungs from their parent's Gram matrix.
``floor``
    seven ``np.linalg.eigvalsh`` of a d x d symmetric matrix per trial, and nothing else (only the
    eigvalsh calls are timed): what any method that needs all seven spectra has to pay.

Each measurement runs in a fresh subprocess. Wall time: ``time.perf_counter`` around the method;
the rounds are interleaved (baseline, attnspec, floor, baseline, ...) so that a change in machine
load hits all methods alike, and the best of ``--repeats`` rounds is reported (median beside it).
Peak memory: ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` at the end minus its value after the
imports and a small warm-up (so numpy, LAPACK and OpenBLAS buffers of the interpreter are not
counted); this includes LAPACK workspaces and OpenBLAS buffers, which tracemalloc would not see.
The BLAS threading is left as configured (no OPENBLAS_* variables are set).

Other processes distort the timings badly on a small machine (threaded OpenBLAS slows down many
times over when its threads compete for the cores). The script therefore waits for a quiet machine
before each measurement and measures, from /proc/stat and the child's rusage, the share of the CPUs
that other processes used during it ("others" column); a measurement above ``--max-others`` is
discarded and repeated (up to ``--retries`` times).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
METHODS = ["baseline", "attnspec", "floor"]
BETA, C_POLY, SEED = 1.0, 2.0, 0
TARGETS = {  # d: (minimum speed-up over the baseline, maximum memory ratio or None)
    1000: (2.0, None),
    2000: (2.5, 0.5),
}
FLOOR_TARGET = 1.3


# ---- the three methods (run inside a worker subprocess) ---------------------------------------
def run_baseline(d: int, trials: int) -> float:
    sys.path.insert(0, str(HERE))
    import seed_baseline

    t0 = time.perf_counter()
    seed_baseline.run(d=d, num_trials=trials, beta=BETA, seed=SEED, c_poly=C_POLY)
    return time.perf_counter() - t0


def run_attnspec(d: int, trials: int) -> float:
    from attnspec.experiments.trials import compute_trial

    t0 = time.perf_counter()
    for k in range(trials):
        compute_trial(d, BETA, C_POLY, SEED, k)
    return time.perf_counter() - t0


def run_floor(d: int, trials: int) -> float:
    import numpy as np

    rng = np.random.default_rng(SEED)
    total = 0.0
    for _ in range(trials):
        M = rng.standard_normal((d, d))
        G = M @ M.T
        del M
        t0 = time.perf_counter()
        for _ in range(7):
            np.linalg.eigvalsh(G)
        total += time.perf_counter() - t0
    return total


def worker(method: str, d: int, trials: int) -> None:
    import numpy as np

    import attnspec.experiments.trials  # noqa: F401  (imports are not part of the measurement)

    sys.path.insert(0, str(HERE))
    import seed_baseline  # noqa: F401

    warm = np.random.default_rng(1).standard_normal((64, 64))
    np.linalg.eigvalsh(warm @ warm.T)
    np.linalg.svd(warm, compute_uv=False)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    seconds = {"baseline": run_baseline, "attnspec": run_attnspec, "floor": run_floor}[method](
        d, trials
    )
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "method": method,
                "d": d,
                "trials": trials,
                "seconds": seconds,
                "peak_mib": (after - before) / 1024,
            }
        )
    )


def cpu_busy_seconds() -> float:
    """CPU seconds spent busy by the whole machine (all processes, all CPUs), from /proc/stat."""
    with open("/proc/stat") as fh:
        v = [
            int(x) for x in fh.readline().split()[1:9]
        ]  # user nice system idle iowait irq softirq steal
    return (sum(v) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def others_share(seconds: float = 2.0) -> float:
    """Share of the machine's CPUs used by other processes over the next ``seconds``."""
    b0, t0 = cpu_busy_seconds(), time.perf_counter()
    time.sleep(seconds)
    return (cpu_busy_seconds() - b0) / ((time.perf_counter() - t0) * os.cpu_count())


def measure(
    method: str, d: int, trials: int, max_others: float, max_wait: float, retries: int
) -> dict:
    """One measurement in a fresh subprocess, repeated while other processes took more than
    ``max_others`` of the CPUs during it (the OpenBLAS threads of a 2-core machine are very
    sensitive to competition); waits up to ``max_wait`` s for a quiet machine before starting."""
    for _ in range(retries + 1):
        deadline = time.monotonic() + max_wait
        while others_share() > max_others and time.monotonic() < deadline:
            time.sleep(5)
        b0, c0, t0 = cpu_busy_seconds(), children_cpu_seconds(), time.perf_counter()
        out = subprocess.run(
            [
                sys.executable,
                str(Path(__file__).resolve()),
                "--worker",
                method,
                str(d),
                str(trials),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        wall = time.perf_counter() - t0
        others = max(0.0, (cpu_busy_seconds() - b0) - (children_cpu_seconds() - c0)) / (
            wall * os.cpu_count()
        )
        rec = json.loads(out.stdout.strip().splitlines()[-1])
        rec["others"] = others
        if others <= max_others:
            return rec
        print(
            f"    discarded {method} d={d}: other processes used {others:.0%} of the CPUs",
            flush=True,
        )
    return rec


# ---- correctness: the two methods compute the same spectra -----------------------------------
def check_agreement(d: int = 200) -> float:
    """Max |s^2_attnspec - s^2_seed| / s_1^2 over all rungs, the seed's code fed attnspec's
    trial 0."""
    import math

    import numpy as np

    sys.path.insert(0, str(HERE))
    import seed_baseline as sb

    from attnspec.experiments.trials import compute_trial, trial_rng
    from attnspec.models.nonlinearity import poly_degree, theta_q

    rng = trial_rng(SEED, 0)  # compute_trial draws W_Q, W_K, then W from this generator
    Wq, Wk, W = (rng.standard_normal((d, d)) for _ in range(3))
    n = poly_degree(d, C_POLY)
    models, _, _ = sb.build_all_models(
        sb.compute_score_matrix(Wq, Wk), W, BETA, d, n, sb.theta_stats_f(BETA), theta_q(BETA, n)
    )
    ours = compute_trial(d, BETA, C_POLY, SEED, 0)
    worst = 0.0
    for name, M in models.items():
        s2 = np.sort(sb.squared_singular_values(M))[::-1]
        worst = max(worst, float(np.max(np.abs(ours[name] - s2)) / s2[0]))
    assert math.isfinite(worst)
    return worst


# ---- profile of compute_trial -----------------------------------------------------------------
def profile(d: int, trials: int) -> None:
    """Where compute_trial's time goes (cProfile; matrix products count as compute_trial's own
    time)."""
    import cProfile
    import pstats

    from attnspec.experiments.trials import compute_trial

    compute_trial(64, BETA, C_POLY, SEED, 0)  # warm-up
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    for k in range(trials):
        compute_trial(d, BETA, C_POLY, SEED, k)
    prof.disable()
    wall = time.perf_counter() - t0
    floor = run_floor(d, trials)
    st = pstats.Stats(prof)
    rows = []
    for (file, _line, func), (_cc, nc, tt, _ct, _callers) in st.stats.items():
        if tt > 0.005 * wall:
            rows.append((tt, nc, f"{Path(file).name}:{func}" if file != "~" else func))
    print(
        f"compute_trial, d={d}, {trials} trial(s): {wall:.2f} s wall; "
        f"floor (7 eigvalsh/trial) {floor:.2f} s"
    )
    print(f"{'self time [s]':>14} {'share':>6} {'calls':>6}  function")
    for tt, nc, name in sorted(rows, reverse=True):
        print(f"{tt:14.3f} {tt / wall:6.1%} {nc:6d}  {name}")


# ---- driver ------------------------------------------------------------------------------------
def parse_cases(text: str) -> list[tuple[int, int]]:
    return [tuple(int(v) for v in case.split("x")) for case in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", default="1000x5,2000x2", help="comma-separated DxTRIALS")
    parser.add_argument(
        "--repeats", type=int, default=3, help="interleaved rounds; best and median reported"
    )
    parser.add_argument("--json", help="also write all measurements to this file")
    parser.add_argument(
        "--max-others",
        type=float,
        default=0.05,
        help="repeat a measurement if other processes used more than this share of the CPUs",
    )
    parser.add_argument(
        "--max-wait", type=float, default=900, help="seconds to wait for a quiet machine"
    )
    parser.add_argument("--retries", type=int, default=5, help="repeats of a disturbed measurement")
    parser.add_argument(
        "--profile", metavar="DxTRIALS", help="profile compute_trial instead of benchmarking"
    )
    parser.add_argument(
        "--worker", nargs=3, metavar=("METHOD", "D", "TRIALS"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], int(args.worker[1]), int(args.worker[2]))
        return
    if args.profile:
        profile(*parse_cases(args.profile)[0])
        return

    import numpy as np

    print(
        f"numpy {np.__version__}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.2f} at start"
    )
    print(
        f"agreement check (d=200): max |s^2 attnspec - s^2 seed| / s1^2 = {check_agreement():.1e}"
    )
    records = []
    for d, trials in parse_cases(args.cases):
        for r in range(args.repeats):
            for method in METHODS:
                rec = measure(method, d, trials, args.max_others, args.max_wait, args.retries)
                rec["round"] = r
                records.append(rec)
                print(
                    f"  d={d} trials={trials} round {r + 1}/{args.repeats} {method:>9}: "
                    f"{rec['seconds']:7.2f} s, {rec['peak_mib']:7.1f} MiB, "
                    f"others {rec['others']:.0%}",
                    flush=True,
                )
    print(f"load average {os.getloadavg()[0]:.2f} at end\n")

    print(
        f"{'d':>5} {'trials':>6} {'method':>9} {'best [s]':>9} {'median [s]':>10} "
        f"{'peak [MiB]':>10} {'time/baseline':>13} {'mem/baseline':>12} {'time/floor':>10} "
        f"{'others':>6}"
    )
    summary = {}
    for d, trials in parse_cases(args.cases):
        rows = {}
        for method in METHODS:
            recs = [
                x
                for x in records
                if x["d"] == d and x["trials"] == trials and x["method"] == method
            ]
            rows[method] = {
                "best": min(x["seconds"] for x in recs),
                "median": statistics.median(x["seconds"] for x in recs),
                "peak_mib": max(x["peak_mib"] for x in recs),
                "others_max": max(x["others"] for x in recs),
            }
        base, floor = rows["baseline"], rows["floor"]
        for method, row in rows.items():
            row["time_vs_baseline"] = row["best"] / base["best"]
            row["mem_vs_baseline"] = row["peak_mib"] / base["peak_mib"]
            row["time_vs_floor"] = row["best"] / floor["best"]
            print(
                f"{d:5d} {trials:6d} {method:>9} {row['best']:9.2f} {row['median']:10.2f} "
                f"{row['peak_mib']:10.1f} {row['time_vs_baseline']:13.2f} "
                f"{row['mem_vs_baseline']:12.2f} {row['time_vs_floor']:10.2f} "
                f"{row['others_max']:6.0%}"
            )
        summary[f"{d}x{trials}"] = rows

    print()
    for key, rows in summary.items():
        d = int(key.split("x")[0])
        ours = rows["attnspec"]
        speedup = 1 / ours["time_vs_baseline"]
        need_speed, need_mem = TARGETS.get(d, (None, None))
        checks = [
            f"speed-up {speedup:.2f}x"
            + (
                f" (target >= {need_speed}x: {'met' if speedup >= need_speed else 'MISSED'})"
                if need_speed
                else ""
            )
        ]
        if need_mem:
            ok = ours["mem_vs_baseline"] <= need_mem
            checks.append(
                f"memory {ours['mem_vs_baseline']:.2f}x "
                f"(target <= {need_mem}x: {'met' if ok else 'MISSED'})"
            )
        ok = ours["time_vs_floor"] <= FLOOR_TARGET
        checks.append(
            f"{ours['time_vs_floor']:.2f}x the floor "
            f"(target <= {FLOOR_TARGET}x: {'met' if ok else 'MISSED'})"
        )
        print(f"{key}: " + "; ".join(checks))
    if args.json:
        Path(args.json).write_text(
            json.dumps({"records": records, "summary": summary}, indent=2) + "\n"
        )


if __name__ == "__main__":
    main()
