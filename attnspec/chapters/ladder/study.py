"""The study of chapter "The ladder": :class:`Ladder`."""

from __future__ import annotations

from typing import Any

from ...experiments.noise import noise_floor, resolved_order
from ...experiments.trials import run_ladder
from ...models.interlacing import rank_one_interlacing_violation
from ...models.ladder import MODEL_NAMES, REFERENCE
from ...models.notation import symbol
from ...numerics.spectra import ks_distance
from ...present.formatting import significant
from ...present.tables import markdown_table
from ..base import ChapterStudy
from .claims import LIN_STEP, chapter_claims, step_label, violation_text
from .figures import fig_steps


class Ladder(ChapterStudy):
    """The ladder's trials, the Kolmogorov distance of each step's bulks, the noise floor of the
    reference bulk and the interlacing violations of the two rank-one steps."""

    name = "ladder"
    prefix = "ladder"
    drawings = (fig_steps,)
    claims = chapter_claims

    def compute(self) -> None:
        c = self.config
        self.result = result = run_ladder(c)
        self.top = {name: result.top_sq(name) for name in MODEL_NAMES}
        self.steps = list(zip(MODEL_NAMES[:-1], MODEL_NAMES[1:], strict=False))
        self.step_ks = {(a, b): ks_distance(result.bulk(a), result.bulk(b)) for a, b in self.steps}
        self.floor = noise_floor(c, result.bulk(REFERENCE))
        self.viol_A = rank_one_interlacing_violation(
            result.s2("sqrt_d_A"), result.s2("sqrt_d_A_perp")
        )
        self.viol_Y = rank_one_interlacing_violation(result.s2("Y"), result.s2("Y_f"))

    @property
    def largest_step(self) -> tuple[str, str]:
        """The step with the largest Kolmogorov distance between its bulks."""
        return max(self.step_ks, key=self.step_ks.get)

    @property
    def above_floor(self) -> list[tuple[str, str]]:
        """The steps whose distance exceeds the largest of the noise floor."""
        return [s for s in self.steps if self.step_ks[s] > self.floor.max("ks")]

    @property
    def largest_is_lin(self) -> bool | None:
        """Whether linearization's distance exceeds every other step's by more than the floor
        (None: the samples cannot rank them)."""
        others = [s for s in self.steps if s != LIN_STEP]
        return resolved_order(self.step_ks, others, [LIN_STEP], self.floor.max("ks"))

    def values(self) -> dict[str, Any]:
        ks, floor, largest = self.step_ks, self.floor, self.largest_step
        return {
            "k": self.config.remove_top_k,
            "viol": violation_text(max(self.viol_A, self.viol_Y)),
            "largest_step": step_label(largest),
            "largest_step_ks": significant(ks[largest]),
            "step_Q_lin": significant(ks[LIN_STEP]),
            "step_theta": significant(ks[("Y_Q_lin", "Y_f_lin")]),
            "ks_floor": significant(floor.mean("ks")),
            "ks_floor_max": significant(floor.max("ks")),
            "above_floor": ", ".join(step_label(s) for s in self.above_floor) or "none",
            "n_above_floor": len(self.above_floor),
        }

    def tables(self) -> dict[str, str]:
        top, floor = self.top, self.floor
        steps = [
            [
                step_label((a, b)),
                f"{top[a][0]:.2f}",
                f"{top[b][0]:.2f}",
                f"{self.step_ks[(a, b)]:#.2g}",
            ]
            for a, b in self.steps
        ]
        steps.append(
            [
                "*noise floor*: $\\sqrt d A_\\perp$ vs independent repetitions",
                "",
                "",
                f"{floor.mean('ks'):#.2g} (max {floor.max('ks'):#.2g})",
            ]
        )
        return {
            "steps": markdown_table(
                ["step", r"$s_1^2$ before", r"$s_1^2$ after", "Kolmogorov distance between bulks"],
                steps,
            ),
            "top": markdown_table(
                ["model", "$s_1^2$", "$s_2^2$", "$s_3^2$", "$s_4^2$", "$s_5^2$"],
                [[symbol(name)] + [f"{v:.2f}" for v in top[name]] for name in MODEL_NAMES],
            ),
        }

    def interlacing_line(self) -> str:
        """The largest violation of the two rank-one steps, as the chapter prints it."""
        return f"largest interlacing violation: {violation_text(max(self.viol_A, self.viol_Y))}"
