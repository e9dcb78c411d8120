r"""Chapter "Causal attention in the canonical model": :math:`A_c = \operatorname{diag}(z)\,T +
\operatorname{diag}(d)` (:math:`T` lower-triangular ones), eigenvalues
:math:`\lambda_i = e^{s_i}/(e^{s_i} + i - 1)`, the bounds :math:`\sigma_i \ge 1/(3i)`,
:math:`\Vert A_c\Vert \le \sqrt 5` and :math:`\sigma_{k+m} \le C_B\, b(m)`, and the order of the
diagonal.

The per-:math:`\ell` causal summaries (:func:`attnspec.canonical.summary.causal_summary`), the
smallest constants of the seed summary's upper bounds over :math:`\ell` and over score families
(:mod:`attnspec.canonical.upper_bound`), their dependence on the bulk bound B,
:math:`\sigma_{k+m_\ell}` for :math:`m_\ell = (\log\ell)^2`, the adversarial search for
:math:`\sigma_i \ge 1/(3i)`, the norm bound, and the dependence on the diagonal order
(:mod:`attnspec.canonical.order`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...canonical import causal, model, order, upper_bound
from ...canonical.causal_search import lower_bound_search
from ...canonical.rates import log_slope, rate_test
from ...canonical.summary import bounded_bulk_scores, causal_eigenvalue_w1, causal_summary
from ...numerics.fitting import slope_fit
from ...present.claims import Claim
from ...present.formatting import per_length
from ...present.tables import markdown_table
from ..shared import CanonicalLengths, dense_grid
from .claims import EIG_EXPONENTS, T_TWO, TOP_EXPONENTS, W1_EXPONENTS, chapter_claims

#: Threshold of the count of non-negligible causal singular values shown in the tables.
EPS = 0.1
#: At most this many leading causal singular values by Lanczos.
TOP_CAP = 256
#: The bulk bounds B of the study of C_B against B.
B_GRID = (0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0)
#: The adversarial search: random scores at every ell up to SEARCH_MAX_ELL, structured families at
#: SEARCH_ELLS.
SEARCH_MAX_ELL, SEARCH_ELLS = 32, (32, 256, 1024)


def main_families(k: int, bulk_max: float, seed: int) -> list[upper_bound.Family]:
    """The chapter's two bounded-bulk families: k spikes (f = log ℓ) over a bulk uniform in
    [0, B], and over the constant bulk B."""
    return [
        upper_bound.Family(
            "bulk uniform in [0, B]",
            k,
            lambda ell: bounded_bulk_scores(ell, k, bulk_max, seed),
            True,
            True,
        ),
        upper_bound.Family(
            "bulk constant B",
            k,
            lambda ell: upper_bound.constant_bulk_scores(ell, k, bulk_max),
            True,
            True,
        ),
    ]


def _count(x) -> str:
    r""":math:`\#\{i > k: \sigma_i > \varepsilon\}` of a causal summary, ``≥ n`` when only the
    leading values were computed."""
    return ("" if x.count_complete else "≥ ") + str(x.count)


class CanonicalCausal(CanonicalLengths):
    r"""Causal canonical attention with k spikes (:math:`f = \log\ell`) over a bulk uniform in
    [0, B]: eigenvalues, norm, singular values, the upper bound's smallest constant :math:`C_B`,
    the lower-bound search and three diagonal orders."""

    name = "canonical-causal"
    prefix = "canon"

    def compute(self) -> None:
        k, bulk_max, seed, dense_max, ells = self.lengths()
        self.summaries = [causal_summary(ell, k, bulk_max, seed, EPS, TOP_CAP) for ell in ells]
        grid = dense_grid(ells, dense_max)
        families = main_families(k, bulk_max, seed) + upper_bound.structured_bound_families(k)
        self.families = families  # [Family], main ones first
        self.bounds = bounds = {}  # family name -> {ell: BoundConstant}
        self.spectra = main_sigma = {}  # ell -> singular values of the first main family (dense)
        for i, fam in enumerate(families):
            fam_ells = sorted(set(grid) | (set(ells) if i < 2 else set()))
            bounds[fam.name] = {}
            for ell in fam_ells:
                sigma = upper_bound.spectrum(fam, ell)
                bounds[fam.name][ell] = upper_bound.smallest_constant(sigma, fam.k)
                if i == 0:
                    main_sigma[ell] = sigma
        # ell -> (m_ell, sigma_{k + m_ell}) of the first main family
        self.log_squared = {
            e: upper_bound.sigma_at_log_squared(v, k) for e, v in main_sigma.items()
        }
        self.b_ell = b_ell = grid[-1]
        self.by_b = by_b = {"constant": {}, "uniform": {}}  # -> {B: BoundConstant} at b_ell
        for b in B_GRID:
            if b == bulk_max:
                by_b["uniform"][b] = bounds[families[0].name][b_ell]
                by_b["constant"][b] = bounds[families[1].name][b_ell]
                continue
            s = upper_bound.constant_bulk_scores(b_ell, k, b)
            by_b["constant"][b] = upper_bound.smallest_constant(causal.causal_singular_values(s), k)
            if b > 0:
                s = bounded_bulk_scores(b_ell, k, b, seed)
                by_b["uniform"][b] = upper_bound.smallest_constant(
                    causal.causal_singular_values(s), k
                )
            else:
                by_b["uniform"][b] = by_b["constant"][b]
        self.search = lower_bound_search(
            seed, random_max_ell=SEARCH_MAX_ELL, draws=16, structured_ells=SEARCH_ELLS
        )
        # causal norm of the signed maximizer family, per chapter length
        self.norm_signed = [
            causal.causal_operator_norm(causal.causal_norm_maximizer_scores(e)) for e in ells
        ]
        self.w1 = {2**j: causal_eigenvalue_w1(2**j, k, bulk_max, seed) for j in W1_EXPONENTS}
        self.sigma_k_gap = {}  # ell -> (1 - sigma_k)_+
        for j in TOP_EXPONENTS:
            top = causal.causal_top_singular_values(
                bounded_bulk_scores(2**j, k, bulk_max, seed), k + 2
            )
            self.sigma_k_gap[2**j] = max(0.0, 1 - float(top[k - 1]))
        self.two_token = order.two_token_eigenvalues(T_TWO)  # order -> eigenvalues at ell = 2
        self.orders = {o: {} for o in order.ORDERS}  # order -> {ell: OrderPoint}
        for ell in sorted(set(grid) | {2**j for j in TOP_EXPONENTS}):
            s = bounded_bulk_scores(ell, k, bulk_max, seed)
            for o in order.ORDERS:
                known = main_sigma.get(ell) if o == "descending" else None
                self.orders[o][ell] = order.order_point(s, o, seed, ell <= dense_max, known)
        # ell -> the eigenvalues in position order, and the singular values at Sigma = 0
        self.diagonals = {
            e: np.sum(causal.causal_parts(bounded_bulk_scores(e, k, bulk_max, seed)), axis=0)
            for e in ells
        }
        self.sigma_zero = {e: causal.prefix_average_singular_values(e) for e in ells}
        # the k spike scores lead every score vector of the chapter (bounded_bulk_scores): rows
        # 1..k of A_c need only them, at any length; ell -> measured 1 - lambda_i, i <= k
        self.spike_gaps = {
            2**j: causal.causal_spike_gaps(np.full(k, model.spike_score(2**j, math.log)))
            for j in EIG_EXPONENTS
        }

    def spike_check(self) -> tuple[float, dict, bool]:
        r"""The measured spike gaps :math:`1 - \lambda_i` (:attr:`spike_gaps`) against the exact
        :math:`(i - 1)/(\ell f + i - 1)`: their largest relative deviation (:math:`i \ge 2`),
        :math:`f \max_i(1 - \lambda_i)` per ℓ, and whether it stays at or below
        :math:`(k - 1)/\ell` (the exact form's bound) at every ℓ."""
        dev, scaled = 0.0, {}
        for ell, gaps in self.spike_gaps.items():
            f, i = math.log(ell), np.arange(2, gaps.size + 1)
            exact = (i - 1) / (ell * f + i - 1)
            dev = max(dev, float(np.max(np.abs(gaps[1:] / exact - 1), initial=0.0)))
            scaled[ell] = f * float(np.max(gaps))
        return dev, scaled, all(v <= (self.k - 1) / e for e, v in scaled.items())

    # --- values -------------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        ca, B = self.summaries, self.bulk_max
        main = self.families[0].name
        t = self.rate_tests()
        cb_const = self.by_b["constant"]
        bs = [b for b in self.by_b["constant"] if b >= 1.0]
        # slope of log C_B against B, constant bulk, B >= 1
        fit = slope_fit(bs, np.log([self.by_b["constant"][b].constant for b in bs]))
        lam2 = self.two_token
        point = {o: self.orders[o][max(self.orders[o])] for o in order.ORDERS}
        dense_max = max(p.ell for p in self.orders["descending"].values() if p.erank1 is not None)
        _, scaled, _ = self.spike_check()
        tables = self.tables()
        return {
            "spike_fgap_last": f"{scaled[max(scaled)]:.2g}",
            "spike_ell_last": f"$2^{{{int(math.log2(max(scaled)))}}}$",
            "causal_ells": ", ".join(map(str, self.ells)),
            "eps": EPS,
            "e_B": round(math.exp(B), 4),
            "i_lam_range": (
                f"{min(x.i_lam_min for x in ca):.3f} … {max(x.i_lam_max for x in ca):.3f}"
            ),
            "counts": " / ".join(_count(x) for x in ca),
            "norm_max": round(max(self.norms()), 4),
            "norm_signed": per_length(self.norm_signed, 4),
            "sqrt5": round(math.sqrt(5), 4),
            "norm_gap": round(100 * (math.sqrt(5) / 2 - 1), 1),
            "min3i": round(self.search.minimum.value, 3),
            "min3i_family": self.search.minimum.family,
            "min3i_ell": self.search.minimum.ell,
            "search_spectra": self.search.spectra,
            "search_max_ell": SEARCH_MAX_ELL,
            "search_ells": ", ".join(map(str, SEARCH_ELLS)),
            "cb_b_min": min(b for b in self.by_b["constant"] if b >= 1.0),
            "cb_b_max": max(self.by_b["constant"]),
            "cb_main": round(max(c.constant for c in self.bounds[main].values()), 3),
            "cb_main_exp": round(t["cb_" + main].exponent, 3),
            "cb_main_exp_se": round(t["cb_" + main].se, 3),
            "cb_const_B": round(
                max(c.constant for c in self.bounds[self.families[1].name].values()), 3
            ),
            "cb_b_slope": round(fit.slope, 3),
            "cb_b_slope_se": round(fit.se, 3),
            "cb_b_ell": self.b_ell,
            "cb_const_B5": round(cb_const[max(cb_const)].constant, 1),
            "cb_e_B5": round(math.exp(max(cb_const)), 1),
            "count_const": round(max(c.count_constant for c in self.bounds[main].values()), 3),
            "log2_exp": round(t["log_squared"].exponent, 3),
            "log2_exp_se": round(t["log_squared"].se, 3),
            "log2_values": per_length([v for _, v in self.log_squared.values()], 3),
            "log2_ms": ", ".join(str(m) for m, _ in self.log_squared.values()),
            "log2_ells": ", ".join(str(e) for e in self.log_squared),
            "order_t": round(T_TWO, 4),
            "order_lambda2_desc": round(float(lam2["descending"][1]), 6),
            "order_lambda2_asc": round(float(lam2["ascending"][1]), 6),
            "order_ell": max(self.orders["descending"]),
            "order_srank": " / ".join(f"{point[o].srank:.3f}" for o in order.ORDERS),
            "order_dense_ell": dense_max,
            "order_erank1": " / ".join(
                f"{self.orders[o][dense_max].erank1:.1f}" for o in order.ORDERS
            ),
            "order_lamk1": " / ".join(
                f"{self.orders[o][dense_max].eigenvalues[self.k]:.3f}" for o in order.ORDERS
            ),
            "table_bound": tables["bound"],
            "table_search": tables["search"],
        }

    def norms(self) -> list[float]:
        """The causal norms computed with non-negative scores (the chapter's lengths)."""
        return [x.norm for x in self.summaries]

    # --- tables -------------------------------------------------------------------------------

    def tables(self) -> dict[str, str]:
        """``summary`` (shown), and ``bound``, ``search`` (glued as ``canon_table_<name>``, shown
        in dropdowns)."""
        search = [[h.family, h.ell, h.index, f"{h.value:.3f}"] for h in self.search.ranked]
        return {
            "summary": self.summary_table(),
            "bound": self.bound_table(),
            "search": markdown_table(
                ["family", "$\\ell$", "$i$", "smallest $3i\\sigma_i$"], search
            ),
        }

    def summary_table(self) -> str:
        """Eigenvalues, norm and counts per chapter length (bounded bulk, f = log ℓ)."""
        header = [
            r"$\ell$",
            r"$i\lambda_i$ over the bulk",
            r"$\Vert A_c\Vert$",
            r"$\#\{i > k: \sigma_i > \varepsilon\}$",
            r"smallest $C_B$",
            r"$\max_j j\sigma_{k+j}^2/\log(\ell+1)$",
        ]
        main = self.bounds[self.families[0].name]
        rows = [
            [
                x.ell,
                f"{x.i_lam_min:.3f} … {x.i_lam_max:.3f}",
                f"{x.norm:.4f}",
                _count(x),
                f"{main[x.ell].constant:.3f}" if x.ell in main else "–",
                f"{main[x.ell].count_constant:.3f}" if x.ell in main else "–",
            ]
            for x in self.summaries
        ]
        return markdown_table(header, rows)

    def bound_table(self) -> str:
        """Smallest C_B per family (rows) and length (columns), with the term that binds."""
        ells = sorted({e for v in self.bounds.values() for e in v})
        header = ["family"] + [f"$2^{{{int(math.log2(e))}}}$" for e in ells] + ["binds"]
        rows = []
        for fam in self.families:
            got = self.bounds[fam.name]
            last = got[max(got)]
            marks = ("" if fam.canonical else " ¹") + ("" if fam.bulk_bounded else " ²")
            rows.append(
                [fam.name + marks]
                + [f"{got[e].constant:.3g}" if e in got else "" for e in ells]
                + [f"term {upper_bound.TERMS.index(last.term) + 1}, m = {last.m}"]
            )
        return markdown_table(header, rows)

    # --- figures ------------------------------------------------------------------------------

    def figures(self) -> dict[str, Any]:
        from .figures import fig_bound, fig_causal, fig_order

        return {
            "fig_causal": lambda: fig_causal(self),
            "fig_bound": lambda: fig_bound(self),
            "fig_order": lambda: fig_order(self),
        }

    # --- claims -------------------------------------------------------------------------------

    def rate_tests(self) -> dict:
        """The scaling claims, each a :class:`~attnspec.canonical.rates.RateTest`."""
        out = {}
        for fam in self.families:
            if self.testable(fam):
                got = self.bounds[fam.name]
                ells = np.array(sorted(got), float)
                c = np.array([got[int(e)].constant for e in ells])
                cand = {"1": np.ones_like(ells), "log ℓ": np.log(ells)}
                out["cb_" + fam.name] = rate_test(ells, c, cand, "1")
                cc = np.array([got[int(e)].count_constant for e in ells])
                out["count_" + fam.name] = rate_test(ells, cc, cand, "1")
        ells = np.array(list(self.log_squared), float)
        out["log_squared"] = rate_test(ells, [v for _, v in self.log_squared.values()], kind="zero")
        w = np.array(list(self.w1), float)
        out["w1"] = rate_test(w, list(self.w1.values()), kind="zero")
        g = np.array(list(self.sigma_k_gap), float)
        gaps = np.array(list(self.sigma_k_gap.values()))
        if np.all(gaps > 0):
            rate = self.k / (g * np.log(g))
            out["sigma_k"] = rate_test(
                g, gaps, {"k/(ℓf)": rate, "k log ℓ/(ℓf)": rate * np.log(g)}, "k/(ℓf)"
            )
        return out

    def order_slopes(self) -> dict:
        """Order -> (slope, se) of the causal stable rank against log ℓ."""
        return {
            o: log_slope(sorted(pts), [pts[e].srank for e in sorted(pts)])
            for o, pts in self.orders.items()
        }

    def testable(self, fam: upper_bound.Family) -> bool:
        """Whether the grid can test the bound for ``fam``: canonical, bounded bulk, and
        :math:`e^B` below the smallest length (where the bound's constant has settled)."""
        ells = sorted(self.bounds[fam.name])
        return fam.canonical and fam.bulk_bounded and math.exp(fam.bulk_max(ells[0])) < ells[0]

    def claims(self) -> list[Claim]:
        """The chapter's claims, among them the seed summary's four on the bounds and the order."""
        return chapter_claims(self)
