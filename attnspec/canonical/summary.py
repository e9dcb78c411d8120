r"""Per-context-length measurements of the canonical model, as small dataclasses for the chapter.

Each function computes one group of the spectral-degeneration paper's statements at one
:math:`\ell` and returns the deviations from the predicted values, unscaled; the chapter divides
them by the rates. Margins: ``"log"`` is :math:`f(\ell) = \log \ell`, ``"lin"`` is
:math:`f(\ell) = \ell` (spikes :math:`s = 2 \log \ell`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attnspec.canonical import causal, model
from attnspec.canonical.two_score import two_score_summary
from attnspec.core.errors import InvalidInput
from attnspec.models.attention import row_softmax
from attnspec.numerics.spectra import erank1, erank2, stable_rank

#: The spike margins f(ell) by name.
MARGINS = {"log": math.log, "lin": float}


def margin(name: str):
    """The margin function f of ``name`` (``"log"`` or ``"lin"``)."""
    if name not in MARGINS:
        raise InvalidInput(f"margin={name!r} is out of range: must be one of {sorted(MARGINS)}")
    return MARGINS[name]


def zero_bulk_scores(ell: int, k: int, margin_name: str) -> np.ndarray:
    """k spikes with :math:`e^s = \\ell f(\\ell)` over a zero bulk."""
    return model.spike_bulk_scores(ell, k, f=margin(margin_name))


@dataclass(frozen=True)
class BidirectionalSummary:
    """Bidirectional attention with k spikes over a zero bulk at one :math:`\\ell` and margin f."""

    ell: int
    k: int
    f: float
    sigma: np.ndarray
    profile_error: float  # max_i |sigma_i - profile_i|
    middle_error: (
        float  # max |sigma_i - (ell f - 1)/(ell f + ell - 1)|, 2 <= i <= k (exact identity)
    )
    tail: float  # max sigma_i, i >= k + 2 (0 for a zero bulk)
    lead_error: float  # max_{i <= k+1} |sigma_i - 1|
    lam1_error: float
    lamk1_error: float  # |lambda_{k+1} - (1 - c)|
    lam_min: float
    lam_max: float
    w1: float  # max of the W1 distances of sigma and lambda to c delta_1 + (1 - c) delta_0
    srank: float
    erank1: float
    erank2: float
    srank_limit: float  # (k + 1 - c)/alpha_+(c)^2

    @property
    def c(self) -> float:
        return self.k / self.ell


def bidirectional_summary(ell: int, k: int, margin_name: str) -> BidirectionalSummary:
    """Spectra of :math:`A_b` for k spikes with margin ``margin_name`` over a zero bulk (exact
    reduction)."""
    f = margin(margin_name)
    s = zero_bulk_scores(ell, k, margin_name)
    sigma, lam = model.bidirectional_singular_values(s), model.bidirectional_eigenvalues(s)
    c = k / ell
    limit = np.r_[np.ones(k), np.zeros(ell - k)]
    middle = model.middle_singular_value(ell, f)
    return BidirectionalSummary(
        ell=ell,
        k=k,
        f=float(f(ell)),
        sigma=sigma,
        profile_error=model.profile_error(s, k),
        middle_error=float(np.max(np.abs(sigma[1:k] - middle), initial=0.0)),
        tail=float(np.max(sigma[k + 1 :], initial=0.0)),
        lead_error=float(np.max(np.abs(sigma[: k + 1] - 1))),
        lam1_error=abs(float(lam[0]) - 1),
        lamk1_error=abs(float(lam[k]) - (1 - c)),
        lam_min=float(lam.min()),
        lam_max=float(lam.max()),
        w1=float(max(np.mean(np.abs(sigma - limit)), np.mean(np.abs(lam - limit)))),
        srank=stable_rank(sigma),
        erank1=erank1(sigma),
        erank2=erank2(sigma),
        srank_limit=model.stable_rank_limit(k, ell),
    )


@dataclass(frozen=True)
class BoundedBulkSummary:
    """Bidirectional attention with k spikes (:math:`f = \\log \\ell`) over a bulk uniform in
    :math:`[0, B]`."""

    ell: int
    lam1_error: float
    interlacing_violation: float
    lam_min: float
    lam_max: float
    tail: float  # max sigma_i, i >= k + 2
    bulk_d_min: float
    bulk_d_max: float


def bounded_bulk_scores(ell: int, k: int, bulk_max: float, seed: int) -> np.ndarray:
    """k spikes (:math:`f = \\log \\ell`) over a bulk uniform in :math:`[0, B]`, stream
    ``default_rng([seed, ell])``."""
    rng = np.random.default_rng([seed, ell])
    return model.spike_bulk_scores(ell, k, f=math.log, bulk_max=bulk_max, rng=rng)


def causal_eigenvalue_w1(ell: int, k: int, bulk_max: float, seed: int) -> float:
    r""":math:`W_1` of the eigenvalues (the diagonal :math:`d + z`) to the two-atom law
    :math:`c\delta_1 + (1 - c)\delta_0`, bounded bulk."""
    d, z = causal.causal_parts(bounded_bulk_scores(ell, k, bulk_max, seed))
    limit = np.r_[np.ones(k), np.zeros(ell - k)]
    return float(np.mean(np.abs(np.sort(d + z)[::-1] - limit)))


def bounded_bulk_summary(ell: int, k: int, bulk_max: float, seed: int) -> BoundedBulkSummary:
    """Eigenvalues, interlacing and bulk singular values of :math:`A_b` with a bounded random
    bulk (dense)."""
    s = bounded_bulk_scores(ell, k, bulk_max, seed)
    lam, sigma = model.bidirectional_eigenvalues(s), model.bidirectional_singular_values(s)
    lower, upper = model.interlacing_bounds(s)
    d, _ = model.bidirectional_parts(s)
    return BoundedBulkSummary(
        ell=ell,
        lam1_error=abs(float(lam[0]) - 1),
        interlacing_violation=float(max(np.max(lower - lam), np.max(lam - upper), 0.0)),
        lam_min=float(lam.min()),
        lam_max=float(lam.max()),
        tail=float(np.max(sigma[k + 1 :], initial=0.0)),
        bulk_d_min=float(d[k:].min()),
        bulk_d_max=float(d[k:].max()),
    )


@dataclass(frozen=True)
class CausalSummary:
    """Causal attention with k spikes (:math:`f = \\log \\ell`) over a bounded bulk at one
    :math:`\\ell`."""

    ell: int
    spike_gap: float  # max_{i <= k} (1 - lambda_i)
    i_lam_min: float  # min over the bulk of i lambda_i
    i_lam_max: float
    w1: float  # W1 of the eigenvalues to c delta_1 + (1 - c) delta_0
    norm: float
    sigma_k_gap: float  # (1 - sigma_k)_+
    count: int  # #{i > k : sigma_i > eps}
    count_complete: bool
    srank: float


def causal_summary(
    ell: int, k: int, bulk_max: float, seed: int, eps: float, cap: int
) -> CausalSummary:
    """Eigenvalues (exact), norm, leading singular values (Lanczos) and stable rank of
    :math:`A_c`."""
    s = bounded_bulk_scores(ell, k, bulk_max, seed)
    d, z = causal.causal_parts(s)
    diag = d + z
    i = np.arange(1, ell + 1)
    limit = np.r_[np.ones(k), np.zeros(ell - k)]
    top, complete = causal.causal_top_until(s, eps, 2 * k + 64, cap)
    norm = float(top[0])
    return CausalSummary(
        ell=ell,
        spike_gap=float(np.max(1 - diag[:k])),
        i_lam_min=float(np.min(i[k:] * diag[k:])),
        i_lam_max=float(np.max(i[k:] * diag[k:])),
        w1=float(np.mean(np.abs(np.sort(diag)[::-1] - limit))),
        norm=norm,
        sigma_k_gap=max(0.0, 1 - float(top[k - 1])),
        count=int(np.sum(top[k:] > eps)),
        count_complete=complete,
        srank=causal.causal_frobenius_sq(s) / norm**2,
    )


@dataclass(frozen=True)
class ExactIdentities:
    """Round-off deviations of identities that hold exactly (each should be at round-off level)."""

    deviations: dict  # name -> largest absolute deviation

    @property
    def largest(self) -> float:
        return max(self.deviations.values())


def exact_identities(ell: int, k: int, bulk_max: float, seed: int, summaries=()) -> ExactIdentities:
    """Closed forms against dense computation at one :math:`\\ell`, bounded bulk, plus exact
    identities of ``summaries``.

    ``summaries`` are :class:`BidirectionalSummary` and :class:`BoundedBulkSummary` objects whose
    exact identities (middle values, zero-bulk tail, :math:`\\lambda_1 = 1`, interlacing) are
    included.
    """
    s = bounded_bulk_scores(ell, k, bulk_max, seed)
    A = model.bidirectional_attention(s)
    _, z = model.bidirectional_parts(s)
    r = np.sqrt(z)
    masked = np.diag(s) + np.triu(np.full((ell, ell), -np.inf), 1)
    Ac = causal.causal_attention(s)
    i = np.arange(1, ell + 1)
    zero = np.zeros(ell)
    dev = {
        r"$\operatorname{softmax}(\Sigma) = D + z\mathbf 1^\top$": float(
            np.max(np.abs(row_softmax(np.diag(s)) - A))
        ),
        "rows of $A_b$ sum to 1": float(np.max(np.abs(A.sum(axis=1) - 1))),
        r"$A_b \sim D + \sqrt z\sqrt z^\top$": float(
            np.max(np.abs(A * r[None, :] / r[:, None] - model.symmetrized(s)))
        ),
        r"causal $\operatorname{softmax}$ = closed form": float(
            np.max(np.abs(row_softmax(masked) - Ac))
        ),
        r"$\lambda_i(A_c) = e^{s_i}/(e^{s_i} + i - 1)$": float(
            np.max(np.abs(np.diag(Ac) - np.exp(s) / (np.exp(s) + i - 1)))
        ),
        r"$\Sigma = 0$: $\Vert A_c\Vert_F^2 = H_\ell$": abs(
            causal.causal_frobenius_sq(zero) / causal.harmonic_number(ell) - 1
        ),
        r"$\Sigma = 0$: $\Vert A_b\Vert_F^2 = 1$": abs(model.bidirectional_frobenius_sq(zero) - 1),
    }
    bi = [x for x in summaries if isinstance(x, BidirectionalSummary)]
    bounded = [x for x in summaries if isinstance(x, BoundedBulkSummary)]
    if bi:
        dev[r"middle values $= (\ell f - 1)/(\ell f + \ell - 1)$"] = max(x.middle_error for x in bi)
        dev[r"zero bulk: $\sigma_i = 0$, $i \ge k + 2$"] = max(x.tail for x in bi)
        dev[r"$\lambda_1(A_b) = 1$"] = max(x.lam1_error for x in bi + bounded)
    if bounded:
        dev[r"interlacing $d_i \le \lambda_i \le d_{i-1}$"] = max(
            x.interlacing_violation for x in bounded
        )
    return ExactIdentities(deviations=dev)


def counterexample_check(ell0: int, grid) -> tuple[float, dict]:
    r"""The appendix counterexample at ``ell0`` (dense): the largest deviation from its stated
    spectra; and, per length of ``grid``, :math:`2\sqrt\ell(\sigma_1 - 1)`,
    :math:`2\sqrt\ell(1 - \sigma_2)` and :math:`\sigma_3` of :math:`\operatorname{softmax}(t e_1
    e_1^\top)`, :math:`t = 2\log\ell`."""
    A_sigma, A_s = model.counterexample_attention(ell0)
    t0 = 2 * math.log(ell0)
    S_sv = np.linalg.svd(np.full((ell0, ell0), t0 / ell0), compute_uv=False)
    sv_s, sv_sigma = np.linalg.svd(A_s, compute_uv=False), np.linalg.svd(A_sigma, compute_uv=False)
    exact = max(
        abs(S_sv[0] - t0) / t0,
        float(np.max(S_sv[1:])) / t0,
        float(sv_s[1]),
        float(
            np.max(
                np.abs(
                    sv_sigma - model.bidirectional_singular_values(np.r_[t0, np.zeros(ell0 - 1)])
                )
            )
        ),
    )
    gaps = {}
    for ell in grid:
        s = two_score_summary(ell, 1, float(ell)).top  # one spike, e^t = ell^2: t = 2 log ell
        gaps[ell] = (2 * math.sqrt(ell) * (s[0] - 1), 2 * math.sqrt(ell) * (1 - s[1]), s[2])
    return exact, gaps
