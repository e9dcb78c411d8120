r"""Table, glued values, claims and figure data of the head-dimension chapter's scan
:math:`d_{qk} = \lceil d^{\alpha}\rceil`, from an
:class:`~attnspec.experiments.head_dim_scaling.AlphaScan`.

Every interval is a value ± 2 standard errors (a rate's the larger of its residual and jackknife
errors), and every comparison of two of them goes through
:func:`~attnspec.present.claims.interval_below`.
"""

from __future__ import annotations

import math

from ..experiments.head_dim_scaling import AlphaScan
from ..present.claims import Claim, all_hold, interval_below
from ..present.gluing import uncertain
from ..present.numbers import ONE_OR_TWO, fixed, format_uncertain
from ..present.tables import markdown_table

#: The exponent where the degree-2 Hadamard block stops being of rank much larger than d.
HEURISTIC_ALPHA = 0.5
ZERO = (0.0, 0.0)


def span(value: float, se: float, z: float = 2.0) -> tuple[float, float]:
    """The interval value ± z se (the whole line when se is not finite)."""
    if not math.isfinite(se):
        return (-math.inf, math.inf)
    return (value - z * se, value + z * se)


def _rate_text(scan: AlphaScan, alpha: float) -> str:
    return format_uncertain(*scan.rate(alpha), ONE_OR_TWO, fallback=2)


def _alpha_text(alpha: float) -> str:
    return f"{alpha:g}"


def scan_table(scan: AlphaScan) -> str:
    """Per exponent: the head dimensions over the sizes, the gap ± se at each size, the rate."""
    rows = []
    for a in scan.alphas:
        pts = scan.points[a]
        rows.append(
            [_alpha_text(a), " → ".join(str(p.d_qk) for p in pts)]
            + [format_uncertain(p.gap.ks, p.gap.se, ONE_OR_TWO, fallback=3) for p in pts]
            + [_rate_text(scan, a)]
        )
    trials = [p.trials for p in scan.points[scan.alphas[0]]]
    header = [
        r"$\alpha$",
        "$d_{qk}$",
        *(f"$d$ = {d} ({t})" for d, t in zip(scan.d_values, trials, strict=True)),
        r"rate $\rho$",
    ]
    return markdown_table(header, rows)


def _nearest(scan: AlphaScan, alpha: float) -> float:
    return min(scan.alphas, key=lambda a: abs(a - alpha))


def real_exponents(d_qk: int, contexts) -> tuple[float, float]:
    r"""The exponents :math:`\log d_{qk}/\log n` of a head dimension at the longest and the
    shortest context n."""
    return math.log(d_qk) / math.log(max(contexts)), math.log(d_qk) / math.log(min(contexts))


def values(scan: AlphaScan, d_qk: int, contexts) -> dict:
    """Every value the chapter's prose glues from the scan (under the prefix ``headdim``)."""
    cross = scan.crossing
    out = {"alpha_d_min": scan.d_values[0], "alpha_d_max": scan.d_values[-1]}
    out |= {"alpha_min": min(scan.alphas), "alpha_max": max(scan.alphas)}
    out |= {"alpha_n": len(scan.alphas), "alpha_heuristic": HEURISTIC_ALPHA}
    if math.isfinite(cross.alpha):
        out |= uncertain("alpha_star", cross.alpha, cross.se)
        out |= {"alpha_bracket_lo": cross.bracket[0], "alpha_bracket_hi": cross.bracket[1]}
    else:
        out |= {"alpha_star": math.nan, "alpha_star_se": math.nan, "alpha_star_txt": "n/a"}
        out |= {"alpha_bracket_lo": math.nan, "alpha_bracket_hi": math.nan}
    for name, target in (("0_75", 0.75), ("0_5", 0.5)):
        a = _nearest(scan, target)
        out |= uncertain(f"alpha_rate_{name}", *scan.rate(a))
        out[f"alpha_rate_{name}_alpha"] = a
    low = min(scan.alphas)
    out |= uncertain("alpha_rate_low", *scan.rate(low))
    pts = scan.points[low]
    out |= {
        "alpha_low_ks_dmin": round(pts[0].gap.ks, 3),
        "alpha_low_ks_dmax": round(pts[-1].gap.ks, 3),
    }
    lo, hi = real_exponents(d_qk, contexts)
    out |= {"real_alpha_min": round(lo, 4), "real_alpha_max": round(hi, 4)}
    out |= {"real_n_min": min(contexts), "real_n_max": max(contexts)}
    out["real_n_boundary"] = d_qk * d_qk // 2  # d_qk = sqrt(2 n)
    return out


