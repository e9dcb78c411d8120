"""Start-up time of the ``attnspec`` command: whole processes, against the targets.

Each command runs as a fresh ``python -m attnspec.cli ARGS`` process (what the ``attnspec`` console
script runs: ``from attnspec.cli import main``), output discarded, ``--repeat`` times; the rounds
are interleaved (every command once, then again), so a burst of load on the machine hits every
command alike. For each command the table gives the median wall-clock time, the median CPU time
(user + system of the child) and the target. ``python -c pass`` is the floor: the interpreter's own
start. On a machine shared with other processes the wall-clock times grow with the load (printed);
the CPU time grows much less, and is the better estimate of the wall-clock time on an idle machine.

Targets: ``attnspec --help`` and ``attnspec chapters`` under 0.3 s, ``attnspec law --beta 1 --at 1``
under 0.6 s.

Run by hand from the repository root: ``.venv/bin/python benchmarks/bench_startup.py [--repeat N]
[--root DIR] [-o FILE]``. ``--root`` times the package of another checkout (e.g. an older commit
unpacked with ``git archive``), put first on ``PYTHONPATH``; ``-o`` also writes the table as JSON.
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

#: (label, arguments of ``python``, target in seconds or None)
COMMANDS = [
    ("python -c pass", ["-c", "pass"], None),
    ("attnspec --help", ["-m", "attnspec.cli", "--help"], 0.3),
    ("attnspec chapters", ["-m", "attnspec.cli", "chapters"], 0.3),
    (
        "attnspec law --beta 1 --at 1",
        ["-m", "attnspec.cli", "law", "--beta", "1", "--at", "1"],
        0.6,
    ),
]


def time_process(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one ``python ARGS`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *args], env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"python {' '.join(args)} failed:\n{done.stderr.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(repeat: int, root: Path) -> list[dict]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    for _label, args, _ in COMMANDS:  # warm the byte-code and the file-system caches, not timed
        time_process(args, env, root)
    times: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in COMMANDS}
    for _ in range(repeat):
        for label, args, _ in COMMANDS:
            times[label].append(time_process(args, env, root))
    rows = []
    for label, _, target in COMMANDS:
        wall = statistics.median(w for w, _ in times[label])
        cpu = statistics.median(c for _, c in times[label])
        rows.append({"command": label, "target": target, "wall": wall, "cpu": cpu})
    return rows


def format_table(rows: list[dict]) -> str:
    lines = [f"{'command':<30} {'target':>7} {'wall':>7} {'CPU':>7}  wall within target"]
    for r in rows:
        target = f"{r['target']:.1f}" if r["target"] is not None else "-"
        verdict = "-" if r["target"] is None else ("yes" if r["wall"] < r["target"] else "no")
        lines.append(f"{r['command']:<30} {target:>7} {r['wall']:7.3f} {r['cpu']:7.3f}  {verdict}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per command (default 7)")
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(__file__).resolve().parents[1],
        help="checkout whose package is timed (default: this one)",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="also write the table as JSON")
    args = parser.parse_args()
    root = args.root.resolve()
    load = os.getloadavg()
    print(f"package: {root / 'attnspec'}; load average before: {load[0]:.2f}", flush=True)
    rows = measure(args.repeat, root)
    print(f"median of {args.repeat} runs, seconds; load average after: {os.getloadavg()[0]:.2f}")
    print(format_table(rows))
    if args.output:
        Path(args.output).write_text(json.dumps({"root": str(root), "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
