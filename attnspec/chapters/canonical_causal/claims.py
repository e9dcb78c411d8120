"""The claims of the chapter "Causal attention in the canonical model": eigenvalues, norm, the
lower-bound search, the seed summary's upper bounds (one claim per reading of their constant,
:func:`constant_claims`) and the order of the diagonal."""

from __future__ import annotations

import math

from ...canonical import order
from ...canonical.rates import above_zero
from ...numerics.intervals import all_hold, interval_below
from ...present.claims import Claim
from ...present.formatting import length_range, per_length, plus_minus
from ...present.rate_texts import criterion_text, fitted_exponent

#: log2 of the lengths of the closed-form eigenvalue fits, of the W1 fits and of the Lanczos fits.
EIG_EXPONENTS, W1_EXPONENTS, TOP_EXPONENTS = range(6, 31, 2), range(6, 21, 2), range(6, 17, 2)
#: The two-token example: the chapter's t is the appendix's t = 2 log ell at ell = 2.
T_TWO = 2 * math.log(2)

QUOTE_BOUND = (
    "seed summary, causal singular values: “With a bounded bulk of constant $B$, "
    r"$\sigma_{k+m}(A) \le C_B \min\{1,$ $(\ell-k-m+1)/(k+m),$ $\sqrt{\log(\ell+1)/m}\}$”"
)
QUOTE_COUNT = (
    "seed summary, causal singular values: "
    r"“$\#\{i > k : \sigma_i(A) > \varepsilon\}$ $\le C_B \log(\ell+1)/\varepsilon^2$”"
)
QUOTE_LOG2 = (
    "seed summary, causal singular values: "
    r"“$\sigma_{k+m_\ell}(A) \to 0$ whenever $m_\ell/\log\ell \to \infty$”"
)
QUOTE_ORDER = (
    "seed summary: “the causal results depend on placing descending singular values along "
    "the diagonal before masking — at $\\ell = 2$, diagonal scores $(t, 0)$ give eigenvalues 1 "
    "and 1/2 while $(0, t)$ gives 1 and $e^t/(e^t + 1)$”"
)


def constant_claims(bound: str, what: str, measured: str, tests, provenance: str):
    r"""Two claims on the smallest constant a bound needs at each :math:`\ell`, one per reading:
    on this grid it grows more slowly than :math:`\log\ell` (the rate test's O-verdict between
    the candidates 1 and :math:`\log\ell`), and it does not grow at all (its fitted exponent
    :math:`\pm 2` se against 0 by :func:`attnspec.numerics.intervals.interval_below`: ✓ below 0, ✗
    above, ○ across). Neither decides whether one constant serves every :math:`\ell` beyond the
    grid."""
    flat = [
        interval_below((x.exponent - 2 * x.se, x.exponent + 2 * x.se), (0.0, 0.0)) for x in tests
    ]
    return (
        Claim(
            f"{bound}: on this grid the {what} grows more slowly than $\\log\\ell$",
            measured,
            f"{what} per ℓ measured, not fixed; its exponent against ℓ ± 2 se below "
            + " / ".join(f"{(x.candidates['1'] + x.candidates['log ℓ']) / 2:.3f}" for x in tests)
            + ", midway between the exponents of 1 and of log ℓ on each family's grid (canonical "
            "families with $e^B$ below the smallest ℓ)",
            all_hold(x.holds for x in tests),
            "the constant grows as fast as log ℓ for a bounded bulk, or the grid cannot decide.",
            provenance,
        ),
        Claim(
            f"{bound} with $C_B$ independent of $\\ell$: the {what} does not grow on this grid",
            measured,
            "each family's exponent against ℓ ± 2 se below 0 (✗ above 0, ○ across 0)",
            all_hold(flat),
            f"the {what} grows with ℓ on this grid for some bounded family (its exponent is "
            "above 0 by more than 2 se): the constant is not independent of ℓ here. Whether one "
            "constant serves every ℓ, as the seed summary's $C_B$ does, no finite grid can tell."
            if False in flat
            else "an exponent is within 2 se of 0: the grid cannot tell a flat constant from a "
            "slowly moving one.",
            provenance,
        ),
    )


