r"""Chapter "Real against canonical spectra": each head's singular values against those of its
canonical counterpart :math:`\operatorname{softmax}(\Sigma)`, in :math:`W_1` and in ranks
(:math:`\operatorname{srank} = \lVert A\rVert_F^2/\lVert A\rVert^2`,
:math:`\operatorname{erank}_1`), and one rank scale for random, canonical and trained attention.

The criteria and provenances follow :mod:`~attnspec.chapters.real_attention`, whose reporting
(decimals, intervals, the interval rule) this chapter shares (:mod:`~attnspec.chapters.shared`).
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np

from ...canonical.causal import causal_stable_rank
from ...canonical.model import stable_rank_limit
from ...present.claims import Claim
from ...present.formatting import ONE_OR_TWO, format_uncertain
from ...present.tables import markdown_table
from ...real.models import MODELS
from ...real.paper import PAPER_VALUES
from ...real.rank_scale import rank_scale
from ..base import ChapterStudy
from ..shared import MAX_DECIMALS, interval_text, measured_study, short_name
from .claims import chapter_claims

#: ``value ± se`` with the decimals the standard error supports (one or two significant digits,
#: at most :data:`~attnspec.chapters.shared.MAX_DECIMALS`; 4 when it is unknown).
supported = partial(format_uncertain, significant=ONE_OR_TWO, fallback=4, most=MAX_DECIMALS)


class RealSpectra(ChapterStudy):
    """The study of :class:`~attnspec.chapters.real_attention.study.RealAttention` (from the
    cache) and the rank scale (:func:`attnspec.real.rank_scale.rank_scale`) at the same
    lengths."""

    name = "real-spectra"
    prefix = "real"

    def compute(self) -> None:
        p = self.params
        self.study = measured_study(p)
        self.scale = rank_scale(p["lengths"], p["seed"], p["trials"], self.study)

    # ---- values --------------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        """Every value the prose quotes, and the tables the dropdowns show (``table_<name>``)."""
        return self.spectra_values() | {
            f"table_{name}": table for name, table in self.tables().items()
        }

    def spectra_values(self) -> dict[str, Any]:
        """The quoted values, each rounded to the digits its interval supports."""
        study, scale = self.study, self.scale
        out = {
            "spec_n_max": max(study.top(m) for m in study.lengths),
            "spec_n_first": min(study.lengths[m][0] for m in study.lengths),
        }
        for m in study.lengths:
            top, first = study.top(m), study.lengths[m][0]
            s, s0 = study.spectra[(m, top)], study.spectra[(m, first)]
            for key in ("w1", "w1_avg", "srank", "srank_c", "erank1", "erank1_c"):
                iv = s.stats[key]
                digits = 4 if key.startswith("w1") else 2
                out[f"{m}_{key}"] = round(iv.value, digits)
                out[f"{m}_{key}_low"] = round(iv.low, digits)
                out[f"{m}_{key}_high"] = round(iv.high, digits)
            out[f"{m}_srank_median"] = round(s.stats["srank"].value, 2)
            out[f"{m}_w1_first"] = round(s0.stats["w1"].value, 4)
            out[f"{m}_nw1_first"] = round(first * s0.stats["w1"].value, 2)
            out[f"{m}_nw1_last"] = round(top * s.stats["w1"].value, 2)
            out[f"{m}_spikes"] = round(study.rotation[(m, top)].spikes, 3)
            s64 = study.spectra.get((m, 64))
            if s64:
                out[f"{m}_w1_64"] = round(s64.stats["w1"].value, 4)
                out[f"{m}_w1_64_iv"] = interval_text(s64.stats["w1"], 4)
                out[f"{m}_srank_64"] = round(s64.stats["srank"].value, 2)
                out[f"{m}_srank_c_64"] = round(s64.stats["srank_c"].value, 2)
            iv = study.slopes.get(m)
            out[f"{m}_srank_slope"] = interval_text(iv, 3) if iv else "not measured (one length)"
            if not MODELS[m].causal:
                out[f"{m}_srank_c_formula"] = round(stable_rank_limit(MODELS[m].head_dim, top), 2)
                out[f"{m}_c_formula"] = round(MODELS[m].head_dim / top, 4)
                out[f"{m}_dh_formula"] = MODELS[m].head_dim
        d = study.slope_difference
        out["slope_diff"] = interval_text(d, 3) if d else "not measured (one length)"
        out["prefix_srank"] = round(causal_stable_rank(np.zeros(out["spec_n_max"])), 4)
        for p in PAPER_VALUES:
            out[f"paper_{p.key}_{p.length}"] = p.value
        init = scale.srank["random init, bidirectional"]
        n_top = max(init)
        out["init_n"] = n_top
        out["init_srank"] = supported(init[n_top].value, init[n_top].se)
        out["init_limit"] = round(scale.limit, 4)
        causal = scale.srank["random init, causal"][n_top]
        out["init_srank_causal"] = supported(causal.value, causal.se)
        out["init_trials"] = scale.trials
        out["scale_k"] = scale.k
        out["init_beta"] = scale.beta
        out["canon_srank_scale"] = round(scale.srank["canonical $A_b$"][n_top].value, 2)
        out["canon_c_srank_scale"] = round(
            scale.srank[r"canonical $A_c$, $\Sigma = 0$"][n_top].value, 2
        )
        out["e_beta2"] = round(math.exp(scale.beta**2), 4)
        return out

    # ---- tables --------------------------------------------------------------------------------

    def tables(self) -> dict[str, str]:
        """``spectra``, ``ranks``, ``paper``, ``scale_srank``, ``scale_erank1``, every one glued
        as ``real_table_<name>`` (shown in dropdowns)."""
        return {
            "spectra": self.spectra_table(),
            "ranks": self.ranks_table(),
            "paper": self.paper_table(),
            "scale_srank": self.scale_table("srank"),
            "scale_erank1": self.scale_table("erank1"),
        }

    def spectra_table(self) -> str:
        """Real against canonical spectra per model and length."""
        header = [
            "model",
            "$n$",
            "median W₁(real, canonical) [95 %]",
            "last layer [95 %]",
            r"$n \times$ W₁",
            "median W₁(real, averaging) [95 %]",
            "heads closer to averaging",
        ]
        rows = [
            [short_name(m), n]
            + [interval_text(iv, 4) for iv in (s.stats["w1"], s.w1_last)]
            + [f"{n * s.stats['w1'].value:.2f}", interval_text(s.stats["w1_avg"], 4)]
            + [f"{s.closer_to_averaging:.3f}"]
            for (m, n), s in ((c, self.study.spectra[c]) for c in self.study.cells())
        ]
        return markdown_table(header, rows)

    def ranks_table(self) -> str:
        """Median stable rank and erank₁, real and canonical, per model and length."""
        header = [
            "model",
            "$n$",
            "srank real",
            "srank canonical",
            "erank₁ real",
            "erank₁ canonical",
        ]
        rows = [
            [short_name(m), n]
            + [
                interval_text(self.study.spectra[(m, n)].stats[k], 2)
                for k in ("srank", "srank_c", "erank1", "erank1_c")
            ]
            for m, n in self.study.cells()
        ]
        return markdown_table(header, rows)

    def paper_table(self) -> str:
        """The numbers the seed summary states beside this book's at the nearest length."""
        study = self.study
        header = ["statistic", "seed summary (model, length)"] + [
            f"ours: {MODELS[m].display}" for m in study.lengths
        ]
        rows = []
        for p in PAPER_VALUES:
            ours = []
            for m in study.lengths:
                n = p.length if p.length in study.lengths[m] else study.top(m)
                s = study.spectra[(m, n)]
                if p.key == "w1_layer_range":
                    ours.append(f"{s.layer_w1.min():.4f}–{s.layer_w1.max():.4f} (n = {n})")
                else:
                    iv = s.w1_last if p.key == "w1_last" else s.stats[p.key]
                    digits = 4 if p.key.startswith("w1") else 2
                    ours.append(f"{interval_text(iv, digits)} (n = {n})")
            rows.append([p.quantity, f"{p.value} ({p.model}, ℓ = {p.length})"] + ours)
        return markdown_table(header, rows)

    def scale_table(self, attr: str) -> str:
        """One rank (``"srank"`` or ``"erank1"``) of every series of the rank scale, per
        length."""
        scale = self.scale
        header = ["series"] + [str(n) for n in scale.lengths]
        rows = []
        for name, points in getattr(scale, attr).items():
            row = [name]
            for n in scale.lengths:
                p = points.get(n)
                if p is None:
                    row.append("")
                elif p.se >= 10.0**-MAX_DECIMALS:
                    row.append(supported(p.value, p.se))
                elif p.se > 0:
                    row.append(f"{p.value:.{MAX_DECIMALS}f}")
                else:
                    row.append(f"{p.value:.2f}")
            rows.append(row)
        return markdown_table(header, rows)

    # ---- figures and claims --------------------------------------------------------------------

    def figures(self) -> dict[str, Any]:
        from .figures import fig_ranks, fig_spectra, rank_scale_fig

        return {
            "fig_spectra": lambda: fig_spectra(self.study),
            "fig_ranks": lambda: fig_ranks(self.study),
            "rank_scale_fig": lambda: rank_scale_fig(self.scale),
        }

    def claims(self) -> list[Claim]:
        """Real against canonical spectra and ranks, one rank scale."""
        return chapter_claims(self.study, self.scale)
