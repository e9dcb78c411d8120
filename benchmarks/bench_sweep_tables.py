"""Building a sweep's tables: the limit law's quantile solved per row against once, in one run.

``attnspec sweep --trials 10000`` at d = 10 spent most of its time after the trials, in
:attr:`~attnspec.runner.tables.SweepResult.table`: every row's distance to the limit law solved the
law's :math:`(1 - r/d)` quantile again (:func:`attnspec.laws.distance.ks_to_limit_law`), one
Newton solve per trial and rung. Now it is solved once per :math:`(\\beta, 1 - r/d)`. Both are timed
here on the same trials (d = 10, beta = 1, all seven rungs), in turn, after a warm-up that imports
what the distances import; "before" calls the uncached solve. The tables must be equal.

Run by hand: ``.venv/bin/python benchmarks/bench_sweep_tables.py [--trials N]``.
"""

from __future__ import annotations

import argparse
import os
import time
from unittest import mock

import numpy as np

from attnspec.core.config import Config
from attnspec.experiments.trials import LadderResult, trial
from attnspec.laws import distance
from attnspec.runner.tables import SweepResult

SOLVE_ONCE = distance._limit_quantile


def table_seconds(ladder: LadderResult) -> tuple[float, np.ndarray]:
    SOLVE_ONCE.cache_clear()  # the "after" figure includes its one solve
    start = time.perf_counter()
    table = SweepResult([ladder], 0).table
    return time.perf_counter() - start, table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200)
    n = parser.parse_args().trials
    cfg = Config(d=10, beta=1.0, trials=n)
    ladder = LadderResult(cfg, [trial(cfg.d, cfg.beta, cfg.c_poly, cfg.seed, k) for k in range(n)])
    table_seconds(LadderResult(cfg, ladder.trials[:2]))  # warm-up: imports, the law itself
    with mock.patch.object(distance, "_limit_quantile", SOLVE_ONCE.__wrapped__):
        before, old = table_seconds(ladder)
    after, new = table_seconds(ladder)
    assert old.tobytes() == new.tobytes()  # the same table, bit for bit
    print(f"load average {os.getloadavg()[0]:.2f}; {n} trials of d = 10, 7 rungs each")
    print(f"{'':8}{'ms per trial':>14}{'10,000 trials':>16}")
    for name, sec in (("before", before), ("after", after)):
        print(f"{name:8}{1e3 * sec / n:14.1f}{1e4 * sec / n / 60:13.1f} min")
    print(f"ratio before / after: {before / after:.1f}")


if __name__ == "__main__":
    main()
