"""Every chapter's parameters, declared once: name, default and help in the order of the chapter's
``parameters`` cell, and the rules that are the chapter's own (:mod:`attnspec.chapters.parameters`
says where types and ranges come from, and why these declarations are apart from the studies).

Each study points at its declaration (``parameters = declarations.LIMIT_LAW``);
:data:`DECLARED` finds one by the chapter's short name.
"""

from __future__ import annotations

import math
import sys

from ..core.config import BETA_MAX, Rule
from .parameters import ChapterParameters, declare

# ---- rules that are a chapter's own ------------------------------------------------------------

#: Smallest :math:`\beta` where :math:`\theta_1 = e^{\beta^2} - 1` is computed:
#: :math:`\beta^2 \ge \sqrt{\epsilon}` (machine epsilon), so that it keeps at least half of a
#: float's digits (below, :math:`e^{\beta^2} - 1` is 0 or round-off).
BETA_THETA_MIN = sys.float_info.epsilon**0.25
#: beta's range where theta_1 and the limit law are computed
_BETA_LAW = f">= {BETA_THETA_MIN:.3g} and <= {BETA_MAX:g}"
_THETA_WHY = (
    "theta_1 = e^(beta^2) - 1 must be > 0 with at least half of a float's digits: "
    "beta^2 >= sqrt(machine epsilon)"
)

#: The chapters that divide by theta_1, or compare a bulk with the limit law, need beta at least
#: :data:`BETA_THETA_MIN`.
LAW_BETA = Rule(
    ("beta",),
    "beta",
    lambda v: v["beta"] >= BETA_THETA_MIN,
    lambda v: (
        f"beta={v['beta']!r} is out of range for the limit law: must be {_BETA_LAW} ({_THETA_WHY})"
    ),
    bound=_BETA_LAW,
)
#: The same for every beta of a grid.
LAW_BETAS = Rule(
    ("betas",),
    "betas",
    lambda v: min(v["betas"]) >= BETA_THETA_MIN,
    lambda v: (
        f"betas={v['betas']} is out of range for this chapter: each beta must be "
        f"{_BETA_LAW} ({_THETA_WHY})"
    ),
)
#: Slider positions are distinct.
DISTINCT_BETAS = Rule(
    ("betas",),
    "betas",
    lambda v: len(set(v["betas"])) == len(v["betas"]),
    lambda v: f"betas={v['betas']} is out of range: each slider position must differ",
)


def _edge_beta_max() -> float:
    """Largest beta (to 0.01) where the size d = e^((2 beta + sqrt(3 beta^2 - log theta_1))^2)
    at which the largest entry of Y_f reaches theta_1 is a finite float."""
    top = math.log(sys.float_info.max)

    def exponent(b: float) -> float:
        return (2 * b + math.sqrt(3 * b * b - math.log(math.expm1(b * b)))) ** 2

    low, high = 1.0, BETA_MAX
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if exponent(mid) <= top else (low, mid)
    return math.floor(low * 100) / 100


