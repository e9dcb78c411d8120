"""Edge scale of a law: the square-root constant against Marchenko–Pastur's closed form."""

from __future__ import annotations

import numpy as np
import pytest

from attnspec.core.errors import InvalidInput
from attnspec.laws.edge import edge_scale
from attnspec.laws.gaussian_equivalent import GaussianEquivalentLaw
from attnspec.laws.marchenko_pastur import MarchenkoPastur


@pytest.mark.parametrize("scale", [0.5, 1.0, 3.0])
def test_square_root_constant_of_marchenko_pastur(scale):
    # q(x) = sqrt((4 s - x) x) / (2 pi s x) ~ sqrt(4 s - x) / (4 pi s^(3/2)) at the edge 4 s
    e = edge_scale(MarchenkoPastur(scale), 1000)
    assert e.edge == pytest.approx(4 * scale)
    assert e.sqrt_constant == pytest.approx(1 / (4 * np.pi * scale**1.5), rel=1e-4)
    assert e.spacing == pytest.approx((3 / (2 * e.sqrt_constant * 1000)) ** (2 / 3))
    assert edge_scale(MarchenkoPastur(scale), 8000).spacing == pytest.approx(e.spacing / 4)


def test_one_value_per_spacing_below_the_edge():
    law = GaussianEquivalentLaw.for_f(1.0)
    e = edge_scale(law, 1000)
    assert 1000 * (1 - law.cdf(e.edge - e.spacing)) == pytest.approx(1.0, rel=0.02)
    assert e.in_spacings([e.edge + e.spacing])[0] == pytest.approx(1.0)


def test_invalid_d():
    with pytest.raises(InvalidInput, match="d=0"):
        edge_scale(MarchenkoPastur(1.0), 0)
