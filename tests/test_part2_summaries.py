"""The table, glue-value and claims builders of the limit-law and edge
chapter modules (:mod:`attnspec.chapters`), on small runs: every table has its header's columns,
every glue value is a plain number or text, every claim a verdict."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from attnspec.chapters import limit_law as ls
from attnspec.chapters import limit_law_edge as es
from attnspec.core.config import Config
from attnspec.experiments import limit_law as ll
from attnspec.experiments.trials import run_ladder
from attnspec.laws.edge import edge_scale
from attnspec.models.ladder import REFERENCE
from attnspec.present import plotting
from tests.helpers import columns, html_tables, plain, verdicts


@pytest.fixture(scope="module")
def result():
    return run_ladder(Config(d=50, beta=1.0, trials=3, seed=5))


def test_limit_law_summary(result):
    laws = ll.ladder_laws(result)
    forms = ll.forms_agreement([1.0], points=20)
    dist = ll.law_distances(result, 500, 2001)
    assert set(columns(ls.laws_table(laws, result.poly_degree))) == {6}
    assert set(columns(ls.distances_table(dist))) == {4} and set(columns(ls.w1_table(dist))) == {4}
    assert ls.edge_from_r_transform(laws["f"].theta1, laws["f"].theta2) == pytest.approx(
        laws["f"].edge, rel=1e-9
    )
    plain(ls.law_values(laws, result.poly_degree, 1.0, forms))
    plain(ls.distance_values(dist, 50, 3))
    frames = ll.slider_frames(ll.pair_ladders(result.config, [0.5, 1.0], 2, (REFERENCE,)))
    plain(ls.slider_values(frames))
    claims = ls.law_claims(laws, dist, forms, laws["f"].mean(), 50, 3)
    verdicts(claims, "✓✓✓✓✓✓✓")
    assert claims[0].holds and claims[1].holds  # the two forms, and the edge's two routes
    assert ls.ks_noise(970, 100, 3) == pytest.approx(1.36 / math.sqrt(1000))


def test_edge_summary(result):
    law = ll.ladder_laws(result)["f"]
    scale = edge_scale(law, 50)
    out = ll.localized_outliers(result.config, result)
    assert set(columns(es.edge_table(result, law.edge))) == {5}
    assert set(columns(es.outliers_table(out))) == {6}
    plain(es.edge_values(result, law, scale))
    plain(es.outlier_values(out, 50))
    verdicts(es.edge_claims(result, law, scale, out), "✓✓✓")


def test_new_figures_draw():
    fr = [
        ll.SliderFrame(
            b,
            1.0,
            np.linspace(0.1, 7, 20),
            np.ones(20),
            np.ones(20),
            np.linspace(0, 7, 8),
            np.ones(7),
            0.1,
            0.2,
            5.0,
        )
        for b in (0.5, 1.0, 1.5, 2.0)
    ]
    fig = plotting.law_frames_grid(fr)
    assert [ax.get_title() for ax in fig.axes[:4]] == [
        r"$\beta$ = 0.5",
        r"$\beta$ = 1",
        r"$\beta$ = 1.5",
        r"$\beta$ = 2",
    ]
    plotting.plt.close(fig)
    fig = plotting.per_trial_points({"$a$": [1, 2], "$b$": [3]}, {"edge": 2.5}, "y")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["$a$", "$b$"]
    assert all(t.get_rotation() == 0 for t in ax.get_xticklabels())
    plotting.plt.close(fig)
    assert html_tables("<table><tr><td>a</td></tr></table>") == [[["a"]]]
