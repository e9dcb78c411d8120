"""Squared singular values of a large d x d matrix: the seed notebook's SVD, numpy's eigvalsh of the
Gram matrix, and LAPACK's two-stage driver (``attnspec.numerics.lapack``), side by side.

Run by hand (not by CI), from the repository root::

    .venv/bin/python benchmarks/bench_eigensolver.py [--sizes 2000,4000,8000] [--repeats 2]

Three methods on the same matrix (Y_f_lin of trial 0 at beta = 1, the series-at-scale rung of the
convergence chapter), each timed in a fresh subprocess with one BLAS thread (as in the chapters'
Dask workers and the test phase), rounds interleaved (seed, eigvalsh, two-stage, seed, ...), the
best and the median of ``--repeats`` rounds reported with the ratio to the seed's method:

``seed``
    ``np.linalg.svd(M, compute_uv=False) ** 2``, as the seed notebook computes every spectrum;
``eigvalsh``
    ``np.linalg.eigvalsh(M @ M.T)`` (LAPACK ``dsyevd``), what attnspec did before;
``two-stage``
    ``attnspec.numerics.lapack.eigvalsh(M @ M.T)`` (``dsyevd_2stage``), what it does now.

The Gram product is timed with the two Gram methods. The agreement of the three spectra (largest
difference relative to s_1^2) is printed first.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

METHODS = ("seed", "eigvalsh", "two-stage")


def matrix(d: int):
    from attnspec.experiments.trials import trial_rng
    from attnspec.models.attention import draw_scores
    from attnspec.models.ladder import LADDER, TrialInputs
    from attnspec.models.nonlinearity import poly_degree, theta_f, theta_q

    rng = trial_rng(0, 0)
    S = draw_scores(d, rng)
    W = rng.standard_normal((d, d))
    n = poly_degree(d, 2.0)
    x = TrialInputs(S, W, 1.0, n, theta_f(1.0), theta_q(1.0, n))
    return LADDER["Y_f_lin"].build(x)


def spectrum(method: str, M):
    import numpy as np

    from attnspec.numerics import lapack

    if method == "seed":
        return np.linalg.svd(M, compute_uv=False) ** 2
    G = M @ M.T
    ev = np.linalg.eigvalsh(G) if method == "eigvalsh" else lapack.eigvalsh(G)
    return ev[::-1]


def worker(method: str, d: int) -> None:
    M = matrix(d)
    start = time.perf_counter()
    spectrum(method, M)
    print(json.dumps({"s": time.perf_counter() - start}))


def agreement(d: int) -> float:
    import numpy as np

    from attnspec.numerics import lapack

    M = matrix(d)
    ref = spectrum("seed", M)
    saved, lapack.TWO_STAGE_MIN = lapack.TWO_STAGE_MIN, 2
    try:
        others = [spectrum(m, M) for m in METHODS[1:]]
    finally:
        lapack.TWO_STAGE_MIN = saved
    return max(float(np.max(np.abs(o - ref))) / ref[0] for o in others)


def measure(method: str, d: int) -> float:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    done = subprocess.run(
        [sys.executable, __file__, "--worker", method, str(d)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)["s"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2000,4000,8000")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], int(args.worker[1]))
        return
    print(f"agreement at d = 500: {agreement(500):.1e} of s_1^2")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print("| d | method | best [s] | median [s] | best / seed |")
    print("|---:|---|---:|---:|---:|")
    for d in map(int, args.sizes.split(",")):
        times = {m: [] for m in METHODS}
        for _ in range(args.repeats):
            for m in METHODS:
                times[m].append(measure(m, d))
        base = min(times["seed"])
        for m in METHODS:
            best = min(times[m])
            med = statistics.median(times[m])
            print(f"| {d} | {m} | {best:.2f} | {med:.2f} | {best / base:.2f} |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
