r"""The tables and the glued values of the two real-attention chapters, built from a
:class:`attnspec.real.study.Study` (and a :class:`attnspec.real.rank_scale.RankScale`).

Each ``*_table`` returns ``(header, rows)`` for :func:`attnspec.present.tables.markdown_table`;
``*_values`` return the mapping the chapter glues under its prefix
(:func:`attnspec.present.gluing.glue_values`), every number rounded to the digits its uncertainty
supports (:func:`attnspec.real.claims.decimals`).
"""

from __future__ import annotations

import math

import numpy as np

from attnspec.canonical.model import causal_stable_rank, stable_rank_limit
from attnspec.real.claims import MAX_DECIMALS, band_falls, decimals, interval_text, supported
from attnspec.real.models import MODELS
from attnspec.real.paper import PAPER_BAND_W1, PAPER_BANDS, PAPER_VALUES, PAPER_VIT_W1
from attnspec.real.texts import distinct_tokens

KEYS = ("kl", "ks", "w1")


def models_table(study, max_heads: int) -> tuple[list[str], list[list]]:
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
            min(max_heads, MODELS[m].heads),
        ]
        for m in study.lengths
    ]
    return header, rows


def token_table(study) -> tuple[list[str], list[list]]:
    """The U_X diagnostic per model and length: medians [95 %] and the Haar 95th percentiles."""
    header = [
        "model",
        "$n$",
        "columns fixed by $X$",
        "KL (Haar 95 %)",
        "Kolmogorov (Haar 95 %)",
        "W₁, rad (Haar 95 %)",
    ]
    rows = []
    for m in study.lengths:
        for n in study.lengths[m]:
            t = study.tokens[(m, n)]
            rows.append(
                [MODELS[m].display.split(" ")[0], n, f"{t.determined:.3f}"]
                + [
                    f"{interval_text(t.intervals[k])} "
                    f"({t.haar.q95.get(k):.{decimals(t.intervals[k].se)}f})"
                    for k in KEYS
                ]
            )
    return header, rows


def rotation_table(study) -> tuple[list[str], list[list]]:
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
    for m in study.lengths:
        for n in study.lengths[m]:
            a = study.rotation[(m, n)]
            rows.append(
                [MODELS[m].display.split(" ")[0], n, a.rank]
                + [f"{a.real.get(k):.4f} ({a.haar.get(k):.4f})" for k in KEYS]
                + [f"{a.cos:.3f}", f"{a.cos2:.3f}", f"{a.outside:.3f}"]
            )
    return header, rows


def literal_table(study) -> tuple[list[str], list[list]]:
    """The literal reading: W₁ of the full score factors per model and length, beside Haar."""
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
    for m in study.lengths:
        for n in study.lengths[m]:
            v = study.literal.get((m, n))
            if v:
                rows.append(
                    [
                        MODELS[m].display.split(" ")[0],
                        n,
                        v.heads,
                        interval_text(v.full_U),
                        interval_text(v.full_V),
                        f"{v.spread_U.high - v.spread_U.low:.4f}",
                        f"{v.haar.mean.w1:.4f}",
                        f"{v.rotation:.4f}",
                    ]
                )
    return header, rows


def band_table(study) -> tuple[list[str], list[list]]:
    """The paper's length bands: mean W₁ of the full U and V factors, Haar, and the paper's."""
    header = [
        "band",
        "model",
        "lengths",
        "W₁ of $U$ [95 %]",
        "W₁ of $V$ [95 %]",
        "Haar $O(n)$",
        "paper (GPT-2)",
    ]
    rows = []
    for b in PAPER_BANDS:
        for m in study.lengths:
            s = study.bands.get((m, b))
            if s:
                rows.append(
                    [
                        f"{b[0]}–{b[1]}",
                        MODELS[m].display.split(" ")[0],
                        ", ".join(map(str, s.lengths)),
                        interval_text(s.U),
                        interval_text(s.V),
                        f"{s.haar:.4f} ± {s.haar_se:.4f}",
                        PAPER_BAND_W1[b],
                    ]
                )
    return header, rows


def isotropy_values(study) -> dict:
    """Every value the isotropy chapter's prose quotes (keys without the ``real_`` prefix)."""
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
            out[f"{m}_ux_{k}_first"] = f"{t0.intervals[k].value:.{decimals(t0.intervals[k].se)}f}"
            if m in study.token_slopes:
                out[f"{m}_ux_{k}_exp"] = interval_text(study.token_slopes[m][k], 2)
        out[f"{m}_ux_determined"] = round(t.determined, 3)
        out[f"{m}_ux_determined_first"] = round(t0.determined, 3)
        out[f"{m}_ux_deep_determined_first"] = round(t0.deep_determined, 3)
        out |= {f"{m}_{k}": v for k, v in embedding_values(study, m).items()}
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


def embedding_values(study, model: str) -> dict:
    """The embedding layer's rank against the number of distinct tokens (keys without the
    ``real_{model}_`` prefix): in how many (text, n) cells they are equal, and, at the first
    length, the text with the fewest distinct tokens."""
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


def spectra_table(study) -> tuple[list[str], list[list]]:
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
    rows = []
    for m in study.lengths:
        for n in study.lengths[m]:
            s = study.spectra[(m, n)]
            w1, avg = s.stats["w1"], s.stats["w1_avg"]
            rows.append(
                [
                    MODELS[m].display.split(" ")[0],
                    n,
                    interval_text(w1, 4),
                    interval_text(s.w1_last, 4),
                    f"{n * w1.value:.2f}",
                    interval_text(avg, 4),
                    f"{s.closer_to_averaging:.3f}",
                ]
            )
    return header, rows


def ranks_table(study) -> tuple[list[str], list[list]]:
    """Median stable rank and erank₁, real and canonical, per model and length."""
    header = ["model", "$n$", "srank real", "srank canonical", "erank₁ real", "erank₁ canonical"]
    rows = []
    for m in study.lengths:
        for n in study.lengths[m]:
            st = study.spectra[(m, n)].stats
            rows.append(
                [MODELS[m].display.split(" ")[0], n]
                + [interval_text(st[k], 2) for k in ("srank", "srank_c", "erank1", "erank1_c")]
            )
    return header, rows


def paper_table(study) -> tuple[list[str], list[list]]:
    """The paper's reported numbers beside this book's at the nearest length."""
    header = ["statistic", "paper (model, length)"] + [
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
                ours.append(f"{interval_text(iv, 4 if p.key.startswith('w1') else 2)} (n = {n})")
        rows.append([p.quantity, f"{p.value} ({p.model}, ℓ = {p.length})"] + ours)
    return header, rows


def scale_table(scale, attr: str) -> tuple[list[str], list[list]]:
    """One rank (``"srank"`` or ``"erank1"``) of every series of the rank scale, per length."""
    series = getattr(scale, attr)
    header = ["series"] + [str(n) for n in scale.lengths]
    rows = []
    for name, points in series.items():
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
    return header, rows


def spectra_values(study, scale) -> dict:
    """Every value the spectra chapter's prose quotes (keys without the ``real_`` prefix)."""
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
