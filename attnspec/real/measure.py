r"""Measure every head and layer of a pretrained model on one text: the records the chapter
summarizes (:mod:`attnspec.real.records`).

:func:`measure_text` runs a model on a text and returns a
:class:`~attnspec.real.records.TextMeasurement`; results go through
:func:`attnspec.core.cache.cached`.
"""

from __future__ import annotations

import numpy as np

from attnspec.core import cache, validate
from attnspec.core.errors import InvalidInput
from attnspec.real import circular
from attnspec.real.models import get_model, iter_layers
from attnspec.real.records import (
    PACKED,
    HeadRecord,
    LayerRecord,
    TextMeasurement,
    head_record,
    layer_record,
    pack,
    unpack,
)
from attnspec.real.texts import read_text

#: Bump when a record changes meaning or how it is computed (part of the cache key).
RECORD_FORMAT = 4


def _measure(
    model: str,
    text: str,
    lengths: list[int],
    chosen: set[int],
    literal_heads: set,
    draws: int,
    seed: int,
    bins: int,
    tokens: bool,
    band: list[int] = (),
) -> TextMeasurement:
    info = get_model(model)
    body = read_text(text)
    extra = sorted(set(band) - set(lengths))
    heads: dict[int, list[HeadRecord]] = {n: [] for n in sorted(set(lengths) | set(extra))}
    layers: dict[int, list[LayerRecord]] = {n: [] for n in lengths}

    def measure_band(n, p, attention, scores):
        heads[n].extend(
            head_record(model, text, p.index, h, attention[h], scores[h], False, draws, seed)
            for layer, h in sorted(literal_heads)
            if layer == p.index
        )

    def measure_layer(n, p, attention, scores, X):
        heads[n].extend(
            head_record(
                model,
                text,
                p.index,
                h,
                attention[h],
                scores[h],
                spectra=h in chosen,
                draws=draws if (p.index, h) in literal_heads else 0,
                seed=seed,
            )
            for h in range(info.heads)
        )
        if tokens:
            layers[n].append(layer_record(model, text, p.index, X, draws, seed, bins))

    if info.causal:
        for p in iter_layers(model, body, max(lengths[-1], *extra, 0)):
            for n in (n for n in lengths if n <= p.attention.shape[-1]):
                measure_layer(n, p, p.attention[:, :n, :n], p.scores[:, :n, :n], p.hidden_in[:n])
            for n in (n for n in extra if n <= p.attention.shape[-1]):
                measure_band(n, p, p.attention[:, :n, :n], p.scores[:, :n, :n])
    else:
        total = len(info.encode(body, max(lengths[-1], *extra, 0)).ids)
        for n in (n for n in lengths if n <= total):
            for p in iter_layers(model, body, n):
                measure_layer(n, p, p.attention, p.scores, p.hidden_in)
        for n in (n for n in extra if n <= total):
            for p in iter_layers(model, body, n):
                measure_band(n, p, p.attention, p.scores)
    return TextMeasurement(
        [r for n in sorted(heads) for r in heads[n]], [r for n in lengths for r in layers[n]]
    )


def measure_text(
    model: str,
    text: str,
    lengths,
    spectrum_heads: int | None = None,
    literal_heads=(),
    draws: int = 5,
    seed: int = 0,
    bins: int = circular.ANGLE_BINS,
    tokens: bool = True,
    band_lengths=(),
) -> TextMeasurement:
    r"""Measure every head and every layer of a model on one shipped text at each length.

    The encoder runs once per length (bidirectional attention on n tokens depends on all n); the
    decoder runs once at the largest length and each length n uses the leading :math:`n \times n`
    blocks of its scores and maps and the first n rows of its token matrices, which by causality
    are those of a run on the first n tokens. Cached with :func:`attnspec.core.cache.cached`.

    Parameters
    ----------
    model : str
        ``"minilm"`` or ``"smollm"``.
    text : str
        Name of a shipped text (:data:`attnspec.real.texts.TEXT_NAMES`).
    lengths : list of int
        Token counts n, each from 2 to the model's ``max_tokens``.
    spectrum_heads : int, optional
        Full singular-value spectra for this many heads per layer, evenly spaced; default all.
    literal_heads : collection of (layer, head)
        Heads on which the literal full-factor reading is measured (``draws`` conventions each).
    draws : int
        Number of seeded conventions, for the literal reading and for :math:`U_X`.
    seed : int
        Root seed of the conventions.
    bins : int
        Histogram bins of the KL divergence.
    tokens : bool
        Also run the paper's :math:`U_X` diagnostic on every layer (:func:`layer_record`).
    band_lengths : list of int
        Further token counts at which only the ``literal_heads`` are measured (their records have
        neither spectra nor a layer record): the paper's length bands of the score-factor
        reading.
    """
    info = get_model(model)
    lengths = sorted({int(n) for n in lengths})
    band = sorted({int(n) for n in band_lengths})
    for name, values in (("lengths", lengths), ("band_lengths", band)):
        if (values or name == "lengths") and (
            not values or values[0] < 2 or values[-1] > info.max_tokens
        ):
            raise InvalidInput(
                f"{name} must be in [2, {info.max_tokens}] for {model}, got {values}"
            )
    draws = validate.integer("draws", draws, 1)
    m = info.heads if spectrum_heads is None else max(1, min(int(spectrum_heads), info.heads))
    chosen = sorted(set(np.linspace(0, info.heads - 1, m).round().astype(int).tolist()))
    literal = sorted({(int(layer), int(h)) for layer, h in literal_heads})
    params = {
        "model": model,
        "text": text,
        "lengths": "-".join(map(str, lengths)),
        "heads": "-".join(map(str, chosen)),
        "literal": "-".join(f"{layer}.{h}" for layer, h in literal),
        "draws": int(draws),
        "seed": int(seed),
        "bins": int(bins),
        "tokens": int(bool(tokens)),
        "band": "-".join(map(str, band)),
        "record": RECORD_FORMAT,
    }
    arrays = cache.cached(
        "realtext",
        params,
        lambda: pack(
            _measure(
                model,
                text,
                lengths,
                set(chosen),
                set(literal),
                int(draws),
                int(seed),
                int(bins),
                bool(tokens),
                band,
            )
        ),
        expected=dict.fromkeys(PACKED),
    )
    return unpack(model, text, arrays)
