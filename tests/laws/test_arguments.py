"""Argument checks of the law-side modules: one-line messages naming parameter, value and range."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnspec.core.errors import InvalidInput
from attnspec.experiments.normalizer import normalizer_mean, normalizer_stats
from attnspec.laws.edge import edge_scale
from attnspec.laws.marchenko_pastur import MarchenkoPastur
from attnspec.laws.predictions import normalizer_std
from attnspec.models.quadrature import gaussian_expectation


@pytest.mark.parametrize(
    "call, text",
    [
        (lambda: edge_scale(MarchenkoPastur(1.0), 0), "d=0 is out of range: must be an int >= 1"),
        (lambda: edge_scale(MarchenkoPastur(1.0), 10.0), "d=10.0 is not an integer"),
        (lambda: gaussian_expectation(np.cos, nodes=0), "nodes=0 is out of range"),
        (lambda: gaussian_expectation(np.cos, nodes=2.5), "nodes=2.5 is not an integer"),
        (lambda: normalizer_mean(1.0, 0.5), "d=0.5 is out of range: must be a finite real >= 1.0"),
        (lambda: normalizer_mean(math.nan, 10), "beta=nan is not finite"),
        (lambda: normalizer_mean(5.0, 10), "beta=5.0 is out of range for d=10.0"),
        (lambda: normalizer_stats(np.ones(4), 0), "trials=0 is out of range: must be an int >= 1"),
        (lambda: normalizer_stats(np.ones(4), 3), "trials=3 is out of range: must divide"),
        (lambda: normalizer_std(-1.0, 10), "beta=-1.0 is out of range: must be a finite real >= 0"),
        (lambda: normalizer_std(1.0, [10, 0]), "d=[10, 0] is out of range"),
        (lambda: normalizer_std(1.0, math.inf), "d=inf is not finite"),
        (lambda: normalizer_std("x", 10), "beta='x' is not a real number"),
        (lambda: MarchenkoPastur(0.0), "scale=0.0 is out of range: must be a finite real > 0"),
    ],
)
def test_messages(call, text):
    with pytest.raises(InvalidInput) as info:
        call()
    message = str(info.value)
    assert text in message and "\n" not in message


def test_valid_arguments_are_unchanged():
    assert normalizer_mean(-1.0, 1000) == normalizer_mean(1.0, 1000)  # even in beta, as before
    assert edge_scale(MarchenkoPastur(1.0), np.int64(100)).d == 100
    assert gaussian_expectation(lambda x: x**2, nodes=np.int64(20)) == pytest.approx(1.0)
