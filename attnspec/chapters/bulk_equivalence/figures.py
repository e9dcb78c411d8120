"""The figures of "Bulk equivalence"."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...laws.marchenko_pastur import MarchenkoPastur
from ...models.notation import symbol
from ...numerics.spectra import cdf_difference
from ...present import plotting
from ...present import style as book_style
from .claims import RUNGS


def fig_cdf(study):
    r""":math:`F - F_{\sqrt d A_\perp}` of every ranked rung's bulk, with an independent repetition
    of the reference, the histograms' range and the law's edge."""
    c, ref, law = study.config, study.ref, study.law
    grid = np.linspace(0.0, float(np.max(ref)), 600)
    diffs = {symbol(n): cdf_difference(study.result.bulk(n), ref, grid) for n in RUNGS}
    return plotting.cdf_differences_with_noise(
        grid,
        diffs,
        cdf_difference(study.floor.first_repetition, ref, grid),
        r"squared singular value $\lambda$",
        r"$F(\lambda) - F_{\sqrt{d}A_\perp}(\lambda)$",
        "independent repetition",
        vlines={"histogram range": c.hist_max, r"edge $\lambda_+$": float(law.edge)},
    )


def fig_law(study):
    """The bulks of the reference and of the Gaussian equivalent against the limit law and
    Marchenko–Pastur of the same mean."""
    law = study.law
    mp = MarchenkoPastur(law.theta1)
    return bulk_against_laws(
        {
            rf"bulk of {symbol('sqrt_d_A_perp')}": study.ref,
            rf"bulk of {symbol('Y_f_lin')}": study.result.bulk("Y_f_lin"),
        },
        {"limit law (Pennington–Worah)": law.pdf, "Marchenko–Pastur, same mean": mp.pdf},
        (0.0, 1.12 * float(law.edge)),
        study.config.hist_bins,
        edges={r"$4\theta_1$": 4 * law.theta1, r"$\lambda_+$": float(law.edge)},
    )


def bulk_against_laws(
    bulks: dict[str, np.ndarray],
    laws: dict[str, object],
    value_range: tuple[float, float],
    bins: int,
    edges: dict[str, float] | None = None,
    xlabel: str = r"squared singular value $\lambda$",
    logy: bool = True,
) -> plt.Figure:
    """Histogram densities of one or more bulks against limit-law densities, in one panel.

    The first bulk is drawn filled in grey, the next ones as step outlines; ``laws`` maps a label to
    a density callable (the first solid black, the next dashed and dash-dotted); ``edges`` marks
    named positions by dotted vertical lines, labelled at the top of the axes. With ``logy`` the
    density axis is logarithmic, down to the height of half a value in one bin, so the right tail
    shows.
    """
    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    hist_edges = np.linspace(*value_range, bins + 1)
    outline = ("C0", "C3", "C2")
    for i, (label, values) in enumerate(bulks.items()):
        if i == 0:
            ax.hist(values, bins=hist_edges, density=True, color="0.8", label=label)
        else:
            ax.hist(
                values,
                bins=hist_edges,
                density=True,
                histtype="step",
                color=outline[(i - 1) % len(outline)],
                linewidth=1.3,
                label=label,
            )
    xs = np.linspace(*value_range, 1201)
    xs = xs[xs > 0]
    for (label, density), (color, style) in zip(
        laws.items(), (("k", "-"), ("C1", "--"), ("C4", "-.")), strict=False
    ):
        ys = np.asarray(density(xs), dtype=float)
        ax.plot(
            xs,
            np.where(np.isfinite(ys), ys, np.nan),
            color=color,
            linestyle=style,
            linewidth=1.6,
            label=label,
        )
    if logy:
        ax.set_yscale("log")
        fewest = min(v.size for v in bulks.values())
        ax.set_ylim(bottom=0.5 / (fewest * (hist_edges[1] - hist_edges[0])))
    top = ax.get_ylim()[1]
    for label, pos in (edges or {}).items():
        ax.axvline(pos, color="0.3", linestyle=":", linewidth=1.0)
        ax.text(pos, top, label, ha="center", va="bottom")
    ax.set_xlim(*value_range)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("density")
    fig.tight_layout()
    book_style.legend(ax)
    return fig
