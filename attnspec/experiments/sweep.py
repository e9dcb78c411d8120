r"""Parameter sweeps of the ladder on Dask: one task per :math:`(d, \beta, \text{trial})`,
resumable.

A sweep runs :func:`attnspec.experiments.trials.trial` for every trial of every :math:`(d, \beta)`
of a grid on a ``dask.distributed`` cluster. Each task stores its result in the disk cache as soon
as it finishes, and the client submits only the tasks whose entry is not already there, so

- a sweep that was killed part-way recomputes only the missing trials when it is started again;
- re-running a finished sweep starts no cluster at all and returns identical results.

By default the cluster is an embedded :class:`~distributed.LocalCluster` with one single-threaded
worker process per core and one BLAS thread per worker (:math:`\lfloor \text{cores} /
\text{workers} \rfloor` in general), so that workers never oversubscribe the cores. An existing
cluster can be used instead (``scheduler=ADDRESS``); its workers must share the client's file
system, because they read and write the client's cache folder.

The results are tidy tables (NumPy structured arrays, one row per observation):
:attr:`SweepResult.table` has one row per :math:`(d, \beta, \text{trial}, \text{model})` and
:attr:`SweepResult.pooled` one per :math:`(d, \beta, \text{model})`, with the bulk pooled over
trials. Distances are those of the rung's bulk (the top ``remove_top_k`` squared singular values
removed) to the bulk of the reference rung :data:`attnspec.models.ladder.REFERENCE` (``ks``, ``w1``,
from :data:`attnspec.numerics.spectra.METRICS`) and to the exact limit law
:class:`~attnspec.laws.gaussian_equivalent.GaussianEquivalentLaw` (``ks_law``, the bulk counted out
of :math:`d` and compared below the law's :math:`(1 - r/d)` quantile,
:func:`attnspec.numerics.spectra.ks_to_law_below_quantile`).

A sweep may compute a subset of the rungs (``models``): at large :math:`d` two spectra per trial
instead of seven.
"""

from __future__ import annotations

import csv
import io
import logging
import os
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import CancelledError
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
from distributed import Client, KilledWorker, LocalCluster, wait
from tqdm import tqdm

from ..core import cache
from ..core.atomic import write_text
from ..core.config import Config, available_memory_bytes, trial_memory_bytes
from ..core.errors import InvalidInput, RunFailed
from ..core.kinds import PARAMETERS
from ..core.parallel import BLAS_THREAD_VARIABLES, SAFE_PATH, blas_threads, cores, environ
from ..laws.distance import ks_to_limit_law
from ..models.ladder import MODEL_NAMES, REFERENCE
from ..numerics.spectra import distance
from .scheduler import TLS, check_scheduler, existing_client
from .trials import LadderResult, trial, trial_models
from .trials import cached_trial as _cached_trial
from .trials import trial_entry as _trial_entry

#: Seconds a sweep waits while its scheduler has no worker before it fails (finished trials kept).
WORKER_WAIT = 60
#: Seconds between two looks at the workers while no trial finishes.
POLL_SECONDS = 1
#: Most trials submitted and not yet finished: the rest are submitted as these finish, so that a
#: sweep of many small trials never floods the scheduler (10,000 at once lost its connection).
IN_FLIGHT = 500

#: Metrics of :data:`attnspec.numerics.spectra.METRICS` that the sweep tables hold (rung's bulk
#: against the reference rung's bulk of the same trials), followed by ``ks_law``, the distance to
#: the limit law.
SWEEP_METRICS = ("ks", "w1")
COLUMNS = (*SWEEP_METRICS, "ks_law")


def _distance_row(bulk, ref, cfg: Config) -> tuple[float, ...]:
    to_ref = tuple(
        distance(m, ref, bulk) if ref is not None else float("nan") for m in SWEEP_METRICS
    )
    return (*to_ref, ks_to_limit_law(bulk, cfg.beta, cfg.d, cfg.remove_top_k))


_MODEL = ("model", f"U{max(map(len, MODEL_NAMES))}")
#: Columns of :attr:`SweepResult.table` other than the distances.
TRIAL_COLUMNS = [("d", "i8"), ("beta", "f8"), ("trial", "i8"), _MODEL]
#: Per-trial diagnostics, the rung's largest squared singular value, :math:`s_1(A)` and
#: :math:`\operatorname{std}(D_i)`.
DIAGNOSTIC_COLUMNS = [("top_sq", "f8"), ("s1_A", "f8"), ("D_std", "f8")]
#: Columns of :attr:`SweepResult.pooled` other than the distances.
POOLED_COLUMNS = [("d", "i8"), ("beta", "f8"), _MODEL, ("trials", "i8")]


