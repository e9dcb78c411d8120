"""The diagonal order of causal attention (attnspec.canonical.order)."""

import math

import numpy as np
import pytest

from attnspec.canonical import order
from attnspec.core.errors import InvalidInput


def test_two_token_example_and_orders():
    got = order.two_token_eigenvalues(2 * math.log(2))
    assert got["descending"] == pytest.approx([1.0, 0.5])
    assert got["ascending"] == pytest.approx([1.0, 0.8])
    s = np.r_[np.full(2, 6.0), np.linspace(2, 0, 30)]
    for o in order.ORDERS:
        t = order.ordered(s, o, 0)
        assert sorted(t) == pytest.approx(sorted(s))
    assert order.ordered(s, "ascending", 0)[0] == 0
    p = order.order_point(s, "random", 0, dense=True)
    assert p.srank > 1 and p.erank1 > 1 and p.eigenvalues[0] == pytest.approx(1)
    with pytest.raises(InvalidInput, match="order"):
        order.ordered(s, "sideways", 0)
