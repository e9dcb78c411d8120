r"""Eigenvalues of a large symmetric matrix by LAPACK's two-stage driver ``dsyevd_2stage``.

``numpy.linalg.eigvalsh`` calls ``dsyevd``, whose reduction to tridiagonal form (``dsytrd``) does
half of its :math:`\tfrac43 n^3` flops as matrix-vector products, bound by memory bandwidth.
LAPACK's two-stage reduction goes to a band matrix with matrix-matrix products first, then chases
the band down to tridiagonal (its documentation cites A. Haidar, H. Ltaief and J. Dongarra, SC '11,
doi:10.1145/2063384.2063394): the same eigenvalues to round-off
(about :math:`10^{-14}` of :math:`\lambda_{\max}`), faster from :math:`n \approx 3000` on
(``benchmarks/bench_eigensolver.py``).

numpy does not expose it, but the OpenBLAS it loaded has it: the library is found among the
process's mapped files and its LAPACKE entry point called through :mod:`ctypes`. Where that is not
possible (another platform, a BLAS without the symbol), :func:`eigvalsh` is numpy's.
"""

from __future__ import annotations

import ctypes
from functools import lru_cache

import numpy as np

#: Below this order ``dsyevd`` is as fast or faster (measured: 0.08 vs 0.11 s at n = 1000).
TWO_STAGE_MIN = 3000
#: LAPACKE's column-major layout: a C-ordered symmetric matrix is its own transpose, so no copy.
COL_MAJOR = 102
#: The entry point's name in numpy's own OpenBLAS (64-bit integers, prefixed) and in a plain one.
SYMBOLS = (
    ("scipy_LAPACKE_dsyevd_2stage64_", ctypes.c_int64),
    ("LAPACKE_dsyevd_2stage64_", ctypes.c_int64),
    ("LAPACKE_dsyevd_2stage", ctypes.c_int32),
)


def openblas_paths(maps_lines) -> list[str]:
    """The OpenBLAS libraries among the lines of ``/proc/PID/maps`` (``address perms offset dev
    inode path``, the path possibly holding spaces), sorted."""
    fields = (line.split(maxsplit=5) for line in maps_lines if "openblas" in line.lower())
    paths = {f[5].rstrip("\n") for f in fields if len(f) == 6}
    return sorted(p for p in paths if p.startswith("/"))


def _loaded_openblas() -> list[str]:
    """Paths of the OpenBLAS libraries mapped into this process (Linux)."""
    np.linalg.eigvalsh  # noqa: B018 (numpy.linalg loads the library)
    try:
        with open("/proc/self/maps") as maps:
            return openblas_paths(maps)
    except OSError:
        return []


@lru_cache(maxsize=1)
def two_stage_driver():
    """``(function, integer type)`` of ``LAPACKE_dsyevd_2stage`` in the loaded OpenBLAS, or None."""
    for path in _loaded_openblas():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for symbol, integer in SYMBOLS:
            fn = getattr(lib, symbol, None)
            if fn is not None:
                fn.restype = integer
                fn.argtypes = [
                    ctypes.c_int,
                    ctypes.c_char,
                    ctypes.c_char,
                    integer,
                    ctypes.c_void_p,
                    integer,
                    ctypes.c_void_p,
                ]
                return fn, integer
    return None


def eigvalsh(G: np.ndarray) -> np.ndarray:
    r"""Eigenvalues of the symmetric matrix ``G`` (its lower triangle), ascending, as
    ``numpy.linalg.eigvalsh``; by ``dsyevd_2stage`` from order :data:`TWO_STAGE_MIN` on when the
    loaded OpenBLAS has it. ``G`` is not modified."""
    n = G.shape[0]
    driver = two_stage_driver() if n >= TWO_STAGE_MIN else None
    if driver is None:
        return np.linalg.eigvalsh(G)
    fn, _ = driver
    a = np.array(G, dtype=np.float64, order="C", copy=True)
    w = np.empty(n)
    # column-major view of a C-ordered symmetric matrix: its upper triangle is G's lower one
    info = fn(COL_MAJOR, b"N", b"U", n, a.ctypes.data, n, w.ctypes.data)
    if info != 0:
        raise np.linalg.LinAlgError(f"dsyevd_2stage failed (info = {info})")
    return w