def make_grid(
    d: Sequence[int],
    beta: Sequence[float],
    trials: int | Mapping[int, int] = PARAMETERS["trials"].default,
    *,
    seed: int = PARAMETERS["seed"].default,
    c_poly: float = PARAMETERS["c_poly"].default,
    remove_top_k: int = PARAMETERS["remove_top_k"].default,
) -> list[Config]:
    r"""One validated :class:`~attnspec.core.config.Config` per :math:`(d, \beta)`, d-major.

    Repeated values are dropped; the order of the remaining ones is kept. ``trials`` is one count
    for every size, or a mapping size -> count. Defaults are those of
    :data:`attnspec.core.kinds.PARAMETERS`.

    Raises
    ------
    InvalidInput
        if a list is empty or any value is out of range (the message names parameter and value).
    """
    for name, values in (("d", d), ("beta", beta)):
        if not values:
            raise InvalidInput(f"{name} must be a non-empty list")
    per_d = trials if isinstance(trials, Mapping) else dict.fromkeys(d, trials)
    return [
        Config(d=di, beta=bi, trials=per_d[di], seed=seed, remove_top_k=remove_top_k, c_poly=c_poly)
        for di in dict.fromkeys(d)
        for bi in dict.fromkeys(beta)
    ]


def trial_entry(cfg: Config, k: int, models=None) -> Path:
    """Cache entry of trial ``k`` of ``cfg`` (see :func:`~attnspec.experiments.trials.trial`)."""
    return _trial_entry(cfg.d, cfg.beta, cfg.c_poly, cfg.seed, k, models)


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
def _client(scheduler: str | None, n_workers: int, tls: TLS | None) -> Iterator[Client]:
    """A client of the scheduler at ``scheduler`` (:func:`~.scheduler.existing_client`), or of a
    new :func:`local_cluster`, closed after."""
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


def trial_rows(result: LadderResult) -> list[tuple]:
    r"""Rows of :attr:`SweepResult.table` for every trial and rung of one :math:`(d, \beta)`."""
    cfg, rows = result.config, []
    for k, t in enumerate(result.trials):
        one = LadderResult(cfg, [t])
        ref = one.bulk(REFERENCE) if REFERENCE in one.models else None
        s1_A, D_std = float(one.s1_A[0]), float(t["D"].std())
        rows += [
            (
                cfg.d,
                cfg.beta,
                k,
                m,
                *_distance_row(one.bulk(m), ref, cfg),
                float(t[m][0]),
                s1_A,
                D_std,
            )
            for m in one.models
        ]
    return rows


def pooled_rows(result: LadderResult) -> list[tuple]:
    """Rows of :attr:`SweepResult.pooled`: every rung's bulk pooled over the trials."""
    cfg = result.config
    ref = result.bulk(REFERENCE) if REFERENCE in result.models else None
    return [
        (cfg.d, cfg.beta, m, len(result.trials), *_distance_row(result.bulk(m), ref, cfg))
        for m in result.models
    ]


def _distance_columns() -> list[tuple[str, str]]:
    return [(name, "f8") for name in COLUMNS]


@dataclass
class SweepResult:
    r"""The trials of every :math:`(d, \beta)` of a sweep, and their tidy tables.

    Attributes
    ----------
    ladders : list of LadderResult
        one per :math:`(d, \beta)`, in grid order.
    computed : int
        trials computed by this run; the others came from the disk cache.
    """

    ladders: list[LadderResult]
    computed: int

    @cached_property
    def table(self) -> np.ndarray:
        r"""One row per :math:`(d, \beta, \text{trial}, \text{model})`.

        Columns: ``d``, ``beta``, ``trial``, ``model``; one per entry of :data:`COLUMNS` (that
        trial's bulk of the rung against the same trial's reference bulk); ``top_sq``, the rung's
        largest squared singular value :math:`s_1^2`; ``s1_A``, :math:`s_1(A)`; ``D_std``, the
        standard deviation of the normalizers :math:`D_i` over the rows.
        """
        rows = [row for r in self.ladders for row in trial_rows(r)]
        return np.array(rows, dtype=TRIAL_COLUMNS + _distance_columns() + DIAGNOSTIC_COLUMNS)

    @cached_property
    def pooled(self) -> np.ndarray:
        r"""One row per :math:`(d, \beta, \text{model})`: ``d``, ``beta``, ``model``, ``trials``,
        distances."""
        rows = [row for r in self.ladders for row in pooled_rows(r)]
        return np.array(rows, dtype=POOLED_COLUMNS + _distance_columns())


