"""Print the environment of the portability run, as NAME=VALUE words for ``env``.

One BLAS thread, and numpy's SIMD dispatch disabled for every dispatch target this machine supports
(detected, not hard-coded), so that exponentials, reductions and eigenvalues take other code paths
than in the first nbval run; an empty ``ATTNSPEC_CACHE`` (the folder given as argument), so nothing
computed by the first run is read. ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` are left as the
machine sets them.

Usage: ``env $(python tests/portable_env.py CACHE_DIR) pytest ...``
"""

from __future__ import annotations

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


if __name__ == "__main__":
    print(" ".join(f"{k}={v}" for k, v in portable_environment(sys.argv[1]).items()))
