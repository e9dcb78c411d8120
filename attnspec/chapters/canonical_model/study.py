r"""Chapter "The canonical model": bidirectional softmax of the canonical scores
:math:`\Sigma = \operatorname{diag}(s_1, \dots, s_\ell)`, :math:`A_b = D + z\mathbf 1^\top`, its
singular-value profile :math:`(\alpha_+(c), 1, \dots, 1, \alpha_-(c), 0, \dots)` with
:math:`\alpha_\pm(c) = \sqrt{1 - c/2 \pm \sqrt{c - 3c^2/4}}`, and
:math:`\operatorname{srank}(A_b) \to (k + 1 - c)/\alpha_+(c)^2`.

The per-:math:`\ell` summaries (:mod:`attnspec.canonical.summary`) at the chapter's lengths and on
wide grids (:data:`LIN_EXPONENTS`, :data:`LOG_EXPONENTS`; exact by
:mod:`attnspec.canonical.two_score`), the bounded bulk (dense, up to ``dense_max``), the two forms
of :math:`\operatorname{srank} \approx k + 1`, the appendix counterexample and the signed-score
extension; every scaling claim is decided by a fitted exponent (:mod:`attnspec.canonical.rates`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...canonical import causal, model
from ...canonical.rates import rate_test
from ...canonical.summary import (
    bidirectional_summary,
    bounded_bulk_summary,
    counterexample_check,
    exact_identities,
)
from ...canonical.two_score import TwoScoreSummary, two_score_summary
from ...present.claims import Claim
from ...present.formatting import per_length, round_off_bound
from ...present.tables import markdown_table
from ..shared import CanonicalLengths, dense_grid
from .claims import LIN_EXPONENTS, LOG_EXPONENTS, chapter_claims

#: A spike fraction k/ell that does not vanish.
C_FIXED = 0.25
#: Signed-score extension: a negative bulk score, and one deep negative score.
NEG_SCORE, DEEP = -2.0, 20.0


def _wide(k: int, margin: str, exponents) -> list[TwoScoreSummary]:
    """Exact two-score summaries at ell = 2^j, j in ``exponents``, at margin ``margin``."""
    return [
        two_score_summary(2**j, k, float(2**j) if margin == "lin" else j * math.log(2))
        for j in exponents
    ]


class CanonicalModel(CanonicalLengths):
    r"""Bidirectional canonical attention: the profile and stable rank at both margins
    (:math:`f = \log\ell`, :math:`f = \ell`), the bounded bulk, the forms of
    :math:`\operatorname{srank} \approx k + 1`, the counterexample and signed scores."""

    name = "canonical-model"
    prefix = "canon"

    def compute(self) -> None:
        k, bulk_max, seed, dense_max, ells = self.lengths()
        self.at = {m: [bidirectional_summary(ell, k, m) for ell in ells] for m in ("log", "lin")}
        self.wide = {  # "log", "lin", "w1" -> [TwoScoreSummary] on the rate grids
            "log": _wide(k, "log", LOG_EXPONENTS),
            "lin": _wide(k, "lin", LIN_EXPONENTS),
            "w1": _wide(k, "log", LIN_EXPONENTS),
        }
        self.bounded = [
            bounded_bulk_summary(ell, k, bulk_max, seed) for ell in dense_grid(ells, dense_max)
        ]
        self.deep_ell = ell0 = min(ells[0], dense_max)
        self.identities = exact_identities(
            ell0, k, bulk_max, seed, self.at["log"] + self.at["lin"] + self.bounded
        )
        grid = sorted(set(ells) | {2**j for j in LIN_EXPONENTS})
        # ell -> srank with k = isqrt(ell) spikes, f = ell (chapter and rate grid)
        self.root_srank = {
            ell: two_score_summary(ell, math.isqrt(ell), float(ell)).srank for ell in grid
        }
        self.fixed_c = {}  # ell -> (k, srank, limit) at k/ell = C_FIXED
        for ell in ells:
            kc = max(1, round(C_FIXED * ell))
            self.fixed_c[ell] = (
                kc,
                two_score_summary(ell, kc, float(ell)).srank,
                model.stable_rank_limit(kc, ell),
            )
        self.cex_exact, self.cex_gaps = counterexample_check(ell0, grid)
        # (ell - 1) lambda_min with a bulk at NEG_SCORE, per chapter length
        self.lam_signed = [
            float(
                model.bidirectional_eigenvalues(
                    np.r_[
                        model.spike_bulk_scores(ell, k, f=math.log)[:k], np.full(ell - k, NEG_SCORE)
                    ]
                ).min()
            )
            * (ell - 1)
            for ell in ells
        ]
        deep = np.zeros(ell0)
        deep[1] = -DEEP
        # 3 ell sigma_ell <= 3 ell min lambda for one score at -DEEP
        self.deep_bound = 3 * ell0 * float(np.min(causal.causal_eigenvalues(deep)))

    # --- values -------------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        log_, lin_ = self.at["log"], self.at["lin"]
        mid = log_[len(log_) // 2]
        ell_max = self.ells[-1]
        kc, srank_c, limit_c = self.fixed_c[ell_max]
        rates = self.rate_tests()
        tables = self.tables()
        return {
            "k": self.k,
            "ell_max": ell_max,
            "B": round(self.bulk_max, 4),
            "ells": ", ".join(map(str, self.ells)),
            "rate_lin_max_log2": LIN_EXPONENTS[-1],
            "rate_log_max_log2": LOG_EXPONENTS[-1],
            "rate_f_max": round(LOG_EXPONENTS[-1] * math.log(2), 1),
            "alpha_dev_f_ell": round(lin_[-1].profile_error, 8),
            "alpha_dev_f_log": round(log_[-1].profile_error, 6),
            "middle_value": round(model.middle_singular_value(ell_max, math.log), 6),
            "alpha_plus": round(float(model.alpha_plus(self.k / ell_max)), 6),
            "alpha_minus": round(float(model.alpha_minus(self.k / ell_max)), 6),
            "srank_log": per_length([x.srank for x in log_], 4),
            "srank_lin": per_length([x.srank for x in lin_], 4),
            "srank_log_mid": round(mid.srank, 4),
            "srank_log_mid_ell": mid.ell,
            "srank_log_mid_gap": round(100 * (1 - mid.srank / (self.k + 1)), 1),
            "srank_log_mid_limit_gap": round(100 * (1 - mid.srank / mid.srank_limit), 1),
            "profile_exp_log": round(rates["profile_log"].exponent, 3),
            "profile_exp_lin": round(rates["profile_lin"].exponent, 3),
            "profile_const_log": round(rates["profile_log"].constant, 3),
            "profile_const_lin": round(rates["profile_lin"].constant, 3),
            "bulk_d_bound": round(math.expm1(self.bulk_max), 4),
            "bulk_d_max": round(max(x.bulk_d_max * x.ell for x in self.bounded), 4),
            "bulk_tail_max": round(max(x.tail * x.ell for x in self.bounded), 4),
            "bulk_tail_exp": round(rates["tail"].exponent, 3),
            "additive_root": per_length(
                [self.root_srank[e] - (math.isqrt(e) + 1) for e in self.ells], 1
            ),
            "relative_root": per_length(
                [self.root_srank[e] / (math.isqrt(e) + 1) - 1 for e in self.ells], 3
            ),
            "c0": C_FIXED,
            "c0_srank": round(srank_c, 2),
            "c0_k1": kc + 1,
            "c0_limit": round(limit_c, 2),
            "cex_gaps": " / ".join(
                f"{self.cex_gaps[e][0]:.3f}, {self.cex_gaps[e][1]:.3f}" for e in self.ells
            ),
            "neg_score": NEG_SCORE,
            "neg_lam": per_length(self.lam_signed, 4),
            "deep_neg": -DEEP,
            "ell0": self.deep_ell,
            "deep_3l_bound": f"{self.deep_bound:.1e}",
            "table_forms": tables["forms"],
            "table_cex": tables["cex"],
            "table_identities": tables["identities"],
        }

    # --- tables -------------------------------------------------------------------------------

    def tables(self) -> dict[str, str]:
        """``profile`` (shown), and ``forms``, ``cex``, ``identities`` (glued as
        ``canon_table_<name>``, shown in dropdowns)."""
        return {
            "profile": self.profile_table(),
            "forms": self.forms_table(),
            "cex": self.counterexample_table(),
            "identities": markdown_table(
                [
                    "identity (dense check at the smallest length, bounded bulk)",
                    "largest deviation",
                ],
                [[n, round_off_bound(v)] for n, v in self.identities.deviations.items()],
            ),
        }

    def profile_table(self) -> str:
        """Profile error and stable rank at both margins, per chapter length."""
        header = [
            r"$\ell$",
            r"$c = k/\ell$",
            r"error, $f = \log\ell$",
            r"error, $f = \ell$",
            r"srank, $f = \log\ell$",
            r"srank, $f = \ell$",
            r"$(k + 1 - c)/\alpha_+(c)^2$",
        ]
        rows = [
            [
                x.ell,
                f"{x.c:.5f}",
                f"{x.profile_error:.4f}",
                f"{y.profile_error:.2e}",
                f"{x.srank:.4f}",
                f"{y.srank:.4f}",
                f"{y.srank_limit:.4f}",
            ]
            for x, y in zip(self.at["log"], self.at["lin"], strict=True)
        ]
        return markdown_table(header, rows)

    def forms_table(self) -> str:
        r"""The two forms of srank ≈ k + 1 with :math:`k = \sqrt\ell` spikes (f = ℓ)."""
        header = [
            r"$\ell$",
            r"$k = \sqrt\ell$",
            "srank",
            r"srank $- (k + 1)$",
            r"$-(k + 1)\sqrt c$",
            r"srank$/(k + 1) - 1$",
            r"$-\sqrt c$",
        ]
        rows = []
        for ell, s in self.root_srank.items():
            kk = math.isqrt(ell)
            c = kk / ell
            rows.append(
                [
                    ell,
                    kk,
                    f"{s:.3f}",
                    f"{s - (kk + 1):.2f}",
                    f"{-(kk + 1) * math.sqrt(c):.2f}",
                    f"{s / (kk + 1) - 1:.4f}",
                    f"{-math.sqrt(c):.4f}",
                ]
            )
        return markdown_table(header, rows)

    def counterexample_table(self) -> str:
        """The appendix counterexample's two leading singular values, per chapter length."""
        header = [
            r"$\ell$",
            r"$2\sqrt\ell(\sigma_1 - 1)$",
            r"$2\sqrt\ell(1 - \sigma_2)$",
            r"$\sigma_3$",
        ]
        rows = []
        for ell in self.ells:
            a, b, s3 = self.cex_gaps[ell]
            rows.append([ell, f"{a:.4f}", f"{b:.4f}", round_off_bound(s3)])
        return markdown_table(header, rows)

    # --- figures ------------------------------------------------------------------------------

    def figures(self) -> dict[str, Any]:
        from .figures import fig_forms, fig_profile

        return {
            "fig_profile": lambda: fig_profile(self),
            "fig_forms": lambda: fig_forms(self),
        }

    # --- claims -------------------------------------------------------------------------------

    def rate_tests(self) -> dict:
        """The scaling claims, each a :class:`~attnspec.canonical.rates.RateTest`."""
        out = {}
        for margin in ("log", "lin"):
            xs = self.wide[margin]
            f = np.array([x.f for x in xs])
            cand = {"1/f": 1 / f, "log f/f": np.log(f) / f}
            out[f"profile_{margin}"] = rate_test(f, [x.profile_error for x in xs], cand, "1/f")
            out[f"lamk1_{margin}"] = rate_test(f, [x.lamk1_error for x in xs], cand, "1/f")
            out[f"limit_{margin}"] = rate_test(
                f, [abs(x.srank / x.srank_limit - 1) for x in xs], cand, "1/f"
            )
        lin = self.wide["lin"]
        ell = np.array([x.ell for x in lin], float)
        rate = 1 / ell + np.sqrt(self.k / ell)
        out["lead"] = rate_test(
            ell,
            [x.lead_error for x in lin],
            {"1/f + √c": rate, "(1/f + √c) log ℓ": rate * np.log(ell)},
            "1/f + √c",
        )
        out["w1"] = rate_test(ell, [x.w1 for x in self.wide["w1"]], kind="zero")
        out["srank_k1"] = rate_test(ell, [abs(x.srank - (self.k + 1)) for x in lin], kind="zero")
        out["erank2_k1"] = rate_test(ell, [abs(x.erank2 - (self.k + 1)) for x in lin], kind="zero")
        dense = np.array([x.ell for x in self.bounded], float)
        out["tail"] = rate_test(
            dense,
            [x.tail for x in self.bounded],
            {"1/ℓ": 1 / dense, "log ℓ/ℓ": np.log(dense) / dense},
            "1/ℓ",
        )
        roots = np.array(list(self.root_srank), float)
        kk = np.floor(np.sqrt(roots))
        srank = np.array(list(self.root_srank.values()))
        out["relative"] = rate_test(roots, np.abs(srank / (kk + 1) - 1), kind="zero")
        out["additive"] = rate_test(
            roots,
            np.abs(srank - (kk + 1)),
            {"(k + 1)√c": (kk + 1) * np.sqrt(kk / roots), "1": np.ones_like(roots)},
            "(k + 1)√c",
            "theta",
        )
        cex = np.array(list(self.cex_gaps), float)
        dev = [max(abs(a - 1), abs(b - 1)) for a, b, _ in self.cex_gaps.values()]
        out["cex"] = rate_test(cex, dev, kind="zero")
        return out

    def claims(self) -> list[Claim]:
        """Sanity checks, the seed summary's bidirectional statements, the derived forms, the
        appendix counterexample and the signed-score extension."""
        return chapter_claims(self)