#: beta's range where the edge chapter's localized outliers are computed
BETA_EDGE_MAX = _edge_beta_max()
_BETA_EDGE = f">= {BETA_THETA_MIN:.3g} and <= {BETA_EDGE_MAX:g}"
EDGE_BETA = Rule(
    ("beta",),
    "beta",
    lambda v: BETA_THETA_MIN <= v["beta"] <= BETA_EDGE_MAX,
    lambda v: (
        f"beta={v['beta']!r} is out of range for this chapter: must be {_BETA_EDGE} "
        f"({_THETA_WHY}; and the size at which Y_f's largest entry reaches theta_1, "
        "e^((2 beta + sqrt(3 beta^2 - log theta_1))^2), must be a finite float)"
    ),
    bound=_BETA_EDGE,
)
#: The scan of s1(A) - 1 across d has a standard error: two trials at least.
SCAN_TRIALS = Rule(
    ("trials",),
    "trials",
    lambda v: v["trials"] >= 2,
    lambda v: (
        f"trials={v['trials']} is out of range for this chapter: must be >= 2 and <= "
        "10000 (the scan across d needs a standard error)"
    ),
    bound=">= 2 and <= 10000",
)
#: The noise floor compares bulks of two values at least.
BULK_OF_TWO = Rule(
    ("d", "remove_top_k"),
    "remove_top_k",
    lambda v: v["d"] - v["remove_top_k"] >= 2,
    lambda v: (
        f"remove_top_k={v['remove_top_k']} is out of range for this chapter: must be "
        f">= 0 and <= d - 2 = {v['d'] - 2} (the noise floor compares bulks of two values at least)"
    ),
)
#: The exact mean of the normalizer :math:`D_i` exists only for :math:`\beta^2 < d`.
NORMALIZER_MEAN = Rule(
    ("d", "beta"),
    "beta",
    lambda v: v["beta"] ** 2 < v["d"],
    lambda v: (
        f"beta={v['beta']!r} is out of range for this chapter at d = {v['d']}: must satisfy "
        "beta^2 < d (the exact mean of D_i, (1 - beta^2/d)^(-d/2) e^(-beta^2/2), needs it)"
    ),
)
#: Every size of the series at scale keeps a bulk.
D_SCALE_BULK = Rule(
    ("d_scale",),
    "d_scale",
    lambda v: min(v["d_scale"]) > v["remove_top_k"],
    lambda v: (
        f"d_scale={v['d_scale']} is out of range: "
        f"each d must be > remove_top_k = {v['remove_top_k']}"
    ),
)
#: The bound's constant is tested where it has settled: :math:`e^B` below the smallest length.
SETTLED_BOUND = Rule(
    ("ell_values", "bulk_max"),
    "bulk_max",
    lambda v: math.exp(v["bulk_max"]) < min(v["ell_values"]),
    lambda v: (
        f"bulk_max={v['bulk_max']!r} is out of range for this chapter at ell_values = "
        f"{v['ell_values']}: e^B must be < the smallest ell (where the bound's constant has "
        "settled, so that the chapter can test it)"
    ),
)
#: Head dimension of the bidirectional model (MiniLM): the stable-rank limit
#: :math:`(k + 1 - c)/\alpha_+^2` needs :math:`k \le \ell`, at the longest length.
BIDIRECTIONAL_HEAD_DIM = 32
LONGEST_FITS_HEAD = Rule(
    ("lengths",),
    "lengths",
    lambda v: max(v["lengths"]) >= BIDIRECTIONAL_HEAD_DIM,
    lambda v: (
        f"lengths={v['lengths']} is out of range for this chapter: the longest must be >= "
        f"{BIDIRECTIONAL_HEAD_DIM}, the encoder's head dimension k (its stable-rank limit needs "
        "k <= n)"
    ),
)
#: The head dimensions: d_qk/d <= 1 everywhere, the scan's fits have degrees of freedom, and the
#: scores' exact moments exist.
HEAD_DIMENSION_RULES = (
    Rule(
        ("d", "d_qk_values", "d_qk"),
        "d_qk_values",
        lambda v: max(v["d_qk_values"]) <= v["d"] and v["d_qk"] <= v["d"],
        lambda v: (
            f"d_qk_values={v['d_qk_values']} and d_qk={v['d_qk']} are out of range: "
            f"each must be <= d = {v['d']} (W_Q, W_K are d x d_qk, d_qk/d <= 1)"
        ),
    ),
    Rule(
        ("d_qk", "d_values"),
        "d_qk",
        lambda v: v["d_qk"] <= min(v["d_values"]),
        lambda v: (
            f"d_qk={v['d_qk']} is out of range: must be <= the smallest of "
            f"d_values = {v['d_values']} (d_qk/d <= 1 along the series)"
        ),
    ),
    Rule(
        ("head_ratios", "d_values"),
        "head_ratios",
        lambda v: min(v["head_ratios"]) * min(v["d_values"]) >= 1,
        lambda v: (
            f"head_ratios={v['head_ratios']} is out of range: each ratio times the smallest of "
            f"d_values = {v['d_values']} must be >= 1 (a head dimension of at least 1)"
        ),
    ),
    Rule(
        ("half_heads",),
        "half_heads",
        lambda v: len(set(v["half_heads"])) >= 3,
        lambda v: (
            f"half_heads={v['half_heads']} is out of range: needs at least 3 distinct head "
            "dimensions (a fitted rate with a residual standard error)"
        ),
    ),
    Rule(
        ("fifth_heads",),
        "fifth_heads",
        lambda v: (
            len(set(v["fifth_heads"])) >= 2
            and all(round(q**0.5) ** 2 == q for q in v["fifth_heads"])
        ),
        lambda v: (
            f"fifth_heads={v['fifth_heads']} is out of range: needs at least 2 distinct perfect "
            "squares (d = d_qk^(5/2) must be an integer)"
        ),
    ),
    Rule(
        ("d_qk", "real_contexts"),
        "real_contexts",
        lambda v: min(v["real_contexts"]) >= v["d_qk"],
        lambda v: (
            f"real_contexts={v['real_contexts']} is out of range: each must be >= d_qk = "
            f"{v['d_qk']} (an exponent log d_qk/log n <= 1)"
        ),
    ),
    Rule(
        ("beta", "d_qk_values", "d_qk"),
        "d_qk_values",
        lambda v: min([*v["d_qk_values"], v["d_qk"]]) > 4 * v["beta"] ** 2,
        lambda v: (
            f"d_qk_values={v['d_qk_values']} is out of range for beta = {v['beta']:g}: each "
            "d_qk must be > 4 beta^2 (the scores' exact moments E e^(2 beta S) diverge there)"
        ),
    ),
)

