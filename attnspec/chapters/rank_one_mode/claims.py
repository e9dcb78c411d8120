"""The claims of "The rank-one mode"."""

from __future__ import annotations

import numpy as np

from ...models.notation import symbol
from ...present.claims import Claim
from ...present.formatting import format_uncertain


def chapter_claims(study) -> list[Claim]:
    """The rank-one mode's claims: s1(A) ≥ 1, its excess and the excess's exponent, the
    outliers of the uncentred rungs along the uniform mode, and the stable rank."""
    s1, scan, ranks = study.s1, study.scan, study.ranks
    (sr, sr_se) = ranks.mean_se
    worst_z = scan.worst[1]
    z_a, z_y = study.overlap["sqrt_d_A"][2], study.overlap["Y"][2]
    return [
        Claim(
            "$s_1(A) \\ge 1$ in every trial",
            f"{s1.min():.6f}",
            "min over trials ≥ 1 − 1e-12 (round-off)",
            bool(s1.min() >= 1 - 1e-12),
            "a row-stochastic matrix has s1 ≥ 1: a numerical failure.",
            provenance="sanity check",
        ),
        Claim(
            "$s_1(A) - 1 \\approx (e^{\\beta^2} - 1 + \\beta^4/2)/(2d)$ at every $d$",
            f"max |z| = {worst_z:.1f}",
            "|measured − first order| < 3 se at each d",
            bool(np.all(np.abs(scan.z) < 3)),
            "the first-order value misses by more than three standard errors: higher orders "
            "in $e^{\\beta^2}/d$ matter.",
            provenance="derived here",
        ),
        Claim(
            "$s_1(A) - 1$ vanishes like $1/d$",
            f"ν = {study.slope_text}",
            "|ν + 1| < 3 se (≥ 2 degrees of freedom)",
            bool(scan.slope_ok and abs(scan.slope + 1) < 3 * scan.slope_se),
            "the fitted exponent is not −1 within three standard errors, or the grid is too "
            "small for a fit.",
            provenance="derived here",
        ),
        Claim(
            "only the uncentred rungs carry an order-$d$ outlier",
            ", ".join(symbol(n) for n in study.outlier_models),
            "exactly √d A and Y have s1² > d/2",
            study.outlier_models == ["sqrt_d_A", "Y"],
            "the set of models with an order-d singular value differs from the two uncentred ones.",
            provenance="seed notebook",
        ),
        Claim(
            "the order-$d$ outlier is the uniform mode $u_d$",
            f"z = {z_a:+.1f} (A), {z_y:+.1f} (Y)",
            "|z| < 3 for $1 - \\langle v_1, u_d\\rangle^2$ against "
            "$(e^{\\beta^2} - 1 + \\beta^4/2)/d$",
            bool(abs(z_a) < 3 and abs(z_y) < 3),
            "the top singular vector is tilted away from $u_d$ by more than the first-order "
            "column-sum fluctuations predict.",
            provenance="seed notebook; prediction derived here",
        ),
        Claim(
            "$\\mathrm{srank}(A) \\approx e^{\\beta^2}$ with its first-order correction",
            f"{format_uncertain(sr, sr_se)} (z = {ranks.z:+.1f})",
            "|srank − first order| < 3 se",
            bool(abs(ranks.z) < 3),
            "the stable rank at initialization misses its first-order value by more than three "
            "standard errors.",
            provenance="derived here",
        ),
    ]
