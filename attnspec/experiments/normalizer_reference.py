r"""The normalizers' spread :math:`\operatorname{std}(D_i)` at every cell of a grid against its
exact value (:func:`attnspec.models.head_dimension.normalizer_std_exact` at :math:`d_{qk} = d`),
and its reference distribution, simulated from the exact law of :math:`D_i` at a chapter's design.

At large :math:`\beta` the spread is dominated by rare large scores, so its sampling distribution
is skewed and a standard error from a few trials does not describe it. Instead, the statistic is
drawn many times from the law it is tested against. Given :math:`r_i = \lVert q_i\rVert^2/d \sim
\chi^2_d/d`, the :math:`d` scores of row :math:`i` are independent :math:`N(0, r_i)`, and

.. math::

    D_i = \frac{e^{-\beta^2/2}}{d} \sum_{j=1}^{d} e^{a_i g_{ij}}, \qquad a_i = \beta\sqrt{r_i},
    \quad g_{ij} \sim N(0, 1).

Each row is drawn in two parts split at :math:`g = t`, :math:`\bar\Phi(t) = \lambda/d`: the
rare terms above :math:`t` exactly (their number Poisson with mean :math:`\lambda` per row, their
values from the normal tail), and the sum of the others from a shifted gamma law with its exact
mean, variance and third cumulant
(:math:`E[e^{k a g} \mid g \le t] = e^{k^2a^2/2}\Phi(t - ka)/\Phi(t)`). Rows are drawn
independently. The keys a trial's rows share correlate two rows' :math:`D_i` only by
:math:`O(\beta^4/d^2)` (:func:`attnspec.experiments.normalizer.trial_mean_sd`), but they also
make a trial's spread vary with its mean key; this reference leaves that out, and against the
full model at small :math:`d` its range is somewhat too narrow at some :math:`\beta`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import integrate, special, stats

from ..core import validate
from ..models.head_dimension import normalizer_std_exact
from .normalizer import normalizer_stats
from .trials import LadderResult


@dataclass(frozen=True)
class NormalizerPoint:
    r""":math:`\operatorname{std}(D_i)` over all rows and trials of a cell, its standard error from
    the spread of the per-trial values (:func:`attnspec.experiments.normalizer.normalizer_stats`),
    and its exact value (infinite where :math:`d \le 4\beta^2`: the variance diverges)."""

    d: int
    beta: float
    trials: int
    std: float
    se: float
    exact: float

    @property
    def z(self) -> float:
        """(measured - exact) / se."""
        return (self.std - self.exact) / self.se


def exact_std(beta: float, d: int) -> float:
    r""":func:`~attnspec.models.head_dimension.normalizer_std_exact` at :math:`d_{qk} = d`, infinite
    where :math:`d \le 4\beta^2`."""
    return normalizer_std_exact(beta, d, d) if 4 * beta * beta < d else math.inf


def normalizer_points(ladders: Sequence[LadderResult]) -> list[NormalizerPoint]:
    """The normalizers' spread against its exact value at every ladder, sorted by (d, beta)."""
    out = []
    for L in sorted(ladders, key=lambda L: (L.config.d, L.config.beta)):
        st = normalizer_stats(L.D, L.config.trials)
        d, beta = L.config.d, L.config.beta
        out.append(NormalizerPoint(d, beta, st.trials, st.std, st.std_se, exact_std(beta, d)))
    return out


#: Expected number of terms per row drawn exactly from the normal tail.
TAIL_TERMS = 1.0
#: Family-wise probability that a right formula fails somewhere among the normalizer's grid points.
NORM_ALPHA = 0.05


