"""Numpy forward passes of small pretrained transformers."""
