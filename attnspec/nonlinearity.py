r"""The nonlinearity f, its Taylor polynomial Q_n, and their Gaussian statistics theta_1, theta_2.

Deterministic-normalizer approximation (arXiv 2510.06685): A_ij ~ (1 + f(S_ij)) / d with
:math:`f(x) = e^{\beta x - \beta^2/2} - 1`. For :math:`\chi \sim N(0, 1)` the two statistics
:math:`\theta_1 = E[f(\chi)^2]` and :math:`\theta_2 = (E[f'(\chi)])^2` fix the Gaussian-equivalent model
(:math:`\theta_1 = E g^2` is the total power only for a centred g, :math:`E g(\chi) = 0`, as f and Q_n are).
"""

from __future__ import annotations

import math

import numpy as np


def f(x: np.ndarray, beta: float) -> np.ndarray:
    r""":math:`f(x) = e^{\beta x - \beta^2/2} - 1` (centred: :math:`E f(\chi) = 0`)."""
    return np.exp(beta * x - 0.5 * beta**2) - 1.0


def theta_f(beta: float) -> tuple[float, float]:
    r"""Exact :math:`(\theta_1, \theta_2) = (e^{\beta^2} - 1, \beta^2)` for f."""
    return math.expm1(beta**2), beta**2


def poly_degree(d: int, c: float) -> int:
    r"""Taylor degree :math:`n_d = \lceil c \log d / \log\log d \rceil` (8 at d = 1000, c = 2).

    For d < e^e (about 15), where log log d < 1, the denominator is taken as 1; the degree is >= 2.
    """
    log_d = math.log(d)
    return max(2, math.ceil(c * log_d / max(math.log(log_d) if log_d > 1 else 1.0, 1.0)))


def taylor_exp(x: np.ndarray, n: int) -> np.ndarray:
    r"""Truncated exponential :math:`P_n(x) = \sum_{k<n} x^k / k!`, of degree n - 1 (Horner scheme)."""
    x = np.asarray(x, dtype=float)
    out = np.full_like(x, 1.0 / math.factorial(n - 1)) if n > 0 else np.zeros_like(x)
    for k in range(n - 2, -1, -1):
        out *= x
        out += 1.0 / math.factorial(k)
    return out


def gaussian_moment(k: int) -> float:
    r""":math:`E[\chi^k] = (k-1)!!` for even k, 0 for odd k."""
    return 0.0 if k % 2 else float(math.prod(range(k - 1, 0, -2)))


def _taylor_mean(beta: float, n: int) -> float:
    r""":math:`E[P_n(\beta\chi)] = \sum_{k<n} \beta^k m_k / k!`."""
    return sum(beta**k * gaussian_moment(k) / math.factorial(k) for k in range(n))


def Q(x: np.ndarray, beta: float, n: int) -> np.ndarray:
    r"""Centred Taylor nonlinearity :math:`Q_n(x) = e^{-\beta^2/2}(P_n(\beta x) - E[P_n(\beta\chi)])`, of degree n - 1."""
    return math.exp(-0.5 * beta**2) * (taylor_exp(beta * np.asarray(x, dtype=float), n) - _taylor_mean(beta, n))


def theta_q(beta: float, n: int) -> tuple[float, float]:
    r"""Exact :math:`(\theta_1^Q, \theta_2^Q)` of :math:`Q_n` from Gaussian moments.

    .. math::
        \theta_1^Q = e^{-\beta^2}\bigl(E[P_n(\beta\chi)^2] - E[P_n(\beta\chi)]^2\bigr),\qquad
        \theta_2^Q = \bigl(e^{-\beta^2/2}\,\beta\,E[P_{n-1}(\beta\chi)]\bigr)^2,

    with :math:`E[P_n^2] = \sum_{j,k<n} \beta^{j+k} m_{j+k} / (j!\,k!)`. At beta = 1, n = 8:
    (1.6860913, 0.9964998).
    """
    second = sum(
        beta ** (j + k) * gaussian_moment(j + k) / (math.factorial(j) * math.factorial(k))
        for j in range(n)
        for k in range(n)
    )
    theta1 = math.exp(-beta**2) * (second - _taylor_mean(beta, n) ** 2)
    theta2 = (math.exp(-0.5 * beta**2) * beta * _taylor_mean(beta, n - 1)) ** 2
    return theta1, theta2


def theta_q_monte_carlo(
    beta: float, n: int, samples: int, rng: np.random.Generator
) -> tuple[tuple[float, float], tuple[float, float]]:
    r"""Monte-Carlo estimate of :math:`(\theta_1^Q, \theta_2^Q)` and its standard error.

    :math:`\hat\theta_1 = \overline{Q_n(\chi)^2}` with se :math:`\mathrm{sd}(Q_n^2)/\sqrt N`;
    :math:`\hat\theta_2 = \overline{Q_n'(\chi)}^2` with the delta-method se
    :math:`2|\overline{Q_n'}|\,\mathrm{sd}(Q_n')/\sqrt N`. :math:`Q_n^2` has a heavy right tail,
    so the estimate of :math:`\theta_1^Q` converges slowly; prefer the exact :func:`theta_q`.
    """
    chi = rng.standard_normal(samples)
    q2 = Q(chi, beta, n) ** 2
    dq = math.exp(-0.5 * beta**2) * beta * taylor_exp(beta * chi, n - 1)
    root_n = math.sqrt(samples)
    mean_dq = float(dq.mean())
    estimate = (float(q2.mean()), mean_dq**2)
    stderr = (float(q2.std(ddof=1)) / root_n, 2.0 * abs(mean_dq) * float(dq.std(ddof=1)) / root_n)
    return estimate, stderr
