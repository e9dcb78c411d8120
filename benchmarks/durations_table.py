"""The ``make test`` phase from ``--timings`` records, as Markdown tables (benchmarks/README.md).

For each record (``_build/test-durations.json`` after a ``make test``; the stored ones are
``benchmarks/test_durations-before.json`` and ``benchmarks/test_durations.json``): the phase's wall
time, each worker's busy and idle time, the work in files (a notebook is one file; the two
real-model chapters count as the one unit the schedule makes of them), the 20 slowest tests, and
the critical path: the phase cannot end before ``max(longest unit, busy time / workers)``.

    .venv/bin/python benchmarks/durations_table.py benchmarks/test_durations-before.json \\
        benchmarks/test_durations.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.schedule import unit_of  # noqa: E402


def summary(path: Path) -> str:
    record = json.loads(path.read_text())
    tests, workers = record["tests"], record["workers"]
    units: dict[str, float] = {}
    for t in tests:
        units[unit_of(t["test"])] = units.get(unit_of(t["test"]), 0.0) + t["s"]
    busy = sum(w["busy_s"] for w in workers.values())
    longest = max(units, key=units.get)
    bound = max(units[longest], busy / len(workers))
    notebooks = sum(s for u, s in units.items() if u.endswith(".ipynb"))
    lines = [
        f"**{path.name}**: {len(tests)} tests and cells, phase {record['wall_s']:.0f} s wall, "
        f"{busy:.0f} s busy ({notebooks:.0f} s notebooks, {busy - notebooks:.0f} s other tests); "
        f"critical path ≥ max(longest unit {units[longest]:.0f} s, busy / {len(workers)} = "
        f"{busy / len(workers):.0f} s) = {bound:.0f} s",
        "",
        "| worker | busy [s] | idle [s] | last test ends at [s] |",
        "|---|---:|---:|---:|",
    ]
    lines += [
        f"| {name} | {w['busy_s']:.0f} | {w['idle_s']:.0f} | {w['last_stop']:.0f} |"
        for name, w in sorted(workers.items())
    ]
    lines += ["", "| # | test | worker | starts at [s] | time [s] |", "|---:|---|---|---:|---:|"]
    lines += [
        f"| {i} | `{t['test']}` | {t['worker']} | {t['at']:.0f} | {t['s']:.1f} |"
        for i, t in enumerate(tests[:20], 1)
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", type=Path, help="--timings JSON files")
    args = parser.parse_args(argv)
    print("\n\n".join(summary(p) for p in args.records))


if __name__ == "__main__":
    main()
