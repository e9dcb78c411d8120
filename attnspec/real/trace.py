"""What a forward pass records, and the validation of the requested length."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from attnspec.core import validate

MIN_TOKENS = 2


@dataclass(frozen=True)
class Trace:
    r"""The record of one forward pass over one text.

    Attributes
    ----------
    model : str
        Registry name of the model (``"minilm"`` or ``"smollm"``).
    tokens : list of str
        The :math:`n` tokens the model saw, special tokens included.
    ids : numpy.ndarray
        Their vocabulary ids, shape ``(n,)``.
    attention : numpy.ndarray
        Attention probabilities :math:`A^{(l,h)} = \operatorname{softmax}(S^{(l,h)})`, shape
        ``(layers, heads, n, n)``, ``float64``; row :math:`i` of map :math:`(l, h)` is the
        distribution with which position :math:`i` reads the values in head :math:`h` of layer
        :math:`l` (zero-based).
    hidden : numpy.ndarray
        Residual-stream states, shape ``(layers + 1, n, hidden_size)``: entry 0 is the embedding
        output, entry :math:`l + 1` the output of layer :math:`l`.
    scores : numpy.ndarray or None
        Pre-softmax scores :math:`S^{(l,h)} = Q K^\top / \sqrt{d_h}` before any mask, same shape
        as ``attention``; only when requested.
    logits : numpy.ndarray or None
        Next-token logits at the last position, shape ``(vocab,)``; decoder only.
    """

    model: str
    tokens: list[str]
    ids: np.ndarray
    attention: np.ndarray
    hidden: np.ndarray
    scores: np.ndarray | None = None
    logits: np.ndarray | None = None

    @property
    def n(self) -> int:
        """Number of tokens :math:`n`."""
        return len(self.ids)


@dataclass(frozen=True)
class LayerPass:
    r"""One layer of a forward pass.

    Attributes
    ----------
    index : int
        Zero-based layer number :math:`l`.
    hidden_in : numpy.ndarray
        The token matrix :math:`X` entering the layer, shape ``(n, hidden_size)``: the states from
        which the layer's queries and keys are computed.
    hidden_out : numpy.ndarray
        The state leaving the layer, shape ``(n, hidden_size)``.
    attention, scores : numpy.ndarray
        Shape ``(heads, n, n)``: :math:`A^{(l,h)}` and :math:`S^{(l,h)} = Q K^\top/\sqrt{d_h}`
        before any mask.
    """

    index: int
    hidden_in: np.ndarray
    hidden_out: np.ndarray
    attention: np.ndarray
    scores: np.ndarray


def iter_layers(
    embed: Callable[[np.ndarray], np.ndarray],
    layer: Callable[[int, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]],
    ids: np.ndarray,
    layers: int,
) -> Iterator[LayerPass]:
    """The one layer loop of every forward pass: embed the ids, then apply the layers in order.

    Each layer's arrays are handed over before the next layer runs, so a caller that drops them
    keeps one layer's maps in memory. :func:`attnspec.real.models.iter_layers` calls it with a
    model's ``embed`` and ``layer``; :func:`record` collects it into a :class:`Trace`.
    """
    x = embed(np.asarray(ids))
    for index in range(int(layers)):
        y, attention, scores = layer(index, x)
        yield LayerPass(index, x, y, attention, scores)
        x = y


def record(
    model: str,
    encoding,
    passes: Iterator[LayerPass],
    scores: bool = False,
    logits: Callable[[np.ndarray], np.ndarray] | None = None,
) -> Trace:
    """Collect the layers of :func:`iter_layers` into a :class:`Trace`.

    ``logits`` maps the last position's final state to next-token logits (decoders).
    """
    hidden, maps, raw = [], [], []
    for p in passes:
        if not hidden:
            hidden.append(p.hidden_in)
        hidden.append(p.hidden_out)
        maps.append(p.attention)
        if scores:
            raw.append(p.scores)
    return Trace(
        model=model,
        tokens=list(encoding.tokens),
        ids=np.asarray(encoding.ids),
        attention=np.stack(maps),
        hidden=np.stack(hidden),
        scores=np.stack(raw) if scores else None,
        logits=None if logits is None else logits(hidden[-1][-1]),
    )


def check_max_tokens(max_tokens: int, limit: int, model: str) -> int:
    """Validate a requested token count.

    Parameters
    ----------
    max_tokens : int
        Requested maximum number of tokens.
    limit : int
        The model's largest supported length.
    model : str
        Registry name of the model, for the message.

    Returns
    -------
    int
        ``max_tokens`` as a Python ``int``.

    Raises
    ------
    attnspec.core.errors.InvalidInput
        If ``max_tokens`` is not an integer in ``[2, limit]``; the message names the parameter (with
        the model), the value and the valid range.
    """
    return validate.integer(f"max_tokens of {model}", max_tokens, MIN_TOKENS, limit)
