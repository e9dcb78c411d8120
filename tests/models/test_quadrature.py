"""Gauss-Hermite quadrature against the closed forms of the theta statistics."""

import math

import numpy as np
import pytest

from attnspec.core.errors import InvalidInput
from attnspec.models.nonlinearity import Q, f, taylor_exp, theta_f, theta_q
from attnspec.models.quadrature import gaussian_expectation, thetas


def test_quadrature_reproduces_the_closed_forms():
    b, n = 1.0, 8
    assert thetas(lambda x: f(x, b), lambda x: b * np.exp(b * x - b * b / 2)) == pytest.approx(
        theta_f(b), abs=1e-12
    )

    def dq(x):
        return math.exp(-b * b / 2) * b * taylor_exp(b * x, n - 1)

    assert thetas(lambda x: Q(x, b, n), dq) == pytest.approx(theta_q(b, n), abs=1e-12)
    assert gaussian_expectation(lambda x: x**4) == pytest.approx(3.0)
    with pytest.raises(InvalidInput, match="nodes=0"):
        gaussian_expectation(lambda x: x, nodes=0)