def claims(scan: AlphaScan, d_qk: int, contexts) -> list[Claim]:
    """The scan's claims: where the rate is positive, the boundary, the Hadamard-power hypothesis,
    the gap below the boundary, where real heads sit."""
    book = "this book"
    cross = scan.crossing
    found = math.isfinite(cross.alpha)
    star = span(cross.alpha, cross.se) if found else None
    above = [a for a in scan.alphas if a > HEURISTIC_ALPHA]
    half = _nearest(scan, HEURISTIC_ALPHA)
    # the hypothesis: rho > 0 above 1/2, rho <= 0 at and below it, so alpha* = 1/2
    at_half = interval_below(ZERO, span(*scan.rate(half)))  # True: the gap still falls at 1/2
    separated = interval_below(star, (HEURISTIC_ALPHA,) * 2) if found else None
    hypothesis = all_hold([False if at_half else None, None if separated is None else False])
    below = [a for a in scan.alphas if found and a < cross.alpha]
    grows = [interval_below(span(*scan.rate(a)), ZERO) for a in below]
    lo, hi = real_exponents(d_qk, contexts)
    bound = {"below": f"α* < {min(scan.alphas):g}", "above": f"α* > {max(scan.alphas):g}"}
    return [
        Claim(
            rf"at $d_{{qk}} = \lceil d^\alpha \rceil$, $\alpha >$ {HEURISTIC_ALPHA:g}, the gap "
            "falls as d grows",
            ", ".join(f"{a:g}: {_rate_text(scan, a)}" for a in above),
            "ρ − 2 se > 0 at every such α",
            all_hold(interval_below(ZERO, span(*scan.rate(a))) for a in above),
            "at some exponent above 1/2 the rate is not resolved from 0.",
            book,
        ),
        Claim(
            "the rate ρ(α) crosses 0 inside the measured range",
            f"α* = {format_uncertain(cross.alpha, cross.se, ONE_OR_TWO, fallback=2)}"
            if found
            else bound.get(cross.bound, "ρ changes sign more than once"),
            "a sign change of ρ between neighbouring α",
            True if found else None,
            "ρ does not change sign on the measured range: α* is only bounded.",
            book,
        ),
        Claim(
            "Hadamard-power hypothesis: α* = 1/2",
            (
                f"α* = {format_uncertain(cross.alpha, cross.se, ONE_OR_TWO, fallback=2)}; "
                if found
                else ""
            )
            + f"ρ({half:g}) = {_rate_text(scan, half)}",
            "✗ if α* ± 2 se excludes 1/2 or ρ(1/2) − 2 se > 0, else ○",
            hypothesis,
            "on these sizes the gap still falls at α = 1/2, or the crossing lies apart from it: "
            "the degree-2 block's rank reaching d does not stop the convergence here."
            if hypothesis is False
            else "the data cannot tell the boundary from 1/2: consistent with the hypothesis, "
            "which a point prediction cannot confirm (the test resolves a shift of 2 se of α*).",
            "this book (hypothesis)",
        ),
        Claim(
            "below α*, the gap grows with d",
            ", ".join(f"{a:g}: {_rate_text(scan, a)}" for a in below) or "no α below α*",
            "ρ + 2 se < 0 at every measured α < α*",
            all_hold(grows) if grows else None,
            "below the boundary the gap is not shown to grow: within the errors it may stay "
            "constant (or no exponent was measured there).",
            book,
        ),
        Claim(
            f"d_qk = {d_qk} at contexts {min(contexts)}–{max(contexts)} lies above α*",
            f"α ∈ [{fixed(lo, 3)}, {fixed(hi, 3)}]"
            + (f", α* + 2 se = {fixed(star[1], 3)}" if found else ""),
            "α* + 2 se below their smallest α",
            interval_below(star, (lo, hi)) if found else None,
            "the boundary is not resolved below the real heads' exponents (X = I_d model).",
            book,
        ),
    ]


def figure_data(scan: AlphaScan, d_qk: int, contexts) -> dict:
    """The arguments of :func:`attnspec.present.plotting.rate_against_exponent`."""
    cross = scan.crossing
    lo, hi = real_exponents(d_qk, contexts)
    return dict(
        alphas=list(scan.alphas),
        rates=[scan.rate(a)[0] for a in scan.alphas],
        errors=[scan.rate(a)[1] for a in scan.alphas],
        crossing=(cross.alpha, cross.se),
        guides={"Hadamard-power hypothesis, α = 1/2": HEURISTIC_ALPHA},
        spans={f"$d_{{qk}}$ = {d_qk}, $n$ = {min(contexts)}–{max(contexts)}": (lo, hi)},
    )


def series_figure_data(scan: AlphaScan) -> dict:
    """The series of :func:`attnspec.present.plotting.loglog_fits`: the gap over d at each
    exponent, with its fit (legend: the rate with the larger standard error)."""
    out = {}
    for a in scan.alphas:
        fit = scan.rates[a]
        pts = scan.points[a]
        out[f"α = {a:g}: ρ = {_rate_text(scan, a)}"] = (
            [p.gap.ks for p in pts],
            [p.gap.se for p in pts],
            -fit.rate,
            fit.intercept,
        )
    return out
