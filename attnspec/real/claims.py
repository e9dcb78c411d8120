r"""The claims of the two real-attention chapters, with their statistical criteria.

Every criterion compares a model with itself (two lengths, or a measurement with a Haar reference of
the same size), through bootstrap intervals or standard errors that resample texts and heads
(:mod:`attnspec.real.uncertainty`). A comparison with the paper's GPT-2 or ViT-B/16 numbers
compares different models: it is a "same scale" statement with both numbers shown, verdict ○,
never ✓ or ✗. Two intervals give a verdict only when they separate
(:func:`attnspec.present.claims.interval_below`; ○ when they overlap). Provenance: "seed summary"
quotes the seed's summary of the paper (seed 004 is a summary, not the paper's text); "this book's
hypothesis" marks the Haar law of :math:`R(S)`, which the paper does not state (its queries and
keys share :math:`X`).
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np

from attnspec.canonical.model import stable_rank_limit
from attnspec.canonical.rates import rate_test
from attnspec.present.claims import Claim, all_hold, interval_below
from attnspec.present.numbers import ONE_OR_TWO, decimals_for, format_uncertain, with_interval
from attnspec.real.models import MODELS
from attnspec.real.paper import PAPER_BAND_W1, PAPER_BANDS, PAPER_VIT_W1
from attnspec.real.uncertainty import Interval

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
QUOTE_SPECTRA = (
    "seed summary, real vs canonical spectra: “The Wasserstein distance between real and "
    "canonical attention singular-value distributions falls … as context grows”"
)
QUOTE_RANKS = (
    "seed summary, equal spectral laws do not imply equal concentration: “pooled stable-rank "
    "medians are 1.18 for real and 27.51 for canonical attention, with erank₁ medians of 314.06 "
    "and 95.12”"
)
HYPOTHESIS = (
    "this book's hypothesis (the paper does not make it: its queries and keys share X); "
    "this book's test"
)


#: Most decimals a statistic is printed with: beyond them round-off, not sampling, decides a digit.
MAX_DECIMALS = 5


#: The decimals a bootstrap interval's standard error supports: one significant digit, two when
#: the first is 1, at most :data:`MAX_DECIMALS` (4 when the error is unknown).
decimals = partial(decimals_for, significant=ONE_OR_TWO, fallback=4, most=MAX_DECIMALS)
#: ``value ± se`` with those decimals.
supported = partial(format_uncertain, significant=ONE_OR_TWO, fallback=4, most=MAX_DECIMALS)


def interval_text(iv: Interval, digits: int | None = None) -> str:
    """``value [low, high]`` with the decimals its bootstrap standard error supports."""
    return with_interval(iv.value, iv.low, iv.high, decimals(iv.se) if digits is None else digits)


def _both(values: dict) -> str:
    return " / ".join(values[m] for m in values)


#: The point 0 as an interval, for "an interval below (above) 0".
ZERO = (0.0, 0.0)


def _unless_open(holds: bool | None, fails: str, overlap: str) -> str:
    """The sentence under a claim that compares intervals: why it fails (✗, or nothing to say
    under ✓), or, under ○, that the intervals overlap."""
    return overlap if holds is None else fails


def band_falls(study) -> dict:
    """The factor by which the score-factor W₁ falls from the first to the second paper band:
    per model ``(U, V, Haar)`` of the same lengths, and ``"paper"`` for GPT-2 (the paper's
    values)."""
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


def isotropy_claims(study) -> list[Claim]:
    """The isotropy chapter's claims: the U_X diagnostic, R(S), the literal reading, the bands."""
    names = list(study.lengths)
    top = {m: study.top(m) for m in names}
    tok = {m: study.tokens[(m, top[m])] for m in names}
    near = {
        key: all(tok[m].intervals[key].high <= tok[m].haar.q95.get(key) for m in names)
        for key in ("kl", "ks", "w1")
    }
    slopes = {m: study.token_slopes[m] for m in names if m in study.token_slopes}
    falls = all_hold(
        interval_below(s[key].span(), ZERO) for s in slopes.values() for key in ("kl", "ks", "w1")
    )
    rot = {m: study.rotation[(m, top[m])] for m in names}
    heads = {m: len(study.heads[(m, top[m])]) for m in names}
    bound = {m: 0.05 + 2 * math.sqrt(0.05 * 0.95 / heads[m]) for m in names}
    lit = {m: study.literal[(m, top[m])] for m in names}
    claims = []
    for key, label in (("kl", "KL (50 bins)"), ("ks", "Kolmogorov"), ("w1", "W₁")):
        claims.append(
            Claim(
                f"eigen-angles of $U_X$ near-uniform at the largest $n$: {label}",
                "median [95 %], Haar 95th percentile: "
                + _both(
                    {
                        m: f"{interval_text(tok[m].intervals[key])}, "
                        f"{tok[m].haar.q95.get(key):.{decimals(tok[m].intervals[key].se)}f}"
                        for m in names
                    }
                ),
                "interval below the 95th percentile of Haar $O(n)$ matrices of the same size "
                "(MiniLM-L6 / SmolLM2-135M)",
                near[key],
                f"the {label} of U_X is farther from uniform than most Haar matrices.",
                QUOTE_ISOTROPY,
            )
        )
    claims.append(
        Claim(
            "… and the distances decrease with length",
            "exponents against n [95 %], KL / Kolmogorov / W₁: "
            + "; ".join(
                f"{MODELS[m].display.split(' ')[0]} "
                + " / ".join(interval_text(s[k], 2) for k in ("kl", "ks", "w1"))
                for m, s in slopes.items()
            ),
            "every exponent's interval below 0, both models",
            falls if slopes else None,
            _unless_open(
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
            + _both({m: f"{rot[m].outside:.3f}" for m in names}),
            "≤ 0.05 + 2 binomial standard errors ("
            + _both({m: f"{bound[m]:.3f}" for m in names})
            + ")",
            all(rot[m].outside <= bound[m] for m in names),
            "not reproduced under this book's hypothesis: most heads' R(S) lie outside the Haar "
            "range (query and key frames are partly aligned). The paper's diagnostic looks at U_X, "
            "which R(S) does not measure.",
            HYPOTHESIS,
        )
    )
    claims.append(
        Claim(
            "the literal reading (eigen-angles of the full score factor $U$) is at the Haar level",
            "mean W₁ [95 %] and Haar mean ± se: "
            + _both(
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
    bands = {m: [study.bands.get((m, b)) for b in PAPER_BANDS] for m in names}
    fall = band_falls(study)
    ok = all(m in fall for m in names)
    claims.append(
        Claim(
            "angular W₁ of the score singular factors falls from the 17–64 to the 385–471 band, "
            "as GPT-2's does",
            (
                "U then V, ours: "
                + "; ".join(
                    f"{MODELS[m].display.split(' ')[0]} "
                    + " → ".join(
                        f"{b.U.value:.{decimals(b.U.se)}f}, {b.V.value:.{decimals(b.V.se)}f}"
                        for b in bands[m]
                    )
                    + f" (÷ {fall[m][0]:.1f}, {fall[m][1]:.1f}; Haar ÷ {fall[m][2]:.1f})"
                    for m in names
                )
                + f"; GPT-2 (the paper): {PAPER_BAND_W1[PAPER_BANDS[0]]} → "
                f"{PAPER_BAND_W1[PAPER_BANDS[1]]} (÷ {fall['paper']:.1f}), ViT-B/16 {PAPER_VIT_W1}"
            )
            if ok
            else "a band has no measured length",
            "none that can decide it: Haar $O(n)$ matrices of the same lengths fall too, so a "
            "fall follows from finite $n$ alone (the paper's values are another model)",
            None,
            (
                "a falling W₁ is implied by finite n alone: Haar-random factors of the same "
                f"lengths fall ÷ {fall[names[0]][2]:.1f}, ours ÷ "
                + " / ".join(f"{fall[m][0]:.1f}" for m in names)
                + ", so the fall says nothing about trained frames; GPT-2's reported fall "
                f"(÷ {fall['paper']:.1f}) is "
                + ("smaller than" if fall["paper"] < fall[names[0]][2] else "not smaller than")
                + " Haar's, and with the paper's normalization unknown no verdict is drawn."
            )
            if ok
            else "a band has no measured length (see band_lengths).",
            QUOTE_BANDS,
        )
    )
    return claims


def spectra_claims(study, scale) -> list[Claim]:
    """The spectra chapter's claims: real against canonical spectra and ranks, one rank scale."""
    names = list(study.lengths)
    top = {m: study.top(m) for m in names}
    first = {m: study.lengths[m][0] for m in names}
    sp = {m: study.spectra[(m, top[m])] for m in names}
    sp0 = {m: study.spectra[(m, first[m])] for m in names}
    s64 = study.spectra.get(("smollm", 64))
    d = study.slope_difference
    formula = {
        m: stable_rank_limit(MODELS[m].head_dim, top[m]) for m in names if not MODELS[m].causal
    }
    init = scale.srank["random init, bidirectional"]
    n_top = max(n for n in init)
    trained = {m: sp[m].stats["srank"] for m in names if top[m] == n_top}
    closer = all_hold(
        interval_below(sp[m].stats["w1"].span(), sp0[m].stats["w1"].span()) for m in names
    )
    grows = all_hold(
        interval_below(sp0[m].stats["w1"].span(first[m]), sp[m].stats["w1"].span(top[m]))
        for m in names
    )
    averaging = all_hold(
        interval_below(sp[m].stats["w1_avg"].span(), sp[m].stats["w1"].span()) for m in names
    )
    lower = all_hold(
        interval_below(sp[m].stats["srank"].span(), sp[m].stats["srank_c"].span()) for m in names
    )
    higher = all_hold(
        interval_below(sp[m].stats["erank1_c"].span(), sp[m].stats["erank1"].span()) for m in names
    )
    faster = interval_below(ZERO, d.span()) if d else None
    init_span = (init[n_top].value - 2 * init[n_top].se, init[n_top].value + 2 * init[n_top].se)
    below_init = all_hold(interval_below(v.span(), init_span) for v in trained.values())
    claims = [
        Claim(
            "real and canonical singular-value laws get closer with length",
            "median W₁, first → last n: "
            + _both(
                {
                    m: f"{interval_text(sp0[m].stats['w1'], 4)} → "
                    f"{interval_text(sp[m].stats['w1'], 4)}"
                    for m in names
                }
            ),
            "interval at the largest n entirely below the smallest-n interval, both models",
            closer,
            _unless_open(
                closer,
                "the median distance grows with length beyond its uncertainty.",
                "the intervals at the two lengths overlap: the fall is not resolved.",
            ),
            QUOTE_SPECTRA,
        ),
        Claim(
            "… the decoder's median W₁ at 64 tokens beside GPT-2's 0.3002",
            f"SmolLM2-135M {interval_text(s64.stats['w1'], 4)}; GPT-2 0.3002 (no interval reported)"
            if s64
            else "64 not measured",
            "cross-model: a same-scale statement, not a test",
            None,
            "different models: the two numbers are on the same scale; no verdict is drawn.",
            "seed summary (GPT-2, 64 tokens)",
        ),
        Claim(
            "… but only through the 1/n in W₁: n × W₁ grows",
            "n W₁, first → last n: "
            + _both(
                {
                    m: f"{first[m] * sp0[m].stats['w1'].value:.2f} → "
                    f"{top[m] * sp[m].stats['w1'].value:.2f}"
                    for m in names
                }
            ),
            "interval of n W₁ at the largest n entirely above the first n's, both models",
            grows,
            _unless_open(
                grows,
                "the unnormalized distance between the sorted spectra falls here.",
                "the intervals of n W₁ at the two lengths overlap: the growth is not resolved.",
            ),
            "derived here",
        ),
        Claim(
            "rank-one averaging is closer to real spectra than the canonical model",
            "median W₁ averaging vs canonical: "
            + _both(
                {
                    m: f"{interval_text(sp[m].stats['w1_avg'], 4)} vs "
                    f"{interval_text(sp[m].stats['w1'], 4)}"
                    for m in names
                }
            ),
            "averaging interval entirely below the canonical interval, both models",
            averaging,
            _unless_open(
                averaging,
                "the canonical model is closer to the real spectra than rank-one averaging.",
                "the intervals of the two references overlap: the data cannot rank them.",
            ),
            "this book's test",
        ),
        Claim(
            "real stable rank ≪ canonical stable rank",
            "real vs canonical: "
            + _both(
                {
                    m: f"{interval_text(sp[m].stats['srank'], 2)} vs "
                    f"{interval_text(sp[m].stats['srank_c'], 2)}"
                    for m in names
                }
            ),
            "real interval entirely below the canonical interval, both models",
            lower,
            _unless_open(
                lower,
                "a real stable rank lies above the canonical one.",
                "the real and canonical intervals overlap: the data cannot order them.",
            ),
            QUOTE_RANKS,
        ),
    ]
    for m, value in formula.items():
        got = sp[m].stats["srank_c"]
        claims.append(
            Claim(
                f"{MODELS[m].display}: canonical srank is the limit $(d_h + 1 - c)/\\alpha_+(c)^2$",
                f"median {got.value:.4f}; formula at $d_h$ = {MODELS[m].head_dim}, "
                f"$c = d_h/n$ = {MODELS[m].head_dim / top[m]:.4f}: {value:.4f}",
                "within 2 bootstrap standard errors (every score singular value is a spike)",
                abs(got.value - value) <= 2 * got.se,
                "some heads' canonical maps are not in the all-spike regime.",
                "derived here (the canonical model's bidirectional stable-rank limit)",
            )
        )
    claims += [
        Claim(
            "real erank₁ > canonical erank₁ at the largest length",
            "real vs canonical: "
            + _both(
                {
                    m: f"{interval_text(sp[m].stats['erank1'], 1)} vs "
                    f"{interval_text(sp[m].stats['erank1_c'], 1)}"
                    for m in names
                }
            ),
            "real interval entirely above the canonical interval, both models",
            higher,
            _unless_open(
                higher,
                "canonical attention has the larger entropy effective rank here.",
                "the real and canonical intervals overlap: the data cannot order them.",
            ),
            QUOTE_RANKS,
        ),
        Claim(
            "the decoder's stable rank grows faster in log n than the encoder's",
            f"slope difference decoder − encoder: {interval_text(d, 3)}"
            if d
            else "one length only",
            "95 % interval entirely above 0",
            faster,
            _unless_open(
                faster,
                "not reproduced: the interval lies below 0, the decoder's stable rank grows more "
                "slowly. The paper's theorem is about canonical attention, and the paper reports "
                "that real ranks differ from canonical ones.",
                "the interval contains 0 (or one length only): the data cannot order the slopes.",
            ),
            "this book's test",
        ),
        Claim(
            "trained heads sit below random initialization on the stable-rank scale",
            f"n = {n_top}: random init {init[n_top].value:.3f} ± {init[n_top].se:.3f}; trained "
            + _both({m: interval_text(v, 2) for m, v in trained.items()}),
            "trained interval entirely below random initialization's mean ± 2 se",
            below_init,
            _unless_open(
                below_init,
                "a trained model's stable rank lies above that of random attention.",
                "a trained interval overlaps random initialization's: the data cannot order them.",
            ),
            "this book's test",
        ),
    ]
    limit = scale.limit
    ns = np.array(sorted(init), float)
    gap = rate_test(ns, [abs(init[int(n)].value / limit - 1) for n in ns], kind="zero")
    last = init[int(ns[-1])]
    claims.append(
        Claim(
            r"random initialization: srank$(A) \to e^{\beta^2}$ "
            "(the Gaussian-equivalent bulk's mean)",
            f"srank at n = {int(ns[-1])}: {last.value:.3f} ± {last.se:.3f} against "
            f"$e^{{\\beta^2}}$ = {limit:.4f}; exponent of the relative gap against n "
            f"{gap.exponent_text(2)}",
            "exponent below 0 by more than 2 se",
            gap.holds,
            "the stable rank at initialization does not approach e^{β²} over these sizes.",
            "derived in this book (Part I); the limit law is Pennington and Worah's",
        )
    )
    return claims
