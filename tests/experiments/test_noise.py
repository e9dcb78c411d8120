"""The noise floor of the reference bulk, and rankings it resolves."""

import numpy as np
import pytest

from attnspec.core.config import Config
from attnspec.experiments.noise import noise_floor, reference_bulk, resolved_order
from attnspec.experiments.trials import run_ladder
from attnspec.models.ladder import REFERENCE
from attnspec.numerics.spectra import METRICS


def test_noise_floor_repeats_the_reference_from_other_seeds(cache_dir):
    config = Config(d=40, trials=2, seed=7)
    ref = run_ladder(config).bulk(REFERENCE)
    assert np.allclose(np.sort(reference_bulk(config, 7)), np.sort(ref), atol=1e-10)
    floor = noise_floor(config, ref, repetitions=2)
    assert floor.values["ks"].shape == (2,) and np.all(floor.values["ks"] > 0)
    assert floor.max("w1") >= floor.mean("w1") > 0
    assert set(floor.values) == set(METRICS)


@pytest.mark.parametrize(
    "distances, verdict",
    [
        ({"a": 0.1, "b": 0.2, "c": 0.5}, True),  # c is farther than a and b by more than 0.1
        ({"a": 0.1, "b": 0.45, "c": 0.5}, None),  # b and c cannot be told apart
        ({"a": 0.1, "b": 0.9, "c": 0.5}, False),  # b is farther than c, resolved
    ],
)
def test_resolved_order(distances, verdict):
    assert resolved_order(distances, ["a", "b"], ["c"], 0.1) is verdict
