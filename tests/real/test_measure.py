"""Records of a model on a text and their cache (attnspec.real.measure)."""

import numpy as np
import pytest

from attnspec.real import (
    measure,
)


@pytest.mark.weights
def test_measure_text_records_and_cache_round_trip(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNSPEC_CACHE", str(tmp_path))
    m = measure.measure_text(
        "minilm", "lincoln", [8, 16], spectrum_heads=2, literal_heads=[(0, 0)], draws=3
    )
    records = m.heads
    assert len(records) == 2 * 6 * 12 and [r.n for r in records[:72]] == [8] * 72
    assert {r.head for r in records if r.sv_real is not None} == {0, 11}
    first = records[0]
    assert first.rank == 8 and first.angles.size == 8 and first.sv_canonical.size == 8
    assert first.literal_w1.shape == (3, 2) and records[1].literal_w1 is None
    assert (
        len(m.layers) == 2 * 6 and m.layers[0].distances.shape == (3, 3) and m.layers[0].rank == 8
    )
    again = measure.measure_text(
        "minilm", "lincoln", [8, 16], spectrum_heads=2, literal_heads=[(0, 0)], draws=3
    )
    assert len(list(tmp_path.iterdir())) == 1
    for a, b in zip(records, again.heads, strict=True):
        assert (a.n, a.layer, a.head) == (b.n, b.layer, b.head) and np.array_equal(
            a.angles, b.angles
        )
        assert (a.sv_real is None) == (b.sv_real is None)
    assert np.array_equal(m.layers[3].distances, again.layers[3].distances)
    with pytest.raises(ValueError):
        measure.measure_text("minilm", "lincoln", [600])
