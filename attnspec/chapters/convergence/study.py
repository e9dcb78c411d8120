"""The convergence chapter's study: the two series of trials, each rung's distance series and the
linear model against the rigidity scale, and the values glued from them."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...experiments import convergence as cv
from ...experiments.convergence import (
    MIN_TRIALS,
    DistanceSeries,
    Rigidity,
    noise_levels,
    reported_se,
)
from ...models.ladder import MODEL_NAMES, REFERENCE
from ...models.nonlinearity import poly_degree
from ...present.claims import Claim
from ...present.formatting import ONE_OR_TWO, decimals_for, fixed
from ...runner.sweep import SweepRequest, run_sweeps
from ..base import ChapterStudy
from ..shared import uncertain_text
from .claims import convergence_claims
from .figures import fig_d, fig_scale
from .tables import (
    every_rung_table,
    exponent_text,
    rate_text,
    rate_trials_text,
    rigidity_table,
    scale_table,
)

#: Every rung against the :math:`\theta^f` law, then the Taylor rungs against their :math:`\theta^Q`
#: law.
SERIES = [(m, "f") for m in MODEL_NAMES] + [("Y_Q", "q"), ("Y_Q_lin", "q")]
#: The rungs of the series at scale.
PAIR = (REFERENCE, "Y_f_lin")
NONLINEAR = ("sqrt_d_A", "sqrt_d_A_perp", "Y", "Y_f")


def scale_values(at_scale: dict[str, DistanceSeries], beta: float) -> dict:
    """Glue values of the series at scale (prefix ``conv``)."""
    ref, lin = at_scale[REFERENCE], at_scale["Y_f_lin"]
    ratio = ref.ks[-1] / lin.ks[-1]
    ratio_se = ratio * math.hypot(
        reported_se(ref)[-1] / ref.ks[-1], reported_se(lin)[-1] / lin.ks[-1]
    )
    gap = ref.fit.rate - lin.fit.rate
    gap_se = math.hypot(ref.fit.se, lin.fit.se)
    out = {
        "beta": float(beta),
        "d_max": int(ref.d[-1]),
        "d_scale_min": int(ref.d[0]),
        "n_scale": int(ref.d.size),
        "ratio_ref_lin_dmax": uncertain_text(ratio, ratio_se, 1),
        "rate_gap": uncertain_text(abs(gap), gap_se, 2),
        "rate_gap_z": round(abs(gap) / gap_se, 1) if gap_se > 0 else math.nan,
        "lin_noise_dmax": round(float(noise_levels(lin)[-1]), 4),
    }
    for m, s in at_scale.items():
        digits = decimals_for(s.fit.se, ONE_OR_TWO, fallback=2)
        out |= {
            f"rate_{m}": round(s.fit.rate, digits),
            f"rate_se_{m}": round(s.fit.se, digits),
            f"rate_txt_{m}": rate_text(s),
            f"rate_jk_txt_{m}": rate_trials_text(s),
            f"ks_dmin_{m}": round(float(s.ks[0]), 4),
            f"ks_dmax_{m}": round(float(s.ks[-1]), 5),
        }
    return out


def every_values(conv: dict, c_poly: float) -> dict:
    """Glue values of the every-rung series (prefix ``conv``)."""
    out = {}
    for (m, t), c in conv.items():
        suffix = m if t == "f" else f"{m}_q"
        out[f"grid_rate_txt_{suffix}"] = rate_text(c)
        out[f"grid_rate_jk_txt_{suffix}"] = rate_trials_text(c)
    rates = [conv[m, "f"].fit.rate for m in NONLINEAR]
    d = next(iter(conv.values())).d
    return out | {
        "rate_nonlinear_min": fixed(min(rates), 2, missing="n/a"),
        "rate_nonlinear_max": fixed(max(rates), 2, missing="n/a"),
        "grid_d_max": int(d[-1]),
        "grid_d_min": int(d[0]),
        "poly_degrees": ", ".join(str(poly_degree(int(v), c_poly)) for v in d),
        "sizes": ", ".join(str(int(v)) for v in d),
    }


def rigidity_values(at_scale: Rigidity, grid: Rigidity) -> dict:
    """Glue values of the rigidity comparison (prefix ``conv``): in both designs, the exponent of
    distance over scale, the rate the scale alone predicts, and the range of the ratio."""
    out = {}
    for key, rig in (("scale", at_scale), ("grid", grid)):
        out |= {
            f"rigidity_exp_{key}": exponent_text(rig),
            f"rigidity_rate_{key}": round(rig.scale_rate, 2),
            f"rigidity_ratio_{key}_min": round(float(rig.ratio.min()), 2),
            f"rigidity_ratio_{key}_max": round(float(rig.ratio.max()), 2),
            f"rigidity_detectable_{key}": round(2 * rig.se, 2) if np.isfinite(rig.se) else math.nan,
        }
    return out


class Convergence(ChapterStudy):
    """The two series of trials (every rung at ``d_values``; attention and its Gaussian
    equivalent at ``d_scale``, with about ``pooled_values`` bulk values per size), each rung's
    distance series and the linear model against the rigidity scale."""

    name = "convergence"
    prefix = "conv"

    def compute(self) -> None:
        c = self.config
        self.grid_d = sorted(set(self.params["d_values"]))
        self.scale_d = sorted(set(self.params["d_scale"]))
        self.scale_trials = cv.trials_for_pooled(self.scale_d, self.params["pooled_values"])
        column, scale = run_sweeps(
            [
                SweepRequest(self.grid_d, [c.beta], c.trials),  # every rung
                SweepRequest(self.scale_d, [c.beta], self.scale_trials, PAIR),  # at scale
            ],
            seed=c.seed,
            c_poly=c.c_poly,
            remove_top_k=c.remove_top_k,
        )
        self.conv = {(m, t): cv.distance_series(column.ladders, m, t) for m, t in SERIES}
        self.at_scale = {m: cv.distance_series(scale.ladders, m) for m in PAIR}
        self.rigidity = {  # the linear model against the rigidity scale log d / (d sqrt n)
            "scale": cv.rigidity(self.at_scale["Y_f_lin"]),  # n falls like 1/d
            "grid": cv.rigidity(self.conv["Y_f_lin", "f"]),  # n fixed
        }

    def values(self) -> dict[str, Any]:
        c = self.config
        trials = ", ".join(f"{self.scale_trials[v]} at {v}" for v in self.scale_d)
        return (
            scale_values(self.at_scale, c.beta)
            | {"scale_trials": trials}
            | rigidity_values(self.rigidity["scale"], self.rigidity["grid"])
            | every_values(self.conv, c.c_poly)
            | {"trials": c.trials, "min_trials": MIN_TRIALS}
        )

    def tables(self) -> dict[str, str]:
        return {
            "scale": scale_table(self.at_scale),
            "rigidity": rigidity_table(self.rigidity["scale"]),
            "every": every_rung_table(self.conv),
        }

    def figures(self) -> dict[str, Any]:
        return {"fig_scale": lambda: fig_scale(self), "fig_d": lambda: fig_d(self)}

    def claims(self) -> list[Claim]:
        return convergence_claims(self.conv, self.at_scale, self.rigidity["grid"])
