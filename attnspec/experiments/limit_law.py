r"""The limit-law chapters' computations: every rung's bulk against the exact laws, the two forms of
the law against each other, the density frames of the :math:`\beta` slider, and the localized
outliers beyond the edge.

The laws are the Gaussian-equivalent law of :math:`\theta^f = (e^{\beta^2} - 1, \beta^2)` (every
rung's limit), that of the exact :math:`\theta^Q` at degree :math:`n_d` (the Taylor rungs'
finite-:math:`d` law) and Marchenko–Pastur with the same mean :math:`\theta_1`. A bulk (top
:math:`r` removed per trial) is compared with a law as in
:func:`attnspec.numerics.spectra.ks_to_law_below_quantile`: counted out of :math:`d` per spectrum,
below the law's :math:`(1 - r/d)` quantile.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import linalg, stats

from ..core.config import Config
from ..laws.gaussian_equivalent import GaussianEquivalentLaw
from ..laws.marchenko_pastur import MarchenkoPastur
from ..laws.pennington_worah import pennington_worah_pdf
from ..models.attention import draw_scores
from ..models.ladder import MODEL_NAMES, REFERENCE
from ..models.nonlinearity import f
from ..numerics.spectra import ks_to_law_below_quantile, wasserstein1
from .trials import LadderResult, trial, trial_rng

#: Law keys: the :math:`\theta^f` law, the :math:`\theta^Q` law, Marchenko–Pastur of mean
#: :math:`\theta_1`.
LAW_KEYS = ("f", "q", "mp")
#: The rungs built from :math:`Q_n`, whose finite-d law is the :math:`\theta^Q` law.
TAYLOR_RUNGS = ("Y_Q", "Y_Q_lin")


def finite_d_law(name: str) -> str:
    r"""``"q"`` for the Taylor rungs (their finite-:math:`d` law is :math:`\theta^Q`'s), else
    ``"f"``."""
    return "q" if name in TAYLOR_RUNGS else "f"


@dataclass(frozen=True)
class LawDistances:
    r"""Every rung's bulk against the three laws, and the laws against the :math:`\theta^f` law.

    Attributes
    ----------
    laws : dict
        ``"f"``, ``"q"``, ``"mp"`` -> the law.
    ks, w1 : dict
        law key -> rung -> Kolmogorov distance (below the :math:`(1 - r/d)` quantile) and
        Wasserstein-1 distance (renormalized bulk against the law conditioned below it).
    ks_laws, w1_laws : dict
        ``"q"``, ``"mp"`` -> the same distances between that law and the :math:`\theta^f` law (no
        sampling: a fine grid, and full-law quantiles).
    quantile_points : int
        midpoint quantiles of the Wasserstein-1 distance.
    values : int
        pooled bulk values of one rung.
    """

    laws: dict
    ks: dict
    w1: dict
    ks_laws: dict
    w1_laws: dict
    quantile_points: int
    values: int

    def at_target(self, name: str) -> float:
        """The rung's distance to its finite-d law."""
        return self.ks[finite_d_law(name)][name]


def ladder_laws(result: LadderResult) -> dict:
    """The three laws of a ladder's parameters, by :data:`LAW_KEYS`."""
    law = GaussianEquivalentLaw(*result.theta_f)
    return {
        "f": law,
        "q": GaussianEquivalentLaw(*result.theta_q),
        "mp": MarchenkoPastur(law.theta1),
    }


def law_distances(
    result: LadderResult, quantile_points: int = 20000, grid_points: int = 200001
) -> LawDistances:
    """Kolmogorov and Wasserstein-1 distances of every rung's pooled bulk to each law
    (``grid_points`` is the grid on which the laws are compared with each other)."""
    cfg = result.config
    laws = ladder_laws(result)
    kept = 1.0 - cfg.remove_top_k / cfg.d
    mid = (np.arange(quantile_points) + 0.5) / quantile_points
    bulks = {n: result.bulk(n) for n in MODEL_NAMES}
    ks = {
        k: {
            n: ks_to_law_below_quantile(bulks[n], law.cdf, law.ppf, cfg.d, cfg.remove_top_k)
            for n in MODEL_NAMES
        }
        for k, law in laws.items()
    }
    below = {k: law.ppf(kept * mid) for k, law in laws.items()}  # the law below the quantile
    w1 = {k: {n: wasserstein1(bulks[n], below[k]) for n in MODEL_NAMES} for k in laws}
    grid = np.linspace(0.0, max(laws["f"].edge, laws["q"].edge), grid_points)
    full = {k: law.ppf(mid) for k, law in laws.items()}
    ks_laws = {
        k: float(np.max(np.abs(laws[k].cdf(grid) - laws["f"].cdf(grid)))) for k in ("q", "mp")
    }
    w1_laws = {k: wasserstein1(full[k], full["f"]) for k in ("q", "mp")}
    return LawDistances(laws, ks, w1, ks_laws, w1_laws, quantile_points, int(bulks[REFERENCE].size))


#: Relative accuracy of a root at a double root, :math:`\sqrt{\varepsilon_{\rm mach}}`: the worst
#: a quartic solver can do at the edge, where two roots meet.
DOUBLE_ROOT_ACCURACY = math.sqrt(np.finfo(float).eps)


@dataclass(frozen=True)
class FormsAgreement:
    r"""Pennington and Worah's density against the quartic's, on midpoint grids of
    :math:`(0, \lambda_+)`.

    ``betas`` are the inverse temperatures compared; ``max_rel`` the largest relative difference
    over all of them, ``max_abs`` the largest absolute one, ``points`` the points per grid.
    """

    betas: tuple[float, ...]
    points: int
    max_rel: float
    max_abs: float


def forms_agreement(betas: Sequence[float], points: int = 200) -> FormsAgreement:
    r""":func:`~attnspec.laws.pennington_worah.pennington_worah_pdf` (:math:`\eta = \theta_1`,
    :math:`\zeta = \theta_2`) against :meth:`GaussianEquivalentLaw.pdf` at :math:`\lambda_+
    (i - 1/2)/n`, :math:`i = 1..n`, for every :math:`\beta`."""
    rel, absolute = 0.0, 0.0
    for beta in betas:
        law = GaussianEquivalentLaw.for_f(beta)
        lam = law.edge * (np.arange(points) + 0.5) / points
        q = law.pdf(lam)
        diff = np.abs(pennington_worah_pdf(lam, law.theta1, law.theta2) - q)
        rel, absolute = max(rel, float(np.max(diff / q))), max(absolute, float(diff.max()))
    return FormsAgreement(tuple(float(b) for b in betas), points, rel, absolute)


#: The right end of the slider's axis in units of theta_1: past the largest edge
#: lambda_+/theta_1 of any beta (27/4, the Fuss–Catalan edge, as beta -> 0).
SLIDER_X_MAX = 7.0


@dataclass(frozen=True)
class SliderFrame:
    r"""One position of the :math:`\beta` slider, in units of :math:`\theta_1` (mean 1).

    ``x`` is the grid of :math:`s^2/\theta_1` where the densities ``law`` (the
    :math:`\theta^f` law) and ``mp`` (Marchenko–Pastur of the same mean) are given; ``edges`` and
    ``hist`` the histogram of the pooled bulk of ``model`` (counted out of :math:`d` per trial);
    ``ks`` and ``ks_mp`` its distances to the two laws; ``edge`` the law's
    :math:`\lambda_+/\theta_1`.
    """

    beta: float
    theta1: float
    x: np.ndarray
    law: np.ndarray
    mp: np.ndarray
    edges: np.ndarray
    hist: np.ndarray
    ks: float
    ks_mp: float
    edge: float


def slider_frames(
    ladders: Sequence[LadderResult], model: str = REFERENCE, bins: int = 70, points: int = 351
) -> list[SliderFrame]:
    """One :class:`SliderFrame` per ladder (one per beta, increasing)."""
    frames = []
    x = np.linspace(0.0, SLIDER_X_MAX, points)[1:]
    edges = np.linspace(0.0, SLIDER_X_MAX, bins + 1)
    for L in sorted(ladders, key=lambda L: L.config.beta):
        cfg = L.config
        law = GaussianEquivalentLaw.for_f(cfg.beta)
        mp = MarchenkoPastur(law.theta1)
        values = L.bulk(model)
        counts, _ = np.histogram(values / law.theta1, bins=edges)
        frames.append(
            SliderFrame(
                cfg.beta,
                law.theta1,
                x,
                law.theta1 * law.pdf(law.theta1 * x),
                law.theta1 * mp.pdf(law.theta1 * x),
                edges,
                counts / (cfg.d * len(L.trials) * np.diff(edges)),
                ks_to_law_below_quantile(values, law.cdf, law.ppf, cfg.d, cfg.remove_top_k),
                ks_to_law_below_quantile(values, mp.cdf, mp.ppf, cfg.d, cfg.remove_top_k),
                law.edge / law.theta1,
            )
        )
    return frames


@dataclass(frozen=True)
class Outliers:
    r"""The largest entries of :math:`Y_f = f(S)/\sqrt d` and the top singular values, per trial.

    Attributes
    ----------
    max_score, entry_sq, weight : array
        per trial: :math:`\max_{ij} S_{ij}`, the squared largest entry of :math:`Y_f`, and the
        weight :math:`v_i^2` that the top left singular vector of :math:`Y_f` puts on that entry's
        row.
    top_f, top_reference : array
        per trial: :math:`s_1^2(Y_f)` and :math:`s_1^2` of the reference.
    spearman, p_value : float
        rank correlation of ``entry_sq`` and ``top_f`` over trials, one-sided p (NaN with fewer
        than three trials).
    delocalized_max : float
        :math:`2\log d/d`, about the largest weight a delocalized unit vector puts on one row.
    max_score_pred : float
        :math:`2\sqrt{\log d}`, the size of the largest of :math:`d^2` standard scores.
    d_isolated : float
        where the predicted squared largest entry :math:`e^{4\beta\sqrt{\log d} - \beta^2}/d`
        falls to :math:`\theta_1` (NaN when it never exceeds it).
    """

    max_score: np.ndarray
    entry_sq: np.ndarray
    weight: np.ndarray
    top_f: np.ndarray
    top_reference: np.ndarray
    spearman: float
    p_value: float
    delocalized_max: float
    max_score_pred: float
    d_isolated: float


def localized_outliers(config: Config, result: LadderResult) -> Outliers:
    r"""Redraw each trial's scores (the ladder's own, :func:`trial_rng`), locate the largest
    entry of :math:`Y_f` and the top singular vector's weight on its row."""
    d, beta = config.d, config.beta
    max_score, weight = np.empty(config.trials), np.empty(config.trials)
    for t in range(config.trials):
        S = draw_scores(d, trial_rng(config.seed, t))
        row = np.unravel_index(np.argmax(S), S.shape)[0]
        Yf = f(S, beta) / np.sqrt(d)
        top = linalg.eigh(Yf @ Yf.T, subset_by_index=[d - 1, d - 1])[1][:, 0]
        max_score[t], weight[t] = S.max(), top[row] ** 2
        del S, Yf
    entry_sq = (f(max_score, beta) / np.sqrt(d)) ** 2
    top_f = result.s2("Y_f")[:, 0]
    rho, p = math.nan, math.nan
    if config.trials >= 3:
        test = stats.spearmanr(entry_sq, top_f, alternative="greater")
        rho, p = float(test.statistic), float(test.pvalue)
    # e^{4 beta t - beta^2}/d = theta_1 at t = sqrt(log d), a root of
    # t^2 - 4 beta t + beta^2 + log theta_1 = 0
    disc = 3 * beta**2 - math.log(math.expm1(beta**2))
    return Outliers(
        max_score,
        entry_sq,
        weight,
        top_f,
        result.s2(REFERENCE)[:, 0],
        rho,
        p,
        2 * math.log(d) / d,
        2 * math.sqrt(math.log(d)),
        math.exp((2 * beta + math.sqrt(disc)) ** 2) if disc >= 0 else math.nan,
    )


@dataclass(frozen=True)
class CdfDifferences:
    r""":math:`F_{\rm bulk} - F_{\theta^f}` of every rung on a grid up to the law's
    :math:`(1 - r/d)` quantile (bulk counted out of :math:`d` per trial), the gap
    :math:`F_{\theta^Q} - F_{\theta^f}` of the two laws, and where each rung's largest deviation
    lies."""

    x: np.ndarray
    rungs: dict
    gap: np.ndarray
    at: dict


def cdf_differences(result: LadderResult, laws: dict, points: int = 1201) -> CdfDifferences:
    r"""Every rung's empirical distribution minus the :math:`\theta^f` law's (see
    :class:`CdfDifferences`)."""
    cfg = result.config
    law = laws["f"]
    x = np.linspace(0.0, float(law.ppf(1.0 - cfg.remove_top_k / cfg.d)), points)
    F = law.cdf(x)
    counted = cfg.d * len(result.trials)
    rungs = {
        n: np.searchsorted(np.sort(result.bulk(n)), x, side="right") / counted - F
        for n in MODEL_NAMES
    }
    at = {n: float(x[np.argmax(np.abs(diff))]) for n, diff in rungs.items()}
    return CdfDifferences(x, rungs, laws["q"].cdf(x) - F, at)


def pair_ladders(
    config: Config, betas: Sequence[float], trials: int, models: Sequence[str]
) -> list[LadderResult]:
    """Trials ``0..trials-1`` of ``models`` at size ``config.d`` for every beta, computed one by
    one (or read from the cache, which sweeps share)."""
    out = []
    for beta in betas:
        cfg = Config(
            d=config.d,
            beta=float(beta),
            trials=trials,
            seed=config.seed,
            remove_top_k=config.remove_top_k,
            c_poly=config.c_poly,
        )
        runs = [trial(cfg.d, cfg.beta, cfg.c_poly, cfg.seed, k, models) for k in range(trials)]
        out.append(LadderResult(cfg, runs))
    return out