def run_sweep(
    d: Sequence[int],
    beta: Sequence[float],
    trials: int | Mapping[int, int] = PARAMETERS["trials"].default,
    *,
    seed: int = PARAMETERS["seed"].default,
    c_poly: float = PARAMETERS["c_poly"].default,
    remove_top_k: int = PARAMETERS["remove_top_k"].default,
    scheduler: str | None = None,
    tls: TLS | None = None,
    n_workers: int | None = None,
    progress: bool = False,
    models=None,
) -> SweepResult:
    """Run (or read from the cache) every trial of the grid ``d`` x ``beta`` on Dask.

    The one-request case of :func:`run_sweeps`.

    Parameters
    ----------
    d, beta : sequence
        matrix sizes and inverse temperatures; every pair is one configuration.
    trials : int or mapping
        trials per configuration, or a mapping size -> trials; trial k is child k of
        ``SeedSequence(seed)``.
    seed, c_poly, remove_top_k
        as in :class:`~attnspec.core.config.Config`.
    scheduler : str, optional
        address of an existing scheduler, one you trust (:mod:`~attnspec.experiments.scheduler`);
        by default an embedded cluster is started.
    tls : TLS, optional
        the client's certificates, for a ``tls://`` scheduler.
    n_workers : int, optional
        workers of the embedded cluster; by default :func:`default_workers`, and never more than
        there are trials to compute.
    progress : bool
        show a progress bar on stderr.
    models : sequence of str, optional
        the rungs to compute (ladder names); all seven by default. A cached full-ladder trial
        serves any subset.

    Returns
    -------
    SweepResult

    Raises
    ------
    InvalidInput
        on an invalid parameter, before any work, or if ``scheduler`` cannot be reached.
    RunFailed
        if a worker died repeatedly on one trial; the finished trials are in the cache.
    """
    (result,) = run_sweeps(
        [SweepRequest(d, beta, trials, models)],
        seed=seed,
        c_poly=c_poly,
        remove_top_k=remove_top_k,
        scheduler=scheduler,
        tls=tls,
        n_workers=n_workers,
        progress=progress,
    )
    return result


def to_csv(table: np.ndarray, path: str | Path) -> None:
    """Write a structured array as CSV with a header, atomically
    (:func:`attnspec.core.atomic.write_text`).

    Floats are written with :func:`repr`, so reading the file back gives the same numbers.
    """
    text = io.StringIO(newline="")
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(table.dtype.names)
    writer.writerows(table.tolist())
    write_text(path, text.getvalue())


@dataclass(frozen=True)
class SweepRequest:
    r"""One sweep of :func:`run_sweeps`: the grid ``d`` x ``beta``, its trials and its rungs.

    ``trials`` is one count or a mapping size -> count; ``models`` None means all seven rungs.
    """

    d: Sequence[int]
    beta: Sequence[float]
    trials: int | Mapping[int, int] = PARAMETERS["trials"].default
    models: Sequence[str] | None = None


def run_sweeps(
    requests: Sequence[SweepRequest],
    *,
    seed: int = PARAMETERS["seed"].default,
    c_poly: float = PARAMETERS["c_poly"].default,
    remove_top_k: int = PARAMETERS["remove_top_k"].default,
    scheduler: str | None = None,
    tls: TLS | None = None,
    n_workers: int | None = None,
    progress: bool = False,
) -> list[SweepResult]:
    """Several sweeps on one cluster, started only if some trial is missing from the cache.

    Same as one :func:`run_sweep` per request, but the missing trials of all requests are
    computed together, each once: a trial that one request needs with all rungs and another with
    a subset is computed with all rungs, and serves both. The first result's ``computed`` counts
    the trials this call computed; the others' are 0. A ``scheduler`` is checked
    (:func:`check_scheduler`) even when every trial is in the cache.
    """
    check_workers(n_workers, scheduler)
    if scheduler is not None:
        check_scheduler(scheduler, tls)
    elif tls is not None:
        raise InvalidInput("--tls-ca-file and --tls-cert apply to a tls:// --scheduler only")
    grids = []
    for req in requests:
        models = None if req.models is None else trial_models(req.models)
        configs = make_grid(
            req.d, req.beta, req.trials, seed=seed, c_poly=c_poly, remove_top_k=remove_top_k
        )
        grids.append((configs, models))
    full = {
        (cfg.d, cfg.beta, k)
        for configs, models in grids
        if models is None
        for cfg in configs
        for k in range(cfg.trials)
    }
    found: dict = {}
    for configs, models in grids:
        for cfg in configs:
            for k in range(cfg.trials):
                use = None if (cfg.d, cfg.beta, k) in full else models
                key = (cfg.d, cfg.beta, k, use)
                if key not in found:
                    found[key] = (cfg, cached_trial(cfg, k, use))
    missing = [key for key, (cfg, value) in found.items() if value is None]
    if missing:
        workers = min(n_workers or default_workers(max(key[0] for key in missing)), len(missing))
        with _client(scheduler, workers, tls) as client:
            computed = compute_trials(
                [(found[key][0], key[2], key[3]) for key in missing], client, progress
            )
        found.update(
            {key: (found[key][0], value) for key, value in zip(missing, computed, strict=True)}
        )
    results = []
    for configs, models in grids:
        ladders = []
        for cfg in configs:
            trials = []
            for k in range(cfg.trials):
                use = None if (cfg.d, cfg.beta, k) in full else models
                value = found[cfg.d, cfg.beta, k, use][1]
                trials.append(value if models is None else {n: value[n] for n in ("D", *models)})
            ladders.append(LadderResult(cfg, trials))
        results.append(SweepResult(ladders, 0))
    if results:
        results[0].computed = len(missing)  # trials computed by this call, counted once
    return results
