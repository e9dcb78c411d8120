"""attnspec.real rotation, circular, head_spectra, measure, uncertainty, summary: angles, R(S),
seeded conventions, spectra."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from attnspec.models.attention import row_softmax
from attnspec.numerics import spectra
from attnspec.numerics.spectra import wasserstein1
from attnspec.real import circular, head_spectra, measure, rotation, summary, uncertainty
from attnspec.real.models import get_model, iter_layers
from attnspec.real.ops import attention_softmax
from attnspec.real.texts import distinct_tokens, read_text


def _angles_of_many(matrices) -> np.ndarray:
    return np.concatenate([rotation.eigen_angles(W) for W in matrices])


def _low_rank_scores(n: int, d: int, rng, corr: float = 0.0) -> np.ndarray:
    """S = Q K^T / sqrt(d) with Gaussian Q and K = corr Q + sqrt(1 - corr^2) G."""
    Q = rng.standard_normal((n, d))
    K = corr * Q + math.sqrt(1 - corr**2) * rng.standard_normal((n, d))
    return Q @ K.T / math.sqrt(d)


# --- distances to the uniform law ---------------------------------------------------------------


def test_circular_w1_exact_values():
    for m in (1, 7, 50):
        phi = np.mod(np.arange(m) / m * 2 * math.pi + math.pi, 2 * math.pi) - math.pi
        assert circular.circular_w1_to_uniform(phi) == pytest.approx(math.pi / (2 * m), rel=1e-12)
    assert circular.circular_w1_to_uniform(np.zeros(9)) == pytest.approx(math.pi / 2, rel=1e-12)
    # rotation invariance on the circle
    rng = np.random.default_rng(1)
    x = rng.uniform(-math.pi, math.pi, 40) ** 3 / math.pi**2
    shifted = np.mod(x + 1.234 + math.pi, 2 * math.pi) - math.pi
    assert circular.circular_w1_to_uniform(shifted) == pytest.approx(
        circular.circular_w1_to_uniform(x), abs=1e-12
    )


def test_circular_w1_against_brute_force():
    rng = np.random.default_rng(2)
    for size in (3, 11, 60):
        x = rng.uniform(-math.pi, math.pi, size) ** 3 / math.pi**2  # clustered near 0
        t = np.sort(np.mod(x / (2 * math.pi), 1.0))
        grid = (np.arange(100_000) + 0.5) / 100_000
        g = np.searchsorted(t, grid, side="right") / size - grid
        best = min(np.mean(np.abs(g - a)) for a in np.linspace(g.min(), g.max(), 2001))
        assert circular.circular_w1_to_uniform(x) == pytest.approx(2 * math.pi * best, abs=2e-4)


def test_kolmogorov_matches_scipy_and_kl_limits():
    rng = np.random.default_rng(3)
    x = rng.uniform(-math.pi, math.pi, 200) ** 3 / math.pi**2
    expected = stats.kstest(x, stats.uniform(loc=-math.pi, scale=2 * math.pi).cdf).statistic
    assert circular.kolmogorov_to_uniform(x) == pytest.approx(expected, abs=1e-14)
    centres = np.mod(np.arange(50) * 2 * math.pi / 50 + math.pi, 2 * math.pi) - math.pi
    assert circular.kl_to_uniform(np.repeat(centres, 3), 50) == pytest.approx(0.0, abs=1e-14)
    # arcs are centred on 0 and pi: round-off around the atoms does not move them
    assert circular.kl_to_uniform(
        np.array([-1e-15, 0.0, 1e-15, math.pi, -math.pi]), 2
    ) == pytest.approx(0.6 * math.log(1.2) + 0.4 * math.log(0.8))
    assert circular.kl_to_uniform(np.zeros(10), 50) == pytest.approx(math.log(50), abs=1e-14)
    with pytest.raises(ValueError):
        circular.kl_to_uniform(np.array([4.0]))
    with pytest.raises(ValueError):
        circular.angle_discrepancies(np.array([]))


# --- Haar matrices and eigen-angles ------------------------------------------------------------


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


# --- singular factors and the rotation R(S) ------------------------------------------------------


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


# --- spectra, canonical attention, ranks
# -------------------------------------------------------------


def test_canonical_singular_values_match_dense_softmax():
    rng = np.random.default_rng(12)
    sigma = np.sort(rng.uniform(0, 8, 5))[::-1]
    n = 40
    s = head_spectra.canonical_scores(sigma, n)
    dense_bi = np.linalg.svd(row_softmax(np.diag(s)), compute_uv=False)
    dense_ca = np.linalg.svd(attention_softmax(np.diag(s), causal=True), compute_uv=False)
    assert np.allclose(
        head_spectra.canonical_singular_values(sigma, n, causal=False), dense_bi, atol=1e-7
    )
    assert np.allclose(
        head_spectra.canonical_singular_values(sigma, n, causal=True), dense_ca, atol=1e-7
    )
    with pytest.raises(ValueError):
        head_spectra.canonical_scores(np.ones(5), 4)


def test_spectrum_w1_and_ranks_of_known_matrices():
    rng = np.random.default_rng(13)
    a, b = rng.uniform(size=30), rng.uniform(size=30)
    assert head_spectra.spectrum_w1(a, b) == pytest.approx(wasserstein1(a, b), rel=1e-12)
    n = 16
    ones = head_spectra.singular_values(np.full((n, n), 1.0 / n))
    assert np.allclose(ones, head_spectra.averaging_singular_values(n), atol=1e-7)
    assert spectra.stable_rank(ones) == pytest.approx(1.0, rel=1e-6)
    eye = head_spectra.singular_values(np.eye(n))
    assert spectra.stable_rank(eye) == pytest.approx(n) and spectra.erank1(eye) == pytest.approx(n)
    diag = head_spectra.singular_values(np.diag([3.0, 1.0, 1.0, 0.0]))
    assert spectra.stable_rank(diag) == pytest.approx(11 / 9)


# --- forward passes
# -----------------------------------------------------------------------------------


@pytest.mark.weights
def test_iter_layers_equals_the_trace_minilm():
    text = read_text("lincoln")
    trace = get_model("minilm").trace(text, 24, scores=True)
    for p in iter_layers("minilm", text, 24):
        assert np.array_equal(p.attention, trace.attention[p.index]) and np.array_equal(
            p.scores, trace.scores[p.index]
        )
        assert np.array_equal(p.hidden_in, trace.hidden[p.index])


@pytest.mark.weights
def test_decoder_prefix_blocks_equal_a_shorter_run():
    text = read_text("lincoln")
    for p, q in zip(iter_layers("smollm", text, 20), iter_layers("smollm", text, 12), strict=True):
        assert np.allclose(p.attention[:, :12, :12], q.attention, atol=1e-5)
        assert np.allclose(p.scores[:, :12, :12], q.scores, atol=1e-3)
        assert np.allclose(p.hidden_in[:12], q.hidden_in, atol=1e-3)


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


# --- bootstrap and summaries
# ----------------------------------------------------------------------------


def test_crossed_bootstrap_median_interval():
    rng = np.random.default_rng(24)
    table = rng.standard_normal((6, 50)) + 3.0
    iv = uncertainty.median_interval(table, np.random.default_rng(0))
    assert iv.low < iv.value < iv.high and iv.low < 3.0 < iv.high
    assert (iv.n_texts, iv.n_heads) == (6, 50) and iv.excludes(0.0) and not iv.excludes(3.0)
    # a text effect widens the interval: resampling texts matters
    shifted = table + np.arange(6)[:, None]
    wide = uncertainty.median_interval(shifted, np.random.default_rng(0))
    assert wide.high - wide.low > 2 * (iv.high - iv.low)
    with pytest.raises(ValueError):
        uncertainty.median_interval(np.ones(3), rng)


def test_slope_interval_recovers_a_known_slope():
    rng = np.random.default_rng(25)
    x = np.log([16, 32, 64, 128])
    values = 0.5 * x[:, None, None] + 0.05 * rng.standard_normal((4, 4, 30))
    iv = uncertainty.slope_interval(values, x, np.random.default_rng(1))
    assert iv.low < 0.5 < iv.high and iv.value == pytest.approx(0.5, abs=0.02)
    flat = uncertainty.slope_replicates(
        values * 0 + rng.standard_normal((4, 4, 30)), x, np.random.default_rng(2)
    )
    diff = uncertainty.difference_interval(
        uncertainty.slope_replicates(values, x, np.random.default_rng(3)), flat
    )
    assert diff.low > 0


def test_haar_floor_is_reproducible_and_ordered():
    floor = summary.haar_floor(16, 0, 50)
    assert floor == summary.haar_floor(16, 0, 50) and floor.reps == 20
    assert 0 < floor.median.w1 <= floor.w1_q95 < math.pi / 2


def test_formatters_for_the_real_chapter():
    from attnspec.present.formatting import fixed, with_interval

    assert fixed(-0.00001) == "0.0000" and fixed(float("nan")) == "–" and fixed(None) == "–"
    assert with_interval(0.12345, 0.1, 0.2, 3) == "0.123 [0.100, 0.200]"


def test_paper_values_are_transcribed_once():
    from attnspec.real.paper import PAPER_VALUES

    keys = {(p.key, p.length) for p in PAPER_VALUES}
    assert len(keys) == len(PAPER_VALUES)
    assert {p.value for p in PAPER_VALUES if p.length == 1024} >= {
        "0.0942",
        "1.18",
        "27.51",
        "314.06",
        "95.12",
    }


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
