"""``--dist loadfile`` with the longest file first, and the two real-model chapters on one worker.

pytest-xdist hands out whole files in collection order. Test counts say little about time (a
notebook of 20 cells may take three minutes, a file of 40 tests one second), so a long file picked
last keeps one worker busy while the other idles. Here a worker takes the file that took longest in
``benchmarks/test_durations.json`` (written by ``--timings``; a file not recorded there counts as
the median recorded one), and it is given its next file only when its current one is down to its
last test: xdist's default hands it over one test earlier, so that a file whose last-but-one test
takes minutes holds on to a file the other worker could have taken.

The real-attention and real-spectra chapters run the same forward passes: as one unit, in that
order, the second reads them from the trial cache the first filled. Their fast pins (``make
check``) are one unit too: the second uses the models the first loaded in that worker.
"""

from __future__ import annotations

import json
import statistics
from collections import OrderedDict
from pathlib import Path

import pytest
from xdist.scheduler import LoadFileScheduling

DURATIONS = Path(__file__).resolve().parent.parent / "benchmarks" / "test_durations.json"
# files that run as one unit, in collection order (the later ones reuse the earlier ones' cache)
TOGETHER = {
    "book/chapters/real-attention.ipynb": "book/chapters/real-*.ipynb",
    "book/chapters/real-spectra.ipynb": "book/chapters/real-*.ipynb",
    "tests/chapters/test_real_attention.py": "tests/chapters/test_real_*.py",
    "tests/chapters/test_real_spectra.py": "tests/chapters/test_real_*.py",
}


def unit_of(nodeid: str) -> str:
    """The file of a test, or the name of the unit its file runs in."""
    path = nodeid.split("::", 1)[0]
    return TOGETHER.get(path, path)


def recorded_seconds(path: Path = DURATIONS) -> dict[str, float]:
    """Seconds per unit: the sum of its tests' times in a ``--timings`` record."""
    seconds: dict[str, float] = {}
    for test in json.loads(path.read_text())["tests"]:
        unit = unit_of(test["test"])
        seconds[unit] = seconds.get(unit, 0.0) + test["s"]
    return seconds


class LongestFirst(OrderedDict):
    """xdist's queue of work units; ``popitem`` gives the unit expected to take longest."""

    def __init__(self, seconds: dict[str, float]):
        super().__init__()
        self.seconds = seconds
        self.unknown = statistics.median(seconds.values()) if seconds else 0.0

    def popitem(self, last: bool = True):
        unit = max(self, key=lambda u: self.seconds.get(u, self.unknown))
        return unit, self.pop(unit)


class LongestFileFirst(LoadFileScheduling):
    """``loadfile`` with :class:`LongestFirst` as its queue and :data:`TOGETHER` as units."""

    def __init__(self, config, log=None, seconds: dict[str, float] | None = None):
        super().__init__(config, log)
        self.workqueue = LongestFirst(recorded_seconds() if seconds is None else seconds)

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid)

    def _reschedule(self, node) -> None:
        # a worker runs a test only once it holds the next one (or is told to stop): its last
        # pending test waits for more work, so more work is sent then, and not before
        if self.workqueue and self._pending_of(self.assigned_work[node]) > 1:
            return
        super()._reschedule(node)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getoption("dist") != "loadfile":
        return None
    return LongestFileFirst(config, log)
