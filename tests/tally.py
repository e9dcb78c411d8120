"""``--tally=PATH``: the outcome of every test, as JSON, for the publication gate.

Read in the process that sees every report (xdist's controller, or the only process). A test is
``passed`` when none of its phases (setup, call, teardown) failed or skipped and its call ran;
``failed`` or ``skipped`` otherwise (an expected failure counts as skipped). The file is written
when the session ends, even if no test ran (``--collect-only``): ``{"exitstatus", "outcomes"}``.
"""

from __future__ import annotations

import json
from pathlib import Path


def pytest_addoption(parser):
    parser.addoption(
        "--tally", metavar="PATH", help="write the outcome of every test to PATH (JSON)"
    )


def pytest_configure(config):
    path = config.getoption("tally")
    if path and not hasattr(config, "workerinput"):  # the controller, or a run without xdist
        config.pluginmanager.register(Tally(Path(path)), "attnspec-tally")


class Tally:
    """Collects the reports, and writes the outcomes when the session ends."""

    def __init__(self, path: Path):
        self.path = path
        self.outcomes: dict[str, str] = {}

    def pytest_runtest_logreport(self, report):
        now = self.outcomes.get(report.nodeid)
        if report.failed:
            self.outcomes[report.nodeid] = "failed"
        elif report.skipped and now != "failed":
            self.outcomes[report.nodeid] = "skipped"
        elif report.when == "call" and now is None:
            self.outcomes[report.nodeid] = "passed"

    def pytest_sessionfinish(self, session, exitstatus):
        record = {"exitstatus": int(exitstatus), "outcomes": self.outcomes}
        self.path.write_text(json.dumps(record, indent=0) + "\n")
