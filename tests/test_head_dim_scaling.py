"""The scan d_qk = ceil(d^alpha): head dimensions, the crossing of the rate and its standard error,
the scan's points and rates, its parameters (the scan's table, values, claims and figures:
tests/test_chapter_head_dimension.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnspec.chapters.declarations import HEAD_DIMENSION
from attnspec.core.errors import InvalidInput
from attnspec.experiments import head_dim as hd
from attnspec.experiments import head_dim_scaling as hs


def test_head_dims_are_ceilings_of_exact_powers():
    assert hs.head_dim_at(256, 0.75) == 64  # 256^(3/4) = 64 exactly, not 65 by round-off
    assert hs.head_dim_at(1024, 0.75) == 182  # 181.02...
    assert hs.head_dim_at(2048, 0.5) == 46
    assert hs.head_dim_at(4096, 0.5) == 64
    assert [hs.head_dim_at(d, 1.0) for d in (256, 2048)] == [256, 2048]


def test_crossing_of_a_linear_rate_and_its_propagated_error():
    alphas = [1.0, 0.8, 0.6, 0.4]
    rates = [0.6, 0.4, 0.2, -0.2]  # crosses between 0.6 and 0.4, at 0.5
    ses = [0.01, 0.01, 0.02, 0.04]
    cross = hs.rate_crossing(alphas, rates, ses)
    assert cross.alpha == pytest.approx(0.5) and cross.bracket == (0.4, 0.6)

    # the delta method against finite differences of the interpolation
    def star(ra, rb):
        return 0.6 - 0.2 * ra / (ra - rb)

    h = 1e-6
    da = (star(0.2 + h, -0.2) - star(0.2 - h, -0.2)) / (2 * h)
    db = (star(0.2, -0.2 + h) - star(0.2, -0.2 - h)) / (2 * h)
    assert cross.se == pytest.approx(math.hypot(da * 0.02, db * 0.04), rel=1e-6)
    # order of the input does not matter
    assert hs.rate_crossing(alphas[::-1], rates[::-1], ses[::-1]) == cross


def test_no_crossing_is_a_bound():
    above = hs.rate_crossing([1.0, 0.5], [0.5, 0.1], [0.01, 0.01])
    assert math.isnan(above.alpha) and above.bound == "below"
    below = hs.rate_crossing([1.0, 0.5], [-0.5, -0.1], [0.01, 0.01])
    assert math.isnan(below.alpha) and below.bound == "above"


@pytest.fixture
def scan(monkeypatch):
    monkeypatch.setattr(hd, "map_processes", lambda func, args: [func(*a) for a in args])
    return hs.run_alpha_scan([1.0, 0.5], [24, 32, 48, 64], 1.0, 0, 96, 1)


def test_scan_points_and_rates(scan):
    assert scan.alphas == [1.0, 0.5]
    assert [p.d_qk for p in scan.points[0.5]] == [5, 6, 7, 8]
    assert [p.trials for p in scan.points[1.0]] == [4, 3, 2, 2]
    assert all(np.isfinite(scan.rate(a)[0]) for a in scan.alphas)


@pytest.mark.parametrize(
    "values, message",
    [
        ({"alpha_d_values": [256, 512, 1024]}, "needs at least 4 distinct sizes"),
        ({"alphas": [0.5, 0.5]}, "needs at least 2 distinct exponents"),
        ({"alphas": [1.5]}, "alphas=1.5 is out of range"),
        ({"real_contexts": [32, 4096]}, "real_contexts=[32, 4096] is out of range"),
    ],
)
def test_scan_rules(values, message):
    with pytest.raises(InvalidInput, match=message.replace("[", r"\[").replace("]", r"\]")):
        HEAD_DIMENSION.validate(values)
