r"""The tidy tables of a sweep: one row per trial and rung, one per rung pooled over trials.

Distances are those of the rung's bulk (the top ``remove_top_k`` squared singular values removed)
to the bulk of the reference rung :data:`attnspec.models.ladder.REFERENCE` (``ks``, ``w1``, from
:data:`attnspec.numerics.spectra.METRICS`) and to the exact limit law
:class:`~attnspec.laws.gaussian_equivalent.GaussianEquivalentLaw` (``ks_law``, the bulk counted out
of :math:`d` and compared below the law's :math:`(1 - r/d)` quantile,
:func:`attnspec.numerics.spectra.ks_to_law_below_quantile`).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from ..core.atomic import write_text
from ..core.config import Config
from ..experiments.trials import LadderResult
from ..laws.distance import ks_to_limit_law
from ..models.ladder import MODEL_NAMES, REFERENCE
from ..numerics.spectra import distance

#: Metrics of :data:`attnspec.numerics.spectra.METRICS` that the sweep tables hold (rung's bulk
#: against the reference rung's bulk of the same trials), followed by ``ks_law``, the distance to
#: the limit law.
SWEEP_METRICS = ("ks", "w1")
COLUMNS = (*SWEEP_METRICS, "ks_law")


def _distance_row(bulk, ref, cfg: Config) -> tuple[float, ...]:
    to_ref = tuple(
        distance(m, ref, bulk) if ref is not None else float("nan") for m in SWEEP_METRICS
    )
    return (*to_ref, ks_to_limit_law(bulk, cfg.beta, cfg.d, cfg.remove_top_k))


_MODEL = ("model", f"U{max(map(len, MODEL_NAMES))}")
#: Columns of :attr:`SweepResult.table` other than the distances.
TRIAL_COLUMNS = [("d", "i8"), ("beta", "f8"), ("trial", "i8"), _MODEL]
#: Columns of the distances, :data:`COLUMNS`.
DISTANCE_COLUMNS = [(name, "f8") for name in COLUMNS]
#: Per-trial diagnostics, the rung's largest squared singular value, :math:`s_1(A)` and
#: :math:`\operatorname{std}(D_i)`.
DIAGNOSTIC_COLUMNS = [("top_sq", "f8"), ("s1_A", "f8"), ("D_std", "f8")]
#: Columns of :attr:`SweepResult.pooled` other than the distances.
POOLED_COLUMNS = [("d", "i8"), ("beta", "f8"), _MODEL, ("trials", "i8")]


def trial_rows(result: LadderResult) -> list[tuple]:
    r"""Rows of :attr:`SweepResult.table` for every trial and rung of one :math:`(d, \beta)`."""
    cfg, rows = result.config, []
    for k, t in enumerate(result.trials):
        one = LadderResult(cfg, [t])
        ref = one.bulk(REFERENCE) if REFERENCE in one.models else None
        row = (cfg.d, cfg.beta, k)
        diagnostics = float(one.s1_A[0]), float(t["D"].std())
        rows += [
            (*row, m, *_distance_row(one.bulk(m), ref, cfg), float(t[m][0]), *diagnostics)
            for m in one.models
        ]
    return rows


def pooled_rows(result: LadderResult) -> list[tuple]:
    """Rows of :attr:`SweepResult.pooled`: every rung's bulk pooled over the trials."""
    cfg = result.config
    ref = result.bulk(REFERENCE) if REFERENCE in result.models else None
    return [
        (cfg.d, cfg.beta, m, len(result.trials), *_distance_row(result.bulk(m), ref, cfg))
        for m in result.models
    ]


@dataclass
class SweepResult:
    r"""The trials of every :math:`(d, \beta)` of a sweep, and their tidy tables.

    Attributes
    ----------
    ladders : list of LadderResult
        one per :math:`(d, \beta)`, in grid order.
    computed : int
        trials computed by this run; the others came from the disk cache.
    """

    ladders: list[LadderResult]
    computed: int

    @cached_property
    def table(self) -> np.ndarray:
        r"""One row per :math:`(d, \beta, \text{trial}, \text{model})`.

        Columns: ``d``, ``beta``, ``trial``, ``model``; one per entry of :data:`COLUMNS` (that
        trial's bulk of the rung against the same trial's reference bulk); ``top_sq``, the rung's
        largest squared singular value :math:`s_1^2`; ``s1_A``, :math:`s_1(A)`; ``D_std``, the
        standard deviation of the normalizers :math:`D_i` over the rows.
        """
        rows = [row for r in self.ladders for row in trial_rows(r)]
        return np.array(rows, dtype=TRIAL_COLUMNS + DISTANCE_COLUMNS + DIAGNOSTIC_COLUMNS)

    @cached_property
    def pooled(self) -> np.ndarray:
        r"""One row per :math:`(d, \beta, \text{model})`: ``d``, ``beta``, ``model``, ``trials``,
        distances."""
        rows = [row for r in self.ladders for row in pooled_rows(r)]
        return np.array(rows, dtype=POOLED_COLUMNS + DISTANCE_COLUMNS)


def to_csv(table: np.ndarray, path: str | Path) -> None:
    """Write a structured array as CSV with a header, atomically
    (:func:`attnspec.core.atomic.write_text`).

    Floats are written with :func:`repr`, so reading the file back gives the same numbers.
    """
    text = io.StringIO(newline="")
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(table.dtype.names)
    writer.writerows(table.tolist())
    write_text(path, text.getvalue())
