"""The claims of "Setup"."""

from __future__ import annotations

from ...present.claims import Claim


def chapter_claims(study) -> list[Claim]:
    """The setup's sanity checks: rows sum to one, the scores are standardized, s1(A) ≥ 1."""
    s, score_var, score_var_sd = study.s, study.score_var, study.score_var_sd
    return [
        Claim(
            "rows of $A$ sum to 1",
            study.row_sum_text,
            "max |row sum − 1| ≤ 1e-12 (round-off)",
            study.row_sum_err <= 1e-12,
            "the softmax is not normalized to round-off.",
            provenance="sanity check",
        ),
        Claim(
            "scores are standardized: $\\mathbb E\\, S_{ij}^2 = 1$",
            f"{score_var:.4f}",
            f"|mean square − 1| < 3 $\\sqrt{{6 + 2/d}}/d$ = {3 * score_var_sd:.4f}",
            bool(abs(score_var - 1) < 3 * score_var_sd),
            "the mean square of the scores is more than three standard deviations from one.",
            provenance="derived here",
        ),
        Claim(
            "$s_1(A) \\ge 1$ ($A$ is row-stochastic)",
            f"{s[0]:.6f}",
            "$s_1(A) \\ge 1 - 10^{-12}$ (round-off)",
            bool(s[0] >= 1 - 1e-12),
            "a row-stochastic matrix cannot have s1 < 1: numerical failure.",
            provenance="sanity check",
        ),
    ]
