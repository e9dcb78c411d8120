"""Eigen-angles, the rotation R(S) of the score factors and the seeded conventions
(attnspec.real.rotation)."""

import math

import numpy as np
import pytest

from attnspec.real import (
    circular,
    rotation,
)
from attnspec.real.models import get_model
from attnspec.real.texts import distinct_tokens, read_text


def _angles_of_many(matrices) -> np.ndarray:
    return np.concatenate([rotation.eigen_angles(W) for W in matrices])


def _low_rank_scores(n: int, d: int, rng, corr: float = 0.0) -> np.ndarray:
    """S = Q K^T / sqrt(d) with Gaussian Q and K = corr Q + sqrt(1 - corr^2) G."""
    Q = rng.standard_normal((n, d))
    K = corr * Q + math.sqrt(1 - corr**2) * rng.standard_normal((n, d))
    return Q @ K.T / math.sqrt(d)


def test_haar_angles_are_nearly_uniform_and_identity_is_far():
    rng = np.random.default_rng(4)
    W = rotation.haar_orthogonal(32, 200, rng)
    assert np.allclose(W @ W.transpose(0, 2, 1), np.eye(32), atol=1e-12)
    haar = circular.angle_discrepancies(_angles_of_many(W))
    assert haar.ks < 0.02 and haar.kl < 0.02 and haar.w1 < 0.05, haar
    ident = circular.angle_discrepancies(rotation.eigen_angles(np.eye(32)))
    assert ident.kl == pytest.approx(math.log(50)) and ident.ks == pytest.approx(0.5)
    assert ident.w1 == pytest.approx(math.pi / 2)


def test_qr_without_sign_correction_is_not_haar():
    """The test above can fail: plain QR of a Gaussian matrix is biased (Mezzadri)."""
    rng = np.random.default_rng(5)
    Q = np.linalg.qr(rng.standard_normal((400, 8, 8)))[0]
    biased = circular.kolmogorov_to_uniform(_angles_of_many(Q))
    fair = circular.kolmogorov_to_uniform(_angles_of_many(rotation.haar_orthogonal(8, 400, rng)))
    assert biased > 2 * fair


@pytest.mark.parametrize("r", [1, 2, 9, 16])
def test_symmetrized_angles_have_the_same_law(r):
    rng = np.random.default_rng(r)
    for W in rotation.haar_orthogonal(r, 5, rng):
        a, b = rotation.eigen_angles(W), rotation.symmetrized_eigen_angles(W)
        assert b.size == 2 * a.size
        for key in ("kl", "ks", "w1"):
            value = circular.angle_discrepancies(a).get(key)
            assert circular.angle_discrepancies(b).get(key) == pytest.approx(value, abs=1e-7), key


def test_haar_angles_baseline_follows_the_ranks():
    angles = rotation.haar_angles([3, 5, 3], np.random.default_rng(6))
    assert [a.size for a in angles] == [3, 5, 3]


def test_score_factors_range_finder_is_exact_for_low_rank():
    rng = np.random.default_rng(7)
    S = _low_rank_scores(300, 16, rng)
    sigma, U, V = rotation.score_factors(S, rank=16)
    assert sigma.size == 16
    assert np.allclose(sigma, np.linalg.svd(S, compute_uv=False)[:16], rtol=1e-10)
    assert np.allclose(U * sigma @ V.T, S, atol=1e-9 * sigma[0])
    assert np.allclose(U.T @ U, np.eye(16), atol=1e-12) and np.allclose(
        V.T @ V, np.eye(16), atol=1e-12
    )
    small = _low_rank_scores(12, 16, rng)  # n <= rank: dense SVD, full rank
    assert rotation.score_factors(small, rank=16)[0].size == 12


def test_rotation_is_a_function_of_S_but_full_factors_are_not():
    rng = np.random.default_rng(8)
    n, r = 60, 8
    S = _low_rank_scores(n, r, rng)
    sigma, U, V = rotation.score_factors(S, rank=r)
    signs = rng.choice([-1.0, 1.0], r)
    a = rotation.eigen_angles(rotation.polar_rotation(U, V))
    b = rotation.eigen_angles(
        rotation.polar_rotation(U * signs, V * signs)
    )  # another valid SVD of S
    assert np.allclose(a, b, atol=1e-10)
    # two seeded conventions (signs, null-space completion) are valid full SVDs with different U
    # angles
    U1, V1 = rotation.seeded_full_factors(S, r, rotation.completion_rng(0, 1))
    U2, V2 = rotation.seeded_full_factors(S, r, rotation.completion_rng(0, 2))
    for Uf, Vf in ((U1, V1), (U2, V2)):
        assert np.allclose(Uf.T @ Uf, np.eye(n), atol=1e-12) and np.allclose(
            Vf.T @ Vf, np.eye(n), atol=1e-12
        )
        assert np.allclose(Uf[:, :r] * sigma @ Vf[:, :r].T, S, atol=1e-9 * sigma[0])
    ks_1 = circular.kolmogorov_to_uniform(rotation.symmetrized_eigen_angles(U1))
    ks_2 = circular.kolmogorov_to_uniform(rotation.symmetrized_eigen_angles(U2))
    assert abs(ks_1 - ks_2) > 1e-3
    # the same seed gives the same convention, bit for bit
    U3, _ = rotation.seeded_full_factors(S, r, rotation.completion_rng(0, 1))
    assert np.array_equal(U1, U3)


