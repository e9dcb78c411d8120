r"""Array operations shared by the forward passes: normalizations, activations, attention softmax.

The weights are stored in ``float32``, the precision the checkpoints were trained and released in;
the forward passes run in ``float64`` (the embeddings are cast, every product follows), so that the
stored outputs do not depend on the CPU's float32 code paths: float32 round-off differs between
SIMD and scalar paths by about :math:`10^{-7}`, enough to move a singular vector of a token matrix
with a small gap by much more. All functions act on the last axis and broadcast over the leading
ones.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import erf


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    r"""Layer normalization over the last axis.

    .. math::

        \operatorname{LN}(x) = \gamma \odot \frac{x - \mu(x)}{\sqrt{\sigma^2(x) + \varepsilon}}
        + \beta,

    with :math:`\mu` and :math:`\sigma^2` the mean and the (biased) variance of the entries of
    :math:`x`.
    """
    mu = x.mean(axis=-1, keepdims=True)
    centred = x - mu
    var = np.mean(centred * centred, axis=-1, keepdims=True)
    return centred / np.sqrt(var + np.float32(eps)) * weight + bias


def rms_norm(x: np.ndarray, weight: np.ndarray, eps: float) -> np.ndarray:
    r"""Root-mean-square normalization over the last axis.

    .. math::

        \operatorname{RMSNorm}(x) = \gamma \odot \frac{x}{\sqrt{\tfrac{1}{d}\sum_k x_k^2
        + \varepsilon}}.
    """
    ms = np.mean(x * x, axis=-1, keepdims=True)
    return x / np.sqrt(ms + np.float32(eps)) * weight


def gelu(x: np.ndarray) -> np.ndarray:
    r"""Exact GELU (erf form).

    .. math::

        \operatorname{GELU}(x) = \frac{x}{2}\Big(1 + \operatorname{erf}\big(x/\sqrt 2\big)\Big).
    """
    return 0.5 * x * (1.0 + erf(x * (1.0 / math.sqrt(2.0))))


def silu(x: np.ndarray) -> np.ndarray:
    r"""SiLU (swish), :math:`\operatorname{SiLU}(x) = x / (1 + e^{-x})`."""
    return x / (1.0 + np.exp(-x))


def attention_softmax(scores: np.ndarray, causal: bool) -> np.ndarray:
    r"""Row softmax of score matrices, optionally under the causal mask.

    For scores :math:`S` of shape ``(..., n, n)`` it returns

    .. math::

        A_{ij} = \frac{e^{S_{ij}}\,[j \in M_i]}{\sum_{k \in M_i} e^{S_{ik}}},
        \qquad M_i = \{1, \dots, n\} \text{ (bidirectional)}, \quad
        M_i = \{1, \dots, i\} \text{ (causal)}.

    Masked scores are set to :math:`-\infty` before the row maximum is subtracted, so the upper
    triangle of a causal map is exactly zero, not merely small.

    Parameters
    ----------
    scores : numpy.ndarray
        Score matrices, shape ``(..., n, n)``; not modified.
    causal : bool
        Apply the causal mask (position :math:`i` sees positions :math:`j \le i` only).

    Returns
    -------
    numpy.ndarray
        Attention probabilities, same shape; every row sums to 1.
    """
    if causal:
        n = scores.shape[-1]
        scores = np.where(np.triu(np.ones((n, n), dtype=bool), k=1), -np.inf, scores)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    e /= e.sum(axis=-1, keepdims=True)
    return e
