"""The threshold chapter's study at small parameters: its verdicts, key values, tables and figures
(the phase diagram interactive) are pinned here, in the fast loop, not only by nbval on the stored
notebook. Its sweeps' trials are computed in the test's process (``in_this_process``)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from attnspec.chapters.convergence_threshold import ConvergenceThreshold
from attnspec.chapters.convergence_threshold.claims import threshold_claims
from attnspec.chapters.convergence_threshold.figures import phase_diagram, phase_heatmap
from attnspec.chapters.convergence_threshold.tables import (
    boundary_table,
    normalizer_values,
    plane_text,
    plane_values,
    rates_table,
    row_table,
    row_values,
)
from attnspec.experiments import convergence as cv
from attnspec.experiments import threshold as th
from attnspec.experiments.normalizer_reference import NormalizerPoint, exact_std, normalizer_test
from attnspec.models.ladder import MODEL_NAMES, REFERENCE
from attnspec.present.interactive import PHASE_DIAGRAM, InteractiveFigure
from tests.helpers import check_figures, columns, in_this_process, plain, verdicts, verdicts_of
from tests.present.test_plotting import problems

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
        else:  # drawn from the study, so checked against the book's figure standard here
            assert fig.axes[0].get_xlabel() == r"$\beta$" and problems(fig) == [], name
        if name == "fig_collapse":  # the rates, then the distances on a log scale
            assert len(fig.axes) == 2 and fig.axes[1].get_yscale() == "log"

    check_figures(
        study, {"fig_beta", "fig_phase", "fig_collapse", "fig_norm"}, axes_and_ids, labelled=False
    )


def test_threshold_summary():
    d = np.array([250, 500, 1000, 2000])
    beta = np.array([0.5, 1.0, 1.5, 2.0, 2.5])
    x = beta[None, :] ** 2 - 0.45 * np.log(d.astype(float))[:, None]
    ks = 0.6 / (1 + np.exp(0.5 - x))
    boot = ks[..., None] * np.exp(0.02 * np.random.default_rng(1).standard_normal((4, 5, 30)))
    plane = th.Plane(REFERENCE, d, beta, np.array([32, 16, 8, 4]), ks, boot)
    floor = th.Plane("Y_f_lin", d, beta, plane.trials, 0.1 * ks, boot[..., :0])
    levels = [th.boundary(plane, level) for level in th.LEVELS]
    rates, lin = th.rates_in_d(plane), th.rates_in_d(floor)
    col = th.collapse(plane, np.ones(ks.shape, bool))
    row_ks = {m: list(ks[2] * (0.1 if m.endswith("lin") else 1)) for m in MODEL_NAMES}
    row_ref = [cv.PooledDistance(k, 0.1 * k) for k in row_ks[REFERENCE]]
    assert set(columns(row_table(row_ks, beta, 1000, [p.se for p in row_ref]))) == {5}
    assert set(columns(rates_table(rates, lin, plane))) == {5}
    assert set(columns(boundary_table(levels))) == {7}
    plain(row_values(row_ks, [p.se for p in row_ref], list(beta), 1000, 1.3, 0.01))
    plain(plane_values(plane, rates, lin, levels, col))
    points = [
        NormalizerPoint(int(v), float(b), 4, exact_std(b, v), 0.002, exact_std(b, v))
        for v in d[:2]
        for b in beta
    ]
    norm = normalizer_test(points, 50, 0)
    plain(normalizer_values(norm))
    row_dist = {m: [cv.PooledDistance(k, 0.1 * k) for k in row_ks[m]] for m in MODEL_NAMES}
    made = threshold_claims(row_dist, plane, rates, levels, col, norm)
    verdicts(made, "✓✓✓✓✗✗○○○○✓")
    parallel = next(c for c in made if "run parallel to" in c.claim)
    assert parallel.holds is False  # c = 0.45 is far from 1
    assert len(plane_text(plane)) == 4 and "±" in plane_text(plane)[0][0]


def test_the_phase_diagram_draws():
    fig = phase_diagram(
        [1.0, 1.5, 2.5],
        [250, 500],
        np.array([[0.01, 0.05, 0.2], [0.005, 0.03, 0.1]]),
        "b",
        "d",
        "z",
        curves={"c": ([2.3, 2.5], [250, 500])},
        points={"p": ([1.5, 1.6], [250, 500], [0.01, 0.02])},
    )
    assert fig.axes[0].get_legend() is not None
    plt.close(fig)


def test_phase_heatmap_hover_text_and_overlays():
    ks = np.array([[0.01, 0.1], [0.005, 0.05]])
    text = [["0.010 ± 0.001", "0.10 ± 0.01"], ["0.005 ± 0.001", "0.050 ± 0.002"]]
    fig = phase_heatmap([250, 500], [1.0, 2.0], ks, text, ([1.5, np.nan], "b"), [2.3, 2.5])
    heat, boundary, curve = fig.data
    assert [list(r) for r in heat.customdata] == text and "%{customdata}" in heat.hovertemplate
    assert boundary.y == ("250",) and curve.y == ("250", "500")
    assert heat.z[0][1] == pytest.approx(-1.0)