def test_rotation_of_invertible_S_has_the_angles_of_its_polar_factor():
    rng = np.random.default_rng(9)
    S = _low_rank_scores(10, 16, rng)
    U, _, Vt = np.linalg.svd(S)
    expected = rotation.eigen_angles(U @ Vt)
    assert np.allclose(
        rotation.eigen_angles(rotation.score_rotation(S, rank=16)), expected, atol=1e-10
    )


def test_rotation_of_symmetric_psd_scores_is_the_identity():
    rng = np.random.default_rng(10)
    Q = rng.standard_normal((80, 6))
    R = rotation.score_rotation(Q @ Q.T, rank=6)
    assert np.allclose(R, np.eye(6), atol=1e-10)
    assert circular.kl_to_uniform(rotation.eigen_angles(R)) == pytest.approx(math.log(50))


def test_independent_frames_give_haar_rotations_and_correlated_frames_do_not():
    rng = np.random.default_rng(11)
    iso = np.concatenate(
        [
            rotation.eigen_angles(rotation.score_rotation(_low_rank_scores(120, 16, rng), 16))
            for _ in range(150)
        ]
    )
    floor = np.concatenate(rotation.haar_angles([16] * 150, rng))
    aligned = np.concatenate(
        [
            rotation.eigen_angles(
                rotation.score_rotation(_low_rank_scores(120, 16, rng, corr=0.7), 16)
            )
            for _ in range(150)
        ]
    )
    ks_iso, ks_floor, ks_aligned = (
        circular.kolmogorov_to_uniform(x) for x in (iso, floor, aligned)
    )
    assert abs(ks_iso - ks_floor) < 0.02
    assert ks_aligned > 3 * ks_floor


@pytest.mark.weights
def test_decoder_embedding_rank_is_the_number_of_distinct_tokens():
    # no position term in SmolLM2's embedding: a repeated token repeats its row of X
    ids = np.asarray(get_model("smollm").encode(read_text("declaration"), 64).ids)
    for n in (16, 64):
        rank = rotation.token_frame(get_model("smollm").embed(ids[:n])).shape[1]
        assert rank == distinct_tokens("declaration", "smollm", n) < n
    # MiniLM adds position embeddings: full rank although tokens repeat
    ids = np.asarray(get_model("minilm").encode(read_text("declaration"), 64).ids)
    assert rotation.token_frame(get_model("minilm").embed(ids)).shape[1] == 64
    assert distinct_tokens("declaration", "minilm", 64) < 64


def test_haar_completion_spans_the_complement_and_is_haar():
    rng = np.random.default_rng(20)
    F = np.linalg.qr(rng.standard_normal((12, 4)))[0]
    C = rotation.haar_completion(F, rng)
    full = np.hstack([F, C])
    assert C.shape == (12, 8) and np.allclose(full.T @ full, np.eye(12), atol=1e-12)
    # with F = first coordinates, the completion is a Haar O(8) matrix in the last coordinates
    E = np.eye(12)[:, :4]
    angles = np.concatenate(
        [rotation.eigen_angles(rotation.haar_completion(E, rng)[4:]) for _ in range(300)]
    )
    floor = np.concatenate(rotation.haar_angles([8] * 300, rng))
    assert (
        abs(circular.kolmogorov_to_uniform(angles) - circular.kolmogorov_to_uniform(floor)) < 0.02
    )
    assert rotation.haar_completion(np.eye(3), rng).shape == (3, 0)


def test_orient_fixes_signs_from_the_seed_not_from_the_input_sign():
    rng = np.random.default_rng(21)
    U = np.linalg.qr(rng.standard_normal((10, 3)))[0]
    a, _ = rotation.orient(U, None, rotation.completion_rng(5, 0))
    b, _ = rotation.orient(-U, None, rotation.completion_rng(5, 0))
    assert np.array_equal(a, b)
    with pytest.raises(ValueError):
        rotation.completion_rng(-1)


def test_token_factor_is_orthogonal_and_extends_the_determined_columns():
    rng = np.random.default_rng(22)
    X = rng.standard_normal((20, 6))  # n > hidden: 14 columns are a completion
    U = rotation.token_factor(X, rotation.completion_rng(0, 3))
    frame = rotation.token_frame(X)
    assert frame.shape == (20, 6) and np.allclose(U.T @ U, np.eye(20), atol=1e-12)
    assert np.allclose(np.abs(np.sum(U[:, :6] * frame, axis=0)), 1.0, atol=1e-12)


def test_rotation_cannot_see_a_shared_token_space_rotation():
    """S -> O S O^T maps (U, V) to (O U, O V): V^T U and so R(S) do not change."""
    rng = np.random.default_rng(23)
    S = _low_rank_scores(40, 6, rng)
    rot = rotation.haar_orthogonal(40, 1, rng)[0]
    a = rotation.eigen_angles(rotation.score_rotation(S, 6))
    b = rotation.eigen_angles(rotation.score_rotation(rot @ S @ rot.T, 6))
    assert np.allclose(a, b, atol=1e-9)


def test_integer_arguments_are_checked_with_one_message_style():
    from attnspec.core.errors import InvalidInput

    S = np.eye(4)
    with pytest.raises(InvalidInput, match=r"rank=0 is out of range: must be an int >= 1"):
        rotation.score_factors(S, rank=0)
    with pytest.raises(InvalidInput, match=r"rank=True is not an integer"):
        rotation.score_factors(S, rank=True)
    with pytest.raises(InvalidInput, match=r"seed=-1 is out of range: must be an int >= 0"):
        rotation.completion_rng(-1)
    with pytest.raises(InvalidInput, match=r"bins=2.0 is not an integer"):
        circular.angle_histogram(np.zeros(3), bins=2.0)
