"""Run a command in the portability environment: ``python tests/portable_env.py CACHE -- CMD ...``.

One BLAS thread, and numpy's SIMD dispatch disabled for every dispatch target this machine supports
(detected, not hard-coded), so that exponentials, reductions and eigenvalues take other code paths
than in the first nbval run; an empty ``ATTNSPEC_CACHE`` (the folder given as argument), so nothing
computed by the first run is read. ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` are left as the
machine sets them.

The command replaces this process (``os.execvp``), so no path is split into words by a shell.
"""

from __future__ import annotations

import os
import sys


def dispatch_targets() -> list[str]:
    """numpy's SIMD dispatch targets that this CPU supports and that are not part of the
    baseline."""
    try:
        from numpy._core import _multiarray_umath as umath
    except ImportError:  # numpy < 2
        from numpy.core import _multiarray_umath as umath
    baseline = set(umath.__cpu_baseline__)
    return [
        t for t in umath.__cpu_dispatch__ if t not in baseline and umath.__cpu_features__.get(t)
    ]


def portable_environment(cache: str) -> dict[str, str]:
    """The variables that make the second run differ from the first in round-off only."""
    return {
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "NPY_DISABLE_CPU_FEATURES": ",".join(dispatch_targets()),
        "ATTNSPEC_CACHE": cache,
    }


def main(argv: list[str]) -> None:
    if len(argv) < 3 or argv[1] != "--":
        sys.exit("usage: python tests/portable_env.py CACHE -- COMMAND [ARG ...]")
    os.environ.update(portable_environment(argv[0]))
    os.execvp(argv[2], argv[2:])


if __name__ == "__main__":
    main(sys.argv[1:])
