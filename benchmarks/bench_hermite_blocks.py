"""The Hermite-block models Y_k against the linear model they extend: building the matrix, and its
limit law against the linear model's (``HermiteBlockLaw`` against ``HeadDimensionLaw``).

Run by hand (not by CI), from the repository root::

    .venv/bin/python benchmarks/bench_hermite_blocks.py [--d 1024] [--repeats 3]

At d_qk = sqrt(d) and beta = 1, trial 0: the best of ``--repeats`` rounds of building Y_1 (the
linear model, ``gaussian_equivalent``), Y_2 and Y_3 (``hermite_model``), each with and without its
squared singular values (``eigvalsh`` of the Gram matrix), and of constructing each limit law
(k = 1, 2, 3, at this size's block ratios), with the ratio of each to the linear model's.
"""

from __future__ import annotations

import argparse
import math
import time


def best_of(repeats: int, func) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--d", type=int, default=1024)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    import numpy as np

    from attnspec.experiments.head_dimension_blocks import block_law
    from attnspec.experiments.trials import trial_rng
    from attnspec.laws.head_dimension import HeadDimensionLaw
    from attnspec.models.head_dimension import draw_head_scores
    from attnspec.models.hermite_blocks import hermite_model
    from attnspec.models.ladder import gaussian_equivalent
    from attnspec.models.nonlinearity import theta_f
    from attnspec.numerics.spectra import squared_singular_values_of_gram

    d, beta = args.d, 1.0
    d_qk = math.isqrt(d)
    rng = trial_rng(0, 0)
    _, _, S = draw_head_scores(d, d_qk, rng)
    W = rng.standard_normal((d, d))
    builders = {
        "Y_1 (linear model)": lambda: gaussian_equivalent(S, W, theta_f(beta)),
        "Y_2": lambda: hermite_model(S, W, beta, 2),
        "Y_3": lambda: hermite_model(S, W, beta, 3),
    }
    print(f"d = {d}, d_qk = {d_qk}, beta = {beta:g}, best of {args.repeats}")
    base = {}
    for name, build in builders.items():
        t_build = best_of(args.repeats, build)
        M = build()
        t_all = best_of(args.repeats, lambda M=M: squared_singular_values_of_gram(M @ M.T))
        t_all += t_build
        base.setdefault("build", t_build)
        base.setdefault("all", t_all)
        print(
            f"{name:20s} build {t_build:7.3f} s ({t_build / base['build']:4.1f}x)   "
            f"with spectrum {t_all:7.3f} s ({t_all / base['all']:4.2f}x)"
        )
    theta = theta_f(beta)
    t_ref = best_of(args.repeats, lambda: HeadDimensionLaw(*theta, d_qk / d))
    print(f"{'HeadDimensionLaw':20s} {t_ref:7.3f} s")
    for k in (1, 2, 3):
        t = best_of(args.repeats, lambda k=k: block_law(d, d_qk, beta, k))
        print(f"{'HermiteBlockLaw k=' + str(k):20s} {t:7.3f} s ({t / t_ref:4.1f}x)")
    np.testing.assert_allclose(
        hermite_model(S, W, beta, 1), gaussian_equivalent(S, W, theta), atol=1e-12
    )


if __name__ == "__main__":
    main()
