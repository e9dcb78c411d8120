"""``--timings=PATH``: every test's duration, its worker, and each worker's idle time, as JSON.

Read in the process that sees every report (xdist's controller, or the only process): a test's
time is the sum of its setup, call and teardown; a worker's idle time is the phase's wall time
(from the session's start, workers' start-up included, to the last test's end) minus the time its
tests took.
"""

from __future__ import annotations

import json
import time
from pathlib import Path


def pytest_addoption(parser):
    parser.addoption(
        "--timings",
        metavar="PATH",
        help="write every test's duration and worker, and each worker's idle time, to PATH (JSON)",
    )


def pytest_configure(config):
    path = config.getoption("timings")
    if path and not hasattr(config, "workerinput"):  # the controller, or a run without xdist
        config.pluginmanager.register(Timings(Path(path)), "attnspec-timings")


class Timings:
    """Collects the reports, and writes ``{phase, workers, tests}`` when the session ends."""

    def __init__(self, path: Path):
        self.path = path
        self.tests: dict[str, dict] = {}
        self.start = time.time()

    def pytest_runtest_logreport(self, report):
        node = getattr(report, "node", None)
        worker = node.gateway.id if node is not None else "main"
        test = self.tests.setdefault(
            report.nodeid, {"worker": worker, "start": report.start, "stop": report.stop, "s": 0.0}
        )
        test["start"] = min(test["start"], report.start)
        test["stop"] = max(test["stop"], report.stop)
        test["s"] += report.duration

    def pytest_sessionfinish(self, session):
        if not self.tests:
            return
        start = self.start
        wall = max(t["stop"] for t in self.tests.values()) - start
        workers: dict[str, dict] = {}
        for test in self.tests.values():
            worker = workers.setdefault(test["worker"], {"busy_s": 0.0, "last_stop": 0.0})
            worker["busy_s"] += test["s"]
            worker["last_stop"] = max(worker["last_stop"], test["stop"] - start)
        for worker in workers.values():
            worker["idle_s"] = round(wall - worker["busy_s"], 1)
            worker["busy_s"] = round(worker["busy_s"], 1)
            worker["last_stop"] = round(worker["last_stop"], 1)
        tests = sorted(
            (
                {"test": k, "worker": t["worker"], "at": round(t["start"] - start, 1), "s": t["s"]}
                for k, t in self.tests.items()
            ),
            key=lambda t: -t["s"],
        )
        for test in tests:
            test["s"] = round(test["s"], 2)
        record = {"wall_s": round(wall, 1), "workers": workers, "tests": tests}
        self.path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
