"""The figures of the chapter "Ranks of canonical attention", one per glued key: the Cesàro matrix
(Σ = 0) and the ranks against ℓ."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...canonical.cesaro import HARDY_LIMIT
from ...canonical.rank_study import harmonic_erank1, sigma0_erank2
from ...present.plotting import guide_line, panel_grid, series_line, ticks_at


def fig_sigma0(study) -> plt.Figure:
    """The Cesàro matrix (causal attention at Σ = 0): norm and stable rank against log₂ ℓ
    (:class:`~attnspec.chapters.canonical_ranks.study.CanonicalRanks`)."""
    x = np.log2([p.ell for p in study.cesaro])
    grid = np.log2(study.grid)
    panels = [
        {
            "title": r"$\Vert A_c\Vert$ at $\Sigma = 0$",
            "xlabel": r"$\log_2\ell$",
            "ylabel": r"$\Vert A_c\Vert$",
            "lines": [
                series_line(x, [p.norm for p in study.cesaro], "exact (Lanczos)", 0),
                guide_line(x, np.full(x.size, HARDY_LIMIT), "Hardy's limit 2", "--"),
            ],
        },
        {
            "title": r"srank$(A_c)$ at $\Sigma = 0$",
            "xlabel": r"$\log_2\ell$",
            "ylabel": "srank",
            "lines": [
                series_line(grid, study.z_srank, "grid (all singular values)", 1),
                series_line(x, [p.srank for p in study.cesaro], "exact (Lanczos)", 0),
                guide_line(x, [p.srank_law for p in study.cesaro], r"law $H_\ell/4$", ":"),
            ],
        },
    ]
    return panel_grid(panels, height=2.9)


def fig_ranks(study) -> plt.Figure:
    """Stable and effective ranks of bidirectional and causal canonical attention against ℓ, and
    erank₁ of the causal matrix at Σ = 0 against √ℓ log ℓ."""
    g = np.array(study.grid, float)
    k1 = np.full(g.size, study.k + 1.0)
    norm = np.sqrt(g) * np.log(g)
    panels = [
        {
            "title": "stable rank",
            "xlabel": r"$\ell$",
            "ylabel": "srank",
            "logx": True,
            "lines": [
                series_line(g, study.b_srank["lin"], r"$A_b$, $f = \ell$", 0),
                series_line(g, study.b_srank["log"], r"$A_b$, $f = \log\ell$", 1),
                series_line(g, study.c_srank, r"$A_c$, $f = \ell$", 2),
                series_line(g, study.cb_srank, r"$A_c$, bounded bulk", 3),
                series_line(g, study.z_srank, r"$A_c$, $\Sigma = 0$", 4),
                guide_line(g, k1, "$k + 1$", ":"),
            ],
        },
        {
            "title": r"erank$_2 = (\sum\sigma^2)^2/\sum\sigma^4$",
            "xlabel": r"$\ell$",
            "ylabel": r"erank$_2$",
            "logx": True,
            "lines": [
                series_line(g, study.b_erank2, r"$A_b$, $f = \ell$", 0),
                series_line(g, [sigma0_erank2(n) for n in g], r"$A_c$, $\Sigma = 0$", 4),
                guide_line(g, k1, None, ":"),
            ],
        },
        {
            "title": r"erank$_1 = \exp H(\sigma/\sum\sigma)$",
            "xlabel": r"$\ell$",
            "ylabel": r"erank$_1$",
            "logx": True,
            "logy": True,
            "lines": [
                series_line(g, study.b_erank1, r"$A_b$, $f = \ell$", 0),
                series_line(g, study.z_erank1, r"$A_c$, $\Sigma = 0$", 4),
                guide_line(g, np.sqrt(g), r"$\sqrt{\ell}$", "--"),
            ],
        },
        {
            "title": r"erank$_1/(\sqrt{\ell}\,\log\ell)$",
            "xlabel": r"$\ell$",
            "ylabel": "ratio",
            "logx": True,
            "lines": [
                series_line(g, np.array(study.z_erank1) / norm, r"$A_c$, $\Sigma = 0$", 4),
                series_line(
                    g,
                    [harmonic_erank1(int(n)) / v for n, v in zip(g, norm, strict=True)],
                    r"$\sigma_i = 1/i$ exactly",
                    5,
                ),
            ],
        },
    ]
    fig = panel_grid(panels, height=2.7)
    for ax in fig.axes:
        if ax.get_xscale() == "log":
            ticks_at(ax.xaxis, [2.0**j for j in range(6, 15, 2)])
            ax.xaxis.set_major_formatter(
                plt.FuncFormatter(lambda v, _: f"$2^{{{int(round(np.log2(v)))}}}$")
            )
    return fig
