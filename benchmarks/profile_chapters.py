"""Where a chapter's computation spends its time, in the portability environment.

The chapter's study runs at its notebook's defaults (``Study.run()``, what the notebook's code
cells call) under :mod:`cProfile`, in a process started by ``tests/portable_env.py`` (one BLAS
thread, numpy's SIMD dispatch off, an empty trial cache): what nbval's second run costs, without
the kernel, the notebook's figures and tables. The sweeps' trials run in Dask worker processes
that the profile does not see; their time shows as the client's wait in ``run_sweeps``. Printed:
wall seconds of ``compute``, then the functions with the largest cumulative time.

Reproduce (from the repository root; one chapter per process, a few minutes each)::

    .venv/bin/python tests/portable_env.py "$(mktemp -d)" -- \\
        .venv/bin/python benchmarks/profile_chapters.py convergence-threshold
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import pstats
import time

#: chapter -> (its folder under attnspec/chapters, its study class)
STUDIES = {
    "convergence-threshold": ("convergence_threshold", "ConvergenceThreshold"),
    "real-attention": ("real_attention", "RealAttention"),
    "convergence": ("convergence", "Convergence"),
    "head-dimension": ("head_dimension", "HeadDimension"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapter", choices=sorted(STUDIES))
    parser.add_argument("--top", type=int, default=25, help="functions to print")
    args = parser.parse_args()
    folder, name = STUDIES[args.chapter]
    study = getattr(importlib.import_module(f"attnspec.chapters.{folder}"), name)
    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.runcall(study.run)
    print(f"{args.chapter}: compute {time.perf_counter() - start:.1f} s wall")
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.top)
    print(out.getvalue())


if __name__ == "__main__":
    main()
