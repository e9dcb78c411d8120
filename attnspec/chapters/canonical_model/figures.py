"""The figures of the chapter "The canonical model", one per glued key: the singular-value
profile and the two forms of srank ≈ k + 1."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...canonical.model import bidirectional_profile, stable_rank_limit
from ...canonical.two_score import two_score_summary
from ...present.plotting import guide_line, panel_grid, series_line


def fig_profile(study) -> plt.Figure:
    """Bidirectional singular values against the profile at each length, and the profile error
    against ℓ (:class:`~attnspec.chapters.canonical_model.study.CanonicalModel`)."""
    k = study.k
    panels = []
    for x, y in zip(study.at["log"], study.at["lin"], strict=True):
        n = min(k + 4, x.ell)
        i = np.arange(1, n + 1)
        panels.append(
            {
                "title": rf"$\ell = {x.ell}$, $c = {x.c:.4f}$",
                "xlabel": "index $i$",
                "ylabel": r"$\sigma_i(A_b)$",
                "xticks": list(range(1, n + 1, 2)),
                "lines": [
                    guide_line(
                        i,
                        bidirectional_profile(x.ell, k)[:n],
                        "profile",
                        "none",
                        marker="_",
                        markersize=14,
                    ),
                    series_line(i, x.sigma[:n], r"$f = \log\ell$", 0, linestyle="none"),
                    series_line(i, y.sigma[:n], r"$f = \ell$", 1, linestyle="none"),
                ],
            }
        )
    ells = np.array(study.ells, float)
    panels.append(
        {
            "title": "largest deviation from the profile",
            "xlabel": r"$\ell$",
            "ylabel": r"$\max_i |\sigma_i - \mathrm{profile}_i|$",
            "logx": True,
            "logy": True,
            "xticks": study.ells,
            "lines": [
                series_line(ells, [x.profile_error for x in study.at["log"]], r"$f = \log\ell$", 0),
                guide_line(ells, 1 / np.log(ells), r"$1/f$", "--"),
                series_line(ells, [x.profile_error for x in study.at["lin"]], r"$f = \ell$", 1),
                guide_line(ells, 1 / ells, None, "--"),
            ],
        }
    )
    return panel_grid(panels)


def fig_forms(study) -> plt.Figure:
    """The two forms of srank ≈ k + 1: srank/(k + 1) against c at the largest ℓ, and
    srank − (k + 1) with k = √ℓ against ℓ."""
    ell = study.ells[-1]
    ks = np.unique(np.round(np.geomspace(1, ell - 1, 30)).astype(int))
    ratio = [two_score_summary(ell, int(kk), float(ell)).srank / (kk + 1) for kk in ks]
    limit = [stable_rank_limit(int(kk), ell) / (kk + 1) for kk in ks]
    roots = np.array([e for e in study.root_srank if e <= 2**20], float)
    kk = np.floor(np.sqrt(roots))
    additive = [study.root_srank[int(e)] - (r + 1) for e, r in zip(roots, kk, strict=True)]
    panels = [
        {
            "title": rf"relative form, $\ell = {ell}$",
            "xlabel": r"$c = k/\ell$",
            "ylabel": r"srank$/(k+1)$",
            "logx": True,
            "lines": [
                series_line(ks / ell, ratio, r"measured, $f = \ell$", 0, linestyle="none"),
                guide_line(ks / ell, limit, r"$(k + 1 - c)/((k+1)\alpha_+(c)^2)$", "-"),
            ],
        },
        {
            "title": r"additive form, $k = \sqrt{\ell}$",
            "xlabel": r"$\ell$",
            "ylabel": r"srank $- (k + 1)$",
            "logx": True,
            "xticks": [2.0**j for j in range(6, 21, 4)],
            "lines": [
                series_line(roots, additive, r"measured, $k = \sqrt{\ell}$", 1),
                guide_line(roots, -(kk + 1) * np.sqrt(kk / roots), r"$-(k+1)\sqrt{c}$", "--"),
            ],
        },
    ]
    fig = panel_grid(panels)
    fig.axes[1].xaxis.set_major_formatter(
        plt.FuncFormatter(lambda v, _: f"$2^{{{int(round(np.log2(v)))}}}$")
    )
    return fig
