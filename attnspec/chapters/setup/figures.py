"""The figure of "Setup"."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...present import style as book_style

book_style.apply()


def fig_entries(study):
    """The trial's scores against N(0, 1), and its attention entries against the deterministic
    normalizer (:func:`scores_and_entries`)."""
    return scores_and_entries(study.S, study.A, study.config.beta)


def scores_and_entries(
    S: np.ndarray, A: np.ndarray, beta: float, sample: int = 20000
) -> plt.Figure:
    r"""Left: histogram of the scores against N(0, 1). Right: :math:`d A_{ij}` against
    :math:`e^{\beta S_{ij} - \beta^2/2}` on a fixed sample of entries (the deterministic
    normalizer)."""
    d = S.shape[0]
    fig, (left, right) = plt.subplots(1, 2, figsize=(book_style.WIDTH, 3.4))
    left.hist(S.ravel(), bins=120, density=True, alpha=0.75, label=r"$S_{ij}$")
    xs = np.linspace(-5, 5, 400)
    left.plot(xs, np.exp(-(xs**2) / 2) / np.sqrt(2 * np.pi), "k--", label=r"$\mathcal{N}(0, 1)$")
    left.set_xlabel("score")
    left.set_ylabel("density")
    book_style.legend(left)
    idx = np.linspace(0, S.size - 1, min(sample, S.size)).astype(int)
    pred = np.exp(beta * S.ravel()[idx] - beta**2 / 2)
    right.plot(pred, d * A.ravel()[idx], ".", markersize=2, alpha=0.4)
    right.plot(
        [pred.min(), pred.max()], [pred.min(), pred.max()], "k--", linewidth=1, label="equality"
    )
    right.set_xscale("log")
    right.set_yscale("log")
    right.set_xlabel(r"$e^{\beta S_{ij} - \beta^2/2}$")
    right.set_ylabel(r"$d\,A_{ij}$")
    fig.tight_layout()
    book_style.legend(right)
    return fig
