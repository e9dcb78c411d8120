"""Run time and peak memory of every chapter, cold and warm, through ``attnspec run``.

Each chapter runs twice, one after another, as a fresh ``python -m attnspec.cli run CHAPTER -o
DIR`` process at its default parameters: **cold**, with its own empty trial cache
(``ATTNSPEC_CACHE`` a new empty folder, so every trial is computed), then **warm**, with the cache
the cold run filled. Chapters run one at a time, in book order. For each run:

- ``wall_s``: wall-clock seconds of the whole process (interpreter start, the parameter checks,
  papermill, the kernel, writing the notebook and ``CHAPTER.results.json``);
- ``cpu_s``: user + system seconds of the process and every descendant it waited for (the kernel,
  Dask workers), from ``wait4``;
- ``peak_rss_mib``: the largest sum of resident memory over the kernel and its children (every
  descendant of the ``attnspec`` process, the process itself left out), sampled every 0.1 s with
  psutil: a spike shorter than that can be missed;
- ``max_process_rss_mib``: the largest peak of any single process of the run (``ru_maxrss`` from
  ``wait4``, the process and its waited-for descendants: exact, spikes included);
- the machine's load: the 1-minute load average before and after, and ``others``, the share of the
  machine's CPU time that other processes used during the run (``/proc/stat`` minus the run's own
  CPU time). On a machine shared with other work the wall-clock time grows with ``others``; the CPU
  time much less.

The results go to a JSON file (default ``benchmarks/chapters.json``, which the Reproduce page
reads), with the machine (CPUs, Python, the BLAS thread setting) and the date.

Run by hand from the repository root: ``.venv/bin/python benchmarks/bench_chapters.py [CHAPTER
...] [-o FILE]`` (default: every chapter of the table of contents). ``OPENBLAS_NUM_THREADS`` is
passed on as set (the book's chapters are executed with one BLAS thread).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "benchmarks" / "chapters.json"
MIB = 1024 * 1024


def busy_jiffies() -> tuple[int, int]:
    """(busy, total) CPU jiffies of the machine since boot, from /proc/stat's ``cpu`` line."""
    fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


def tree_rss(process: psutil.Process) -> int:
    """Resident bytes of every descendant of ``process`` (not the process itself)."""
    total = 0
    for child in process.children(recursive=True):
        try:
            total += child.memory_info().rss
        except psutil.Error:  # exited between the listing and the reading
            pass
    return total


def run_once(chapter: str, cache: Path, out: Path) -> dict:
    """One ``attnspec run CHAPTER`` with trial cache ``cache``: times, memory and load."""
    env = {**os.environ, "ATTNSPEC_CACHE": str(cache), "PYTHONPATH": str(ROOT)}
    load_before = os.getloadavg()[0]
    busy0, total0 = busy_jiffies()
    errors = tempfile.TemporaryFile()
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "attnspec.cli", "run", chapter, "-o", str(out)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=errors,
    )
    watched, peak = psutil.Process(proc.pid), 0
    while True:
        try:
            peak = max(peak, tree_rss(watched))
        except psutil.Error:
            pass
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        time.sleep(0.1)
    wall = time.perf_counter() - start
    busy1, total1 = busy_jiffies()
    if os.waitstatus_to_exitcode(status) != 0:
        errors.seek(0)
        raise SystemExit(f"attnspec run {chapter} failed:\n{errors.read().decode()}")
    cpu = usage.ru_utime + usage.ru_stime
    hz = os.sysconf("SC_CLK_TCK")
    machine = (total1 - total0) / hz  # CPU-seconds the machine had (all cores)
    others = max(0.0, (busy1 - busy0) / hz - cpu) / machine if machine > 0 else 0.0
    return {
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "peak_rss_mib": round(peak / MIB),
        "max_process_rss_mib": round(usage.ru_maxrss / 1024),
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "others": round(others, 2),
    }


def measure(chapters: list[str]) -> list[dict]:
    """Cold then warm run of each chapter, each chapter with its own new cache."""
    rows = []
    for name in chapters:
        with tempfile.TemporaryDirectory(prefix=f"bench-{name}-") as work:
            cache = Path(work) / "cache"
            cache.mkdir()
            row = {"chapter": name}
            for kind in ("cold", "warm"):  # a run folder of its own each (run refuses a used one)
                row[kind] = run_once(name, cache, Path(work) / kind)
                print(f"{name:<26} {kind}: {json.dumps(row[kind])}", flush=True)
            rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", help="short names (default: every chapter)")
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT, help=f"default {OUTPUT}")
    parser.add_argument("--note", default="", help="a sentence on the conditions, kept in the file")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from attnspec.publish.chapters import toc_chapter_names

    chapters = args.chapters or toc_chapter_names()
    started = datetime.now(UTC).isoformat(timespec="seconds")
    rows = measure(chapters)
    result = {
        "measured": started,
        "note": args.note,
        "machine": {
            "cpus": os.cpu_count(),
            "memory_gib": round(psutil.virtual_memory().total / 1024**3, 1),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
        },
        "chapters": rows,
    }
    args.output.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