def _bulk_moments(a: np.ndarray, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Mean, variance and third cumulant of :math:`e^{a g}` given :math:`g \le t`."""
    norm = special.ndtr(t)
    m1, m2, m3 = (np.exp(k * k * a * a / 2) * special.ndtr(t - k * a) / norm for k in (1, 2, 3))
    return m1, m2 - m1 * m1, m3 - 3 * m2 * m1 + 2 * m1**3


def draw_rows(beta: float, d: int, rows: int, rng: np.random.Generator) -> np.ndarray:
    r"""``rows`` independent draws of :math:`D_i` at size ``d`` (module docstring)."""
    beta = validate.real("beta", beta, 0.0)
    d = validate.integer("d", d, 2)
    p = min(TAIL_TERMS / d, 0.5)
    t = float(-special.ndtri(p))
    a = beta * np.sqrt(rng.chisquare(d, rows) / d)
    which = np.sort(rng.integers(0, rows, rng.poisson(TAIL_TERMS * rows)))
    count = np.bincount(which, minlength=rows)
    mean, var, k3 = _bulk_moments(a, t)
    n = d - count
    mean, var, k3 = n * mean, n * var, n * k3
    sd = np.sqrt(var)
    skew = np.maximum(k3 / np.maximum(var, 1e-300) ** 1.5, 1e-6)
    shape = 4.0 / skew**2
    scale = sd * skew / 2
    bulk = mean - shape * scale + rng.gamma(shape, scale)
    g = -special.ndtri(rng.uniform(0.0, 1.0, which.size) * p)
    tail = np.bincount(which, weights=np.exp(a[which] * g), minlength=rows)
    return np.exp(-beta * beta / 2) * (bulk + tail) / d


def law_std(beta: float, d: int) -> float:
    r"""The standard deviation of the law :func:`draw_rows` samples, by quadrature over
    :math:`r \sim \chi^2_d/d` of the conditional moments
    :math:`E[D_i \mid r] = e^{\beta^2 (r - 1)/2}` and
    :math:`E[D_i^2 \mid r] = e^{\beta^2 (r - 1)}(e^{\beta^2 r} + d - 1)/d`: a route to
    :math:`\operatorname{std}(D_i)` independent of the closed form it is compared with."""
    beta = validate.real("beta", beta, 0.0)
    d = validate.integer("d", d, 2)
    b2, law = beta * beta, stats.chi2(d, scale=1.0 / d)
    lo, hi = law.ppf(1e-12), law.ppf(1 - 1e-12)

    def moment(f):
        return integrate.quad(lambda r: f(r) * law.pdf(r), lo, hi, limit=200)[0]

    m1 = moment(lambda r: np.exp(b2 * (r - 1) / 2))
    m2 = moment(lambda r: np.exp(b2 * (r - 1)) * (np.exp(b2 * r) + d - 1) / d)
    return float(np.sqrt(m2 - m1 * m1))


def pooled_std_reference(
    beta: float, d: int, trials: int, replicates: int, seed: int
) -> np.ndarray:
    r"""``replicates`` draws of the pooled :math:`\operatorname{std}(D_i)` over ``trials`` trials
    of ``d`` rows each (:func:`draw_rows`), seeded by ``(seed, d, round(1000 beta))``."""
    trials = validate.integer("trials", trials, 1)
    replicates = validate.integer("replicates", replicates, 1)
    rng = np.random.default_rng([validate.integer("seed", seed, 0), d, round(1000 * beta)])
    rows = draw_rows(beta, d, replicates * trials * d, rng).reshape(replicates, -1)
    return rows.std(axis=1)


@dataclass(frozen=True)
class NormalizerTest:
    r"""The measured spreads against their reference distributions, simulated from the exact law
    at the chapter's design (:func:`pooled_std_reference`).

    The draws are divided by the law's own spread (by quadrature, :func:`law_std`), the measured
    spread by the exact formula, so a wrong formula moves the measured point and not the draws. On
    the log scale :math:`u = \log(\operatorname{std}/\text{exact})` each point gets
    :math:`z = (u - \bar u_{\rm sim})/\operatorname{sd}(u_{\rm sim})`; the family statistic is
    :math:`\max |z|` over the points, and its critical value ``crit`` is the
    :math:`1 - \alpha` quantile of the same maximum over the simulated replicates, so a right
    formula fails with probability :data:`NORM_ALPHA` whatever the shape of the spread's law.
    ``reach`` is each point's smallest detectable factor either way, :math:`e^{\rm crit\,sd}`.
    """

    points: list
    z: np.ndarray
    crit: float
    p: float
    reach: np.ndarray
    median_dev: np.ndarray

    @property
    def outside(self) -> list:
        """The points whose :math:`|z|` exceeds the family's critical value."""
        return [p for p, z in zip(self.points, self.z, strict=True) if abs(z) > self.crit]

    @property
    def worst(self) -> int:
        """Index of the point with the largest :math:`|z|`."""
        return int(np.argmax(np.abs(self.z)))


def normalizer_test(points: list[NormalizerPoint], replicates: int, seed: int) -> NormalizerTest:
    """The family test of :class:`NormalizerTest` over the points with a finite exact value."""
    ok = [p for p in points if math.isfinite(p.exact) and p.se > 0]  # testable points
    sims = np.log(
        [
            pooled_std_reference(p.beta, p.d, p.trials, replicates, seed) / law_std(p.beta, p.d)
            for p in ok
        ]
    ).reshape(len(ok), replicates)
    mean, sd = sims.mean(axis=1), sims.std(axis=1, ddof=1)
    z = (np.log([p.std / p.exact for p in ok]) - mean) / sd
    null = np.max(np.abs((sims - mean[:, None]) / sd[:, None]), axis=0)
    crit = float(np.quantile(null, 1 - NORM_ALPHA)) if ok else math.nan
    big = float(np.max(np.abs(z))) if ok else math.nan
    p = (1 + int(np.sum(null >= big))) / (replicates + 1)
    return NormalizerTest(ok, z, crit, p, np.exp(crit * sd), np.expm1(np.median(sims, axis=1)))
