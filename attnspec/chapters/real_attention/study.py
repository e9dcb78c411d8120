r"""Chapter "Real pretrained attention": the seed summary's isotropy diagnostic on the eigen-angles
:math:`\varphi_j` of the token-space singular factor :math:`U_X` against Haar :math:`O(n)`
matrices, and this book's hypothesis that :math:`R(S) = \operatorname{polar}(V_r^\top U_r)` is Haar.

Every criterion
compares a model with itself (two lengths, or a measurement with a Haar reference of the
same size), through bootstrap intervals or standard errors that resample texts and heads
(:mod:`attnspec.real.uncertainty`). A comparison with the seed summary's GPT-2 or ViT-B/16
numbers compares different models: it is a "same scale" statement with both numbers shown,
verdict ○, never ✓ or ✗. Two intervals give a verdict only when they separate
(:func:`attnspec.numerics.intervals.interval_below`; ○ when they overlap). Provenance:
"seed summary" quotes seed 004, a summary of the spectral-degeneration paper, not its text;
"this book's hypothesis" marks the Haar law of :math:`R(S)`, which the seed summary does not
state (its queries and keys share :math:`X`).
"""

from __future__ import annotations

from typing import Any

from ...numerics.fitting import power_law_fit
from ...present.claims import Claim
from ...present.tables import markdown_table
from ...real.models import MODELS
from ...real.paper import PAPER_BAND_W1, PAPER_BANDS, PAPER_VIT_W1
from ...real.study import NAMES, band_falls, detectable
from ...real.texts import TEXT_NAMES, distinct_tokens, excerpt
from ..base import ChapterStudy
from ..shared import decimals, interval_text, measured_study, short_name
from .claims import KEYS, chapter_claims


