"""Local processes for independent pieces of work: how many cores, how many BLAS threads each.

:func:`map_processes` runs ``func`` over its arguments in up to :func:`cores` fresh (spawned)
processes, each with :func:`blas_threads` BLAS threads, so that workers times threads never exceeds
the cores (OpenBLAS threads that outnumber the free cores spin instead of working). Results come
back in the order of the arguments and do not depend on the number of processes. The Dask sweep
(:mod:`attnspec.runner.cluster`) sizes its workers the same way.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

#: Environment variables that set the thread count of OpenMP, OpenBLAS and MKL.
BLAS_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
#: What a spawned Python process starts with: ``python -c`` (how ``spawn`` starts one) would put
#: the current folder first on ``sys.path``, so that a ``multiprocessing.py`` there would run.
SAFE_PATH = {"PYTHONSAFEPATH": "1"}


def cores() -> int:
    """Cores this process may run on (its CPU affinity where the system reports it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def blas_threads(n_workers: int) -> int:
    r"""BLAS threads per worker so that :math:`\text{workers} \times \text{threads} \le
    \text{cores}`."""
    return max(1, cores() // n_workers)


@contextmanager
def environ(values: dict[str, str]) -> Iterator[None]:
    """Set environment variables for the duration of the block, then restore the old ones."""
    old = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in old.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def blas_environment(n_workers: int) -> dict[str, str]:
    """The BLAS thread variables for ``n_workers`` processes (read when a process imports NumPy),
    and :data:`SAFE_PATH`."""
    return {**dict.fromkeys(BLAS_THREAD_VARIABLES, str(blas_threads(n_workers))), **SAFE_PATH}


def map_processes(func: Callable, args: Sequence[tuple]) -> list:
    """``[func(*a) for a in args]``, computed in up to :func:`cores` spawned processes.

    ``func`` must be importable (a module-level function). With one core or one argument tuple it
    runs in this process. The processes import nothing from the current folder (:data:`SAFE_PATH`).
    """
    workers = min(cores(), len(args))
    if workers <= 1:
        return [func(*a) for a in args]
    context = multiprocessing.get_context("spawn")
    with environ(blas_environment(workers)):
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            futures = [pool.submit(func, *a) for a in args]
            return [f.result() for f in futures]
