"""The seed notebook's method, re-implemented faithfully, as the baseline of the benchmarks.

Source: ``seeds/000`` ("Gaussian Equivalence for Self-Attention Spectra - Minimal Reproduction").
Everything below follows the notebook's cells, function by function: one generator
``default_rng(SEED)`` shared by the Monte-Carlo theta estimate and all trials, all seven model
matrices built and kept in memory at once (plus A, the d x d uniform matrix u, S, W, W_Q, W_K),
``np.linalg.svd(compute_uv=False)`` of every model and a separate SVD of A, per trial.

Not part of the package and not run by the tests: ``benchmarks/bench_ladder.py`` times it.
"""

from __future__ import annotations

import math

import numpy as np

# ---- configuration cell (defaults of the notebook) --------------------------------------------
SEED = 0
D = 1000
BETA = 1.0
NUM_TRIALS = 5
REMOVE_TOP_K = 3
C_POLY = 2.0
THETA_MC_SAMPLES = 200_000
HIST_BINS = 120
HIST_RANGE = (0.0, 8.0)
REFERENCE_MODEL = "sqrt_d_A"
MODEL_ORDER = ["sqrt_d_A_perp", "Y", "Y_f", "Y_Q", "Y_Q_lin", "Y_f_lin"]
ALL_MODELS = [REFERENCE_MODEL] + MODEL_ORDER


# ---- score matrix, softmax attention, uniform mode --------------------------------------------
def generate_gaussian_weights(d, dqk, rng):
    Wq = rng.normal(0.0, 1.0, size=(d, dqk))
    Wk = rng.normal(0.0, 1.0, size=(d, dqk))
    W = rng.normal(0.0, 1.0, size=(d, d))  # independent Gaussian for the linear models
    return Wq, Wk, W


def compute_score_matrix(Wq, Wk):
    dqk = Wq.shape[1]
    return (Wq @ Wk.T) / np.sqrt(dqk)  # X = I_d


def row_softmax(beta_S):
    z = beta_S - beta_S.max(axis=1, keepdims=True)  # numerically stable
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def uniform_mode(d):
    return np.full((d, d), 1.0 / d)


def row_normalizers(beta_S, beta):
    d = beta_S.shape[1]
    row_max = beta_S.max(axis=1, keepdims=True)
    Z = np.exp(row_max.squeeze(axis=1)) * np.exp(beta_S - row_max).sum(axis=1)
    D = Z / (d * np.exp(0.5 * beta**2))  # diagnostic: should -> 1
    return Z, D


# ---- the nonlinearity f and its statistics ----------------------------------------------------
def f_of_S(S, beta):
    return np.exp(beta * S - 0.5 * beta**2) - 1.0


def theta_stats_f(beta):
    return math.exp(beta**2) - 1.0, beta**2  # (theta1, theta2), exact


# ---- polynomial (Taylor) approximation Q_n ----------------------------------------------------
def poly_degree(d, c):
    log_d = math.log(d)
    return int(math.ceil(c * log_d / math.log(log_d)))


def taylor_exp_poly(X, n):
    X = np.asarray(X, dtype=float)
    out = np.ones_like(X)
    term = np.ones_like(X)
    for k in range(1, n):
        term = term * X / k
        out = out + term
    return out


def gaussian_moment(k):
    if k % 2 == 1:
        return 0.0
    r = k // 2
    return math.factorial(2 * r) / (2.0**r * math.factorial(r))


def expected_taylor_poly(beta, n):
    return sum((beta**k / math.factorial(k)) * gaussian_moment(k) for k in range(n))


def Qn_of_S(S, beta, n):
    P = taylor_exp_poly(beta * S, n)
    E_P = expected_taylor_poly(beta, n)
    return np.exp(-0.5 * beta**2) * (P - E_P)


def theta_stats_Q_montecarlo(beta, n, num_samples, rng):
    chi = rng.normal(0.0, 1.0, size=num_samples)
    Q = Qn_of_S(chi, beta, n)
    theta1_Q = float(np.mean(Q**2))
    Q_deriv = np.exp(-0.5 * beta**2) * beta * taylor_exp_poly(beta * chi, n - 1)
    theta2_Q = float(np.mean(Q_deriv)) ** 2
    return theta1_Q, theta2_Q


