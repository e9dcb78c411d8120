r"""Where Gaussian equivalence stops as the head dimension scales like :math:`d_{qk} =
\lceil d^{\alpha} \rceil`: the gap's rate :math:`\rho(\alpha)` and the boundary :math:`\alpha^*`.

For each exponent :math:`\alpha` the gap of :mod:`attnspec.experiments.head_dim` is measured over
the sizes d, pooling :math:`\lceil \text{pooled}/d\rceil` trials (at least two) per size, and
fitted as :math:`\text{gap} \propto d^{-\rho(\alpha)}`. The boundary :math:`\alpha^*` is where
:math:`\rho` crosses 0, by linear interpolation between the two bracketing exponents, with the
standard error propagated from theirs (the rates at different :math:`\alpha` come from different
matrices and are treated as independent). Everything here is this book's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..numerics.fitting import RateFit
from .head_dim import GapPoint, gap_point, gap_rate, point_jobs, prefetch, rate_se, trials_for


def head_dim_at(d: int, alpha: float) -> int:
    r""":math:`d_{qk} = \lceil d^{\alpha}\rceil`, with :math:`d^{\alpha}` rounded to 9 digits first
    so that an exact power (:math:`256^{3/4} = 64`) is not pushed up by round-off."""
    return max(1, math.ceil(round(float(d) ** alpha, 9)))


@dataclass(frozen=True)
class Crossing:
    r"""Where :math:`\rho(\alpha)` crosses 0: :math:`\alpha^*` and its standard error, and the
    bracketing exponents (NaN when :math:`\rho` does not change sign on the measured range;
    ``bound`` then says on which side :math:`\alpha^*` lies: ``"below"`` the smallest exponent,
    ``"above"`` the largest)."""

    alpha: float
    se: float
    bracket: tuple[float, float]
    bound: str = ""


def rate_crossing(
    alphas: Sequence[float], rates: Sequence[float], ses: Sequence[float]
) -> Crossing:
    r"""The first sign change of :math:`\rho` going down from the largest :math:`\alpha`:
    :math:`\alpha^* = \alpha_a + (\alpha_b - \alpha_a)\rho_a/(\rho_a - \rho_b)` between the
    neighbours :math:`\alpha_a > \alpha_b` with :math:`\rho_a > 0 \ge \rho_b`, and

    .. math::

        \mathrm{se}(\alpha^*)^2 = \frac{(\alpha_a - \alpha_b)^2}{(\rho_a - \rho_b)^4}
        \bigl(\rho_b^2\,\mathrm{se}_a^2 + \rho_a^2\,\mathrm{se}_b^2\bigr).
    """
    order = sorted(range(len(alphas)), key=lambda i: -alphas[i])
    a, r, s = ([v[i] for i in order] for v in (alphas, rates, ses))
    for i in range(len(a) - 1):
        if r[i] > 0 >= r[i + 1]:
            span, drop = a[i] - a[i + 1], r[i] - r[i + 1]
            star = a[i] - span * r[i] / drop
            se = span / drop**2 * math.hypot(r[i + 1] * s[i], r[i] * s[i + 1])
            return Crossing(star, se, (a[i + 1], a[i]))
    nan = math.nan
    side = "below" if all(x > 0 for x in r) else "above" if all(x <= 0 for x in r) else ""
    return Crossing(nan, nan, (nan, nan), side)


@dataclass
class AlphaScan:
    r"""The scan: ``points[alpha]`` the gap points over ``d_values`` at
    :math:`d_{qk} = \lceil d^{\alpha}\rceil`, ``rates[alpha]`` their fitted rate, ``crossing``
    the boundary :math:`\alpha^*`."""

    alphas: list[float]
    d_values: list[int]
    points: dict[float, list[GapPoint]]
    rates: dict[float, RateFit]
    crossing: Crossing

    def rate(self, alpha: float) -> tuple[float, float]:
        r""":math:`\rho(\alpha)` and its standard error (the larger of the two)."""
        fit = self.rates[alpha]
        return fit.rate, rate_se(fit)


def scan_jobs(alphas, d_values, beta, seed, pooled_values) -> list[tuple]:
    """The trials :func:`run_alpha_scan` reads (for :func:`.head_dim.prefetch`)."""
    return [
        job
        for a in alphas
        for d in d_values
        for job in point_jobs(d, head_dim_at(d, a), beta, seed, trials_for(d, pooled_values))
    ]


def run_alpha_scan(
    alphas: Sequence[float],
    d_values: Sequence[int],
    beta: float,
    seed: int,
    pooled_values: int,
    remove_top_k: int,
) -> AlphaScan:
    r"""Every gap point, rate and the crossing of the scan (trials on both cores, cached; they are
    shared with the chapter's other series wherever :math:`(d, d_{qk})` coincide)."""
    alphas = sorted({float(a) for a in alphas}, reverse=True)
    sizes = sorted({int(d) for d in d_values})
    prefetch(scan_jobs(alphas, sizes, beta, seed, pooled_values))
    points = {
        a: [
            gap_point(d, head_dim_at(d, a), beta, seed, trials_for(d, pooled_values), remove_top_k)
            for d in sizes
        ]
        for a in alphas
    }
    rates = {a: gap_rate(pts, seed, remove_top_k) for a, pts in points.items()}
    crossing = rate_crossing(
        alphas, [rates[a].rate for a in alphas], [rate_se(rates[a]) for a in alphas]
    )
    return AlphaScan(alphas, sizes, points, rates, crossing)