class RealAttention(ChapterStudy):
    """Both models on every text and length (:func:`attnspec.real.study.run_study`): the
    :math:`U_X` diagnostic, the eigen-angles of :math:`R(S)`, the literal reading of the full score
    factors and the seed summary's length bands."""

    name = "real-attention"
    prefix = "real"

    def compute(self) -> None:
        self.study = measured_study(self.params)

    def print_excerpts(self) -> None:
        """Print the first text's excerpt at the smallest length as each model reads it (↵ marks
        a line break), one line per model."""
        for name in NAMES:
            text = excerpt(TEXT_NAMES[0], name, min(self.params["lengths"]))
            print(f"{name}: “{text.replace(chr(10), '↵')}”", flush=True)

    # ---- values --------------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        """Every value the prose quotes, and the tables the dropdowns show (``table_<name>``)."""
        tables = self.tables()
        return self.isotropy_values() | {
            f"table_{name}": tables[name] for name in ("models", "tokens", "rotation", "literal")
        }

    def isotropy_values(self) -> dict[str, Any]:
        """The quoted values, each rounded to the digits its interval supports."""
        study = self.study
        out = {
            "texts": ", ".join(f"*{t}*" for t in study.texts),
            "n_texts": len(study.texts),
            "lengths": ", ".join(str(n) for n in study.lengths[next(iter(study.lengths))]),
            "n_max": max(study.top(m) for m in study.lengths),
            "n_first": min(study.lengths[m][0] for m in study.lengths),
            "vit_w1": PAPER_VIT_W1,
        }
        for m in study.lengths:
            top, first = study.top(m), study.lengths[m][0]
            s = study.spectra[(m, top)]
            out[f"{m}_heads_total"] = s.n_heads * s.n_layers
            out[f"{m}_layers"] = s.n_layers
            out[f"{m}_records"] = sum(len(study.heads[(m, n)]) for n in study.lengths[m])
            t, t0 = study.tokens[(m, top)], study.tokens[(m, first)]
            for k in KEYS:
                iv = t.intervals[k]
                d = decimals(iv.se)
                out[f"{m}_ux_{k}"] = interval_text(iv)
                out[f"{m}_ux_{k}_haar_q95"] = f"{t.haar.q95.get(k):.{d}f}"
                first_iv = t0.intervals[k]
                out[f"{m}_ux_{k}_first"] = f"{first_iv.value:.{decimals(first_iv.se)}f}"
                if m in study.token_slopes:
                    out[f"{m}_ux_{k}_exp"] = interval_text(study.token_slopes[m][k], 2)
            out[f"{m}_ux_determined"] = round(t.determined, 3)
            out[f"{m}_ux_determined_first"] = round(t0.determined, 3)
            out[f"{m}_ux_deep_determined_first"] = round(t0.deep_determined, 3)
            out |= {f"{m}_{k}": v for k, v in self.embedding_values(m).items()}
            ns = study.lengths[m]
            haar = [study.tokens[(m, n)].haar.median.w1 for n in ns]
            out[f"{m}_ux_haar_exp"] = round(power_law_fit(ns, haar)[0], 2)
            a = study.rotation[(m, top)]
            for k in KEYS:
                out[f"{m}_angle_{k}"] = round(a.real.get(k), 4)
                out[f"{m}_angle_{k}_haar"] = round(a.haar.get(k), 4)
            out[f"{m}_angle_outside"] = round(a.outside, 3)
            out[f"{m}_angle_cos"] = round(a.cos, 3)
            out[f"{m}_angle_cos2"] = round(a.cos2, 3)
            out[f"{m}_head_dim"] = MODELS[m].head_dim
            v = study.literal[(m, top)]
            out[f"{m}_literal_U"] = interval_text(v.full_U)
            out[f"{m}_literal_U_range"] = round(v.spread_U.high - v.spread_U.low, 4)
            out[f"{m}_literal_haar"] = round(v.haar.mean.w1, 4)
            for b in PAPER_BANDS:
                s = study.bands.get((m, b))
                if s:
                    tag = f"{b[0]}_{b[1]}"
                    out[f"{m}_band_{tag}_U"] = f"{s.U.value:.{decimals(s.U.se)}f}"
                    out[f"{m}_band_{tag}_V"] = f"{s.V.value:.{decimals(s.V.se)}f}"
                    out[f"{m}_band_{tag}_haar"] = round(s.haar, 4)
                    out[f"{m}_band_{tag}_lengths"] = ", ".join(map(str, s.lengths))
        top_tokens = {m: study.tokens[(m, study.top(m))] for m in study.lengths}
        reach = [detectable(top_tokens, list(study.lengths), k) for k in KEYS]
        out["ux_detect_lo"] = round(min(r[0] for r in reach))
        out["ux_detect_hi"] = round(max(r[1] for r in reach))
        falls = band_falls(study)
        for m in study.lengths:
            if m in falls:
                out[f"{m}_band_fall_U"] = round(falls[m][0], 1)
                out[f"{m}_band_fall_V"] = round(falls[m][1], 1)
                out[f"{m}_band_fall_haar"] = round(falls[m][2], 1)
        out["paper_band_fall"] = round(falls["paper"], 1)
        for b in PAPER_BANDS:
            out[f"paper_band_{b[0]}_{b[1]}"] = PAPER_BAND_W1[b]
        return out

    def embedding_values(self, model: str) -> dict[str, Any]:
        """The embedding layer's rank against the number of distinct tokens (keys without the
        ``{model}_`` prefix): in how many (text, n) cells they are equal, and, at the first
        length, the text with the fewest distinct tokens."""
        study = self.study
        cells = {
            (text, n): (rank, distinct_tokens(text, model, n))
            for n in study.lengths[model]
            for text, rank in study.tokens[(model, n)].embedding_rank.items()
        }
        first = study.lengths[model][0]
        text = min(study.tokens[(model, first)].embedding_rank, key=lambda t: cells[(t, first)][1])
        return {
            "embedding_equal": sum(r == k for r, k in cells.values()),
            "embedding_cells": len(cells),
            "distinct_first": cells[(text, first)][1],
            "distinct_first_text": f"*{text}*",
        }

    # ---- tables --------------------------------------------------------------------------------

    def tables(self) -> dict[str, str]:
        """``bands`` (shown), and ``models``, ``tokens``, ``rotation``, ``literal`` (glued as
        ``real_table_<name>``)."""
        return {
            "models": self.models_table(),
            "tokens": self.token_table(),
            "rotation": self.rotation_table(),
            "literal": self.literal_table(),
            "bands": self.band_table(),
        }

    def models_table(self) -> str:
        """The two models: attention, layers, heads, head and hidden sizes."""
        header = [
            "model",
            "attention",
            "layers",
            "heads",
            "head dim $d_h$",
            "hidden size",
            "heads with spectra per layer",
        ]
        rows = [
            [
                MODELS[m].display,
                "causal" if MODELS[m].causal else "bidirectional",
                MODELS[m].layers,
                MODELS[m].heads,
                MODELS[m].head_dim,
                MODELS[m].hidden,
                min(self.params["max_heads"], MODELS[m].heads),
            ]
            for m in self.study.lengths
        ]
        return markdown_table(header, rows)

    def token_table(self) -> str:
        """The U_X diagnostic per model and length: medians [95 %] and the Haar 95th
        percentiles."""
        header = [
            "model",
            "$n$",
            "columns fixed by $X$",
            "KL (Haar 95 %)",
            "Kolmogorov (Haar 95 %)",
            "W₁, rad (Haar 95 %)",
        ]
        rows = [
            [short_name(m), n, f"{t.determined:.3f}"]
            + [
                f"{interval_text(t.intervals[k])} "
                f"({t.haar.q95.get(k):.{decimals(t.intervals[k].se)}f})"
                for k in KEYS
            ]
            for (m, n), t in ((c, self.study.tokens[c]) for c in self.study.cells())
        ]
        return markdown_table(header, rows)

    def rotation_table(self) -> str:
        """The pooled eigen-angles of R(S) against the Haar floor, per model and length."""
        header = [
            "model",
            "$n$",
            "$r$",
            "KL (Haar)",
            "Kolmogorov (Haar)",
            "W₁, rad (Haar)",
            r"mean $\cos\varphi$",
            r"mean $\cos^2\varphi$",
            "heads outside Haar 95 %",
        ]
        rows = [
            [short_name(m), n, a.rank]
            + [f"{a.real.get(k):.4f} ({a.haar.get(k):.4f})" for k in KEYS]
            + [f"{a.cos:.3f}", f"{a.cos2:.3f}", f"{a.outside:.3f}"]
            for (m, n), a in ((c, self.study.rotation[c]) for c in self.study.cells())
        ]
        return markdown_table(header, rows)

    def literal_table(self) -> str:
        """The literal reading: W₁ of the full score factors per model and length, beside
        Haar."""
        header = [
            "model",
            "$n$",
            "heads",
            "W₁ of full $U$ [95 %]",
            "W₁ of full $V$ [95 %]",
            "range over conventions",
            "Haar $O(n)$ mean",
            "W₁ of $R(S)$",
        ]
        rows = [
            [short_name(m), n, v.heads, interval_text(v.full_U), interval_text(v.full_V)]
            + [f"{x:.4f}" for x in (v.spread_U.high - v.spread_U.low, v.haar.mean.w1, v.rotation)]
            for (m, n), v in ((c, self.study.literal.get(c)) for c in self.study.cells())
            if v
        ]
        return markdown_table(header, rows)

    def band_table(self) -> str:
        """The seed summary's length bands: mean W₁ of the full U and V factors, Haar, and the
        seed summary's GPT-2 values."""
        header = [
            "band",
            "model",
            "lengths",
            "W₁ of $U$ [95 %]",
            "W₁ of $V$ [95 %]",
            "Haar $O(n)$",
            "seed summary (GPT-2)",
        ]
        rows = []
        for b in PAPER_BANDS:
            for m in self.study.lengths:
                s = self.study.bands.get((m, b))
                if s:
                    rows.append(
                        [
                            f"{b[0]}–{b[1]}",
                            short_name(m),
                            ", ".join(map(str, s.lengths)),
                            interval_text(s.U),
                            interval_text(s.V),
                            f"{s.haar:.4f} ± {s.haar_se:.4f}",
                            PAPER_BAND_W1[b],
                        ]
                    )
        return markdown_table(header, rows)

    # ---- figures and claims --------------------------------------------------------------------

    def figures(self) -> dict[str, Any]:
        from .figures import fig_angles, fig_tokens

        return {
            "fig_tokens": lambda: fig_tokens(self.study),
            "fig_angles": lambda: fig_angles(self.study, self.params["angle_bins"]),
        }

    def claims(self) -> list[Claim]:
        """The U_X diagnostic, R(S), the literal reading, the bands."""
        return chapter_claims(self.study)
