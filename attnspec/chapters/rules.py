"""Each chapter's own rules between its parameters, by its short name (:data:`CHAPTER_RULES`).

A chapter's parameters are declared in its notebook's ``parameters`` cell, their kinds (type and
range) in :data:`attnspec.core.kinds.PARAMETERS`, and the rules that hold wherever their parameters
appear in :data:`attnspec.core.config.RULES`; the rules here narrow a range, or relate parameters,
in the chapters that need them only. Light (no NumPy): the command line checks them before a kernel
starts.
"""

from __future__ import annotations

import math
import sys

from ..core.config import Rule
from ..core.kinds import BETA_MAX

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

#: Each chapter's own rules, by its short name (a chapter not listed has none).
CHAPTER_RULES: dict[str, tuple[Rule, ...]] = {
    "rank-one-mode": (LAW_BETA, SCAN_TRIALS),
    "normalizer-concentration": (LAW_BETA, LAW_BETAS, NORMALIZER_MEAN),
    "theta-statistics": (LAW_BETA,),
    "bulk-equivalence": (LAW_BETA, BULK_OF_TWO),
    "limit-law": (LAW_BETA, LAW_BETAS, DISTINCT_BETAS),
    "limit-law-edge": (EDGE_BETA,),
    "convergence": (D_SCALE_BULK, LAW_BETA),
    "convergence-threshold": (LAW_BETA, LAW_BETAS),
    "head-dimension": (LAW_BETA, LAW_BETAS, *HEAD_DIMENSION_RULES),
    "canonical-causal": (SETTLED_BOUND,),
    "real-spectra": (LONGEST_FITS_HEAD,),
}
