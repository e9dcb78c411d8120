"""The convergence chapter's study at small parameters: its verdicts, key values, tables and
figures (one of them interactive) are pinned here, in the fast loop, not only by nbval on the stored
notebook. Its sweeps' trials are computed in the test's process (``in_this_process``)."""

from __future__ import annotations

import numpy as np
import pytest

from attnspec.chapters.convergence import Convergence
from attnspec.chapters.convergence.figures import Series, distance_against_d, interactive_series
from attnspec.chapters.convergence.study import SERIES
from attnspec.present.interactive import DISTANCE_IN_D, InteractiveFigure
from tests.helpers import check_figures, columns, in_this_process, plain, verdicts

SMALL = dict(
    beta=1.0,
    d_values=[40, 60, 90, 120],
    trials=2,
    d_scale=[40, 80, 160],
    pooled_values=320,
    seed=0,
    remove_top_k=3,
    c_poly=2.0,
)


@pytest.fixture(scope="module")
def study():
    with in_this_process():
        return Convergence.run(**SMALL)


def test_verdicts_key_values_tables_and_figures_at_small_parameters(study):
    # three sizes at scale leave the rates without a fit error: the fall and attention's rate are
    # not resolved (○); the two sizes with at least 3 trials hold 8 and 4, too few to separate
    # the distances by Student's quantile (○)
    verdicts(study.claims(), "○✓✓○○")
    v = study.values()
    assert v["scale_trials"] == "8 at 40, 4 at 80, 2 at 160"
    assert v["ratio_ref_lin_dmax"] == "5.7" and v["ks_dmax_sqrt_d_A_perp"] == 0.07003
    assert v["grid_rate_txt_sqrt_d_A_perp"] == "0.79 ± 0.17"
    assert v["rigidity_exp_grid"] == "0.03 ± 0.20" and v["poly_degrees"] == "6, 6, 6, 7"
    plain(v)
    tables = study.tables()
    assert set(tables) == {"scale", "rigidity", "every"}
    assert all(set(columns(t)) == {5} for t in tables.values())
    assert tables["scale"].count("\n") == 2 + 3 + 1 - 1  # header, rule, three sizes, the rates
    assert tables["rigidity"].count("\n") == 2 + 3 - 1
    assert tables["every"].count("\n") == 2 + len(SERIES) - 1

    def axes_and_ids(name, fig):
        if name == "fig_scale":
            assert fig.axes[0].get_xlabel() == "$d$"
        else:
            assert isinstance(fig, InteractiveFigure) and fig.div_id == DISTANCE_IN_D

    check_figures(study, {"fig_scale", "fig_d"}, axes_and_ids)
    traces = interactive_series(study.conv, study.at_scale)
    assert len(traces) == len(SERIES) + 2 and not traces[-1].visible


def test_distance_figure_groups_each_series_with_its_fit():
    series = [
        Series("a", [100, 200, 400], [0.1, 0.05, 0.025], [0.01, 0.01, 0.01], (1.0, 2.3)),
        Series("b", [100, 200], [0.2, 0.1], [np.nan, 0.01], None, visible=False),
    ]
    fig = distance_against_d(series, "D")
    assert [t.legendgroup for t in fig.data] == ["s0", "s0", "s1"]
    assert fig.data[0].visible is True and fig.data[2].visible == "legendonly"
    assert fig.data[2].error_y.array == (None, 0.01) and fig.layout.xaxis.type == "log"
