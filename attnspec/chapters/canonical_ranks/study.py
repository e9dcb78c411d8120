r"""Chapter "Ranks of canonical attention": the stable rank
:math:`\operatorname{srank} = \sum_i\sigma_i^2/\sigma_1^2`,
:math:`\operatorname{erank}_1 = \exp H(\sigma/\sum_j\sigma_j)` and
:math:`\operatorname{erank}_2 = (\sum_i\sigma_i^2)^2/\sum_i\sigma_i^4` of bidirectional and causal
canonical attention against :math:`\ell`: bounded for :math:`A_b`, growing with :math:`\log\ell`
for :math:`A_c`.

The Cesàro matrix (causal attention at :math:`\Sigma = 0`, :math:`\operatorname{srank} =
H_\ell/\Vert A_c\Vert^2 \sim H_\ell/4`) up to :math:`\ell = 2^{22}`, the length where the causal
stable rank reaches :math:`k + 1`, and :math:`\operatorname{erank}_1` against the profile
:math:`\sigma_i \propto 1/i` (closed forms in :mod:`attnspec.canonical.rank_study`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...canonical import causal, cesaro, model
from ...canonical.rank_study import harmonic_erank1, sigma0_erank2
from ...canonical.rates import log_slope, rate_test, slope_test
from ...canonical.summary import bounded_bulk_scores
from ...canonical.two_score import two_score_summary
from ...numerics.spectra import erank1, erank2_amplitude
from ...present.claims import Claim
from ...present.formatting import format_power_of_ten, per_length
from ...present.tables import markdown_table
from ..base import ChapterStudy
from .claims import chapter_claims

#: log2 of the lengths of the closed-form erank2 fit.
CLOSED_EXPONENTS = range(6, 61, 6)


def _b_erank1(ell: int, k: int) -> float:
    """erank₁ of bidirectional attention, k spikes at f = ℓ over a zero bulk."""
    return erank1(
        model.bidirectional_singular_values(model.spike_bulk_scores(ell, k, f=float(ell)))
    )


class CanonicalRanks(ChapterStudy):
    r"""Stable and effective ranks of :math:`A_b` and :math:`A_c` on the grid
    :math:`\ell = 2^6 \dots 2^{14}`, the Cesàro matrix and the crossing of the causal stable rank
    with :math:`k + 1`."""

    name = "canonical-ranks"
    prefix = "canon"

    # The lengths are fixed by the chapter, not parameters; the fast tests take smaller ones.
    #: log2 of the lengths of the rank grid (all singular values at Sigma = 0, tridiagonal).
    grid_exponents = range(6, 15)
    #: log2 of the lengths of the Lanczos stable-rank fit.
    lanczos_exponents = range(6, 21, 2)
    #: Cesàro asymptotics with the exact O(ell) operator.
    sigma0_ells = (2**12, 2**16, 2**20, 2**22)
    #: Where the search for the length at which the causal stable rank (f = ell) reaches k + 1
    #: starts, and the largest length it tries.
    cross_start, cross_cap = 2**22, 2**24

    def compute(self) -> None:
        k, bulk_max, seed = self.params["spikes"], self.params["bulk_max"], self.params["seed"]
        self.k, self.bulk_max = k, bulk_max
        self.grid = grid = [2**j for j in self.grid_exponents]
        self.b_srank = {  # "log"/"lin" -> srank of A_b per grid length
            m: [
                two_score_summary(n, k, float(n) if m == "lin" else math.log(n)).srank for n in grid
            ]
            for m in ("log", "lin")
        }
        zero = [causal.prefix_average_singular_values(n) for n in grid]
        index = [np.arange(1, n + 1) for n in grid]
        # ell -> srank of A_c with the bounded bulk (Lanczos)
        self.lanczos = lanczos = {
            2**j: cesaro.large_ell_stable_rank(bounded_bulk_scores(2**j, k, bulk_max, seed))[0]
            for j in self.lanczos_exponents
        }
        self.b_erank1 = [_b_erank1(n, k) for n in grid]  # A_b, f = ell
        self.b_erank2 = [two_score_summary(n, k, float(n)).erank2 for n in grid]
        self.c_srank = [  # A_c, f = ell
            cesaro.large_ell_stable_rank(model.spike_bulk_scores(n, k, f=float(n)))[0] for n in grid
        ]
        self.cb_srank = [  # A_c, bounded bulk
            lanczos.get(n)
            or cesaro.large_ell_stable_rank(bounded_bulk_scores(n, k, bulk_max, seed))[0]
            for n in grid
        ]
        # A_c at Sigma = 0: srank, erank1, (sum sigma)^2 / sum sigma^2 and max_i i sigma_i
        self.z_srank = [float(np.sum(s**2) / s[0] ** 2) for s in zero]
        self.z_erank1 = [erank1(s) for s in zero]
        self.z_amp = [erank2_amplitude(s) for s in zero]
        self.z_isigma_max = [float(np.max(i * s)) for i, s in zip(index, zero, strict=True)]
        self.cesaro = [cesaro.cesaro_point(n) for n in self.sigma0_ells]  # [CesaroPoint]
        self.crossing = self._crossing(k)

    def _crossing(self, k: int):
        """The crossing of the causal stable rank (f = ell) with k + 1 (a cesaro.Crossing), or
        the value reached at cross_cap when it stays below."""
        start, cap = self.cross_start, self.cross_cap
        found = cesaro.crossing_bracket(k, float, k + 1.0, start, cap)
        if found is None:
            return cesaro.large_ell_stable_rank(model.spike_bulk_scores(cap, k, f=float(cap)))[0]
        return cesaro.stable_rank_crossing(k, float, k + 1.0, found[0], found[1], known=found[2])

    # --- values -------------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        t = self.rate_tests()
        p = self.cesaro
        local = np.diff([x.srank for x in p]) / np.diff(np.log(self.sigma0_ells))
        b = log_slope(sorted(self.lanczos), [self.lanczos[e] for e in sorted(self.lanczos)])
        ratio = [
            e / (math.sqrt(n) * math.log(n)) for n, e in zip(self.grid, self.z_erank1, strict=True)
        ]
        harm = [harmonic_erank1(n) / (math.sqrt(n) * math.log(n)) for n in self.grid]
        tables = self.tables()
        return self.crossing_values() | {
            "grid": ", ".join(map(str, self.grid)),
            "sigma0_srank_max_ell": round(p[-1].srank, 4),
            "sigma0_norm_max_ell": round(p[-1].norm, 5),
            "sigma0_max_ell_log2": int(math.log2(p[-1].ell)),
            "sigma0_norms": per_length([x.norm for x in p], 5),
            "sigma0_sranks": per_length([x.srank for x in p], 4),
            "sigma0_local_slopes": per_length(local, 3),
            "bulk_srank_slope": round(b[0], 4),
            "bulk_srank_slope_se": round(b[1], 4),
            "erank2_slope_exp": round(t["z_erank2"].exponent, 3),
            "amp_exponent": round(t["amp"].exponent, 3),
            "amp_exponent_se": round(t["amp"].se, 3),
            "erank1_power": round(t["erank1_power"].exponent, 3),
            "erank1_power_se": round(t["erank1_power"].se, 3),
            "erank1_ratio": per_length(ratio[:: max(1, len(ratio) // 4)], 3),
            "erank1_ratio_first": round(ratio[0], 3),
            "erank1_ratio_last": round(ratio[-1], 3),
            "harm_ratio_first": round(harm[0], 3),
            "harm_ratio_last": round(harm[-1], 3),
            "isigma_first": round(self.z_isigma_max[0], 3),
            "isigma_last": round(self.z_isigma_max[-1], 3),
            "isigma_slope": round(log_slope(self.grid, self.z_isigma_max)[0], 3),
            "erank1_log3": per_length(np.array(self.z_erank1) / np.log(self.grid) ** 3, 3),
            "b_srank_max": round(self.b_srank["lin"][-1], 4),
            "c_srank_max": round(self.c_srank[-1], 4),
            "grid_max": self.grid[-1],
            "table_ranks": tables["ranks"],
            "table_cesaro": tables["cesaro"],
        }

    def crossing_values(self) -> dict:
        """The crossing's length (two significant digits), its text and how it was found."""
        cr, cap = self.crossing, int(math.log2(self.cross_cap))
        if isinstance(cr, float):
            return {
                "crossing": math.nan,
                "crossing_text": f"beyond $2^{{{cap}}}$",
                "crossing_detail": f"it is {cr:.3f} at $2^{{{cap}}}$, the largest length tried",
            }
        return {
            "crossing": float(f"{cr.ell:.2g}"),
            "crossing_text": format_power_of_ten(cr.ell),
            "crossing_detail": (
                f"{cr.srank_lower:.3f} at $2^{{{int(math.log2(cr.lower))}}}$, "
                f"{cr.srank_upper:.3f} at $2^{{{int(math.log2(cr.upper))}}}$, the root refined "
                "by Brent's method to 0.5 % in $\\ell$"
            ),
        }

    # --- tables -------------------------------------------------------------------------------

    def tables(self) -> dict[str, str]:
        """``ranks`` and ``cesaro``, glued as ``canon_table_<name>`` (shown in dropdowns)."""
        return {"ranks": self.rank_table(), "cesaro": self.cesaro_table()}

    def rank_table(self) -> str:
        """Ranks on the grid (every second length)."""
        header = [
            r"$\ell$",
            r"srank $A_b$, $f = \log\ell$",
            r"srank $A_b$, $f = \ell$",
            r"srank $A_c$, $f = \ell$",
            r"srank $A_c$, $\Sigma = 0$",
            r"erank$_2$ $A_c$, $\Sigma = 0$",
            r"erank$_1$ $A_b$",
            r"erank$_1$ $A_c$, $\Sigma = 0$",
        ]
        rows = [
            [
                n,
                f"{self.b_srank['log'][j]:.4f}",
                f"{self.b_srank['lin'][j]:.4f}",
                f"{self.c_srank[j]:.4f}",
                f"{self.z_srank[j]:.4f}",
                f"{sigma0_erank2(n):.4f}",
                f"{self.b_erank1[j]:.3f}",
                f"{self.z_erank1[j]:.2f}",
            ]
            for j, n in enumerate(self.grid)
            if j % 2 == 0
        ]
        return markdown_table(header, rows)

    def cesaro_table(self) -> str:
        """The Cesàro matrix at sigma0_ells."""
        header = [r"$\ell$", r"$\Vert A_c\Vert$", r"$H_\ell$", "srank", r"law $H_\ell/4$"]
        rows = [
            [
                f"$2^{{{int(math.log2(p.ell))}}}$",
                f"{p.norm:.5f}",
                f"{p.frobenius_sq:.4f}",
                f"{p.srank:.4f}",
                f"{p.srank_law:.4f}",
            ]
            for p in self.cesaro
        ]
        return markdown_table(header, rows)

    def figures(self) -> dict[str, Any]:
        from .figures import fig_ranks, fig_sigma0

        return {
            "fig_sigma0": lambda: fig_sigma0(self),
            "fig_ranks": lambda: fig_ranks(self),
        }

    # --- claims -------------------------------------------------------------------------------

    def rate_tests(self) -> dict:
        """The scaling claims, each a :class:`~attnspec.canonical.rates.RateTest`."""
        g = np.array(self.grid, float)
        L = np.log(g)
        closed = np.array([2.0**j for j in CLOSED_EXPONENTS])
        root = np.sqrt(g)
        out = {
            "z_erank2": slope_test(closed, [sigma0_erank2(x) for x in closed]),
            "amp": rate_test(
                L, self.z_amp, {"log ℓ": L, "(log ℓ)²": L**2, "(log ℓ)³": L**3}, "(log ℓ)²", "theta"
            ),
            "erank1_log3": rate_test(
                L, self.z_erank1, {"(log ℓ)³": L**3, "(log ℓ)²": L**2}, "(log ℓ)³", "omega"
            ),
            "erank1_power": rate_test(
                g,
                self.z_erank1,
                {"√ℓ log ℓ": root * L, "√ℓ": root, "√ℓ (log ℓ)²": root * L**2},
                "√ℓ log ℓ",
                "theta",
            ),
            "harmonic": rate_test(
                g,
                [harmonic_erank1(int(n)) for n in g],
                {"√ℓ log ℓ": root * L, "√ℓ": root, "√ℓ (log ℓ)²": root * L**2},
                "√ℓ log ℓ",
                "theta",
            ),
            "isigma": rate_test(L, self.z_isigma_max, {"1": np.ones_like(L), "log ℓ": L}, "1", "O"),
            "law": rate_test(
                np.array(self.sigma0_ells, float),
                [p.srank / p.srank_law - 1 for p in self.cesaro],
                kind="zero",
            ),
        }
        return out

    def claims(self) -> list[Claim]:
        """The chapter's claims."""
        return chapter_claims(self)
