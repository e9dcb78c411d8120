"""The convergence chapter's tables, and the texts of a rate and an exponent they share with its
values, claims and figures."""

from __future__ import annotations

from ...experiments.convergence import DistanceSeries, Rigidity, reported_se
from ...models.ladder import REFERENCE
from ...models.notation import symbol
from ...present.formatting import ONE_OR_TWO, decimals_for, fixed
from ...present.tables import markdown_table
from ..shared import uncertain_text

LAW = {"f": r"$\theta^f$", "q": r"$\theta^Q$"}


def rate_text(series: DistanceSeries) -> str:
    """The fitted rate with its standard error, as printed."""
    return uncertain_text(series.fit.rate, series.fit.se, 2)


def rate_trials_text(series: DistanceSeries) -> str:
    """The fitted rate's standard error over trials, with the decimals of its fit error."""
    return fixed(
        series.fit.se_trials, decimals_for(series.fit.se, ONE_OR_TWO, fallback=2), missing="n/a"
    )


def exponent_text(rig: Rigidity) -> str:
    """The exponent of distance over the rigidity scale with its standard error."""
    return uncertain_text(rig.exponent, rig.se, 2)


def scale_table(at_scale: dict[str, DistanceSeries]) -> str:
    """One row per size of the series at scale: trials, both distances and their ratio."""
    ref, lin = at_scale[REFERENCE], at_scale["Y_f_lin"]
    ref_se, lin_se = reported_se(ref), reported_se(lin)
    rows = [
        [f"{d}", f"{n}", uncertain_text(a, sa), uncertain_text(b, sb), f"{a / b:.1f}"]
        for d, n, a, b, sa, sb in zip(
            ref.d, ref.trials, ref.ks, lin.ks, ref_se, lin_se, strict=True
        )
    ]
    fits = [f"{rate_text(s)} ({rate_trials_text(s)})" for s in (ref, lin)]
    rows.append(["rate $\\rho$ ± fit (± trials)", "", *fits, ""])
    header = [
        "$d$",
        "trials",
        f"$D_{{\\rm KS}}$, {symbol(REFERENCE)}",
        f"$D_{{\\rm KS}}$, {symbol('Y_f_lin')}",
        "ratio",
    ]
    return markdown_table(header, rows)


def every_rung_table(conv: dict) -> str:
    """One row per rung and law: the distance at the smallest and largest size and the rate."""
    first = next(iter(conv.values()))
    lo, hi = int(first.d[0]), int(first.d[-1])
    rows = [
        [
            symbol(m),
            LAW[t],
            uncertain_text(c.ks[0], c.ks_se[0]),
            uncertain_text(c.ks[-1], c.ks_se[-1]),
            f"{rate_text(c)} ({rate_trials_text(c)})",
        ]
        for (m, t), c in conv.items()
    ]
    header = [
        "rung",
        "law",
        f"$D_{{\\rm KS}}$, $d$ = {lo}",
        f"$D_{{\\rm KS}}$, $d$ = {hi}",
        r"rate $\rho$ ± fit (± trials)",
    ]
    return markdown_table(header, rows)


def rigidity_table(rig: Rigidity) -> str:
    r"""The linear model's distance against :math:`\log d/(d\sqrt n)`, one row per size."""
    rows = [
        [f"{d}", f"{n}", f"{k:.5f}", f"{s:.5f}", f"{r:.2f}"]
        for d, n, k, s, r in zip(rig.d, rig.trials, rig.ks, rig.scale, rig.ratio, strict=True)
    ]
    header = [
        "$d$",
        "trials $n$",
        f"$D_{{\\rm KS}}$, {symbol('Y_f_lin')}",
        r"$\log d/(d\sqrt n)$",
        "ratio",
    ]
    return markdown_table(header, rows)
