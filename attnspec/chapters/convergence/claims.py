"""The convergence chapter's claims: every rate above 0, the linear model within sampling noise and
on the rigidity scale, attention apart from its Gaussian equivalent and falling faster."""

from __future__ import annotations

import math

import numpy as np

from ...experiments.convergence import MIN_TRIALS, Rigidity, noise_levels, reported_se, t_factor
from ...models.ladder import REFERENCE
from ...models.notation import symbol
from ...numerics.intervals import all_hold, interval_below
from ...present.claims import Claim
from ..shared import THEOREM
from .tables import exponent_text, rate_text


def _positive(diff: float, se: float, k: float) -> bool | None:
    """Is ``diff`` above 0? The one verdict rule on ``diff ± k se`` against 0: ○ when that
    interval contains 0."""
    return interval_below((0.0, 0.0), (diff - k * se, diff + k * se))


def convergence_claims(conv: dict, at_scale: dict, rig_grid: Rigidity) -> list[Claim]:
    """The convergence chapter's claims."""
    ref, lin = at_scale[REFERENCE], at_scale["Y_f_lin"]
    rates = {
        f"{m} ({t})": c.fit.rate
        for (m, t), c in conv.items()
        if not (m.startswith("Y_Q") and t == "f")
    }
    rates |= {f"{m} (scale)": s.fit.rate for m, s in at_scale.items()}
    finite = all(np.isfinite(r) for r in rates.values())
    noise = noise_levels(lin)
    sizes = [
        _positive(r - l_, math.hypot(er, el), t_factor(n))
        for r, l_, er, el, n in zip(
            ref.ks, lin.ks, reported_se(ref), reported_se(lin), ref.trials, strict=True
        )
        if np.isfinite(er) and np.isfinite(el)
    ]
    tested = int(np.sum(ref.trials >= MIN_TRIALS))
    grid = [c.fit for (m, t), c in conv.items() if not (m.startswith("Y_Q") and t == "f")] + [
        s.fit for s in at_scale.values()
    ]
    falls = all_hold(_positive(f.rate, f.se, 2) for f in grid)
    d_lo = min(min(c.d) for c in conv.values())
    d_hi = max(max(c.d) for c in conv.values())
    apart = all_hold(sizes) if sizes else None
    faster = _positive(ref.fit.rate - lin.fit.rate, math.hypot(ref.fit.se, lin.fit.se), 2)
    return [
        Claim(
            f"every rung's distance to its law falls with $d$ on d = {d_lo}–{d_hi}, and "
            f"attention's and {symbol('Y_f_lin')}'s on d = {min(ref.d)}–{max(ref.d)} "
            r"(Taylor rungs: to the $\theta^Q$ law)",
            f"smallest rate {min(rates.values()):.2f}; smallest rate − 2 se "
            f"{min(f.rate - 2 * f.se for f in grid):.2f}"
            if finite
            else "n/a",
            r"every fitted rate $\rho$ ± 2 se above 0 (a fall over these sizes, not a proof that "
            "the distance tends to 0)",
            falls if finite else None,
            "some rung's distance does not clearly decrease with d at this β (or a series has "
            "fewer than two sizes).",
            THEOREM,
        ),
        Claim(
            r"the linear model's distance is below that of independent values at every size",
            f"{int(np.sum(lin.ks < noise))} of {lin.d.size} sizes",
            r"< $1.36/\sqrt{nd}$, the 95 % Kolmogorov level of $nd$ independent values",
            bool(np.all(lin.ks < noise)),
            "the linear model is farther from its law than sampling noise at some size.",
            "Pennington and Worah (2017): the law of the linear model",
        ),
        Claim(
            r"with a fixed number of trials, the linear model's distance follows the rigidity "
            r"scale $\log d/(d\sqrt n)$",
            f"exponent of distance/scale in $d$: {exponent_text(rig_grid)}",
            f"within 2 standard errors of 0 (detects exponents beyond {2 * rig_grid.se:.2f})",
            bool(np.isfinite(rig_grid.se) and abs(rig_grid.exponent) < 2 * rig_grid.se),
            "the linear model's distance does not scale like log d/(d√n): a finite-d bias, or "
            "fluctuations other than rigidity.",
            "this book",
        ),
        Claim(
            r"attention is farther from the law than its Gaussian equivalent at every size",
            f"{int(np.sum(ref.ks > lin.ks))} of {ref.d.size} sizes farther; tested at the {tested} "
            f"sizes with ≥ {MIN_TRIALS} trials",
            f"difference > $t_{{n-1}}$ jackknife standard errors at each size with ≥ {MIN_TRIALS} "
            "trials (Student's quantile of 3 standard errors for an error from n trials; an "
            "error from fewer trials is not reliable)",
            apart,
            "at some size attention is closer to the law than its Gaussian equivalent."
            if apart is False
            else "at some size the two distances are within sampling noise of each other.",
            "this book",
        ),
        Claim(
            r"attention's distance falls faster with $d$ than the linear model's in the series "
            "at scale",
            f"$\\rho$ {rate_text(ref)} vs {rate_text(lin)}",
            "difference > 2 combined standard errors",
            faster,
            "attention's distance falls more slowly than the linear model's: its excess is not a "
            "systematic deviation that falls on its own."
            if faster is False
            else "attention's rate is within noise of the linear model's: its distance is not a "
            "systematic deviation that falls on its own.",
            "this book",
        ),
    ]
