"""Smoke test of the figure functions added for the Part I chapters: they draw what they are
given."""

import matplotlib

matplotlib.use("Agg")

import numpy as np

from attnspec.publish import plotting


def test_new_figures_draw_their_curves_and_labels():
    x = np.linspace(0.0, 1.0, 50)
    fig = plotting.cdf_differences_with_noise(
        x,
        {"$a$": 0.01 * x, "$b$": -0.01 * x},
        0.002 * np.sin(9 * x),
        r"$\lambda$",
        r"$\Delta F$",
        "repetition",
        ncols=2,
        vlines={"edge": 0.8},
    )
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 2 and axes[0].get_title() == "$a$"
    assert len(axes[0].lines) == 4  # zero line, noise, curve, vline
    plotting.plt.close(fig)
    d = np.array([100, 200, 400])
    fig = plotting.power_law_with_prediction(
        d, 1.0 / d, 0.05 / d, -1.0, 0.0, "-1.00", 1.1 / d, "$d$", "$y$"
    )
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any("d^{-1.00}" in label for label in labels)
    plotting.plt.close(fig)
