"""The threshold chapter's study at small parameters: its verdicts, key values, tables and figures
(the phase diagram interactive) are pinned here, in the fast loop, not only by nbval on the stored
notebook. Its sweeps' trials are computed in the test's process (``in_this_process``)."""

from __future__ import annotations

import pytest

from attnspec.chapters.convergence_threshold import ConvergenceThreshold
from attnspec.present.interactive import PHASE_DIAGRAM, InteractiveFigure
from tests.helpers import check_figures, in_this_process, verdicts_of

SMALL = dict(
    d=100,
    betas=[0.5, 1.0, 1.5, 2.5],
    d_values=[50, 100, 200],
    trials=2,
    pooled_values=400,
    resamples=20,
    seed=0,
    remove_top_k=3,
    c_poly=2.0,
)


@pytest.fixture(scope="module")
def study():
    with in_this_process():
        return ConvergenceThreshold.run(**SMALL)


def test_verdicts_key_values_tables_and_figures_at_small_parameters(study):
    # on this small grid the level 0.02 is crossed at no size: no boundary model fits it (✗) and
    # the claims over every level stay open (○); at β = 0.5 the linear model and attention are
    # within their errors (○); ĉ is far from 1 (✗); the normalizers' spreads are within the range
    # that draws from the exact law at the same design reach (✓)
    assert verdicts_of(study.claims()) == "✓✓✓○✗✗○○○○✓"
    v = study.values()
    assert v["grid_beta"] == "0.5, 1, 1.5, 2, 2.5" and v["plane_trials"] == "8, 4, 2"
    assert v["ks_beta_2_txt"] == "0.431 ± 0.003" and v["beta_tol_txt"] == "0.81 ± 0.08"
    assert v["gamma_txt"] == "0.32 ± 0.05" and v["collapse_c_txt"] == "0.35 ± 0.19"
    assert v["norm_n_within"] == 15 and v["norm_n_points"] == 15 and v["resamples"] == 20
    tables = study.tables()
    assert set(tables) == {"row", "boundary", "rates"}
    assert tables["row"].count("\n") == 2 + 5 - 1  # header, rule, five betas
    assert tables["boundary"].count("\n") == 2 + 5 - 1  # five levels
    assert tables["rates"].count("\n") == 2 + 5 - 1

    def axes_and_ids(name, fig):
        if name == "fig_phase":
            assert isinstance(fig, InteractiveFigure) and fig.div_id == PHASE_DIAGRAM
        else:
            assert fig.axes[0].get_xlabel() == r"$\beta$", name

    check_figures(
        study, {"fig_beta", "fig_phase", "fig_collapse", "fig_norm"}, axes_and_ids, labelled=False
    )
