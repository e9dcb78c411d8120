"""The study of chapter "Bulk equivalence": :class:`BulkEquivalence`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...experiments.noise import noise_floor, resolved_order
from ...experiments.trials import run_ladder
from ...laws.gaussian_equivalent import GaussianEquivalentLaw
from ...models.ladder import REFERENCE
from ...models.notation import symbol
from ...numerics.spectra import METRICS
from ...present.formatting import significant
from ...present.tables import markdown_table
from ..base import ChapterStudy
from .claims import ORDER_WORDS, OTHERS, RUNGS, chapter_claims
from .figures import fig_cdf, fig_law


class BulkEquivalence(ChapterStudy):
    """The ladder's bulks at the chapter's d, their three distances to the reference, and the
    noise floor from three independent repetitions of the reference."""

    name = "bulk-equivalence"
    prefix = "bulk"
    drawings = (fig_cdf, fig_law)
    claims = chapter_claims

    def compute(self) -> None:
        c = self.config
        self.result = run_ladder(c)
        self.distances = {metric: self.result.distances(metric) for metric in METRICS}
        self.ref = self.result.bulk(REFERENCE)
        self.floor = noise_floor(c, self.ref)
        self.law = GaussianEquivalentLaw.for_f(c.beta)

    @property
    def ranking(self) -> dict[str, list[str]]:
        """The ranked rungs from closest to farthest, per metric."""
        return {m: sorted(RUNGS, key=self.distances[m].get) for m in METRICS}

    @property
    def ratio(self) -> dict[str, float]:
        """The distance of :math:`Y_f^{\\rm lin}` over the mean noise floor, per metric (NaN where
        the floor is zero: a histogram range that holds no value gives an L1 floor of zero)."""
        floors = {m: self.floor.mean(m) for m in METRICS}
        return {
            m: self.distances[m]["Y_f_lin"] / f if f > 0 else float("nan")
            for m, f in floors.items()
        }

    @property
    def farther_by(self) -> dict[str, bool | None]:
        """Per metric, whether :math:`Y_f^{\\rm lin}` is farther than every other ranked rung by
        more than the largest noise floor (:func:`~attnspec.experiments.noise.resolved_order`)."""
        closer = [n for n in RUNGS if n != "Y_f_lin"]
        return {
            m: resolved_order(self.distances[m], closer, ["Y_f_lin"], self.floor.max(m))
            for m in METRICS
        }

    def values(self) -> dict[str, Any]:
        c, distances, floor, ref, law = self.config, self.distances, self.floor, self.ref, self.law
        values: dict[str, Any] = {}
        for m in METRICS:
            values |= {f"{m}_{n}": significant(distances[m][n]) for n in OTHERS}
            values[f"{m}_floor"] = significant(floor.mean(m))
            values[f"{m}_floor_max"] = significant(floor.max(m))
        ranking, ratio = self.ranking, self.ratio
        farthest = {ranking[m][-1] for m in METRICS}
        farthest_all = farthest.pop() if len(farthest) == 1 else None
        within = {m: [n for n in RUNGS if distances[m][n] <= floor.max(m)] for m in METRICS}
        return (
            values
            | {f"rank_{m}": " < ".join(symbol(n) for n in ranking[m]) for m in METRICS}
            | {f"ratio_{m}_Y_f_lin": round(ratio[m], 1) for m in METRICS}
            | {
                "farthest": (
                    symbol(farthest_all) if farthest_all else "not the same rung for all three"
                )
            }
            | {f"within_{m}": ", ".join(symbol(n) for n in within[m]) or "none" for m in METRICS}
            | {
                "n_values": int(ref.size),
                "edge": round(float(law.edge), 4),
                "hist_max": float(c.hist_max),
                "hist_min": float(c.hist_min),
                "hist_bins": int(c.hist_bins),
                "share_beyond_hist": round(100 * float(np.mean(ref > c.hist_max)), 2),
                "d": c.d,
            }
            | {f"farthest_{m}": ORDER_WORDS[v] for m, v in self.farther_by.items()}
            | {"mp_edge": round(4 * law.theta1, 3), "beta": float(c.beta)}
        )

    def tables(self) -> dict[str, str]:
        distances, floor = self.distances, self.floor
        rows = [[symbol(n)] + [f"{distances[m][n]:#.2g}" for m in METRICS] for n in OTHERS]
        rows.append(
            ["*noise floor* (mean; max over 3 repetitions)"]
            + [f"{floor.mean(m):#.2g}; {floor.max(m):#.2g}" for m in METRICS]
        )
        return {
            "distances": markdown_table(
                ["model", "$L_1$ (histograms)", "Kolmogorov", "Wasserstein-1"], rows
            )
        }