def chapter_claims(study) -> list[Claim]:
    """The chapter's claims, among them the seed summary's four on the bounds and the order."""
    t = study.rate_tests()
    ca, B = study.summaries, study.bulk_max
    no_grid = "the grid cannot separate the candidates, or the exponent sits on the boundary."
    bounded = [f for f in study.families if study.testable(f)]
    cb = [t["cb_" + f.name] for f in bounded]
    cc = [t["count_" + f.name] for f in bounded]

    def measured(tests, key):
        return "; ".join(
            f"{f.name}: largest "
            f"{max(getattr(c, key) for c in study.bounds[f.name].values()):.3g}, "
            f"exponent {fitted_exponent(x)}"
            for f, x in zip(bounded, tests, strict=True)
        )

    lam2 = study.two_token
    exact2 = max(
        abs(lam2["descending"][1] - 0.5),
        abs(lam2["ascending"][1] - math.exp(T_TWO) / (math.exp(T_TWO) + 1)),
        abs(lam2["descending"][0] - 1),
        abs(lam2["ascending"][0] - 1),
    )
    slopes = study.order_slopes()
    grows = all_hold(above_zero(b, se) for b, se in slopes.values())
    top_ell = max(study.orders["descending"])
    dev, scaled, bounded_gap = study.spike_check()
    ells = sorted(scaled)
    spike_ok = dev <= 1e-12 and bounded_gap
    claims = [
        Claim(
            r"the $k$ largest eigenvalues $\to 1$ at speed $O(1/f)$, $f = \log\ell$",
            r"relative deviation of $1 - \lambda_i$ from the exact form "
            + ("≤ 1e-12" if dev <= 1e-12 else f"{dev:.1e}")
            + rf"; $f \max_i(1 - \lambda_i)$ {scaled[ells[0]]:.3g} at "
            f"$2^{{{int(math.log2(ells[0]))}}}$ → {scaled[ells[-1]]:.2g} at "
            f"$2^{{{int(math.log2(ells[-1]))}}}$ (rows of the causal softmax, "
            f"{length_range(EIG_EXPONENTS)})",
            r"the measured $1 - \lambda_i$, $i \le k$, equal the exact "
            r"$\tfrac{i - 1}{\ell f + i - 1}$ to round-off (≤ 1e-12), and "
            r"$f \max_i(1 - \lambda_i)$ ≤ $(k - 1)/\ell$ at every ℓ: the gap is $O(1/f)$, "
            r"indeed $O(1/(\ell f))$, exponential in f (a power of f fitted to it means "
            "nothing)",
            spike_ok,
            "a measured spike eigenvalue differs from the exact form beyond round-off, or its "
            "gap to 1 exceeds (k − 1)/(ℓf).",
            "seed summary, causal eigenvalues (the exact form); the gap's bound is derived here",
        ),
        Claim(
            r"bulk eigenvalues $\Theta(1/i)$: $1 \le i\lambda_i \le e^B$",
            f"{min(x.i_lam_min for x in ca):.4f} … {max(x.i_lam_max for x in ca):.4f}",
            f"within $[1, e^B]$ = [1, {math.exp(B):.4f}] (exact bounds for scores in [0, B])",
            min(x.i_lam_min for x in ca) >= 1 - 1e-12
            and max(x.i_lam_max for x in ca) <= math.exp(B) * (1 + 1e-12),
            "a bulk eigenvalue leaves the harmonic window.",
            "seed summary, causal eigenvalues",
        ),
        Claim(
            r"empirical law of $\lambda \to c\delta_1 + (1 - c)\delta_0$ ($W_1$)",
            f"exponent {fitted_exponent(t['w1'])} ({length_range(W1_EXPONENTS)})",
            criterion_text(t["w1"], "", "ℓ"),
            t["w1"].holds,
            no_grid,
            "seed summary, causal eigenvalues",
        ),
        Claim(
            r"$\Vert A_c\Vert \le \sqrt 5$",
            f"largest {max(study.norms()):.4f}",
            f"$\\le \\sqrt 5$ = {math.sqrt(5):.4f} (the seed summary's constant)",
            max(study.norms()) <= math.sqrt(5),
            "a causal norm above √5 was found.",
            "seed summary, causal singular values",
        ),
        Claim(
            r"$\sigma_i \ge 1/(3i)$ (numerical evidence)",
            f"smallest $3i\\sigma_i$ found {study.search.minimum.value:.3f}",
            f"$\\ge 1$ over {study.search.spectra} spectra of the seeded search",
            study.search.minimum.value >= 1,
            "the search found a singular value below 1/(3i) for non-negative scores.",
            "seed summary, causal singular values",
        ),
    ]
    if "sigma_k" in t:
        claims.append(
            Claim(
                r"spike subspace: $\sigma_k \ge 1 - O(k/(\ell f))$",
                f"exponent {fitted_exponent(t['sigma_k'])} "
                f"(Lanczos, {length_range(TOP_EXPONENTS)}); largest "
                f"ratio {t['sigma_k'].constant:.3g}",
                criterion_text(t["sigma_k"], "k/(ℓf)", "ℓ"),
                t["sigma_k"].holds,
                no_grid,
                "seed summary, causal singular values",
            )
        )
    claims += [
        *constant_claims(
            r"$\sigma_{k+m} \le C_B\, b(m)$",
            "smallest $C_B$",
            measured(cb, "constant"),
            cb,
            QUOTE_BOUND,
        ),
        *constant_claims(
            r"$\#\{i > k : \sigma_i > \varepsilon\}$ $\le C_B\log(\ell+1)/\varepsilon^2$ "
            r"for every $\varepsilon$",
            r"smallest count constant $\max_j j\sigma_{k+j}^2/\log(\ell+1)$",
            measured(cc, "count_constant"),
            cc,
            QUOTE_COUNT,
        ),
        Claim(
            r"$\sigma_{k+m_\ell} \to 0$ for $m_\ell = \lceil(\log\ell)^2\rceil$",
            f"{per_length([v for _, v in study.log_squared.values()], 3)}; exponent "
            f"{fitted_exponent(t['log_squared'])}",
            criterion_text(t["log_squared"], "", "ℓ"),
            t["log_squared"].holds,
            no_grid,
            QUOTE_LOG2,
        ),
        Claim(
            r"order: $\ell = 2$, scores $(t, 0)$ give $\lambda = (1, \tfrac12)$, $(0, t)$ give "
            r"$(1, e^t/(e^t + 1))$",
            f"t = {T_TWO:.4f}: λ₂ = {lam2['descending'][1]:.6f} and {lam2['ascending'][1]:.6f}",
            "closed forms to round-off (≤ 1e-12)",
            exact2 <= 1e-12,
            "the two-token eigenvalues differ from the closed forms.",
            QUOTE_ORDER,
        ),
        Claim(
            r"order at scale: srank$(A_c)$ grows with $\log\ell$ in the descending, ascending "
            "and a random order, to different values",
            "slopes in log ℓ: "
            + " / ".join(plus_minus(b, se) for b, se in slopes.values())
            + f"; srank at ℓ = {top_ell}: "
            + " / ".join(f"{study.orders[o][top_ell].srank:.3f}" for o in order.ORDERS),
            f"each slope's ± 2 se interval above 0 (ℓ = {min(study.orders['descending'])} … "
            f"{top_ell}, Lanczos)",
            grows,
            "in some order the slope's ± 2 se interval contains 0: growth not resolved."
            if grows is None
            else "in some order the stable rank falls with log ℓ over the grid.",
            "this book's test",
        ),
    ]
    return claims
