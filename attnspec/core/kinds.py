"""The kinds of parameter, one table: each name's type, valid range, a default and a help text.

A name has the same range wherever it is used: in :class:`attnspec.core.config.Config`, on the
command line, and in every chapter (a chapter's notebook declares the name with its own default and
help in its ``parameters`` cell; :mod:`attnspec.chapters.parameters`). The kinds the mathematics
shares (``d``, ``beta``, ``seed``, ...) come first, then those only the book's chapters use.
"""

from __future__ import annotations

from .parameter import Parameter

#: Largest beta: theta1 = e^{beta^2} - 1 stays below sqrt(max float / 2), so theta1^2 (the law's
#: variance) and E[Q_n(beta chi)^2] <= 2 e^{2 beta^2} are finite floats (the bound is at 18.82).
BETA_MAX = 18.8
_BETA_WHY = "theta1^2 = (e^(beta^2) - 1)^2 must be a finite float, which ends at beta = 18.82"

#: Every kind of parameter, by name.
PARAMETERS: dict[str, Parameter] = {
    p.name: p
    for p in [
        Parameter("d", int, 1000, "matrix size d = ell = d_qk", low=2, high=20000),
        Parameter(
            "beta",
            float,
            1.0,
            "inverse temperature of the softmax",
            low=0.0,
            high=BETA_MAX,
            why=_BETA_WHY,
        ),
        Parameter("trials", int, 10, "independent draws of W_Q, W_K, W", low=1, high=10000),
        Parameter(
            "seed",
            int,
            0,
            "root seed; trial k uses child k of SeedSequence(seed)",
            low=0,
            high=2**32 - 1,
        ),
        Parameter(
            "remove_top_k",
            int,
            3,
            "largest squared singular values removed to form the bulk",
            low=0,
        ),
        Parameter(
            "c_poly",
            float,
            2.0,
            "constant c of the Taylor degree n = ceil(c log d / log log d)",
            low=0.0,
            low_open=True,
            high=100.0,
        ),
        Parameter("hist_bins", int, 120, "bins of the bulk histograms", low=1, high=100000),
        Parameter("hist_min", float, 0.0, "left end of the bulk histogram range", low=0.0),
        Parameter(
            "hist_max", float, 8.0, "right end of the bulk histogram range", low=0.0, low_open=True
        ),
        Parameter(
            "d_values",
            list,
            [250, 500, 1000],
            "matrix sizes compared across d",
            low=2,
            high=20000,
            item=int,
        ),
        Parameter(
            "betas",
            list,
            [0.5, 1.0, 1.5, 2.0],
            "inverse temperatures compared across beta",
            low=0.0,
            high=BETA_MAX,
            item=float,
            why=_BETA_WHY,
        ),
        Parameter(
            "mc_samples",
            int,
            200_000,
            "Monte-Carlo samples for the estimated theta statistics",
            low=100,
            high=10**8,
        ),
        Parameter(
            "pooled_values",
            int,
            8000,
            "pooled bulk values per size of a series: trials = ceil(pooled_values / d)",
            low=1,
            high=10**7,
        ),
        Parameter(
            "d_scale",
            list,
            [250, 500, 1000, 2000, 4000, 8000],
            "matrix sizes of the convergence series of the reference and the Gaussian model",
            low=2,
            high=20000,
            item=int,
        ),
        Parameter(
            "resamples",
            int,
            400,
            "bootstrap resamples of the trials (the same resample at every beta of a size)",
            low=2,
            high=100000,
        ),
        Parameter(
            "d_qk_values",
            list,
            [1000, 500, 250, 125, 64, 32, 16],
            "head dimensions d_qk of W_Q, W_K (d x d_qk) at fixed d",
            low=1,
            high=20000,
            item=int,
        ),
        Parameter(
            "head_ratios",
            list,
            [1.0, 0.25, 0.0625],
            "fixed ratios d_qk/d of the series across d (d_qk = round(ratio d))",
            low=0.0,
            low_open=True,
            high=1.0,
            item=float,
        ),
        Parameter(
            "d_qk", int, 64, "the fixed head dimension of the series across d", low=1, high=20000
        ),
        Parameter(
            "half_heads",
            list,
            [16, 24, 32, 45],
            "head dimensions d_qk of the series at alpha = 1/2, at d = d_qk^2",
            low=2,
            high=100,
            item=int,
        ),
        Parameter(
            "fifth_heads",
            list,
            [9, 16],
            "head dimensions d_qk (squares) of the series at alpha = 2/5, at d = d_qk^(5/2)",
            low=4,
            high=36,
            item=int,
        ),
        Parameter(
            "k_max", int, 3, "largest number k of Hermite blocks kept in a model Y_k", low=1, high=4
        ),
        Parameter(
            "block_trials",
            int,
            4,
            "least trials per size of the Y_k series (more where ceil(pooled_values / d) is more)",
            low=2,
            high=100,
        ),
        Parameter(
            "real_contexts",
            list,
            [256, 4096],
            "contexts n of a real head, placed by (n, d_qk) in the phase diagram",
            low=2,
            high=10**7,
            item=int,
        ),
        Parameter(
            "ell_values",
            list,
            [256, 1024, 4096],
            "context lengths ell of the canonical score model",
            low=64,
            high=16384,
            item=int,
        ),
        Parameter(
            "spikes",
            int,
            4,
            "number k of spike scores in the canonical score model",
            low=1,
            high=32,
        ),
        Parameter(
            "bulk_max",
            float,
            2.0,
            "upper end B of the bounded bulk scores, drawn uniformly in [0, B]",
            low=0.0,
            high=5.0,
        ),
        Parameter(
            "dense_max",
            int,
            2048,
            "largest ell for dense eigenproblems (larger ell are computed at this size)",
            low=64,
            high=8192,
        ),
        Parameter(
            "lengths",
            list,
            [16, 32, 64, 128, 256, 512],
            "token counts n of the real-text excerpts",
            low=4,
            high=512,
            item=int,
        ),
        Parameter(
            "n_texts",
            int,
            4,
            "number of shipped texts used, the first of attnspec.real.TEXT_NAMES",
            low=1,
            high=4,
        ),
        Parameter(
            "max_heads",
            int,
            12,
            "heads per layer with full singular-value spectra, evenly spaced (all at 12)",
            low=1,
            high=12,
        ),
        Parameter(
            "angle_bins",
            int,
            50,
            "bins of the eigen-angle histogram for the KL divergence",
            low=2,
            high=1000,
        ),
        Parameter(
            "conventions",
            int,
            5,
            "seeded conventions (signs and null-space completions) per singular factor",
            low=2,
            high=100,
        ),
        Parameter(
            "band_lengths",
            list,
            [400, 448],
            "further token counts for the score-factor reading in the paper's 385-471 band",
            low=2,
            high=512,
            item=int,
        ),
    ]
}
