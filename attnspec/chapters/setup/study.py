"""The study of chapter "Setup": :class:`Setup`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ...core.kinds import PARAMETERS as KINDS
from ...experiments.trials import trial_rng
from ...models.attention import draw_scores, row_softmax
from ...models.nonlinearity import poly_degree
from ...present.tables import ladder_table, markdown_table, parameters_table
from ..base import ChapterStudy
from .claims import chapter_claims
from .figures import fig_entries

#: The shared parameters the chapter's table describes, in its order.
SHARED = "d beta trials seed remove_top_k c_poly hist_bins hist_min hist_max mc_samples".split()


class Setup(ChapterStudy):
    r"""One trial (child 0 of ``SeedSequence(seed)``): the scores :math:`S`, the attention matrix
    :math:`A`, its singular values and the Taylor degree
    :math:`n_d = \lceil c_Q \log d / \log\log d\rceil`."""

    name = "setup"
    prefix = "setup"
    drawings = (fig_entries,)
    claims = chapter_claims

    def compute(self) -> None:
        c = self.config
        self.S = draw_scores(c.d, trial_rng(c.seed, 0))
        self.A = row_softmax(c.beta * self.S)
        self.s = np.linalg.svd(self.A, compute_uv=False)
        self.row_sum_err = float(np.max(np.abs(self.A.sum(axis=1) - 1.0)))
        self.score_var = float(np.mean(self.S * self.S))  # ||W_Q W_K^T||_F^2 / d^3
        self.score_var_sd = float(np.sqrt(6 + 2 / c.d) / c.d)  # its standard deviation
        self.n_d = poly_degree(c.d, c.c_poly)

    @property
    def row_sum_text(self) -> str:
        r"""The largest :math:`|\sum_j A_{ij} - 1|`, as the chapter states it."""
        return "≤ 1e-12" if self.row_sum_err <= 1e-12 else f"{self.row_sum_err:.1e}"

    def trial_lines(self) -> str:
        """The trial's row-sum error, mean square score, top singular values and Taylor degree."""
        return "\n".join(
            [
                f"max |row sum - 1|        {self.row_sum_text}",
                f"mean of S_ij²            = {self.score_var:.4f}",
                f"s1(A), s2(A)             = {self.s[0]:.6f}, {self.s[1]:.6f}",
                f"Taylor degree n_d        = {self.n_d}",
            ]
        )

    def overrides_table(self, chapters: Iterable[Any]):
        """The chapters' parameter defaults that differ from the shared ones (their kind's,
        :data:`attnspec.core.kinds.PARAMETERS`), for display.

        ``chapters`` are the book's chapters (:func:`attnspec.publish.chapters.chapters`), each
        with a ``title`` and ``parameters`` (each with a ``name`` and a ``default``).
        """
        from IPython.display import Markdown

        rows = [
            [c.title, f"`{p.name}`", f"`{p.default}`", f"`{KINDS[p.name].default}`"]
            for c in chapters
            for p in c.parameters
            if p.default != KINDS[p.name].default
        ]
        header = ["chapter", "parameter", "chapter default", "shared default"]
        return Markdown(markdown_table(header, rows))

    def values(self) -> dict[str, Any]:
        c, s = self.config, self.s
        return {
            "row_sum_err": self.row_sum_text,
            "score_var": round(self.score_var, 4),
            "score_var_sd": round(self.score_var_sd, 4),
            "score_var_z": round((self.score_var - 1) / self.score_var_sd, 1),
            "s1": round(float(s[0]), 6),
            "s2": round(float(s[1]), 6),
            "sqrt_d_s2": round(float(np.sqrt(c.d) * s[1]), 3),
            "poly_degree": self.n_d,
            "d": c.d,
        }

    def tables(self) -> dict[str, str]:
        return {"parameters": parameters_table(SHARED), "ladder": ladder_table()}
