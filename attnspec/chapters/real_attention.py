r"""Chapter "Real pretrained attention": the seed summary's isotropy diagnostic on the eigen-angles
:math:`\varphi_j` of the token-space singular factor :math:`U_X` against Haar :math:`O(n)`
matrices, and this book's hypothesis that :math:`R(S) = \operatorname{polar}(V_r^\top U_r)` is Haar.

Also the reporting both real chapters share (:mod:`~attnspec.chapters.real_spectra` imports it):
decimals from a bootstrap standard error, ``value [low, high]`` and the interval rule. Every
criterion compares a model with itself (two lengths, or a measurement with a Haar reference of the
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

import math
from functools import partial
from typing import Any

import numpy as np

from ..numerics.intervals import all_hold, interval_below
from ..present.claims import Claim
from ..present.numbers import ONE_OR_TWO, decimals_for, with_interval
from ..present.tables import markdown_table
from ..real.models import MODELS
from ..real.paper import PAPER_BAND_W1, PAPER_BANDS, PAPER_VIT_W1
from ..real.study import NAMES, Study, run_study
from ..real.texts import TEXT_NAMES, distinct_tokens, excerpt
from ..real.uncertainty import Interval
from . import real_figures
from .base import ChapterStudy

QUOTE_ISOTROPY = (
    "seed summary, empirical isotropy: “the eigen-angle discrepancies from uniform (KL with 50 "
    "bins, Kolmogorov, Wasserstein) are consistently close to zero and decrease with sequence "
    "length”"
)
QUOTE_BANDS = (
    "seed summary, score-level geometry: “the mean angular W₁ for both GPT-2 score singular "
    "factors drops from about 0.31 in the 17–64 length band to 0.10 in the 385–471 band, and the "
    "pooled ViT mean is about 0.08”"
)
HYPOTHESIS = (
    "this book's hypothesis (the seed summary does not state it: its queries and keys share X); "
    "this book's test"
)

#: The parameters of :func:`attnspec.real.study.run_study`, the measurements both chapters share.
STUDY_PARAMETERS = (
    "lengths",
    "n_texts",
    "max_heads",
    "angle_bins",
    "seed",
    "conventions",
    "band_lengths",
)
#: The three distances of eigen-angles to the uniform law: KL, Kolmogorov, circular W₁.
KEYS = ("kl", "ks", "w1")
#: Most decimals a statistic is printed with: beyond them round-off, not sampling, decides a digit.
MAX_DECIMALS = 5
#: The point 0 as an interval, for "an interval below (above) 0".
ZERO = (0.0, 0.0)

#: The decimals a bootstrap interval's standard error supports: one significant digit, two when
#: the first is 1, at most :data:`MAX_DECIMALS` (4 when the error is unknown).
decimals = partial(decimals_for, significant=ONE_OR_TWO, fallback=4, most=MAX_DECIMALS)


def measured_study(params: dict[str, Any]) -> Study:
    """Both models measured and summarized at a chapter's checked parameters (cached)."""
    return run_study(**{name: params[name] for name in STUDY_PARAMETERS})


def interval_text(iv: Interval, digits: int | None = None) -> str:
    """``value [low, high]`` with the decimals its bootstrap standard error supports."""
    return with_interval(iv.value, iv.low, iv.high, decimals(iv.se) if digits is None else digits)


def short_name(model: str) -> str:
    """The model's display name without its size: ``MiniLM-L6``, ``SmolLM2-135M``."""
    return MODELS[model].display.split(" ")[0]


def per_model(texts: dict[str, str]) -> str:
    """The models' texts in table order, ``a / b``."""
    return " / ".join(texts.values())


def unless_open(holds: bool | None, fails: str, overlap: str) -> str:
    """The sentence under a claim that compares intervals: why it fails (✗, or nothing to say
    under ✓), or, under ○, that the intervals overlap."""
    return overlap if holds is None else fails


def detectable(tok: dict, names, key: str) -> tuple[float, float]:
    """The smallest excess of the median distance over the Haar median, in percent, that the
    one-sided test against the Haar 95th percentile detects: ``100 (q95/median − 1)``, smallest
    and largest over the models."""
    pct = [100 * (tok[m].haar.q95.get(key) / tok[m].haar.median.get(key) - 1) for m in names]
    return min(pct), max(pct)


