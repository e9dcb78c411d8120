"""The figures of the canonical-model chapters (Part III): profiles, forms, causal spectra, the
upper bound, diagonal order, the Cesàro matrix and the ranks. Each returns a matplotlib Figure."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..canonical.cesaro import HARDY_LIMIT
from ..canonical.model import bidirectional_profile, stable_rank_limit
from ..canonical.order import ORDERS
from ..canonical.rank_study import harmonic_erank1, sigma0_erank2
from ..canonical.two_score import two_score_summary
from ..canonical.upper_bound import bound_profile
from ..present.plotting import guide_line, panel_grid, series_line, ticks_at


def canonical_profile(study) -> plt.Figure:
    """Bidirectional singular values against the profile at each length, and the profile error
    against ℓ (:class:`~attnspec.chapters.canonical_model.CanonicalModel`)."""
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


def canonical_forms(study) -> plt.Figure:
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


def canonical_causal(study) -> plt.Figure:
    """Causal eigenvalues and singular values (bounded bulk and Σ = 0) against the index, and the
    ratio of the singular values to the shape of the seed summary's upper bound
    (:class:`~attnspec.chapters.canonical_causal.CanonicalCausal`)."""
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


def canonical_bound(study) -> plt.Figure:
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


def canonical_order(study) -> plt.Figure:
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


def canonical_sigma0(study) -> plt.Figure:
    """The Cesàro matrix (causal attention at Σ = 0): norm and stable rank against log₂ ℓ
    (:class:`~attnspec.chapters.canonical_ranks.CanonicalRanks`)."""
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


def canonical_ranks(study) -> plt.Figure:
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
