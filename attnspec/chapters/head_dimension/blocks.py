r"""The Hermite-block part of the head-dimension chapter
(:class:`~attnspec.chapters.head_dimension.study.HeadDimension`): attention against the laws of
:math:`Y_1, \dots, Y_K` along :math:`d_{qk} = d^{1/2}` and :math:`d^{2/5}`, the laws against
sampled :math:`Y_k`, the real heads placed by :math:`(n, d_{qk})`: their values and table (the
claims are in :mod:`.claims`).
"""

from __future__ import annotations

from typing import Any

from ...experiments.head_dimension import rate_se
from ...experiments.head_dimension_blocks import BlockSeries
from ...models.hermite_blocks import block_rank
from ...present.gluing import uncertain
from ...present.numbers import fixed
from ...present.tables import markdown_table
from .tables import distance_text

#: The series' names in glue keys, by exponent.
NAMES = {0.5: "half", 0.4: "fifth"}


def exponent_text(alpha: float) -> str:
    """1/2 or 2/5."""
    return {0.5: "1/2", 0.4: "2/5"}.get(alpha, f"{alpha:g}")


def series_values(series: BlockSeries) -> dict[str, Any]:
    """Glued values of one series, at its largest size: attention's distance to the linear
    model's law and to the best :math:`Y_k` law, the best law's rate, the law checks."""
    name, last, best = NAMES[series.alpha], series.points[-1], series.best
    fit = series.rates[best]
    out = {f"{name}_d_min": series.points[0].d, f"{name}_d_max": last.d}
    out |= {f"{name}_dqk_min": series.points[0].d_qk, f"{name}_dqk_max": last.d_qk}
    out |= {f"yk_best_{name}": best, f"{name}_trials_max": last.trials}
    out |= uncertain(f"yk_ks_{name}", last.to_law[best].ks, last.to_law[best].se)
    out |= uncertain(f"lin_ks_{name}", last.to_law[1].ks, last.to_law[1].se)
    out |= uncertain(f"yk_rate_{name}", fit.rate, rate_se(fit))
    out |= uncertain(f"lin_rate_{name}", series.rates[1].rate, rate_se(series.rates[1]))
    out |= uncertain(f"yk_sampled_{name}", last.sampled[best].ks, last.sampled[best].se)
    for k in last.check:
        out[f"check_{name}_{k}"] = round(last.check[k].ks, 4)
        out[f"floor_{name}_{k}"] = round(last.floor[k].ks, 4)
        out[f"check_{name}_{k}_first"] = round(series.points[0].check[k].ks, 4)
    for j, c in enumerate(last.ratios, start=1):
        out[f"c{j}_{name}"] = round(c, 3)
    return out


def real_values(d_qk: int, contexts) -> dict[str, Any]:
    r"""A real head of width :math:`d_{qk}`: its block ratios :math:`r_j/n` at the shortest and
    the longest context, and the context :math:`n = r_2` where block 2's ratio is 1."""
    r2 = block_rank(d_qk, 2)
    out = {"real_n_min": min(contexts), "real_n_max": max(contexts), "real_r2": r2}
    out["real_r3"] = block_rank(d_qk, 3)
    for n, tag in ((min(contexts), "nmin"), (max(contexts), "nmax")):
        out[f"real_c2_{tag}"] = round(r2 / n, 2)
        out[f"real_c3_{tag}"] = round(block_rank(d_qk, 3) / n, 1)
    return out


def block_table(all_series: list[BlockSeries]) -> str:
    r"""Per series and size: :math:`d_{qk}`, the ratios :math:`c_j`, attention's distance to the
    law of each :math:`Y_k`, and each :math:`Y_k`'s own distance to its law / its floor."""
    rows = []
    k_max = len(all_series[0].points[0].ratios)
    for s in all_series:
        for p in s.points:
            rows.append(
                [exponent_text(s.alpha), f"{p.d} ({p.trials})", p.d_qk]
                + [", ".join(f"{c:.3g}" for c in p.ratios)]
                + [distance_text(p.to_law[k]) for k in range(1, k_max + 1)]
                + [
                    f"{fixed(p.check[k].ks, 4)} / {fixed(p.floor[k].ks, 4)}"
                    for k in range(1, k_max + 1)
                ]
            )
    header = [r"$\alpha$", "$d$ (trials)", "$d_{qk}$", "$c_1, c_2, \\dots$"]
    header += [f"to law $Y_{k}$" for k in range(1, k_max + 1)]
    header += [f"$Y_{k}$: law / floor" for k in range(1, k_max + 1)]
    return markdown_table(header, rows)