def band_falls(study) -> dict:
    """The factor :math:`W_1(\\text{17–64})/W_1(\\text{385–471})` by which the score-factor W₁
    falls from the first to the second paper band: per model ``(U, V, Haar)`` of the same lengths,
    and ``"paper"`` for GPT-2 (the values the seed summary states)."""
    out = {}
    for m in study.lengths:
        first, last = (study.bands.get((m, b)) for b in PAPER_BANDS)
        if first and last:
            out[m] = (
                first.U.value / last.U.value,
                first.V.value / last.V.value,
                first.haar / last.haar,
            )
    out["paper"] = float(PAPER_BAND_W1[PAPER_BANDS[0]]) / float(PAPER_BAND_W1[PAPER_BANDS[1]])
    return out


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
            out[f"{m}_ux_haar_exp"] = round(float(np.polyfit(np.log(ns), np.log(haar), 1)[0]), 2)
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
        rows = []
        for m, ns in self.study.lengths.items():
            for n in ns:
                t = self.study.tokens[(m, n)]
                rows.append(
                    [short_name(m), n, f"{t.determined:.3f}"]
                    + [
                        f"{interval_text(t.intervals[k])} "
                        f"({t.haar.q95.get(k):.{decimals(t.intervals[k].se)}f})"
                        for k in KEYS
                    ]
                )
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
        rows = []
        for m, ns in self.study.lengths.items():
            for n in ns:
                a = self.study.rotation[(m, n)]
                rows.append(
                    [short_name(m), n, a.rank]
                    + [f"{a.real.get(k):.4f} ({a.haar.get(k):.4f})" for k in KEYS]
                    + [f"{a.cos:.3f}", f"{a.cos2:.3f}", f"{a.outside:.3f}"]
                )
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
        rows = []
        for m, ns in self.study.lengths.items():
            for n in ns:
                v = self.study.literal.get((m, n))
                if v:
                    rows.append(
                        [
                            short_name(m),
                            n,
                            v.heads,
                            interval_text(v.full_U),
                            interval_text(v.full_V),
                            f"{v.spread_U.high - v.spread_U.low:.4f}",
                            f"{v.haar.mean.w1:.4f}",
                            f"{v.rotation:.4f}",
                        ]
                    )
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
        return {
            "fig_tokens": lambda: real_figures.real_tokens(self.study),
            "fig_angles": lambda: real_figures.real_angles(self.study, self.params["angle_bins"]),
        }

    def claims(self) -> list[Claim]:
        """The U_X diagnostic, R(S), the literal reading, the bands."""
        study = self.study
        names = list(study.lengths)
        top = {m: study.top(m) for m in names}
        tok = {m: study.tokens[(m, top[m])] for m in names}
        above = {
            key: any(tok[m].intervals[key].low > tok[m].haar.q95.get(key) for m in names)
            for key in KEYS
        }
        slopes = {m: study.token_slopes[m] for m in names if m in study.token_slopes}
        falls = all_hold(
            interval_below(s[key].span(), ZERO) for s in slopes.values() for key in KEYS
        )
        rot = {m: study.rotation[(m, top[m])] for m in names}
        heads = {m: len(study.heads[(m, top[m])]) for m in names}
        bound = {m: 0.05 + 2 * math.sqrt(0.05 * 0.95 / heads[m]) for m in names}
        lit = {m: study.literal[(m, top[m])] for m in names}
        claims = []
        for key, label in (("kl", "KL (50 bins)"), ("ks", "Kolmogorov"), ("w1", "W₁")):
            reach = detectable(tok, names, key)
            claims.append(
                Claim(
                    f"eigen-angles of $U_X$ consistent with Haar at the largest $n$: {label}",
                    "median [95 %], Haar median, Haar 95th percentile: "
                    + per_model(
                        {
                            m: f"{interval_text(tok[m].intervals[key])}, "
                            f"{tok[m].haar.median.get(key):.{decimals(tok[m].intervals[key].se)}f}"
                            f", {tok[m].haar.q95.get(key):.{decimals(tok[m].intervals[key].se)}f}"
                            for m in names
                        }
                    ),
                    "one-sided: ✗ when an interval lies above the 95th percentile of Haar $O(n)$ "
                    "matrices of the same size (MiniLM-L6 / SmolLM2-135M), else ○; it detects "
                    f"only a median more than {reach[0]:.0f}–{reach[1]:.0f} % above Haar's",
                    False if above[key] else None,
                    f"the {label} of $U_X$ is farther from uniform than most Haar matrices."
                    if above[key]
                    else "consistent with Haar, largely by construction: the seeded signs of "
                    "$U_X$'s columns (and its seeded null-space completion beyond n = d) randomize "
                    "its eigen-angles whatever X is, and a one-sided test below the Haar 95th "
                    f"percentile detects only a median more than {reach[0]:.0f}–{reach[1]:.0f} % "
                    "above Haar's; it cannot confirm the seed summary's observation.",
                    QUOTE_ISOTROPY,
                )
            )
        claims.append(
            Claim(
                "… and the distances decrease with length",
                "exponents against n [95 %], KL / Kolmogorov / W₁: "
                + "; ".join(
                    f"{short_name(m)} " + " / ".join(interval_text(s[k], 2) for k in KEYS)
                    for m, s in slopes.items()
                ),
                "every exponent's interval below 0, both models",
                falls if slopes else None,
                unless_open(
                    falls if slopes else None,
                    "some distance grows with length beyond its uncertainty.",
                    "some exponent's interval contains 0 (or one length only): the fall is not "
                    "resolved.",
                ),
                QUOTE_ISOTROPY,
            )
        )
        claims.append(
            Claim(
                "the rotation $R(S)$ between the query and key frames is Haar-distributed",
                "heads outside the Haar 95 % range: "
                + per_model({m: f"{rot[m].outside:.3f}" for m in names}),
                "≤ 0.05 + 2 binomial standard errors ("
                + per_model({m: f"{bound[m]:.3f}" for m in names})
                + ")",
                all(rot[m].outside <= bound[m] for m in names),
                "not reproduced under this book's hypothesis: most heads' R(S) lie outside the "
                "Haar range (query and key frames are partly aligned). The seed summary's "
                "diagnostic looks at $U_X$, which $R(S)$ does not measure.",
                HYPOTHESIS,
            )
        )
        claims.append(
            Claim(
                "the literal reading (eigen-angles of the full score factor $U$) is at the Haar "
                "level",
                "mean W₁ [95 %] and Haar mean ± se: "
                + per_model(
                    {
                        m: f"{interval_text(lit[m].full_U)}, {lit[m].haar.mean.w1:.4f} ± "
                        f"{lit[m].haar.se.w1:.4f}"
                        for m in names
                    }
                ),
                "difference within 2 standard errors (bootstrap and Haar, combined)",
                all(lit[m].at_haar_level() for m in names),
                "the full factor's eigen-angles differ from those of Haar matrices of its size.",
                "this book's test",
            )
        )
        claims.append(self.band_claim())
        return claims

    def band_claim(self) -> Claim:
        """The score factors' fall from the first to the second band: ○, since Haar falls too."""
        study = self.study
        names = list(study.lengths)
        bands = {m: [study.bands.get((m, b)) for b in PAPER_BANDS] for m in names}
        fall = band_falls(study)
        ok = all(m in fall for m in names)
        return Claim(
            "angular W₁ of the score singular factors falls from the 17–64 to the 385–471 band, "
            "as GPT-2's does",
            (
                "U then V, ours: "
                + "; ".join(
                    f"{short_name(m)} "
                    + " → ".join(
                        f"{b.U.value:.{decimals(b.U.se)}f}, {b.V.value:.{decimals(b.V.se)}f}"
                        for b in bands[m]
                    )
                    + f" (÷ {fall[m][0]:.1f}, {fall[m][1]:.1f}; Haar ÷ {fall[m][2]:.1f})"
                    for m in names
                )
                + f"; GPT-2 (seed summary): {PAPER_BAND_W1[PAPER_BANDS[0]]} → "
                f"{PAPER_BAND_W1[PAPER_BANDS[1]]} (÷ {fall['paper']:.1f}), ViT-B/16 {PAPER_VIT_W1}"
            )
            if ok
            else "a band has no measured length",
            "none that can decide it: Haar $O(n)$ matrices of the same lengths fall too, so a "
            "fall follows from finite $n$ alone (the seed summary's values are another model)",
            None,
            (
                "a falling W₁ is implied by finite n alone: Haar-random factors of the same "
                f"lengths fall ÷ {fall[names[0]][2]:.1f}, ours ÷ "
                + " / ".join(f"{fall[m][0]:.1f}" for m in names)
                + ", so the fall says nothing about trained frames; GPT-2's reported fall "
                f"(÷ {fall['paper']:.1f}) is "
                + ("smaller than" if fall["paper"] < fall[names[0]][2] else "not smaller than")
                + " Haar's, and with the summarized paper's normalization unknown no verdict is "
                "drawn."
            )
            if ok
            else "a band has no measured length (see band_lengths).",
            QUOTE_BANDS,
        )
