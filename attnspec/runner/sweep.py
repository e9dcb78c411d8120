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

The results are tidy tables (:class:`~attnspec.runner.tables.SweepResult`): one row per
:math:`(d, \beta, \text{trial}, \text{model})`, and one per :math:`(d, \beta, \text{model})` with
the bulk pooled over trials.

A sweep may compute a subset of the rungs (``models``): at large :math:`d` two spectra per trial
instead of seven.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..core.config import Config
from ..core.errors import InvalidInput
from ..core.kinds import PARAMETERS
from ..experiments.trials import LadderResult, trial_models
from .cluster import cached_trial, check_workers, cluster_client, compute_trials, default_workers
from .scheduler import TLS, check_scheduler
from .tables import SweepResult


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
        address of an existing scheduler, one you trust (:mod:`~attnspec.runner.scheduler`);
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
        with cluster_client(scheduler, workers, tls) as client:
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
