r"""The Dask cluster of a sweep: how many workers, starting one, and running trials on it.

A trial task runs :func:`attnspec.experiments.trials.trial` on a worker and stores its result in
the client's disk cache, so that a result is read back from the cache, not from the worker (a
worker that leaves takes nothing with it), and a sweep that is stopped keeps its finished trials.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import contextmanager

import numpy as np
from distributed import Client, KilledWorker, LocalCluster, wait
from tqdm import tqdm

from ..core import cache
from ..core.config import Config, available_memory_bytes, trial_memory_bytes
from ..core.errors import InvalidInput, RunFailed
from ..core.parallel import BLAS_THREAD_VARIABLES, SAFE_PATH, blas_threads, cores, environ
from ..experiments.trials import cached_trial as _cached_trial
from ..experiments.trials import trial
from .scheduler import TLS, existing_client

#: Seconds a sweep waits while its scheduler has no worker before it fails (finished trials kept).
WORKER_WAIT = 60
#: Seconds between two looks at the workers while no trial finishes.
POLL_SECONDS = 1
#: Most trials submitted and not yet finished: the rest are submitted as these finish, so that a
#: sweep of many small trials never floods the scheduler (10,000 at once lost its connection).
IN_FLIGHT = 500


def cached_trial(cfg: Config, k: int, models=None) -> dict[str, np.ndarray] | None:
    """Trial ``k`` of ``cfg`` from the disk cache, or None if it is missing, damaged or
    incomplete."""
    return _cached_trial(cfg.d, cfg.beta, cfg.c_poly, cfg.seed, k, models)


def max_workers() -> int:
    """The most workers a local cluster may start: 4 per core (each is a process with its own
    matrices; beyond a few per core they only compete for memory)."""
    return 4 * (os.cpu_count() or 1)


def check_workers(n_workers: int | None, scheduler: str | None) -> None:
    """Refuse a worker count outside 1 … :func:`max_workers`, or one given together with an
    existing scheduler."""
    if n_workers is None:
        return
    top = max_workers()
    if isinstance(n_workers, bool) or not isinstance(n_workers, int) or not 1 <= n_workers <= top:
        raise InvalidInput(
            f"workers={n_workers!r} is out of range: must be an int from 1 to {top} "
            "(4 per core of this machine)"
        )
    if scheduler is not None:
        raise InvalidInput(
            "workers applies to the embedded cluster only, not with an existing scheduler"
        )


def default_workers(d_max: int) -> int:
    """One worker per core, fewer if that many trials of size ``d_max`` would not fit in memory."""
    fit = available_memory_bytes() // trial_memory_bytes(d_max)
    return int(max(1, min(cores(), fit)))


def local_cluster(n_workers: int, blas: int | None = None) -> LocalCluster:
    """A started cluster of ``n_workers`` single-threaded processes, each with ``blas`` BLAS
    threads.

    ``blas`` defaults to :func:`blas_threads`. The BLAS variables are in the environment while the
    worker processes are spawned, that is before they import NumPy, which is when OpenBLAS, MKL
    and OpenMP read them; so is ``PYTHONSAFEPATH=1`` (:data:`~attnspec.core.parallel.SAFE_PATH`):
    a worker imports nothing from the current folder. A worker process that dies while the cluster
    starts (killed, out of memory) raises :class:`~attnspec.core.errors.RunFailed`.
    """
    threads = str(blas or blas_threads(n_workers))
    with environ({**dict.fromkeys(BLAS_THREAD_VARIABLES, threads), **SAFE_PATH}):
        try:
            # no dashboard; the scheduler's HTTP routes on a free port (8787 may be taken)
            return LocalCluster(
                n_workers=n_workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                scheduler_kwargs={"dashboard": False},
                silence_logs=logging.ERROR,
            )
        except RuntimeError as exc:  # distributed's "Nanny failed to start": a worker died
            raise RunFailed(f"the local Dask cluster did not start ({exc})") from None


@contextmanager
def cluster_client(scheduler: str | None, n_workers: int, tls: TLS | None) -> Iterator[Client]:
    """A client of the scheduler at ``scheduler``
    (:func:`~attnspec.runner.scheduler.existing_client`), or of a new :func:`local_cluster`, closed
    after."""
    if scheduler is None:
        with local_cluster(n_workers) as cluster, Client(cluster) as client:
            yield client
        return
    with existing_client(scheduler, tls) as client:
        yield client


def _trial_task(
    cache_folder: str, d: int, beta: float, c_poly: float, seed: int, k: int, models=None
):
    """Worker side: :func:`attnspec.experiments.trials.trial` with the client's cache folder, set
    for this task only (an external worker's environment is left as it was)."""
    previous = os.environ.get(cache.CACHE_ENV)
    os.environ[cache.CACHE_ENV] = cache_folder
    try:
        return trial(d, beta, c_poly, seed, k, models)
    finally:
        if previous is None:
            del os.environ[cache.CACHE_ENV]
        else:
            os.environ[cache.CACHE_ENV] = previous


def compute_trials(
    tasks: list[tuple[Config, int, Sequence[str] | None]], client: Client, progress: bool = False
) -> list[dict[str, np.ndarray]]:
    """Run the trials ``(config, k, models)`` on ``client``'s cluster (``models`` None: every rung);
    results in the order of ``tasks``.

    Larger matrices go first and get higher priority (longest task first balances the workers
    best); at most :data:`IN_FLIGHT` trials are submitted at a time, more as they finish. Each
    finished trial is already in the disk cache when it is reported here. A client that loses
    its scheduler raises :class:`~attnspec.core.errors.RunFailed`. If no worker is
    connected for :data:`WORKER_WAIT` seconds (a scheduler without workers, or whose workers all
    left), :class:`~attnspec.core.errors.RunFailed` is raised instead of waiting forever.
    """
    folder = str(cache.cache_dir().absolute())
    # larger matrices first (the order in which they are submitted, and their priority)
    order = iter(sorted(range(len(tasks)), key=lambda i: -tasks[i][0].d))

    def submit_more(futures: dict) -> None:
        """Submit the next tasks until :data:`IN_FLIGHT` are pending."""
        for i in order:
            cfg, k, models = tasks[i]
            task = (_trial_task, folder, cfg.d, cfg.beta, cfg.c_poly, cfg.seed, k, models)
            futures[client.submit(*task, priority=cfg.d)] = i
            if len(futures) - done[0] >= IN_FLIGHT:
                return

    futures: dict = {}
    done = [0]
    submit_more(futures)
    out: list = [None] * len(tasks)
    bar = tqdm(
        total=len(tasks),
        desc="sweep trials",
        unit="trial",
        file=sys.stderr,
        disable=not progress,
        leave=False,
    )
    pending, idle_since = set(futures), None
    with bar:
        while pending:
            try:
                finished, pending = wait(
                    pending, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED"
                )
            except TimeoutError:
                finished = set()
            for future in finished:
                try:
                    out[futures[future]] = _result(future, tasks[futures[future]])
                except TimeoutError:  # its result left with its worker, uncached: it runs again
                    pending.add(future)
                    continue
                except CancelledError:  # the client lost its scheduler: all are cancelled
                    raise RunFailed(
                        f"the Dask scheduler was lost; {done[0]} of {len(tasks)} trials "
                        "finished and are kept in the cache"
                    ) from None
                done[0] += 1
                bar.update()
            known = set(futures)
            submit_more(futures)
            pending |= set(futures) - known
            if finished or client.nthreads():  # a trial finished, or a worker is connected
                idle_since = None
            elif idle_since is None:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since > WORKER_WAIT:
                raise RunFailed(
                    f"no Dask worker was connected to the scheduler for {WORKER_WAIT} s; "
                    f"{done[0]} of {len(tasks)} trials finished and are kept in the cache"
                )
    return out


def _result(future, task: tuple[Config, int, Sequence[str] | None]) -> dict[str, np.ndarray]:
    """The trial of a finished future, read from the disk cache where its worker stored it (so a
    worker that leaves takes nothing with it), else from the worker.

    Raises
    ------
    RunFailed
        if the trial's worker died repeatedly.
    TimeoutError
        if an uncached result is not back within :data:`POLL_SECONDS` (its worker left).
    """
    cfg, k, models = task
    stored = cached_trial(cfg, k, models) if future.status == "finished" else None
    if stored is not None:
        return stored
    try:
        return future.result(timeout=POLL_SECONDS)
    except KilledWorker:
        raise RunFailed(
            f"the worker running trial {k} of d={cfg.d}, beta={cfg.beta!r} died repeatedly "
            "(out of memory?); finished trials are kept in the cache"
        ) from None
