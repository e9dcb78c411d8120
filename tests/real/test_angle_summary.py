"""Eigen-angle summaries and their Haar floors (attnspec.real.angle_summary)."""

import math

from attnspec.real import (
    angle_summary,
)


def test_haar_floor_is_reproducible_and_ordered():
    floor = angle_summary.haar_floor(16, 0, 50)
    assert floor == angle_summary.haar_floor(16, 0, 50) and floor.reps == 20
    assert 0 < floor.median.w1 <= floor.w1_q95 < math.pi / 2
