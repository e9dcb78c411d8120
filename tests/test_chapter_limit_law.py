"""The limit-law chapter's study at small parameters: its verdicts, key values, tables and figures
(the slider an interactive figure) are pinned here, in the fast loop, not only by nbval on the
stored notebook."""

from __future__ import annotations

import pytest

from attnspec.chapters.limit_law import LimitLaw
from attnspec.present.interactive import LAW_SLIDER, InteractiveFigure
from tests.helpers import check_figures, verdicts_of

SMALL = dict(
    d=100,
    beta=1.0,
    trials=3,
    seed=0,
    remove_top_k=3,
    c_poly=2.0,
    hist_bins=40,
    hist_min=0.0,
    hist_max=10.0,
    betas=[0.5, 1.5],
    pooled_values=200,
)


@pytest.fixture(scope="module")
def study():
    return LimitLaw.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    assert verdicts_of(study.claims()) == "✓✓✓✓✓✓✓"
    v = study.values()
    assert v["edge"] == 9.00954 and v["q_edge"] == 8.63428 and v["poly_degree"] == 7
    assert v["ks_sqrt_d_A_perp"] == 0.0833 and v["ks_mp_sqrt_d_A_perp"] == 0.1287
    assert v["n_values"] == 291 and v["ks_noise"] == 0.0785 and v["top_reference"] == 9.22
    # the slider's positions are betas and beta, with ceil(200 / 100) trials each
    assert v["slider_n"] == v["forms_betas"] == 3 and v["slider_trials"] == 2
    assert v["w1_table"].count("\n") == 2 + 7 + 2 - 1  # header, rule, seven rungs, two laws


def test_tables_and_figures(study):
    tables = study.tables()
    assert set(tables) == {"laws", "distances"}
    assert tables["laws"].count("\n") == 2 + 3 - 1  # header, rule, three laws
    assert tables["distances"].count("\n") == 2 + 7 + 2 - 1

    def slider_id(name, fig):
        if name == "fig_slider":
            assert isinstance(fig, InteractiveFigure) and fig.div_id == LAW_SLIDER

    check_figures(study, {"fig_slider", "fig_grid", "fig_cdf"}, slider_id, labelled=False)
