"""The figures of the chapter "Causal attention in the canonical model", one per glued key: the
causal spectra, the upper bound's smallest constant and the diagonal order."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...canonical.order import ORDERS
from ...canonical.upper_bound import bound_profile
from ...present.plotting import guide_line, panel_grid, series_line


def fig_causal(study) -> plt.Figure:
    """Causal eigenvalues and singular values (bounded bulk and Σ = 0) against the index, and the
    ratio of the singular values to the shape of the seed summary's upper bound
    (:class:`~attnspec.chapters.canonical_causal.study.CanonicalCausal`)."""
    ells, k, B = study.ells, study.k, study.bulk_max
    top = ells[-1]
    i = np.arange(1, top + 1)

    def by_length(title, ylabel, values, guides, xlabel="index $i$"):
        curves = [
            series_line(np.arange(1, v.size + 1), v, rf"$\ell = {e}$", j)
            for j, (e, v) in enumerate(values.items())
        ]
        return {
            "title": title,
            "xlabel": xlabel,
            "ylabel": ylabel,
            "logx": True,
            "logy": True,
            "lines": curves + guides,
        }

    lower = [guide_line(i, 1 / (3 * i), r"lower bound $1/(3i)$", ":")]
    panels = [
        by_length(
            "eigenvalues, bounded bulk",
            r"$\lambda_i = (A_c)_{ii}$",
            {e: study.diagonals[e] for e in ells},
            [
                guide_line(i, 1 / i, r"$1/i$ and $e^B/i$", "--"),
                guide_line(i, np.minimum(1, np.exp(B) / i), None, "--"),
            ],
            "position $i$",
        ),
        by_length(
            r"singular values, $\Sigma = 0$",
            r"$\sigma_i(A_c)$",
            {e: study.sigma_zero[e] for e in ells},
            lower,
        ),
        by_length(
            "singular values, bounded bulk",
            r"$\sigma_i(A_c)$",
            {e: study.spectra[e] for e in ells},
            lower,
        ),
        by_length(
            r"$\sigma_{k+m}/b(m)$, bounded bulk",
            r"$\sigma_{k+m}/b(m)$",
            {e: study.spectra[e][k:] / bound_profile(e, k)[0] for e in ells},
            [],
            "$m$",
        ),
    ]
    return panel_grid(panels, height=2.6)


def fig_bound(study) -> plt.Figure:
    """The smallest constant C_B of the seed summary's upper bound against ℓ for each score
    family, and against the bulk bound B at one length."""
    lines = []
    for j, fam in enumerate(study.families):
        got = study.bounds[fam.name]
        ells = sorted(got)
        lines.append(
            series_line(
                ells,
                [got[e].constant for e in ells],
                fam.name,
                j,
                alpha=1.0 if study.testable(fam) else 0.55,
            )
        )
    bs = np.array(sorted(study.by_b["constant"]))
    panels = [
        {
            "title": rf"smallest $C_B$ against $\ell$, $B = {study.bulk_max:g}$",
            "xlabel": r"$\ell$",
            "ylabel": r"$C_B$",
            "logx": True,
            "logy": True,
            "xticks": sorted({e for v in study.bounds.values() for e in v}),
            "lines": lines,
        },
        {
            "title": rf"smallest $C_B$ against $B$, $\ell = {study.b_ell}$",
            "xlabel": "$B$",
            "ylabel": r"$C_B$",
            "logy": True,
            "lines": [
                series_line(
                    bs, [study.by_b["constant"][b].constant for b in bs], "bulk constant B", 1
                ),
                series_line(
                    bs, [study.by_b["uniform"][b].constant for b in bs], "bulk uniform in [0, B]", 0
                ),
                guide_line(bs, np.exp(bs), r"$e^B$", "--"),
            ],
        },
    ]
    fig = panel_grid(panels, height=3.6)
    fig.axes[0].xaxis.set_major_formatter(
        plt.FuncFormatter(lambda v, _: f"$2^{{{int(round(np.log2(v)))}}}$")
    )
    return fig


def fig_order(study) -> plt.Figure:
    """Causal eigenvalues and stable rank of the same scores in three diagonal orders."""
    dense = max(e for e, p in study.orders["descending"].items() if p.erank1 is not None)
    ells = sorted(study.orders["descending"])
    i = np.arange(1, dense + 1)
    panels = [
        {
            "title": rf"eigenvalues (sorted), $\ell = {dense}$",
            "xlabel": "rank $i$",
            "ylabel": r"$\lambda_i(A_c)$",
            "logx": True,
            "logy": True,
            "lines": [
                series_line(i, study.orders[o][dense].eigenvalues, o, j, marker=None)
                for j, o in enumerate(ORDERS)
            ],
        },
        {
            "title": "stable rank",
            "xlabel": r"$\ell$",
            "ylabel": r"srank$(A_c)$",
            "logx": True,
            "xticks": [e for e in ells if np.log2(e) % 2 == 0],
            "lines": [
                series_line(ells, [study.orders[o][e].srank for e in ells], o, j)
                for j, o in enumerate(ORDERS)
            ],
        },
    ]
    fig = panel_grid(panels, height=3.0)
    fig.axes[1].xaxis.set_major_formatter(
        plt.FuncFormatter(lambda v, _: f"$2^{{{int(round(np.log2(v)))}}}$")
    )
    return fig
