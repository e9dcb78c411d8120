"""The claims of the chapter "The canonical model": sanity checks, the seed summary's
bidirectional statements (each scaling claim decided by a rate test of the study), the derived
forms, the appendix counterexample and the signed-score extension."""

from __future__ import annotations

import math

from ...present.claims import Claim
from ...present.formatting import length_range, per_length, round_off_bound
from ...present.rate_texts import criterion_text, fitted_exponent

#: log2 of the context lengths of the rate fits at the fast margin f = ell (and of every fit that
#: does not involve the slow margin): :math:`2^6, \dots, 2^{30}`, exact by the two-score reduction.
LIN_EXPONENTS = tuple(range(6, 31, 2))
#: log2 of the lengths of the rate fits at the slow margin f = log ell:
#: :math:`2^6, \dots, 2^{1000}`, so that f spans more than two decades (the rates 1/f and
#: log f/f separate only over a wide range of f).
LOG_EXPONENTS = (6, 8, 11, 16, 23, 32, 45, 64, 91, 128, 181, 256, 362, 512, 724, 1000)


def chapter_claims(study) -> list[Claim]:
    """Sanity checks, the seed summary's bidirectional statements, the derived forms, the
    appendix counterexample and the signed-score extension."""
    t = study.rate_tests()
    lam_lo = min(x.lam_min for x in study.at["log"] + study.at["lin"] + study.bounded)
    lam_hi = max(x.lam_max for x in study.at["log"] + study.at["lin"] + study.bounded)
    grids = {
        "log": length_range(LOG_EXPONENTS),
        "lin": length_range(LIN_EXPONENTS),
    }
    dense = f"ℓ = {study.bounded[0].ell} … {study.bounded[-1].ell}, dense"
    bounded_ok = all(
        x.bulk_d_max * x.ell <= math.expm1(study.bulk_max) * (1 + 1e-12) and x.bulk_d_min >= 0
        for x in study.bounded
    )
    no_grid = "the grid cannot separate the candidates, or the exponent sits on the boundary."

    def rate_claim(claim, key, claimed, variable, provenance):
        test = t[key]
        grid = dense if key == "tail" else grids["log" if key.endswith("_log") else "lin"]
        const = "" if test.kind == "zero" else f"; largest ratio to {claimed}: {test.constant:.3g}"
        return Claim(
            claim,
            f"exponent {fitted_exponent(test)} ({grid}){const}",
            criterion_text(test, claimed, variable),
            test.holds,
            no_grid
            if test.holds is None
            else (
                "the quantity does not decay over the grid."
                if test.kind == "zero"
                else f"the measured exponent contradicts {claimed}."
            ),
            provenance,
        )

    P_BI = "seed summary, bidirectional singular values"
    EPS = " (its O(ε_ℓ) read as O(1/f): this book's reading)"
    return [
        Claim(
            f"exact identities ({len(study.identities.deviations)}, in the dropdown above)",
            round_off_bound(study.identities.largest),
            "largest deviation ≤ 1e-12 (round-off)",
            study.identities.largest <= 1e-12,
            "a closed form differs from the dense computation beyond round-off.",
            "sanity check",
        ),
        Claim(
            r"eigenvalues of $A_b$ real, in $[0, 1]$, $\lambda_1 = 1$, interlacing ($s \ge 0$)",
            f"min {lam_lo:.6f}, max {lam_hi:.6f}",
            r"within $[-10^{-12}, 1 + 10^{-12}]$; identities above",
            lam_lo >= -1e-12 and lam_hi <= 1 + 1e-12,
            "an eigenvalue leaves [0, 1] although all scores are non-negative.",
            "seed summary, bidirectional eigenvalues",
        ),
        rate_claim(
            r"$\lambda_{k+1} = 1 - c + O(1/f)$, $f = \log\ell$",
            "lamk1_log",
            "1/f",
            "f",
            "seed summary, bidirectional eigenvalues" + EPS,
        ),
        rate_claim(
            r"… and at $f = \ell$",
            "lamk1_lin",
            "1/f",
            "f",
            "seed summary, bidirectional eigenvalues" + EPS,
        ),
        rate_claim(
            r"profile error $O(1/f)$, $f = \log\ell$", "profile_log", "1/f", "f", P_BI + EPS
        ),
        rate_claim(r"profile error $O(1/f)$, $f = \ell$", "profile_lin", "1/f", "f", P_BI + EPS),
        Claim(
            r"bounded bulk: $0 \le d_i \le (e^B - 1)/\ell$, $i > k$",
            f"largest $d_i\\ell$ {max(x.bulk_d_max * x.ell for x in study.bounded):.4f}",
            f"$\\le e^B - 1$ = {math.expm1(study.bulk_max):.4f} (the seed summary's constant)",
            bounded_ok,
            "an entry of D exceeds (e^B − 1)/ℓ or is negative.",
            "seed summary, bounded bulk",
        ),
        rate_claim(
            r"bounded bulk: $\sigma_i = O(1/\ell)$, $i \ge k + 2$",
            "tail",
            "1/ℓ",
            "ℓ",
            "seed summary, bounded bulk",
        ),
        rate_claim(
            r"the $k + 1$ leading values $\to 1$, error $O(1/f + \sqrt c)$, $f = \ell$",
            "lead",
            "1/f + √c",
            "ℓ",
            P_BI + EPS,
        ),
        rate_claim(
            r"empirical laws of $\sigma$, $\lambda$ $\to c\delta_1 + (1 - c)\delta_0$ "
            r"($W_1$, $f = \log\ell$)",
            "w1",
            "",
            "ℓ",
            P_BI,
        ),
        rate_claim(
            r"fixed $k$: srank$(A_b) = k + 1 + o(1)$, $f = \ell$",
            "srank_k1",
            "",
            "ℓ",
            "seed summary, ranks",
        ),
        rate_claim(
            r"erank$_2(A_b) = k + 1 + o(1)$, $f = \ell$",
            "erank2_k1",
            "",
            "ℓ",
            "seed summary, ranks",
        ),
        rate_claim(
            r"srank$(A_b) \to (k + 1 - c)/\alpha_+(c)^2$ at rate $O(1/f)$, $f = \log\ell$",
            "limit_log",
            "1/f",
            "f",
            "derived here",
        ),
        rate_claim(r"… and at $f = \ell$", "limit_lin", "1/f", "f", "derived here"),
        rate_claim(
            r"$k = \sqrt\ell$: srank$/(k + 1) \to 1$ (the relative form holds)",
            "relative",
            "",
            "ℓ",
            "derived here",
        ),
        rate_claim(
            r"$k = \sqrt\ell$: $\vert$srank $- (k + 1)\vert$ grows like $(k + 1)\sqrt c$ "
            "(the additive form fails)",
            "additive",
            "(k + 1)√c",
            "ℓ",
            "derived here",
        ),
        Claim(
            r"appendix: $\Sigma$ and $S$ share singular values, "
            r"$\operatorname{softmax}(S)$ has rank one",
            round_off_bound(study.cex_exact),
            f"≤ 1e-12 (dense, $\\ell$ = {study.deep_ell})",
            study.cex_exact <= 1e-12,
            "the counterexample's matrices do not have the stated spectra.",
            r"seed summary: “$\Sigma = t_\ell e_1 e_1^\top$ and "
            r"$S = (t_\ell/\ell)\mathbf{1}\mathbf{1}^\top$ … share singular values … "
            r"yet produce rank-one $\operatorname{softmax}(S)$”",
        ),
        rate_claim(
            r"appendix: $2\sqrt\ell\,\vert\sigma_{1,2} - 1\vert \to 1$ "
            r"(two values near 1 for $\operatorname{softmax}(\Sigma)$)",
            "cex",
            "",
            "ℓ",
            "seed summary (the appendix counterexample); the rate is derived here",
        ),
        Claim(
            r"extension: signed scores give $\lambda_{\min}(A_b) \in (-1/(\ell - 1), 0)$",
            per_length(study.lam_signed, 4),
            r"$(\ell - 1)\lambda_{\min} \in (-1, 0)$",
            all(-1 < v < 0 for v in study.lam_signed),
            "with a negative bulk the smallest eigenvalue is not in (−1/(ℓ − 1), 0).",
            "derived here (outside the model)",
        ),
        Claim(
            r"extension: $\sigma_i \ge 1/(3i)$ fails for a signed score",
            f"$3\\ell\\sigma_\\ell \\le$ {study.deep_bound:.1e}",
            "$< 1$",
            study.deep_bound < 1,
            "the negative score is not deep enough to break the bound.",
            "derived here (outside the model)",
        ),
    ]
