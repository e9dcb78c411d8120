"""The head-dimension chapter's study: the limit laws, the map, series, chain and law checks of
the gap, and the Hermite-block series."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...experiments.head_dimension import run_study
from ...experiments.head_dimension_blocks import run_block_series
from ...laws.head_dimension import HeadDimensionLaw
from ...laws.pennington_worah_general import pennington_worah_general_pdf
from ...models.nonlinearity import theta_f
from ...present.claims import Claim
from ...present.formatting import round_off_bound
from ..base import ChapterStudy
from .claims import block_claims, map_claims
from .figures import fig_blocks, fig_map, fig_phase, fig_series
from .tables import (
    beta_table,
    block_table,
    chain_table,
    law_table,
    map_table,
    map_values,
    normalizer_table,
    real_values,
    series_table,
    series_values,
)

#: The parameters of the Hermite-block series (the others are those of the study).
BLOCKS = ("half_heads", "fifth_heads", "k_max", "block_trials", "real_contexts")


class HeadDimension(ChapterStudy):
    r"""The limit laws at the series' ratios against Pennington and Worah's density at
    :math:`\phi = \psi = c`, the study of :func:`~attnspec.experiments.head_dimension.run_study`
    (map, series, chain, law checks) and the Hermite-block series at :math:`d_{qk} = d^{1/2}` and
    :math:`d^{2/5}` of :func:`~attnspec.experiments.head_dimension_blocks.run_block_series`."""

    name = "head-dimension"
    prefix = "headdim"

    def compute(self) -> None:
        p = self.params
        theta = theta_f(p["beta"])
        self.laws = {c: HeadDimensionLaw(*theta, c) for c in p["head_ratios"]}
        self.pw_difference = 0.0  # largest relative difference of the densities
        for c, law in self.laws.items():
            x = law.interior(40)  # points inside the support
            pw = pennington_worah_general_pdf(x, *theta, phi=c, psi=c)
            self.pw_difference = max(self.pw_difference, float(np.max(np.abs(pw / law.pdf(x) - 1))))
        # every trial, gap, floor, rate and law check
        self.result = run_study(**{k: v for k, v in p.items() if k not in BLOCKS})
        # attention against the laws of Y_1..Y_K at sizes where d^alpha is an integer
        keys = ("beta", "k_max", "seed", "pooled_values")
        self.blocks = [
            run_block_series(
                p[heads],
                alpha,
                **{k: p[k] for k in keys},
                min_trials=p["block_trials"],
                remove_top_k=p["remove_top_k"],
            )
            for heads, alpha in (("half_heads", 0.5), ("fifth_heads", 0.4))
        ]

    def grid_lines(self) -> str:
        """The grid of the trials, one line for the map and one per series (trials in brackets)."""
        r = self.result
        heads = ", ".join(str(q.d_qk) for q in r.maps[r.beta])
        temps = ", ".join(f"{b:g}" for b in r.maps)
        trials = r.maps[r.beta][0].trials
        lines = [f"map: d = {r.d}; d_qk = {heads}; beta = {temps}; {trials} trials each"]
        for (kind, value), points in r.series.items():
            sizes = ", ".join(f"{q.d} ({q.trials})" for q in points)
            lines.append(f"series at {kind} = {value:g}: d = {sizes}")
        return "\n".join(lines)

    def law_check(self):
        """Pennington and Worah's density against the laws (printed), then the laws' table."""
        difference = round_off_bound(self.pw_difference, 1e-8)
        print(f"Pennington-Worah at phi = psi = c: largest relative difference {difference}")
        return self.table("laws")

    def values(self) -> dict[str, Any]:
        out = map_values(self)
        for series in self.blocks:
            out |= series_values(series)
        return out | real_values(self.params["d_qk"], self.params["real_contexts"])

    def tables(self) -> dict[str, str]:
        return {
            "laws": law_table(self),
            "map": map_table(self),
            "series": series_table(self),
            "blocks": block_table(self.blocks),
            "normalizers": normalizer_table(self),
            "chain": chain_table(self),
            "beta": beta_table(self),
        }

    def figures(self) -> dict[str, Any]:
        return {
            "fig_blocks": lambda: fig_blocks(self),
            "fig_phase": lambda: fig_phase(self),
            "fig_map": lambda: fig_map(self),
            "fig_series": lambda: fig_series(self),
        }

    def claims(self) -> list[Claim]:
        return map_claims(self) + block_claims(self.blocks)
