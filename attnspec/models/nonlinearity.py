r"""The nonlinearity f, its Taylor polynomial Q_n, and their Gaussian statistics theta_1, theta_2.

Deterministic-normalizer approximation: A_ij ~ (1 + f(S_ij)) / d with
:math:`f(x) = e^{\beta x - \beta^2/2} - 1`. For :math:`\chi \sim N(0, 1)` the two statistics
:math:`\theta_1 = E[f(\chi)^2]` and :math:`\theta_2 = (E[f'(\chi)])^2` fix the
Gaussian-equivalent model (:math:`\theta_1 = E g^2` is the total power only for a centred g,
:math:`E g(\chi) = 0`, as f and Q_n are).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np


def f(x: np.ndarray, beta: float) -> np.ndarray:
    r""":math:`f(x) = e^{\beta x - \beta^2/2} - 1` (centred: :math:`E f(\chi) = 0`)."""
    return np.exp(beta * x - 0.5 * beta**2) - 1.0


def theta_f(beta: float) -> tuple[float, float]:
    r"""Exact :math:`(\theta_1, \theta_2) = (e^{\beta^2} - 1, \beta^2)` for f."""
    return math.expm1(beta**2), beta**2


def poly_degree(d: int, c: float) -> int:
    r"""Taylor degree :math:`n_d = \lceil c \log d / \log\log d \rceil` (8 at d = 1000, c = 2).

    For :math:`d < e^e` (about 15), where :math:`\log\log d < 1`, the denominator is taken as 1;
    the degree is at least 2.
    """
    log_d = math.log(d)
    return max(2, math.ceil(c * log_d / max(math.log(log_d) if log_d > 1 else 1.0, 1.0)))


def taylor_exp(x: np.ndarray, n: int) -> np.ndarray:
    r"""Truncated exponential :math:`P_n(x) = \sum_{k<n} x^k / k!`, of degree n - 1 (Horner)."""
    x = np.asarray(x, dtype=float)
    out = np.full_like(x, 1 / math.factorial(n - 1)) if n > 0 else np.zeros_like(x)
    for k in range(n - 2, -1, -1):
        out *= x
        out += 1 / math.factorial(k)  # int / int: correctly rounded, 0 instead of an overflow
    return out


def gaussian_moment(k: int) -> int:
    r""":math:`E[\chi^k] = (k-1)!!` for even k, 0 for odd k (an exact integer)."""
    return 0 if k % 2 else math.prod(range(k - 1, 0, -2))


def _gaussian_series(beta: float, weights: list[int]) -> Fraction:
    r"""Exactly :math:`\sum_s w_s \beta^s m_s / s!` (``weights[s]`` = :math:`w_s`), as a rational.

    With :math:`\beta = p/q` (exact for a float) and :math:`t` the last index, the sum is
    :math:`\sum_s w_s\, m_s\, p^s q^{t-s}\, t!/s!` over the integer :math:`q^t\,t!`.
    """
    if not weights:
        return Fraction(0)
    p, q = float(beta).as_integer_ratio()
    t = len(weights) - 1
    numerator, moment, p_s, falling = 0, 1, 1, [1] * (t + 1)  # falling[s] = t!/s!
    for s in range(t - 1, -1, -1):
        falling[s] = falling[s + 1] * (s + 1)
    for s, w in enumerate(weights):
        if s % 2 == 0:
            moment = moment * max(s - 1, 1)  # (s-1)!!
            numerator += w * moment * p_s * q ** (t - s) * falling[s]
        p_s *= p
    return Fraction(numerator, q**t * falling[0])


def _pair_counts(n: int) -> list[int]:
    r"""Number of ordered pairs weighted by binomials, for s < 2n - 1:
    :math:`\sum_{j+k=s;\,j,k<n} \binom{s}{j}`."""
    counts, row = [], [1]  # row: binomials C(s, 0..s)
    for s in range(2 * n - 1):
        counts.append(sum(row[max(0, s - n + 1) : min(s, n - 1) + 1]))
        row = [1] + [a + b for a, b in zip(row, row[1:], strict=False)] + [1]
    return counts


def _exact_mean(beta: float, n: int) -> Fraction:
    r""":math:`E[P_n(\beta\chi)] = \sum_{k<n} \beta^k m_k / k!`, exactly."""
    return _gaussian_series(beta, [1] * n)


def _taylor_mean(beta: float, n: int) -> float:
    r""":math:`E[P_n(\beta\chi)]` as a float."""
    return float(_exact_mean(beta, n))


def Q(x: np.ndarray, beta: float, n: int) -> np.ndarray:
    r"""Centred Taylor nonlinearity of degree n - 1,
    :math:`Q_n(x) = e^{-\beta^2/2}(P_n(\beta x) - E[P_n(\beta\chi)])`."""
    return math.exp(-0.5 * beta**2) * (
        taylor_exp(beta * np.asarray(x, dtype=float), n) - _taylor_mean(beta, n)
    )


def theta_q(beta: float, n: int) -> tuple[float, float]:
    r"""Exact :math:`(\theta_1^Q, \theta_2^Q)` of :math:`Q_n` from Gaussian moments.

    .. math::
        \theta_1^Q = e^{-\beta^2}\bigl(E[P_n(\beta\chi)^2] - E[P_n(\beta\chi)]^2\bigr),\qquad
        \theta_2^Q = \bigl(e^{-\beta^2/2}\,\beta\,E[P_{n-1}(\beta\chi)]\bigr)^2,

    with :math:`E[P_n^2] = \sum_{j,k<n} \beta^{j+k} m_{j+k} / (j!\,k!) = \sum_s \beta^s m_s/s!
    \sum_{j+k=s;\,j,k<n} \binom{s}{j}`. The sums are exact rationals, rounded once, so no term
    overflows for any degree (the Gaussian moments alone exceed a float near degree 300) and the
    variance has no cancellation. At beta = 1, n = 8: (1.6860913, 0.9964998).
    """
    variance = _gaussian_series(beta, _pair_counts(n)) - _exact_mean(beta, n) ** 2
    theta1 = math.exp(-(beta**2)) * float(variance)
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


def theta_q1_estimates(beta: float, n: int, samples: int, seed: int, count: int = 20) -> np.ndarray:
    r"""``count`` independent Monte-Carlo estimates of :math:`\theta_1^Q`, each from ``samples``
    draws of child k of ``SeedSequence(seed)``.

    The children are independent of each other and of ``default_rng(seed)`` (which the seed
    notebook and :class:`~attnspec.experiments.trials.LadderResult` use), so their mean and its
    standard error, ``std / sqrt(count)``, describe the estimator rather than one draw.
    """
    children = np.random.SeedSequence(int(seed)).spawn(int(count))
    return np.array(
        [theta_q_monte_carlo(beta, n, samples, np.random.default_rng(c))[0][0] for c in children]
    )


def thetas_ordered_on_grid() -> bool:
    r""":math:`\theta_1 \ge \theta_2` for :math:`f` and :math:`Q_n` on a grid of :math:`\beta`
    and :math:`n` (Cauchy–Schwarz after Stein's lemma)."""
    return all(
        theta_q(bb, nn)[0] >= theta_q(bb, nn)[1] - 1e-12 and theta_f(bb)[0] >= theta_f(bb)[1]
        for bb in (0.25, 0.5, 1.0, 1.5, 2.0, 3.0)
        for nn in range(2, 13)
    )
