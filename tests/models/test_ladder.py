"""The seven-model ladder: builders, the Gram-from-parent shortcuts, and compute_trial's spectra
against a plain SVD of every model matrix."""

from __future__ import annotations

import math

import numpy as np
import pytest

import attnspec.experiments.trials as experiment
from attnspec.experiments.trials import compute_trial
from attnspec.models.attention import row_normalizers, row_softmax
from attnspec.models.ladder import LADDER, MODEL_NAMES, REFERENCE, TrialInputs, gaussian_equivalent
from attnspec.models.nonlinearity import Q, f, poly_degree, theta_f, theta_q

SEED_ORDER = ["sqrt_d_A", "sqrt_d_A_perp", "Y", "Y_f", "Y_Q", "Y_Q_lin", "Y_f_lin"]


def captured_trial(monkeypatch, d, beta, c_poly=2.0, seed=0, k=0):
    """Run compute_trial and capture the TrialInputs it built (so the SVD reference uses exactly
    the same S, W, beta, degree and thetas, however compute_trial draws them)."""
    seen = []

    class Recording(TrialInputs):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            seen.append(self)

    monkeypatch.setattr(experiment, "TrialInputs", Recording)
    out = compute_trial(d, beta, c_poly, seed, k)
    assert len(seen) == 1
    return out, seen[0]


def inputs(d=120, beta=1.0, seed=3):
    rng = np.random.default_rng(seed)
    S = rng.standard_normal((d, d)) @ rng.standard_normal((d, d)).T / math.sqrt(d)
    W = rng.standard_normal((d, d))
    n = poly_degree(d, 2.0)
    return TrialInputs(S, W, beta, n, theta_f(beta), theta_q(beta, n))


def test_registry():
    assert MODEL_NAMES == SEED_ORDER
    assert REFERENCE in LADDER
    for name, model in LADDER.items():
        assert model.name == name and model.latex and model.role and callable(model.build)
        if model.parent is not None:
            # compute_trial reuses the parent's Gram matrix: the parent must come right before.
            assert MODEL_NAMES.index(model.parent) == MODEL_NAMES.index(name) - 1
            assert model.gram_from_parent is not None


def test_builders_match_the_seed_definitions():
    x = inputs()
    d, beta, S, W = x.d, x.beta, x.S, x.W
    A = row_softmax(beta * S)
    u = np.full((d, d), 1.0 / d)
    t1, t2 = x.theta_q
    expected = {
        "sqrt_d_A": math.sqrt(d) * A,
        "sqrt_d_A_perp": math.sqrt(d) * (A - u),
        "Y": np.exp(beta * S) / (math.exp(0.5 * beta**2) * math.sqrt(d)),
        "Y_f": f(S, beta) / math.sqrt(d),
        "Y_Q": Q(S, beta, x.poly_n) / math.sqrt(d),
        "Y_Q_lin": math.sqrt(t2) * S / math.sqrt(d) + math.sqrt(t1 - t2) * W / math.sqrt(d),
        "Y_f_lin": beta * S / math.sqrt(d)
        + math.sqrt(math.expm1(beta**2) - beta**2) * W / math.sqrt(d),
    }
    for name, M in expected.items():
        np.testing.assert_allclose(LADDER[name].build(x), M, rtol=1e-12, atol=1e-14, err_msg=name)


def test_builders_do_not_modify_inputs():
    x = inputs()
    S, W = x.S.copy(), x.W.copy()
    for model in LADDER.values():
        model.build(x)
    np.testing.assert_array_equal(x.S, S)
    np.testing.assert_array_equal(x.W, W)


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
def test_identity_Y_f_is_Y_minus_uniform(beta):
    x = inputs(beta=beta)
    Y, Y_f = LADDER["Y"].build(x), LADDER["Y_f"].build(x)
    np.testing.assert_allclose(Y_f, Y - 1.0 / math.sqrt(x.d), rtol=0, atol=1e-13 * np.abs(Y).max())


def test_identity_A_perp_is_A_minus_uniform():
    x = inputs()
    M, M_perp = LADDER["sqrt_d_A"].build(x), LADDER["sqrt_d_A_perp"].build(x)
    np.testing.assert_allclose(M_perp, M - 1.0 / math.sqrt(x.d), rtol=0, atol=1e-15)


