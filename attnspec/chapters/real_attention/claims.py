"""The claims of the chapter "Real pretrained attention": the U_X diagnostic against Haar O(n)
(one claim per distance, and their fall with length), the rotation R(S), the literal reading of
the full score factors and the seed summary's length bands."""

from __future__ import annotations

import math

from ...numerics.intervals import all_hold, interval_below
from ...present.claims import Claim
from ...real.paper import PAPER_BAND_W1, PAPER_BANDS, PAPER_VIT_W1
from ...real.study import Study, band_falls, detectable
from ..shared import ZERO, decimals, interval_text, per_model, short_name, unless_open

#: The three distances of eigen-angles to the uniform law: KL, Kolmogorov, circular W₁.
KEYS = ("kl", "ks", "w1")

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


def chapter_claims(study: Study) -> list[Claim]:
    """The U_X diagnostic, R(S), the literal reading, the bands."""
    return [
        *isotropy_claims(study),
        fall_claim(study),
        rotation_claim(study),
        literal_claim(study),
        band_claim(study),
    ]


def _at_top(study: Study, what: str) -> dict:
    """Model -> the summary ``what`` (``tokens``, ``rotation``, ``literal``) at its largest n."""
    return {m: getattr(study, what)[(m, study.top(m))] for m in study.lengths}


def isotropy_claims(study: Study) -> list[Claim]:
    """One claim per distance (KL, Kolmogorov, W₁): the eigen-angles of U_X against the Haar 95th
    percentile at the largest n, one-sided (✗ above, else ○)."""
    names = list(study.lengths)
    tok = _at_top(study, "tokens")
    above = {
        key: any(tok[m].intervals[key].low > tok[m].haar.q95.get(key) for m in names)
        for key in KEYS
    }
    out = []
    for key, label in (("kl", "KL (50 bins)"), ("ks", "Kolmogorov"), ("w1", "W₁")):
        reach = detectable(tok, names, key)
        out.append(
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
    return out


def fall_claim(study: Study) -> Claim:
    """The U_X distances decrease with length: every exponent's interval below 0."""
    slopes = {m: study.token_slopes[m] for m in study.lengths if m in study.token_slopes}
    falls = all_hold(interval_below(s[key].span(), ZERO) for s in slopes.values() for key in KEYS)
    return Claim(
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
            "some exponent's interval contains 0 (or one length only): the fall is not resolved.",
        ),
        QUOTE_ISOTROPY,
    )


def rotation_claim(study: Study) -> Claim:
    """R(S) is Haar: at most 0.05 + 2 binomial standard errors of the heads outside the Haar
    95 % range."""
    names = list(study.lengths)
    rot = _at_top(study, "rotation")
    heads = {m: len(study.heads[(m, study.top(m))]) for m in names}
    bound = {m: 0.05 + 2 * math.sqrt(0.05 * 0.95 / heads[m]) for m in names}
    return Claim(
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


def literal_claim(study: Study) -> Claim:
    """The full score factor's eigen-angles at the Haar level, within 2 combined standard
    errors."""
    names = list(study.lengths)
    lit = _at_top(study, "literal")
    return Claim(
        "the literal reading (eigen-angles of the full score factor $U$) is at the Haar level",
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


def band_claim(study: Study) -> Claim:
    """The score factors' fall from the first to the second band: ○, since Haar falls too."""
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