# ---- the chapters, in the order of the table of contents ---------------------------------------

SETUP = declare(
    "setup",
    ("d", 1000, "matrix size (d, ell and d_qk are equal)"),
    ("beta", 1.0, "inverse temperature of the softmax"),
    ("seed", 0, "root seed; trial t uses child t of SeedSequence(seed)"),
    ("c_poly", 2.0, "constant c_Q of the Taylor degree ceil(c_Q log d / log log d)"),
)
RANK_ONE_MODE = declare(
    "rank-one-mode",
    ("d", 1000, "matrix size (d, ell and d_qk are equal)"),
    ("beta", 1.0, "inverse temperature of the softmax"),
    ("trials", 10, "independent draws of W_Q, W_K, W"),
    ("seed", 0, "root seed; trial t uses child t of SeedSequence(seed)"),
    ("c_poly", 2.0, "constant c_Q of the Taylor degree ceil(c_Q log d / log log d)"),
    ("d_values", [125, 250, 500, 1000, 2000], "matrix sizes for the excess s1(A) - 1 across d"),
    rules=(LAW_BETA, SCAN_TRIALS),
)
NORMALIZER_CONCENTRATION = declare(
    "normalizer-concentration",
    ("d", 1000, "matrix size (d, ell and d_qk are equal)"),
    ("beta", 1.0, "inverse temperature of the softmax"),
    ("trials", 10, "independent draws of W_Q, W_K, W"),
    ("seed", 0, "root seed; trial t uses child t of SeedSequence(seed)"),
    ("betas", [0.5, 1.0, 1.5, 2.0], "inverse temperatures for the spread across beta"),
    rules=(LAW_BETA, LAW_BETAS, NORMALIZER_MEAN),
)
THETA_STATISTICS = declare(
    "theta-statistics",
    ("d", 1000, "matrix size (d, ell and d_qk are equal)"),
    ("beta", 1.0, "inverse temperature of the softmax"),
    ("seed", 0, "root seed; trial t uses child t of SeedSequence(seed)"),
    ("c_poly", 2.0, "constant c_Q of the Taylor degree ceil(c_Q log d / log log d)"),
    ("mc_samples", 200_000, "Monte-Carlo samples for the estimated theta statistics"),
    rules=(LAW_BETA,),
)
LADDER = declare(
    "ladder",
    ("d", 1000, "matrix size (d, ell and d_qk are equal)"),
    ("beta", 1.0, "inverse temperature of the softmax"),
    ("trials", 10, "independent draws of W_Q, W_K, W"),
    ("seed", 0, "root seed; trial t uses child t of SeedSequence(seed)"),
    ("remove_top_k", 3, "number r of largest squared singular values removed to form the bulk"),
    ("c_poly", 2.0, "constant c_Q of the Taylor degree ceil(c_Q log d / log log d)"),
)
BULK_EQUIVALENCE = declare(
    "bulk-equivalence",
    ("d", 1000, "matrix size (d, ell and d_qk are equal)"),
    ("beta", 1.0, "inverse temperature of the softmax"),
    ("trials", 10, "independent draws of W_Q, W_K, W"),
    ("seed", 0, "root seed; trial t uses child t of SeedSequence(seed)"),
    ("remove_top_k", 3, "number r of largest squared singular values removed to form the bulk"),
    ("c_poly", 2.0, "constant c_Q of the Taylor degree ceil(c_Q log d / log log d)"),
    ("hist_bins", 120, "bins of the bulk histograms"),
    ("hist_min", 0.0, "left end of the bulk histogram range"),
    ("hist_max", 8.0, "right end of the bulk histogram range"),
    rules=(LAW_BETA, BULK_OF_TWO),
)
LIMIT_LAW = declare(
    "limit-law",
    ("d", 1000, "matrix size (d, ell and d_qk are equal)"),
    ("beta", 1.0, "inverse temperature of the softmax"),
    ("trials", 10, "independent draws of W_Q, W_K, W"),
    ("seed", 0, "root seed; trial k uses child k of SeedSequence(seed)"),
    ("remove_top_k", 3, "largest squared singular values removed to form the bulk"),
    ("c_poly", 2.0, "constant c of the Taylor degree ceil(c log d / log log d)"),
    ("hist_bins", 120, "bins of the bulk histograms"),
    ("hist_min", 0.0, "left end of the bulk histogram range"),
    ("hist_max", 10.0, "right end of the bulk histogram range"),
    ("betas", [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5], "slider positions"),
    ("pooled_values", 4000, "bulk values per slider position: ceil(pooled_values / d) trials"),
    rules=(LAW_BETA, LAW_BETAS, DISTINCT_BETAS),
)
LIMIT_LAW_EDGE = declare(
    "limit-law-edge",
    ("d", 1000, "matrix size (d, ell and d_qk are equal)"),
    ("beta", 1.0, "inverse temperature of the softmax"),
    ("trials", 10, "independent draws of W_Q, W_K, W"),
    ("seed", 0, "root seed; trial k uses child k of SeedSequence(seed)"),
    ("remove_top_k", 3, "largest squared singular values removed to form the bulk"),
    ("c_poly", 2.0, "constant c of the Taylor degree ceil(c log d / log log d)"),
    rules=(EDGE_BETA,),
)
CONVERGENCE = declare(
    "convergence",
    ("beta", 1.0, "inverse temperature of both series"),
    ("d_values", [250, 500, 1000, 2000], "sizes of the series of every rung"),
    ("trials", 4, "trials per size of the series of every rung"),
    ("d_scale", [250, 500, 1000, 2000, 4000, 8000], "sizes of the series at scale"),
    ("pooled_values", 8000, "bulk values per size there: ceil(pooled_values / d) trials"),
    ("seed", 0, "root seed; trial k uses child k of SeedSequence(seed)"),
    ("remove_top_k", 3, "largest squared singular values removed to form the bulk"),
    ("c_poly", 2.0, "constant c of the Taylor degree ceil(c log d / log log d)"),
    rules=(D_SCALE_BULK, LAW_BETA),
)
CONVERGENCE_THRESHOLD = declare(
    "convergence-threshold",
    ("d", 1000, "matrix size of the row across beta"),
    ("betas", [0.5, 0.75, 1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 2.0, 2.5], "grid"),
    ("d_values", [250, 500, 1000, 2000], "matrix sizes of the grid"),
    ("trials", 4, "trials of every rung along the row"),
    ("pooled_values", 8000, "bulk values per cell of the grid: ceil(pooled_values / d) trials"),
    ("resamples", 400, "bootstrap resamples of the trials"),
    ("seed", 0, "root seed; trial k uses child k of SeedSequence(seed)"),
    ("remove_top_k", 3, "largest squared singular values removed to form the bulk"),
    ("c_poly", 2.0, "constant c of the Taylor degree ceil(c log d / log log d)"),
    rules=(LAW_BETA, LAW_BETAS),
)
HEAD_DIMENSION = declare(
    "head-dimension",
    ("d", 1000, "matrix size d = ell of the map across head dimensions"),
    ("d_qk_values", [1000, 500, 250, 125, 64, 32, 16], "head dimensions of the map"),
    ("beta", 1.0, "inverse temperature of the map's diagnostics and of the series"),
    ("betas", [0.5, 1.0, 1.5, 2.0], "inverse temperatures of the map's gap curves"),
    ("trials", 3, "independent draws per point of the map"),
    ("d_values", [256, 512, 1024, 2048], "sizes of the series across d"),
    ("head_ratios", [1.0, 0.25, 0.0625], "fixed ratios d_qk/d of the series"),
    ("d_qk", 64, "the fixed head dimension of the last series"),
    ("half_heads", [16, 24, 32, 45], "head dimensions of the series at alpha = 1/2, d = d_qk^2"),
    ("fifth_heads", [9, 16], "head dimensions (squares) of the series at alpha = 2/5"),
    ("k_max", 3, "largest number k of Hermite blocks kept in a model Y_k"),
    ("block_trials", 4, "least trials per size of the Y_k series"),
    ("real_contexts", [256, 4096], "contexts n of a real head of head dimension d_qk"),
    ("pooled_values", 4000, "bulk values per size of a series: ceil(pooled_values / d) trials"),
    ("seed", 0, "root seed; trial t uses child t of SeedSequence(seed), the floor seed + 1"),
    ("remove_top_k", 3, "largest squared singular values removed to form the bulk"),
    rules=(LAW_BETA, LAW_BETAS, *HEAD_DIMENSION_RULES),
)
CANONICAL_MODEL = declare(
    "canonical-model",
    ("ell_values", [256, 1024, 4096], "context lengths ell"),
    ("spikes", 4, "number k of spike scores"),
    ("bulk_max", 2.0, "upper end B of the bounded bulk scores, uniform in [0, B]"),
    ("seed", 0, "root seed of the random bulk scores (one stream per ell)"),
    ("dense_max", 2048, "largest ell for dense eigenproblems; larger ell use this size"),
)
CANONICAL_CAUSAL = declare(
    "canonical-causal",
    ("ell_values", [256, 1024, 4096], "context lengths ell"),
    ("spikes", 4, "number k of spike scores"),
    ("bulk_max", 2.0, "upper end B of the bounded bulk scores, uniform in [0, B]"),
    ("seed", 0, "root seed of the random bulk scores, random orders and the adversarial search"),
    (
        "dense_max",
        2048,
        "largest ell for dense eigenproblems of every family but the chapter's two",
    ),
    rules=(SETTLED_BOUND,),
)
CANONICAL_RANKS = declare(
    "canonical-ranks",
    ("spikes", 4, "number k of spike scores"),
    ("bulk_max", 2.0, "upper end B of the bounded bulk scores, uniform in [0, B]"),
    ("seed", 0, "root seed of the random bulk scores (one stream per ell)"),
)
REAL_ATTENTION = declare(
    "real-attention",
    ("lengths", [16, 32, 64, 128, 256, 512], "token counts n of the excerpts"),
    ("n_texts", 4, "number of shipped texts, the first of TEXT_NAMES"),
    ("max_heads", 12, "heads per layer with full singular-value spectra, evenly spaced"),
    ("angle_bins", 50, "bins of the eigen-angle histogram for the KL divergence"),
    ("seed", 0, "root seed of the conventions, Haar floors and bootstrap"),
    (
        "conventions",
        5,
        "seeded conventions (signs and null-space completions) per singular factor",
    ),
    ("band_lengths", [400, 448], "further token counts for the seed summary's 385-471 band"),
)
REAL_SPECTRA = declare(
    "real-spectra",
    ("lengths", [16, 32, 64, 128, 256, 512], "token counts n of the excerpts"),
    ("n_texts", 4, "number of shipped texts, the first of TEXT_NAMES"),
    ("max_heads", 12, "heads per layer with full singular-value spectra, evenly spaced"),
    ("angle_bins", 50, "bins of the eigen-angle histogram for the KL divergence"),
    ("seed", 0, "root seed of the conventions, Haar floors, bootstrap and random initialization"),
    (
        "conventions",
        5,
        "seeded conventions (signs and null-space completions) per singular factor",
    ),
    ("band_lengths", [400, 448], "further token counts for the seed summary's 385-471 band"),
    ("trials", 5, "random-initialization trials per length"),
    rules=(LONGEST_FITS_HEAD,),
)

#: Every chapter's declaration, by its short name.
DECLARED: dict[str, ChapterParameters] = {
    p.chapter: p
    for p in (
        SETUP,
        RANK_ONE_MODE,
        NORMALIZER_CONCENTRATION,
        THETA_STATISTICS,
        LADDER,
        BULK_EQUIVALENCE,
        LIMIT_LAW,
        LIMIT_LAW_EDGE,
        CONVERGENCE,
        CONVERGENCE_THRESHOLD,
        HEAD_DIMENSION,
        CANONICAL_MODEL,
        CANONICAL_CAUSAL,
        CANONICAL_RANKS,
        REAL_ATTENTION,
        REAL_SPECTRA,
    )
}