def test_facts_behind_the_gram_shortcuts():
    x = inputs()
    d = x.d
    # rows of A sum to 1, rows of Y sum to sqrt(d) D_i
    np.testing.assert_allclose(LADDER["sqrt_d_A"].build(x).sum(axis=1), math.sqrt(d), rtol=1e-13)
    np.testing.assert_allclose(LADDER["Y"].build(x).sum(axis=1), math.sqrt(d) * x.D, rtol=1e-12)
    np.testing.assert_allclose(x.D, row_normalizers(x.beta * x.S, x.beta)[1], rtol=1e-15)


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.5])
def test_gram_from_parent_equals_direct_gram(beta):
    x = inputs(beta=beta)
    for model in LADDER.values():
        if model.parent is None:
            continue
        P = LADDER[model.parent].build(x)
        G = model.gram_from_parent(P @ P.T, x)
        M = model.build(x)
        direct = M @ M.T
        scale = max(np.abs(direct).max(), np.abs(P @ P.T).max())
        np.testing.assert_allclose(G, direct, rtol=0, atol=1e-12 * scale, err_msg=model.name)


@pytest.mark.parametrize("d, beta", [(64, 1.0), (150, 0.5), (150, 1.0), (150, 2.0), (97, 1.5)])
def test_compute_trial_spectra_equal_svd(monkeypatch, d, beta):
    out, x = captured_trial(monkeypatch, d, beta, seed=11, k=2)
    assert x.d == d and x.beta == beta and x.poly_n == poly_degree(d, 2.0)
    assert x.theta_f == theta_f(beta) and x.theta_q == theta_q(beta, x.poly_n)
    assert set(out) == {"D", *MODEL_NAMES}
    for model in LADDER.values():
        s2 = np.linalg.svd(model.build(x), compute_uv=False) ** 2
        got = out[model.name]
        assert got.shape == (d,)
        assert np.all(np.diff(got) <= 0), "descending"
        assert np.all(got >= 0)
        assert np.max(np.abs(got - s2)) <= 1e-9 * s2[0], model.name
    np.testing.assert_allclose(out["D"], row_normalizers(beta * x.S, beta)[1], rtol=1e-14)


def test_compute_trial_inputs_are_drawn_as_documented(monkeypatch):
    """S from W_Q, W_K drawn first from trial k's generator, then W: the construction the notebooks
    and benchmarks rely on."""
    _, x = captured_trial(monkeypatch, 40, 1.0, seed=7, k=1)
    rng = experiment.trial_rng(7, 1)
    Wq, Wk, W = (rng.standard_normal((40, 40)) for _ in range(3))
    np.testing.assert_allclose(x.S, Wq @ Wk.T / math.sqrt(40), rtol=1e-13, atol=1e-13)
    np.testing.assert_array_equal(x.W, W)


def test_gaussian_equivalent_clips_negative_residual():
    x = inputs(d=20)
    M = gaussian_equivalent(x.S, x.W, (0.5, 0.6))
    np.testing.assert_allclose(M, math.sqrt(0.6 / 20) * x.S, rtol=1e-14)


def test_spike_only_in_uncentred_models(monkeypatch):
    # sqrt_d_A and Y carry the rank-one outlier s1^2 ~ d; the centred rungs do not.
    out, _ = captured_trial(monkeypatch, 200, 1.0)
    for name in ("sqrt_d_A", "Y"):
        assert out[name][0] > 0.5 * 200
    for name in ("sqrt_d_A_perp", "Y_f", "Y_Q", "Y_Q_lin", "Y_f_lin"):
        assert out[name][0] < 20


def test_compute_trial_equals_svd_of_independently_built_models():
    """Same check without capturing: rebuild trial k's inputs the way compute_trial does."""
    d, beta, c_poly, seed, k = 80, 1.0, 2.0, 5, 3
    rng = experiment.trial_rng(seed, k)
    Wq, Wk, W = (rng.standard_normal((d, d)) for _ in range(3))
    n = poly_degree(d, c_poly)
    x = TrialInputs(Wq @ Wk.T / math.sqrt(d), W, beta, n, theta_f(beta), theta_q(beta, n))
    out = compute_trial(d, beta, c_poly, seed, k)
    for model in LADDER.values():
        s2 = np.linalg.svd(model.build(x), compute_uv=False) ** 2
        assert np.max(np.abs(out[model.name] - s2)) <= 1e-9 * s2[0], model.name


def test_ladder_roles_typeset_their_formulas():
    for model in LADDER.values():
        outside_math = model.role.split("$")[::2]
        assert not any(ch in part for part in outside_math for ch in "^_θβ"), model.role
