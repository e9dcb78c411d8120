r"""The real-model numbers the spectral-degeneration paper reports, for comparison tables.

Spectral Degeneration of Self-Attention under Isotropic Score Geometry (2025), empirical
comparisons of real and canonical attention on GPT-2 (Wikitext-103, lengths 64 to 1,024) and
ViT-B/16 (SWAG weights, 384 × 384 Imagenette images, :math:`\ell = 577`). Each value is transcribed
as the paper reports it; the field ``key`` names the statistic this book computes for comparison.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PaperValue:
    r"""One reported number.

    Attributes
    ----------
    key : str
        The statistic: ``w1``/``w1_last`` (median real-vs-canonical singular-value :math:`W_1`,
        all layers / last layer), ``w1_layer_range`` (range of per-layer medians), ``srank``,
        ``srank_c``, ``erank1``, ``erank1_c`` (pooled medians, real / canonical).
    quantity : str
        Description for a table.
    value : str
        As reported.
    model : str
        The paper's model.
    length : int
        The paper's sequence length :math:`\ell`.
    """

    key: str
    quantity: str
    value: str
    model: str
    length: int


PAPER_VALUES: tuple[PaperValue, ...] = (
    PaperValue("w1", "median W₁(real, canonical), all layers", "0.3002", "GPT-2", 64),
    PaperValue("w1", "median W₁(real, canonical), all layers", "0.0942", "GPT-2", 1024),
    PaperValue("w1_last", "median W₁(real, canonical), last layer", "0.3290", "GPT-2", 64),
    PaperValue("w1_last", "median W₁(real, canonical), last layer", "0.0748", "GPT-2", 1024),
    PaperValue("w1_layer_range", "range of per-layer median W₁", "0.0367–0.1037", "ViT-B/16", 577),
    PaperValue("srank", "median stable rank, real", "1.18", "GPT-2", 1024),
    PaperValue("srank_c", "median stable rank, canonical", "27.51", "GPT-2", 1024),
    PaperValue("erank1", "median erank₁, real", "314.06", "GPT-2", 1024),
    PaperValue("erank1_c", "median erank₁, canonical", "95.12", "GPT-2", 1024),
)

#: The paper's length bands of the score-factor reading (GPT-2): the mean angular W₁ of both
#: score singular factors is "about 0.31 in the 17–64 length band" and "0.10 in the 385–471
#: band"; the pooled ViT-B/16 mean (ℓ = 577) is "about 0.08".
PAPER_BANDS: tuple[tuple[int, int], ...] = ((17, 64), (385, 471))
PAPER_BAND_W1 = {(17, 64): "0.31", (385, 471): "0.10"}
PAPER_VIT_W1 = "0.08"
