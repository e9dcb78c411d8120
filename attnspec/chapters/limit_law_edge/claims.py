"""The claims of "The edge and the outliers"."""

from __future__ import annotations

import math

import numpy as np

from ...present.claims import Claim

#: The rungs without a nonlinearity, whose top values are edge fluctuations.
LINEAR = ("Y_Q_lin", "Y_f_lin")


def chapter_claims(study) -> list[Claim]:
    """The linear rungs end within one edge spacing of the law's edge, and the top value of
    :math:`Y_f` is a localized outlier, from its largest entry."""
    result, law, scale, out = study.result, study.law, study.scale, study.outliers
    linear_top = max(float(result.s2(n)[:, 0].max()) for n in LINEAR)
    overshoot = float(scale.in_spacings(linear_top)[()])
    median_weight = float(np.median(out.weight))
    return [
        Claim(
            "the linear rungs' top value is an edge fluctuation, not an outlier",
            rf"$\max s_1^2 - \lambda_+$ = {linear_top - law.edge:.3f} = {overshoot:.2f} "
            r"$\varepsilon_d$",
            rf"< one edge spacing $\varepsilon_d = (3/(2ad))^{{2/3}}$ = {scale.spacing:.3f}",
            bool(overshoot < 1),
            "a linear rung has a value more than one edge spacing beyond λ₊: an outlier, or the "
            "edge has not converged.",
            "this book",
        ),
        Claim(
            r"the top value of $Y_f$ follows its largest entry",
            f"Spearman {out.spearman:.3f} (p = {out.p_value:.0e})"
            if math.isfinite(out.spearman)
            else "n/a",
            "one-sided p < 0.01 against no association (needs ≥ 3 trials)",
            bool(math.isfinite(out.p_value) and out.p_value < 0.01),
            "the top singular value of $Y_f$ does not follow its largest entry (or there are too "
            "few trials): the outliers are not localized at these parameters.",
            "this book",
        ),
        Claim(
            r"the top singular vector of $Y_f$ sits on the largest entry's row",
            f"median $v_i^2$ {median_weight:.3f}",
            rf"> $2\log d/d$ = {out.delocalized_max:.4f}, the largest weight of a delocalized "
            "vector",
            bool(median_weight > out.delocalized_max),
            "the top singular vector of $Y_f$ is spread out: its top value is not a localized "
            "outlier here.",
            "this book",
        ),
    ]
