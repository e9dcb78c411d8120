"""The fast loop, side by side with an earlier checkout's, in one run.

Times the command ``make check`` runs (pytest on the unit tests, nothing installed, nothing built)
in this checkout, as ``make check`` runs it (one BLAS thread, two pytest-xdist workers), and in
another one (``--root``, e.g. a worktree at an earlier commit, with that commit's own test selection
``--old-marks``, one process as its ``make check`` ran), interleaved: old, new, old, new, ... Each
run is a fresh process with an empty pytest cache. Reports wall and CPU time (the children's
rusage), the median and the best of ``--repeat`` rounds, the ratio old / new, and the load average
before and after. Both checkouts use this interpreter (the shared venv), each with its own tree
first on ``PYTHONPATH``.

    .venv/bin/python benchmarks/bench_loops.py --root /tmp/old --repeat 3 [--json out.json]
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

ROOT = Path(__file__).resolve().parents[1]
NEW_MARKS = "not slow and not site and not cluster and not weights"


def run_once(root: Path, marks: str, blas_one: bool, workers: int = 1) -> dict:
    env = dict(os.environ, PYTHONPATH=str(root))
    if blas_one:
        env["OPENBLAS_NUM_THREADS"] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", marks, "tests"]
        + (["-n", str(workers)] if workers > 1 else []),
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-200:]
    return {"wall": wall, "cpu": cpu, "status": done.returncode, "summary": summary}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True, help="the other checkout")
    parser.add_argument("--old-marks", default="not slow and not site", help="its selection")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    runs = {"old": [], "new": []}
    load_before = os.getloadavg()
    for _ in range(args.repeat):
        runs["old"].append(run_once(args.root.resolve(), args.old_marks, blas_one=False))
        runs["new"].append(run_once(ROOT, NEW_MARKS, blas_one=True, workers=2))
    load_after = os.getloadavg()
    rows = {}
    for name, results in runs.items():
        walls = [r["wall"] for r in results]
        rows[name] = {
            "best_wall": min(walls),
            "median_wall": statistics.median(walls),
            "median_cpu": statistics.median(r["cpu"] for r in results),
            "summary": results[-1]["summary"],
            "status": [r["status"] for r in results],
        }
    ratio = rows["old"]["median_wall"] / rows["new"]["median_wall"]
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    for name, row in rows.items():
        print(
            f"{name:4s} best {row['best_wall']:6.1f} s  median {row['median_wall']:6.1f} s  "
            f"cpu {row['median_cpu']:6.1f} s  ({row['summary']})"
        )
    print(f"old / new (median wall): {ratio:.2f}")
    if args.json:
        out = {"rows": rows, "ratio": ratio, "load": [load_before[0], load_after[0]]}
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