# ---- the Gaussian-equivalent linear model -----------------------------------------------------
def gaussian_equivalent(S, W, theta1, theta2, d):
    residual_var = max(theta1 - theta2, 0.0)
    return np.sqrt(theta2) * S / np.sqrt(d) + np.sqrt(residual_var) * W / np.sqrt(d)


# ---- the seven models -------------------------------------------------------------------------
def build_all_models(S, W, beta, d, poly_n, theta_f, theta_Q):
    beta_S = beta * S
    A = row_softmax(beta_S)
    _, D = row_normalizers(beta_S, beta)
    sqrt_d = np.sqrt(d)
    u = uniform_mode(d)
    theta1, theta2 = theta_f
    theta1_Q, theta2_Q = theta_Q
    models = {
        "sqrt_d_A": sqrt_d * A,
        "sqrt_d_A_perp": sqrt_d * (A - u),
        "Y": np.exp(beta_S) / (np.exp(0.5 * beta**2) * sqrt_d),
        "Y_f": f_of_S(S, beta) / sqrt_d,
        "Y_Q": Qn_of_S(S, beta, poly_n) / sqrt_d,
        "Y_Q_lin": gaussian_equivalent(S, W, theta1_Q, theta2_Q, d),
        "Y_f_lin": gaussian_equivalent(S, W, theta1, theta2, d),
    }
    return models, D, A


# ---- spectra ----------------------------------------------------------------------------------
def squared_singular_values(M):
    s = np.linalg.svd(M, compute_uv=False)
    return s**2


def bulk_values(s2, remove_top_k):
    return np.sort(s2)[::-1][remove_top_k:]


# ---- the "Run the trials" cell ----------------------------------------------------------------
def run(
    d=D,
    num_trials=NUM_TRIALS,
    beta=BETA,
    seed=SEED,
    c_poly=C_POLY,
    theta_mc_samples=THETA_MC_SAMPLES,
    remove_top_k=REMOVE_TOP_K,
):
    """The notebook's trial loop, unchanged; returns what the later cells use."""
    rng = np.random.default_rng(seed)
    poly_n = poly_degree(d, c_poly)
    theta_f = theta_stats_f(beta)
    theta_Q = theta_stats_Q_montecarlo(beta, poly_n, theta_mc_samples, rng)

    bulk = {name: [] for name in ALL_MODELS}
    top_sq = {name: [] for name in ALL_MODELS}
    s1_A, s1_sqrt_d_A, D_all = [], [], []
    for _ in range(num_trials):
        Wq, Wk, W = generate_gaussian_weights(d, d, rng)
        S = compute_score_matrix(Wq, Wk)
        models, Dvec, A = build_all_models(S, W, beta, d, poly_n, theta_f, theta_Q)
        D_all.append(Dvec)
        sA = np.linalg.svd(A, compute_uv=False)
        s1_A.append(sA[0])
        s1_sqrt_d_A.append(np.sqrt(d) * sA[0])
        for name in ALL_MODELS:
            s2 = squared_singular_values(models[name])
            bulk[name].append(bulk_values(s2, remove_top_k))
            top_sq[name].append(np.sort(s2)[::-1][:5])
    bulk = {k: np.concatenate(v) for k, v in bulk.items()}
    top_sq = {k: np.mean(np.vstack(v), axis=0) for k, v in top_sq.items()}
    D_all = np.concatenate(D_all)
    return {
        "poly_n": poly_n,
        "theta_f": theta_f,
        "theta_Q": theta_Q,
        "bulk": bulk,
        "top_sq": top_sq,
        "s1_A": np.array(s1_A),
        "s1_sqrt_d_A": np.array(s1_sqrt_d_A),
        "D": D_all,
    }


if __name__ == "__main__":
    out = run()
    print(f"polynomial degree n_d = {out['poly_n']}")
    print(
        f"mean s1(A) = {out['s1_A'].mean():.5f}, D mean = {out['D'].mean():.6f}, "
        f"std = {out['D'].std():.6f}"
    )
