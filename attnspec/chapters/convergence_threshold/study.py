"""The threshold chapter's study: the row across β, the (d, β) plane with its bootstrap, the
boundary at every level, the rates, the collapse and the normalizers."""

from __future__ import annotations

from typing import Any

from ...experiments import threshold as th
from ...experiments.convergence import trials_for_pooled
from ...experiments.normalizer_reference import normalizer_points, normalizer_test
from ...experiments.threshold import KS_TOL, LEVELS
from ...models.ladder import MODEL_NAMES, REFERENCE
from ...present.claims import Claim
from ...runner.sweep import SweepRequest, run_sweeps
from ..base import ChapterStudy
from .claims import threshold_claims
from .figures import fig_beta, fig_collapse, fig_norm, fig_phase
from .tables import (
    BETA_FIXED,
    NORM_REPLICATES,
    boundary_table,
    normalizer_values,
    plane_values,
    rates_table,
    row_table,
    row_values,
)


class ConvergenceThreshold(ChapterStudy):
    r"""Every rung at :math:`d` across the grid's :math:`\beta` (the row), attention and its
    Gaussian equivalent over the :math:`(d, \beta)` grid (the plane, bootstrapped over trials),
    the boundary at every level of :data:`LEVELS`, the rates :math:`\rho(\beta)`, the collapse
    and the normalizers' spread."""

    name = "convergence-threshold"
    prefix = "thresh"

    def compute(self) -> None:
        c = self.config
        self.grid_d = sorted(set(self.params["d_values"]) | {c.d})
        self.grid_beta = sorted(set(self.params["betas"]) | {BETA_FIXED})
        plane_trials = trials_for_pooled(self.grid_d, self.params["pooled_values"])
        row, grid = run_sweeps(
            [
                SweepRequest([c.d], self.grid_beta, c.trials),  # the row: every rung
                SweepRequest(self.grid_d, self.grid_beta, plane_trials, (REFERENCE, "Y_f_lin")),
            ],
            seed=c.seed,
            c_poly=c.c_poly,
            remove_top_k=c.remove_top_k,
        )
        self.row_dist = th.row_distances(row.ladders, MODEL_NAMES)  # pooled, jackknife error
        self.plane = plane = th.distance_plane(
            grid.ladders, REFERENCE, self.params["resamples"], c.seed
        )
        self.floor = th.distance_plane(grid.ladders, "Y_f_lin")  # the linear model's floor
        self.levels = [th.boundary(plane, level) for level in LEVELS]  # beta_eps(d) and gamma
        self.tol = next(b for b in self.levels if b.level == KS_TOL)
        self.rates = th.rates_in_d(plane)  # rho(beta), bootstrap errors
        self.floor_rates = th.rates_in_d(self.floor)
        self.collapse = th.collapse(plane, use=plane.ks - self.floor.ks > 3 * plane.se)
        self.norm = normalizer_points(grid.ladders)  # std(D_i), its error, exact value
        self.norm_test = normalizer_test(self.norm, NORM_REPLICATES, c.seed)
        self.row_ks = {m: [p.ks for p in self.row_dist[m]] for m in MODEL_NAMES}
        self.row_se = [p.se for p in self.row_dist[REFERENCE]]

    def values(self) -> dict[str, Any]:
        c, tol = self.config, self.tol
        j = self.plane.row(c.d)
        row = row_values(
            self.row_ks, self.row_se, self.grid_beta, c.d, tol.beta[j], tol.beta_err[j]
        )
        plane = plane_values(self.plane, self.rates, self.floor_rates, self.levels, self.collapse)
        return row | plane | normalizer_values(self.norm_test)

    def tables(self) -> dict[str, str]:
        return {
            "row": row_table(self.row_ks, self.grid_beta, self.config.d, self.row_se),
            "boundary": boundary_table(self.levels),
            "rates": rates_table(self.rates, self.floor_rates, self.plane),
        }

    def figures(self) -> dict[str, Any]:
        return {
            "fig_beta": lambda: fig_beta(self),
            "fig_phase": lambda: fig_phase(self),
            "fig_collapse": lambda: fig_collapse(self),
            "fig_norm": lambda: fig_norm(self),
        }

    def claims(self) -> list[Claim]:
        return threshold_claims(
            self.row_dist, self.plane, self.rates, self.levels, self.collapse, self.norm_test
        )
