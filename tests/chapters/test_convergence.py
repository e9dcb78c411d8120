"""The convergence chapter's study at small parameters: its verdicts, key values, tables and
figures (one of them interactive) are pinned here, in the fast loop, not only by nbval on the stored
notebook. Its sweeps' trials are computed in the test's process (``in_this_process``)."""

from __future__ import annotations

import pytest

from attnspec.chapters.convergence import Convergence
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
            # each series with its fitted line in one legend group; the series at scale hidden
            # at first; an error from fewer than MIN_TRIALS trials left out (a gap)
            data = fig.figure.data
            groups = [t.legendgroup for t in data]
            assert groups[:2] == ["s0", "s0"] and len(set(groups)) == len(SERIES) + 2
            assert data[0].visible is True and data[-1].visible == "legendonly"
            assert data[-2].error_y.array[-1] is None and fig.figure.layout.xaxis.type == "log"

    check_figures(study, {"fig_scale", "fig_d"}, axes_and_ids)
