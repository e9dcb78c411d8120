"""The study of chapter "Normalizer concentration": :class:`NormalizerConcentration`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...experiments.normalizer import (
    POWERED_D,
    POWERED_RATIO,
    mean_test,
    normalizer_stats,
    powered_mean_test,
)
from ...experiments.trials import normalizers
from ...laws.predictions import normalizer_std
from ...present.formatting import decimals_for, format_uncertain
from ...present.tables import markdown_table
from ..base import ChapterStudy
from .claims import chapter_claims
from .figures import fig_beta, fig_hist


class NormalizerConcentration(ChapterStudy):
    """The diagnostics :math:`D_i` of every row of every trial at the chapter's d and β, the
    powered test of their mean at a small size, and their spread at each β of ``betas``."""

    name = "normalizer-concentration"
    prefix = "norm"
    drawings = (fig_hist, fig_beta)
    claims = chapter_claims

    def compute(self) -> None:
        c = self.config
        self.betas = self.params["betas"]
        self.D = normalizers(c.d, c.beta, c.seed, c.trials)
        self.st = normalizer_stats(self.D, c.trials)
        self.here = mean_test(c.beta, c.d, c.seed, c.trials)
        self.std_pred = float(normalizer_std(c.beta, c.d))
        self.z_std = (self.st.std - self.std_pred) / self.st.std_se
        self.powered = powered_mean_test(c.beta, c.seed, c.d)
        self.stats_b = [
            normalizer_stats(normalizers(c.d, b, c.seed, c.trials), c.trials) for b in self.betas
        ]
        self.preds = [float(normalizer_std(b, c.d)) for b in self.betas]
        pairs = list(zip(self.stats_b, self.preds, strict=True))
        self.z_b = [(s.std - p) / s.std_se for s, p in pairs]
        self.rel_err = [s.std / p - 1 for s, p in pairs]

    @property
    def mean_resolved(self) -> bool:
        """Whether the powered test detects the predicted excess: 3 se < :math:`E D_i - 1`."""
        return self.powered is not None and self.powered.detectable < self.powered.deviation

    def powered_values(self) -> dict[str, Any]:
        """The powered test's glued values, ``"n/a"`` (and NaN z) where it did not run."""
        p = self.powered
        if p is None:
            return dict.fromkeys(["mt_d", "mt_trials", "mt_excess_txt", "mt_deviation"], "n/a") | {
                "mt_z_exact": float("nan"),
                "mt_z_one": float("nan"),
            }
        return {
            "mt_d": p.d,
            "mt_trials": p.trials,
            "mt_excess_txt": format_uncertain(p.mean - 1, p.se),
            "mt_deviation": round(p.deviation, decimals_for(p.se)),
            "mt_z_exact": round(p.z_exact, 1),
            "mt_z_one": round(p.z_one, 1),
        }

    def values(self) -> dict[str, Any]:
        here, st = self.here, self.st
        i_worst = int(np.argmax(np.abs(self.rel_err)))
        return (
            {
                "D_mean": round(here.mean, decimals_for(here.se)),
                "D_mean_txt": format_uncertain(here.mean, here.se),
                "D_mean_exact": round(here.exact, decimals_for(here.se)),
                "D_mean_z": round(here.z_exact, 1),
                "D_mean_detectable": float(f"{here.detectable:.2g}"),
                "D_mean_deviation": float(f"{here.deviation:.2g}"),
                "D_std": round(st.std, decimals_for(st.std_se)),
                "D_std_txt": format_uncertain(st.std, st.std_se),
                "D_std_pred": round(self.std_pred, decimals_for(st.std_se)),
                "D_std_z": round(self.z_std, 1),
                "D_max_dev": round(st.max_dev, 2),
                "n_rows": int(self.D.size),
            }
            | self.powered_values()
            | {"mt_size": min(self.config.d, POWERED_D), "mt_ratio": POWERED_RATIO}
            | {
                "worst_rel_err": round(100 * self.rel_err[i_worst], 1),
                "worst_beta": float(self.betas[i_worst]),
                "worst_z": round(self.z_b[i_worst], 1),
                "max_abs_z": round(float(max(abs(z) for z in self.z_b)), 1),
            }
        )

    def diagnostic_lines(self) -> str:
        """The rows, mean and spread of :math:`D_i` at the chapter's d, as printed."""
        c, here, st = self.config, self.here, self.st
        return "\n".join(
            [
                f"rows: {self.D.size} ({c.trials} trials)",
                f"mean D = {format_uncertain(here.mean, here.se)}   exact "
                f"{here.exact:.{decimals_for(here.se)}f}   z = {here.z_exact:+.1f}",
                f"std D  = {format_uncertain(st.std, st.std_se)}   first order "
                f"{self.std_pred:.{decimals_for(st.std_se)}f}   z = {self.z_std:+.1f}",
            ]
        )

    def powered_lines(self) -> str:
        """The powered test of the mean, as the chapter prints it."""
        p = self.powered
        if p is None:
            return "no excess to resolve at this beta (beta = 0, or beta^2 >= the test's size)"
        n = decimals_for(p.se)
        return "\n".join(
            [
                f"d = {p.d}, {p.trials} trials",
                f"mean D - 1 = {format_uncertain(p.mean - 1, p.se)}",
                f"exact      = {p.deviation:.{n}f}   z = {p.z_exact:+.1f}",
                f"above 1 by {p.z_one:.1f} standard errors",
            ]
        )

    def tables(self) -> dict[str, str]:
        rows = [
            [
                f"{b:g}",
                format_uncertain(s.std, s.std_se),
                f"{p:.{decimals_for(s.std_se)}f}",
                f"{z:+.1f}",
                f"{100 * e:+.1f} %",
                f"{np.exp(b**2) / self.config.d:.4f}",
            ]
            for b, s, p, z, e in zip(
                self.betas, self.stats_b, self.preds, self.z_b, self.rel_err, strict=True
            )
        ]
        header = [
            r"$\beta$",
            r"$\mathrm{std}(D_i)$ (± se)",
            "first order",
            "$z$",
            "relative difference",
            r"$e^{\beta^2}/d$",
        ]
        return {"spread": markdown_table(header, rows)}
