"""The registry of pretrained models, :func:`iter_layers` (one layer at a time) and
:func:`attention_maps`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
from tokenizers import Encoding

from attnspec.core import validate
from attnspec.real import minilm, smollm
from attnspec.real import trace as _trace
from attnspec.real.trace import LayerPass, Trace


@dataclass(frozen=True)
class ModelInfo:
    """Facts about one pretrained model and the functions that run it.

    Attributes
    ----------
    name : str
        Registry key.
    title : str
        Checkpoint name and architecture, for tables and captions.
    causal : bool
        ``True`` for a decoder (causal mask), ``False`` for a bidirectional encoder.
    layers, heads, kv_heads, head_dim, hidden : int
        Number of layers, of query heads, of key/value heads; head size; residual width.
    max_tokens : int
        Largest supported input length in tokens.
    requirement : str
        Pip requirement of the package that ships the weights.
    license : str
        License of the weights.
    encode : callable
        ``encode(text, max_tokens)`` returns the :class:`tokenizers.Encoding` the model sees.
    trace : callable
        ``trace(text, max_tokens, scores=False)`` returns a :class:`~attnspec.real.trace.Trace`.
    embed : callable
        ``embed(ids)``: the token matrix entering layer 0, shape ``(n, hidden)``.
    layer : callable
        ``layer(index, x)`` returns ``(next hidden state, attention, scores)`` of layer ``index``.
    display : str
        Display name in tables and figures, e.g. ``"MiniLM-L6 (encoder)"``.
    """

    name: str
    title: str
    causal: bool
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    hidden: int
    max_tokens: int
    requirement: str
    license: str
    encode: Callable[[str, int], Encoding]
    trace: Callable[..., Trace]
    embed: Callable[[np.ndarray], np.ndarray]
    layer: Callable[[int, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]
    display: str


def _entry(module, **architecture) -> ModelInfo:
    """A registry entry: name, length limit, weight package and functions from the model's
    module."""
    return ModelInfo(
        name=module.NAME,
        max_tokens=module.MAX_TOKENS,
        requirement=module.REQUIREMENT,
        encode=module.encode,
        trace=module.trace,
        embed=module.embed,
        layer=module.layer,
        **architecture,
    )


MODELS: dict[str, ModelInfo] = {
    "minilm": _entry(
        minilm,
        title="all-MiniLM-L6-v2 (BERT encoder)",
        causal=False,
        layers=6,
        heads=12,
        kv_heads=12,
        head_dim=32,
        hidden=384,
        license="Apache-2.0",
        display="MiniLM-L6 (encoder)",
    ),
    "smollm": _entry(
        smollm,
        title="SmolLM2-135M-Instruct, Q4_1 GGUF (Llama decoder)",
        causal=True,
        layers=30,
        heads=9,
        kv_heads=3,
        head_dim=64,
        hidden=576,
        license="Apache-2.0",
        display="SmolLM2-135M (decoder)",
    ),
}


def get_model(name: str) -> ModelInfo:
    """Look up a model by registry name.

    Raises
    ------
    attnspec.core.errors.InvalidInput
        If ``name`` is not a key of :data:`MODELS`; the message lists the valid names.
    """
    return MODELS[validate.choice("model", name, sorted(MODELS))]


def iter_layers(model: str, text: str, max_tokens: int) -> Iterator[LayerPass]:
    r"""Forward pass of a registered model on a text, one :class:`~attnspec.real.trace.LayerPass`
    per layer.

    The same computation as ``get_model(model).trace(text, max_tokens, scores=True)``
    (:func:`attnspec.real.trace.iter_layers` with the model's ``embed`` and ``layer``), but each
    layer's arrays are released once the caller moves on, so memory stays at one layer's maps.

    Parameters
    ----------
    model : str
        Registry name.
    text : str
        The input text; its first ``max_tokens`` tokens are used.
    max_tokens : int
        Largest number of tokens :math:`n`.
    """
    info = get_model(model)
    return _trace.iter_layers(
        info.embed, info.layer, info.encode(text, max_tokens).ids, info.layers
    )


def attention_maps(model: str, text: str, max_tokens: int = 512) -> tuple[np.ndarray, int]:
    r"""Attention probabilities of every layer and head of a pretrained model on a text.

    Parameters
    ----------
    model : str
        ``"minilm"`` (bidirectional) or ``"smollm"`` (causal).
    text : str
        The input text; only its first ``max_tokens`` tokens are used.
    max_tokens : int, default 512
        Largest number of tokens :math:`n`, special tokens included.

    Returns
    -------
    attention : numpy.ndarray
        Shape ``(layers, heads, n, n)``, ``float64``; map :math:`(l, h)` is the row-stochastic
        matrix :math:`A^{(l,h)} = \operatorname{softmax}(Q K^\top / \sqrt{d_h})` of head
        :math:`h` in layer :math:`l`, lower triangular for a causal model.
    n : int
        The number of tokens :math:`n`; smaller than ``max_tokens`` when the text is shorter.

    Raises
    ------
    ValueError
        For an unknown model or a ``max_tokens`` outside ``[2, max_tokens of the model]``.
    """
    trace = get_model(model).trace(text, max_tokens)
    return trace.attention, trace.n
