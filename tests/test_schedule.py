"""The order in which ``make test`` hands files to its workers (tests/schedule.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from types import SimpleNamespace

from tests.helpers import ROOT
from tests.schedule import (
    DURATIONS,
    TOGETHER,
    LongestFileFirst,
    LongestFirst,
    recorded_seconds,
    unit_of,
)


class Node:
    """A stand-in for xdist's worker controller: records what it is sent."""

    def __init__(self, name: str):
        self.gateway = SimpleNamespace(id=name)
        self.sent, self.shutting_down = [], False

    def send_runtest_some(self, indices):
        self.sent.append(list(indices))

    def shutdown(self):
        self.shutting_down = True


def scheduler(files: dict[str, int], seconds: dict[str, float]):
    """Two workers that collected ``files`` (name: number of tests), scheduled."""
    option = SimpleNamespace(loadscopereorder=True)
    config = SimpleNamespace(getvalue=lambda name: ["2*popen"], option=option)
    sched = LongestFileFirst(config, seconds=seconds)
    collection = [f"{f}::t{i}" for f, n in files.items() for i in range(n)]
    nodes = [Node("gw0"), Node("gw1")]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, collection)
    sched.schedule()
    return sched, nodes, collection


def files_of(node: Node, collection: list[str]) -> list[str]:
    return [collection[batch[0]].split("::")[0] for batch in node.sent]


def test_the_two_real_chapters_are_one_unit_and_other_files_their_own():
    assert unit_of("book/chapters/real-attention.ipynb::Cell 3") == unit_of(
        "book/chapters/real-spectra.ipynb::Cell 0"
    )
    assert unit_of("tests/chapters/test_real_attention.py::test_x") == unit_of(
        "tests/chapters/test_real_spectra.py::test_y"
    )
    assert unit_of("book/chapters/setup.ipynb::Cell 1") == "book/chapters/setup.ipynb"
    assert unit_of("tests/test_a.py::test_b[x::y]") == "tests/test_a.py"


def test_recorded_seconds_sum_a_units_tests(tmp_path):
    record = tmp_path / "t.json"
    tests = [
        {"test": "a.py::x", "s": 1.5},
        {"test": "a.py::y", "s": 2.0},
        {"test": "book/chapters/real-attention.ipynb::Cell 1", "s": 10.0},
        {"test": "book/chapters/real-spectra.ipynb::Cell 1", "s": 3.0},
    ]
    record.write_text(json.dumps({"tests": tests}))
    assert recorded_seconds(record) == {"a.py": 3.5, "book/chapters/real-*.ipynb": 13.0}


def test_the_stored_record_names_files_that_exist():
    root = DURATIONS.parent.parent
    units = set(recorded_seconds(DURATIONS)) - set(TOGETHER.values())
    missing = [u for u in units if not (root / u).exists()]
    assert units and not missing, missing


def test_the_longest_unit_comes_first_and_an_unknown_one_counts_as_the_median():
    queue = LongestFirst({"a": 1.0, "b": 5.0, "c": 3.0})
    for unit in ("a", "new", "b", "c"):
        queue[unit] = {}
    assert [queue.popitem()[0] for _ in range(4)] == ["b", "new", "c", "a"]


def test_workers_start_with_the_longest_files_and_get_more_only_at_their_last_test():
    files = {"short.py": 3, "long.py": 3, "middle.py": 3, "unknown.py": 3}
    seconds = {"short.py": 1.0, "long.py": 100.0, "middle.py": 10.0}
    sched, (gw0, gw1), collection = scheduler(files, seconds)
    assert files_of(gw0, collection) == ["long.py"] and files_of(gw1, collection) == ["middle.py"]

    long_tests = gw0.sent[0]
    sched.mark_test_complete(gw0, long_tests[0])  # two tests of long.py pending: nothing more
    assert files_of(gw0, collection) == ["long.py"]
    sched.mark_test_complete(gw0, long_tests[1])  # the last one waits for its successor
    assert files_of(gw0, collection) == ["long.py", "unknown.py"]


def test_timings_record_every_test_its_worker_and_each_workers_idle_time(tmp_path):
    (tmp_path / "test_two.py").write_text(
        "import time\n\ndef test_a():\n    time.sleep(0.2)\n\ndef test_b():\n    pass\n"
    )
    record = tmp_path / "t.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.timings"]
    done = subprocess.run(
        [*argv, f"--timings={record}", "test_two.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    timings = json.loads(record.read_text())
    assert [t["test"] for t in timings["tests"]] == ["test_two.py::test_a", "test_two.py::test_b"]
    assert timings["tests"][0]["s"] >= 0.2 and timings["tests"][0]["worker"] == "main"
    main = timings["workers"]["main"]
    assert main["idle_s"] >= 0 and abs(main["idle_s"] + main["busy_s"] - timings["wall_s"]) < 0.15
