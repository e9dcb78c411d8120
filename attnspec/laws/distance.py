r"""How far a measured bulk is from the exact limit law: the Kolmogorov distance, counted fairly."""

from __future__ import annotations

from functools import lru_cache, partial

import numpy as np

from ..numerics.spectra import ks_to_law_below_quantile
from .gaussian_equivalent import GaussianEquivalentLaw

_limit_law = lru_cache(maxsize=64)(GaussianEquivalentLaw.for_f)  # built once per beta


@lru_cache(maxsize=256)
def _limit_quantile(beta: float, p: float) -> float:
    r"""The limit law's ``p`` quantile at ``beta``, solved once: a sweep's table asks it of every
    trial and rung of a :math:`(d, \beta)`, and each solve costs tens of milliseconds."""
    return float(_limit_law(beta).ppf(p))


def ks_to_limit_law(bulk: np.ndarray, beta: float, d: int | None = None, removed: int = 0) -> float:
    r"""Kolmogorov distance of ``bulk`` to the exact limit law of the ladder at ``beta``.

    The law is :meth:`GaussianEquivalentLaw.for_f
    <attnspec.laws.gaussian_equivalent.GaussianEquivalentLaw.for_f>`, i.e. :math:`\theta =
    (e^{\beta^2} - 1, \beta^2)`. ``bulk`` pools spectra of ``d`` values with the top ``removed``
    taken out of each; the distance is :func:`~attnspec.numerics.spectra.ks_to_law_below_quantile`
    (counted out of :math:`d`, supremum below the law's :math:`(1 - r/d)` quantile). Without ``d``,
    ``bulk`` is taken as whole spectra. NaN at :math:`\beta = 0`, where every rung is degenerate and
    the law does not exist.
    """
    if not beta > 0:
        return float("nan")
    law = _limit_law(beta)
    if d is None:
        d, removed = int(np.asarray(bulk).size), 0
    return ks_to_law_below_quantile(bulk, law.cdf, partial(_limit_quantile, beta), d, removed)
