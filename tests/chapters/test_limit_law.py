"""The limit-law chapter's study at small parameters: its verdicts, key values, tables and figures
(the slider an interactive figure) are pinned here, in the fast loop, not only by nbval on the
stored notebook."""

from __future__ import annotations

import copy
import dataclasses

import matplotlib.pyplot as plt
import pytest

from attnspec.chapters.limit_law import LimitLaw, figures
from attnspec.chapters.limit_law.claims import score_claim
from attnspec.experiments.score_dependence import ScoreDependence
from attnspec.present.interactive import LAW_SLIDER, InteractiveFigure
from tests.helpers import check_figures, verdicts_of

LADDER = dict(d=100, beta=1.0, trials=3, seed=0, remove_top_k=3, c_poly=2.0)
SMALL = LADDER | dict(
    hist_bins=40, hist_min=0.0, hist_max=10.0, betas=[0.5, 1.5], pooled_values=200
)


@pytest.fixture(scope="module")
def study():
    return LimitLaw.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    # the last claim (i.i.d. against bilinear scores) cannot be resolved at d = 100: its noise
    # floors are as large as the distances
    assert verdicts_of(study.claims()) == "✓✓✓✓✓✓✓○"
    v = study.values()
    assert v["edge"] == 9.00954 and v["q_edge"] == 8.63428 and v["poly_degree"] == 7
    assert v["ks_sqrt_d_A_perp"] == 0.0833 and v["ks_mp_sqrt_d_A_perp"] == 0.1287
    assert v["n_values"] == 291 and v["ks_noise"] == 0.0785 and v["top_reference"] == 9.22
    # the slider's positions are betas and beta, with ceil(200 / 100) trials each
    assert v["slider_n"] == v["forms_betas"] == 3 and v["slider_trials"] == 2
    assert v["w1_table"].count("\n") == 2 + 7 + 2 - 1  # header, rule, seven rungs, two laws
    assert v["ks_iid_scores_mp"] == 0.0593 and v["ks_iid_scores_pw"] == 0.0516
    assert v["iid_floor"] == 0.04 and v["bilinear_floor"] == 0.025
    assert v["scores_d"] == 100 and v["scores_trials"] == 3 and v["iid_code_beta"] == 0.8326
    assert all(isinstance(v[k], float) for k in ("ks_iid_scores_mp", "ks_iid_scores_pw"))
    assert all(isinstance(x, int | float | str) for x in v.values())  # what glue takes


@pytest.mark.parametrize(
    "iid, bilinear, verdict",
    [
        ((0.01, 0.04), (0.015, 0.06), "✓"),  # each model nearer its own law, beyond the floors
        ((0.04, 0.01), (0.015, 0.06), "✗"),  # i.i.d. scores nearer Pennington–Worah's law
        ((0.01, 0.014), (0.015, 0.06), "○"),  # within the floors
    ],
)
def test_the_score_claim_follows_the_one_verdict_rule(iid, bilinear, verdict):
    ks = {
        "iid": dict(zip(("mp", "pw"), iid, strict=True)),
        "bilinear": dict(zip(("pw", "mp"), bilinear, strict=True)),
    }
    dep = ScoreDependence({}, ks, {"iid": 0.003, "bilinear": 0.002})
    assert verdicts_of([score_claim(dep)]) == verdict


def test_tables_and_figures(study):
    tables = study.tables()
    assert set(tables) == {"laws", "distances"}
    assert tables["laws"].count("\n") == 2 + 3 - 1  # header, rule, three laws
    assert tables["distances"].count("\n") == 2 + 7 + 2 - 1
    assert {row.count("|") for row in tables["laws"].splitlines()} == {7}
    assert {row.count("|") for row in tables["distances"].splitlines()} == {5}

    def slider_id(name, fig):
        if name == "fig_slider":
            assert isinstance(fig, InteractiveFigure) and fig.div_id == LAW_SLIDER

    check_figures(
        study, {"fig_slider", "fig_grid", "fig_cdf", "fig_scores"}, slider_id, labelled=False
    )


def test_a_histogram_range_up_to_the_largest_float_is_drawn(study):
    """The declared range is cut at RANGE_CAP times the largest value shown, so its axis can be
    drawn (a range ending near 1e308 overflowed matplotlib's transforms)."""
    wide = copy.copy(study)
    wide.config = dataclasses.replace(study.config, hist_max=1.7e308)
    for draw in (figures.fig_grid, figures.fig_scores):
        fig = draw(wide)
        assert fig.axes[0].get_xlim()[1] < 1e5
        plt.close(fig)
