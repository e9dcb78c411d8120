"""The ladder's figure."""

from __future__ import annotations

import numpy as np

from ...models.ladder import REFERENCE
from ...numerics.spectra import cdf_difference
from ...present import plotting
from .claims import step_label


def fig_steps(study):
    r""":math:`F_{\rm after} - F_{\rm before}` of each step's bulks, with the difference between
    the reference bulk and an independent repetition of it."""
    result = study.result
    ref = result.bulk(REFERENCE)
    grid = np.linspace(0.0, float(np.max(ref)), 600)
    diffs = {
        step_label((a, b)): cdf_difference(result.bulk(b), result.bulk(a), grid)
        for a, b in study.steps
    }
    return plotting.cdf_differences_with_noise(
        grid,
        diffs,
        cdf_difference(study.floor.first_repetition, ref, grid),
        r"squared singular value $\lambda$",
        r"$\Delta F(\lambda)$",
        "independent repetition",
    )
