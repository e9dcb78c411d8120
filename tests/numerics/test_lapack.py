"""LAPACK's two-stage eigenvalue driver, reached through the OpenBLAS numpy loaded."""

from __future__ import annotations

import numpy as np
import pytest

from attnspec.numerics import lapack
from attnspec.numerics.spectra import squared_singular_values_of_gram


def test_numpys_openblas_has_the_two_stage_driver():
    """On the platforms the lock targets (numpy's wheels bundle OpenBLAS), the driver is found:
    without it the large spectra fall back to dsyevd, correct but 2-3x slower."""
    assert lapack.two_stage_driver() is not None, lapack._loaded_openblas()


def test_a_library_path_with_spaces_is_read_whole():
    """A checkout at a path with a space (as CI's fresh clone is) keeps its OpenBLAS."""
    line = "7f00-7f10 r-xp 00000000 fe:01 42   /tmp/a b/.venv/numpy.libs/libscipy_openblas64_.so\n"
    other = "7f20-7f30 r--p 00000000 fe:01 43   /usr/lib/libc.so.6\n"
    assert lapack.openblas_paths([line, other]) == [
        "/tmp/a b/.venv/numpy.libs/libscipy_openblas64_.so"
    ]


@pytest.mark.parametrize("kind", ["gaussian", "spiked", "low_rank"])
def test_two_stage_eigenvalues_equal_dsyevd_and_leave_the_input_alone(monkeypatch, kind):
    monkeypatch.setattr(lapack, "TWO_STAGE_MIN", 2)
    rng = np.random.default_rng(7)
    M = rng.standard_normal((400, 400)) / 20
    if kind == "spiked":
        M += 30.0 / 400
    elif kind == "low_rank":
        M = M[:, :5] @ M[:5, :]
    G = M @ M.T
    before = G.copy()
    got, want = lapack.eigvalsh(G), np.linalg.eigvalsh(G)
    assert np.array_equal(G, before)
    assert np.all(np.diff(got) >= 0)
    assert np.max(np.abs(got - want)) <= 1e-13 * want[-1]
    s2 = squared_singular_values_of_gram(G)
    assert np.max(np.abs(s2 - np.maximum(want[::-1], 0))) <= 1e-13 * want[-1]


def test_small_matrices_use_numpy(monkeypatch):
    calls = []
    monkeypatch.setattr(lapack, "two_stage_driver", lambda: calls.append(1))
    G = np.eye(3)
    assert np.array_equal(lapack.eigvalsh(G), np.ones(3)) and calls == []


def test_a_failing_driver_raises_linalg_error(monkeypatch):
    monkeypatch.setattr(lapack, "TWO_STAGE_MIN", 2)
    monkeypatch.setattr(lapack, "two_stage_driver", lambda: (lambda *args: -4, None))
    with pytest.raises(np.linalg.LinAlgError, match="info = -4"):
        lapack.eigvalsh(np.eye(3))
