"""The ladder chapter's study at small parameters: its verdicts, key values, tables and figure are
pinned here, in the fast loop, not only by nbval on the stored notebook."""

from __future__ import annotations

import pytest

from attnspec.chapters.ladder import Ladder
from tests.helpers import check_figures, verdicts_of

SMALL = dict(d=80, beta=1.0, trials=3, seed=0, remove_top_k=3, c_poly=2.0)


@pytest.fixture(scope="module")
def study():
    return Ladder.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    # at d = 80 the linearization step is the largest, but the second largest (θ^Q → θ^f) trails
    # it by less than the noise floor: the ranking is unresolved, ○
    assert verdicts_of(study.claims()) == "✓✓✓○"
    v = study.values()
    assert v["largest_step"] == r"$Y_Q$ → $Y_Q^{\mathrm{lin}}$" and v["viol"] == "≤ 1e-8"
    assert v["step_Q_lin"] == 0.074 and v["step_theta"] == 0.048
    assert v["ks_floor"] == 0.03 and v["ks_floor_max"] == 0.035
    assert v["n_above_floor"] == 3 and v["k"] == 3
    assert study.interlacing_line() == "largest interlacing violation: ≤ 1e-8"


def test_tables_and_figures(study):
    tables = study.tables()
    assert set(tables) == {"steps", "top"}
    assert tables["steps"].count("\n") == 2 + 6 + 1 - 1  # header, rule, six steps, noise floor
    assert tables["top"].count("\n") == 2 + 7 - 1  # header, rule, seven rungs
    assert tables["steps"].splitlines()[-1].endswith("| 0.030 (max 0.035) |")

    def panels(name, fig):
        assert len(fig.axes) == 6  # one panel per step, two rows of three
        assert [ax.get_xlabel() for ax in fig.axes[3:]] == [r"squared singular value $\lambda$"] * 3

    check_figures(study, {"fig_steps"}, panels, labelled=False)
