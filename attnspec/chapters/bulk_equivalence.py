r"""Chapter "Bulk equivalence": the distance of every rung's bulk to the reference
:math:`\sqrt d A_\perp` (:math:`L_1` between histograms, Kolmogorov, Wasserstein-1) against the
noise floor, the reference's distance to independent repetitions of itself."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..experiments.noise import noise_floor, resolved_order
from ..experiments.trials import run_ladder
from ..laws.gaussian_equivalent import GaussianEquivalentLaw
from ..laws.marchenko_pastur import MarchenkoPastur
from ..models.ladder import MODEL_NAMES, REFERENCE
from ..models.notation import symbol
from ..numerics.spectra import METRICS, cdf_difference
from ..present import plotting
from ..present.claims import Claim
from ..present.numbers import significant
from ..present.tables import markdown_table
from .base import ChapterStudy

#: Every rung but the reference.
OTHERS = [n for n in MODEL_NAMES if n != REFERENCE]
#: The rungs that are ranked: all but the reference and :math:`\sqrt d A` (the reference plus a
#: rank-one term).
RUNGS = [n for n in OTHERS if n != "sqrt_d_A"]
LINEAR, NONLINEAR = ["Y_Q_lin", "Y_f_lin"], ["Y", "Y_f", "Y_Q"]
#: The glued word for a :func:`~attnspec.experiments.noise.resolved_order` answer.
ORDER_WORDS = {True: "resolved", False: "reversed", None: "not resolved"}


class BulkEquivalence(ChapterStudy):
    """The ladder's bulks at the chapter's d, their three distances to the reference, and the
    noise floor from three independent repetitions of the reference."""

    name = "bulk-equivalence"
    prefix = "bulk"

    def compute(self) -> None:
        c = self.config
        self.result = run_ladder(c)
        self.distances = {metric: self.result.distances(metric) for metric in METRICS}
        self.ref = self.result.bulk(REFERENCE)
        self.floor = noise_floor(c, self.ref)
        self.law = GaussianEquivalentLaw.for_f(c.beta)

    # ---- derived quantities --------------------------------------------------------------------

    @property
    def ranking(self) -> dict[str, list[str]]:
        """The ranked rungs from closest to farthest, per metric."""
        return {m: sorted(RUNGS, key=self.distances[m].get) for m in METRICS}

    @property
    def ratio(self) -> dict[str, float]:
        """The distance of :math:`Y_f^{\\rm lin}` over the mean noise floor, per metric."""
        return {m: self.distances[m]["Y_f_lin"] / self.floor.mean(m) for m in METRICS}

    @property
    def farther_by(self) -> dict[str, bool | None]:
        """Per metric, whether :math:`Y_f^{\\rm lin}` is farther than every other ranked rung by
        more than the largest noise floor (:func:`~attnspec.experiments.noise.resolved_order`)."""
        closer = [n for n in RUNGS if n != "Y_f_lin"]
        return {
            m: resolved_order(self.distances[m], closer, ["Y_f_lin"], self.floor.max(m))
            for m in METRICS
        }

    # ---- the hooks -----------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        c, distances, floor, ref, law = self.config, self.distances, self.floor, self.ref, self.law
        values: dict[str, Any] = {}
        for m in METRICS:
            values |= {f"{m}_{n}": significant(distances[m][n]) for n in OTHERS}
            values[f"{m}_floor"] = significant(floor.mean(m))
            values[f"{m}_floor_max"] = significant(floor.max(m))
        ranking, ratio = self.ranking, self.ratio
        farthest = {ranking[m][-1] for m in METRICS}
        farthest_all = farthest.pop() if len(farthest) == 1 else None
        within = {m: [n for n in RUNGS if distances[m][n] <= floor.max(m)] for m in METRICS}
        return (
            values
            | {f"rank_{m}": " < ".join(symbol(n) for n in ranking[m]) for m in METRICS}
            | {f"ratio_{m}_Y_f_lin": round(ratio[m], 1) for m in METRICS}
            | {
                "farthest": (
                    symbol(farthest_all) if farthest_all else "not the same rung for all three"
                )
            }
            | {f"within_{m}": ", ".join(symbol(n) for n in within[m]) or "none" for m in METRICS}
            | {
                "n_values": int(ref.size),
                "edge": round(float(law.edge), 4),
                "hist_max": float(c.hist_max),
                "hist_min": float(c.hist_min),
                "hist_bins": int(c.hist_bins),
                "share_beyond_hist": round(100 * float(np.mean(ref > c.hist_max)), 2),
                "d": c.d,
            }
            | {f"farthest_{m}": ORDER_WORDS[v] for m, v in self.farther_by.items()}
            | {"mp_edge": round(4 * law.theta1, 3), "beta": float(c.beta)}
        )

    def tables(self) -> dict[str, str]:
        distances, floor = self.distances, self.floor
        rows = [[symbol(n)] + [f"{distances[m][n]:#.2g}" for m in METRICS] for n in OTHERS]
        rows.append(
            ["*noise floor* (mean; max over 3 repetitions)"]
            + [f"{floor.mean(m):#.2g}; {floor.max(m):#.2g}" for m in METRICS]
        )
        return {
            "distances": markdown_table(
                ["model", "$L_1$ (histograms)", "Kolmogorov", "Wasserstein-1"], rows
            )
        }

    def figures(self) -> dict[str, Any]:
        c, ref, law = self.config, self.ref, self.law

        def cdf():
            grid = np.linspace(0.0, float(np.max(ref)), 600)
            diffs = {symbol(n): cdf_difference(self.result.bulk(n), ref, grid) for n in RUNGS}
            return plotting.cdf_differences_with_noise(
                grid,
                diffs,
                cdf_difference(self.floor.first_repetition, ref, grid),
                r"squared singular value $\lambda$",
                r"$F(\lambda) - F_{\sqrt{d}A_\perp}(\lambda)$",
                "independent repetition",
                vlines={"histogram range": c.hist_max, r"edge $\lambda_+$": float(law.edge)},
            )

        def bulk_law():
            mp = MarchenkoPastur(law.theta1)
            return plotting.bulk_against_laws(
                {
                    rf"bulk of {symbol('sqrt_d_A_perp')}": ref,
                    rf"bulk of {symbol('Y_f_lin')}": self.result.bulk("Y_f_lin"),
                },
                {"limit law (Pennington–Worah)": law.pdf, "Marchenko–Pastur, same mean": mp.pdf},
                (0.0, 1.12 * float(law.edge)),
                c.hist_bins,
                edges={r"$4\theta_1$": 4 * law.theta1, r"$\lambda_+$": float(law.edge)},
            )

        return {"fig_cdf": cdf, "fig_law": bulk_law}

    def claims(self) -> list[Claim]:
        distances, floor, ranking, ratio = self.distances, self.floor, self.ranking, self.ratio
        nonlinear_closer = resolved_order(distances["ks"], NONLINEAR, LINEAR, floor.max("ks"))
        seed_l1 = resolved_order(
            distances["l1"],
            ["Y_Q", "Y_f_lin"],
            [n for n in RUNGS if n not in ("Y_Q", "Y_f_lin")],
            floor.max("l1"),
        )
        farther_by = self.farther_by
        farthest_ks_w1 = farther_by["ks"] and farther_by["w1"]
        return [
            Claim(
                "$Y_f^{\\rm lin}$ is the farthest rung (Kolmogorov and Wasserstein-1; "
                "{prf:ref}`the theorem <thm-gaussian-equivalence>` at finite $d$)",
                ", ".join(symbol(ranking[m][-1]) for m in ("ks", "w1")),
                "its KS and W1 exceed every other rung's by more than the noise floor",
                farthest_ks_w1,
                "another rung is farther from the reference on one of these metrics."
                if farthest_ks_w1 is False
                else "the largest distances differ by less than the noise floor.",
                provenance="derived here",
            ),
            Claim(
                "at this $d$, $Y_f^{\\rm lin}$ differs from attention by more than sampling noise "
                "({prf:ref}`the theorem <thm-gaussian-equivalence>` is a limit)",
                f"KS {distances['ks']['Y_f_lin']:#.2g} = {ratio['ks']:.1f} × floor",
                f"> max noise floor {floor.max('ks'):#.2g}",
                bool(distances["ks"]["Y_f_lin"] > floor.max("ks")),
                "the Gaussian equivalent is within the noise floor: these samples cannot tell it "
                "from attention.",
                provenance="derived here",
            ),
            Claim(
                "the nonlinear rungs are closer than the linear ones (KS)",
                f"{max(distances['ks'][n] for n in NONLINEAR):#.2g} vs "
                f"{min(distances['ks'][n] for n in LINEAR):#.2g}",
                "every linear rung's KS exceeds every nonlinear rung's by more than the floor",
                nonlinear_closer,
                "a linear rung is closer to the reference than a nonlinear one."
                if nonlinear_closer is False
                else "the nonlinear and linear rungs differ by less than the noise floor.",
                provenance="derived here",
            ),
            Claim(
                "$Y_Q$ and $Y_f^{\\rm lin}$ are the closest rungs ($L_1$)",
                ", ".join(symbol(n) for n in ranking["l1"][:2]),
                "their L1 below every other rung's by more than the L1 floor",
                seed_l1,
                "by the seed's own metric other rungs are closer, by more than the noise floor."
                if seed_l1 is False
                else f"the L1 distances of the rungs ({min(distances['l1'][n] for n in RUNGS):#.2g}"
                f" to {max(distances['l1'][n] for n in RUNGS):#.2g}) differ by less than the L1 "
                f"noise floor ({floor.max('l1'):#.2g}): these samples cannot rank them.",
                provenance="seed notebook",
            ),
        ]
