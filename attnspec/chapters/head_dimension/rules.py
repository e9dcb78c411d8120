"""The head-dimension chapter's own rules between its parameters (:data:`RULES`),
checked with their ranges before any kernel starts."""

from __future__ import annotations

from ...core.config import Rule
from ..rules import LAW_BETA, LAW_BETAS

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

#: The rules of this chapter, checked with its declared parameters.
RULES = (
    LAW_BETA,
    LAW_BETAS,
    *HEAD_DIMENSION_RULES,
)
