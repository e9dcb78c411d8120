r"""An adversarial search for the smallest :math:`3 i \sigma_i` of causal canonical attention.

The seed summary of the spectral-degeneration paper states :math:`\sigma_i(A) \ge 1/(3i)` for
causal attention of the canonical model (scores :math:`s_i \ge 0`, the score matrix's singular
values). This module looks for violations, i.e. for the smallest
:math:`\min_i 3 i \sigma_i(A)`, over

- random scores: for every :math:`\ell \le` ``random_max_ell``, ``draws`` score vectors uniform in
  :math:`[0, T]` for each scale T, each in descending (canonical) order and in random order, from
  one child of a stated :class:`numpy.random.SeedSequence`;
- structured families (zero, linear ramps, alternating, logarithmic, constant, spike–bulk) at the
  lengths ``structured_ells``.

A search is numerical evidence, not a proof: it reports the smallest value found and where.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attnspec.canonical.causal import causal_singular_values
from attnspec.canonical.model import spike_bulk_scores
from attnspec.core import validate

#: Scales T of the random scores, uniform in [0, T].
RANDOM_SCALES = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)


@dataclass(frozen=True)
class SearchHit:
    """The smallest :math:`3 i \\sigma_i` of one family: value, family name, :math:`\\ell` and
    index i."""

    value: float
    family: str
    ell: int
    index: int


@dataclass(frozen=True)
class LowerBoundSearch:
    """Result of :func:`lower_bound_search`: the best hit of each family and the number of
    spectra tried."""

    hits: tuple[SearchHit, ...]
    spectra: int

    @property
    def ranked(self) -> tuple[SearchHit, ...]:
        """The hits from smallest to largest value; values equal to 9 decimals keep the family
        order.

        Families can reach the same minimum (the spike–bulk family's tail is the Cesàro matrix's);
        rounding before ranking keeps the order independent of round-off.
        """
        order = sorted(range(len(self.hits)), key=lambda j: (round(self.hits[j].value, 9), j))
        return tuple(self.hits[j] for j in order)

    @property
    def minimum(self) -> SearchHit:
        """The smallest hit over all families (the first of :attr:`ranked`)."""
        return self.ranked[0]


def _causal_batch(scores: np.ndarray) -> np.ndarray:
    """Dense causal softmax of a batch of diagonal score vectors, shape (n, ell, ell)."""
    n, ell = scores.shape
    i = np.arange(1, ell + 1)
    e = np.exp(scores)
    Z = e + i - 1
    A = np.tril(np.ones((ell, ell)))[None, :, :] / Z[:, :, None]
    A[:, i - 1, i - 1] = e / Z
    return A


def structured_families(ell: int) -> dict[str, np.ndarray]:
    r"""Non-negative score families of length :math:`\ell` (position order along the diagonal)."""
    i = np.arange(1, ell + 1)
    return {
        r"$\Sigma = 0$": np.zeros(ell),
        r"ramp $\log\ell \to 0$": np.linspace(np.log(ell), 0.0, ell),
        r"ramp $0 \to \log\ell$": np.linspace(0.0, np.log(ell), ell),
        r"alternating $0, 5$": np.where(i % 2 == 0, 5.0, 0.0),
        r"$s_i = \log(\ell + 1 - i)$": np.log(ell + 1 - i),
        r"constant 10": np.full(ell, 10.0),
        r"4 spikes, $f = \ell$": spike_bulk_scores(ell, min(4, ell), f=float(ell)),
    }


def lower_bound_search(
    seed: int = 0,
    random_max_ell: int = 32,
    draws: int = 64,
    structured_ells: tuple[int, ...] = (32, 128, 512, 1024),
) -> LowerBoundSearch:
    r"""Smallest :math:`3 i \sigma_i(A)` found for causal attention with non-negative diagonal
    scores.

    Parameters
    ----------
    seed : int
        Root of the :class:`numpy.random.SeedSequence`; length :math:`\ell` uses child
        :math:`\ell - 2` of ``SeedSequence(seed).spawn(random_max_ell - 1)``.
    random_max_ell : int
        Random scores at every :math:`\ell = 2, \dots,` ``random_max_ell``.
    draws : int
        Random score vectors per length and scale.
    structured_ells : tuple of int
        Lengths of the structured families (:func:`structured_families`).
    """
    for name, value, low in (
        ("random_max_ell", random_max_ell, 2),
        ("draws", draws, 1),
        ("seed", seed, 0),
    ):
        validate.integer(name, value, low)
    best: dict[str, SearchHit] = {}
    spectra = 0

    def record(family: str, sigma: np.ndarray, ell: int) -> None:
        ratio = 3 * np.arange(1, ell + 1) * sigma
        j = int(np.argmin(ratio))
        if family not in best or ratio[j] < best[family].value:
            best[family] = SearchHit(float(ratio[j]), family, ell, j + 1)

    children = np.random.SeedSequence(seed).spawn(random_max_ell - 1)
    for ell in range(2, random_max_ell + 1):
        rng = np.random.default_rng(children[ell - 2])
        raw = rng.uniform(0.0, 1.0, (len(RANDOM_SCALES) * draws, ell))
        raw *= np.repeat(RANDOM_SCALES, draws)[:, None]
        for family, scores in (
            ("random, descending", -np.sort(-raw, axis=1)),
            ("random, any order", raw),
        ):
            sigma = np.linalg.svd(_causal_batch(scores), compute_uv=False)
            spectra += sigma.shape[0]
            for row in sigma:
                record(family, row, ell)
    for ell in structured_ells:
        for family, scores in structured_families(int(ell)).items():
            record(family, causal_singular_values(scores), int(ell))
            spectra += 1
    return LowerBoundSearch(hits=tuple(best.values()), spectra=spectra)
