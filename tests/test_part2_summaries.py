"""The table, glue-value and claims builders of the convergence and threshold
chapter modules (:mod:`attnspec.chapters`), on small runs: every table has its header's columns,
every glue value is a plain number or text, every claim a verdict."""

from __future__ import annotations

import numbers

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from attnspec.chapters import convergence as cs
from attnspec.chapters import convergence_threshold as ts
from attnspec.chapters.limit_law import figures as lf
from attnspec.chapters.limit_law_edge import figures as ef
from attnspec.core.config import Config
from attnspec.experiments import convergence as cv
from attnspec.experiments import limit_law as ll
from attnspec.experiments import threshold as th
from attnspec.experiments.trials import run_ladder
from attnspec.models.ladder import MODEL_NAMES, REFERENCE
from attnspec.present import plotting
from attnspec.present.claims import Claim
from attnspec.present.tables import claims_markdown
from tests.helpers import html_tables, verdicts_of


def columns(markdown: str) -> list[int]:
    """Cells per row of a Markdown table (pipes outside math, escaped ones excluded)."""
    rows = [line for line in markdown.splitlines() if line.startswith("|")]
    return [line.replace(r"\|", "").count("|") - 1 for line in rows]


def plain(values: dict) -> None:
    """Every value is one glue_values takes: a real number or a string, not an array."""
    for key, v in values.items():
        assert isinstance(v, numbers.Real | str) and np.ndim(v) == 0, key


def verdicts(claims: list[Claim], pinned: str) -> None:
    """The claims are Claims, their table renders, and their verdicts are the ``pinned`` ones."""
    assert claims and all(isinstance(c, Claim) for c in claims)
    assert "claims hold at these parameters" in claims_markdown(claims)
    assert verdicts_of(claims) == pinned


@pytest.fixture(scope="module")
def series():
    column = [run_ladder(Config(d=d, trials=2, seed=6)) for d in (40, 60, 90, 120)]
    conv = {(m, t): cv.distance_series(column, m, t) for m, t in cs.SERIES}
    at_scale = {m: cv.distance_series(column, m) for m in cs.PAIR}
    return conv, at_scale


def test_convergence_summary(series):
    conv, at_scale = series
    assert set(columns(cs.scale_table(at_scale))) == {5}
    assert set(columns(cs.every_rung_table(conv))) == {5}
    rig = cv.rigidity(at_scale["Y_f_lin"])
    assert set(columns(cs.rigidity_table(rig))) == {5}
    plain(cs.scale_values(at_scale, 1.0))
    plain(cs.every_values(conv, 2.0))
    plain(cs.rigidity_values(rig, rig))
    # 2 trials per size: no error is tested, so the size-by-size comparison is open (○)
    verdicts(cs.convergence_claims(conv, at_scale, rig), "✓✓✓○○")
    traces = cs.interactive_series(conv, at_scale)
    assert len(traces) == len(cs.SERIES) + 2 and not traces[-1].visible


def test_threshold_summary(series):
    d = np.array([250, 500, 1000, 2000])
    beta = np.array([0.5, 1.0, 1.5, 2.0, 2.5])
    x = beta[None, :] ** 2 - 0.45 * np.log(d.astype(float))[:, None]
    ks = 0.6 / (1 + np.exp(0.5 - x))
    boot = ks[..., None] * np.exp(0.02 * np.random.default_rng(1).standard_normal((4, 5, 30)))
    plane = th.Plane(REFERENCE, d, beta, np.array([32, 16, 8, 4]), ks, boot)
    floor = th.Plane("Y_f_lin", d, beta, plane.trials, 0.1 * ks, boot[..., :0])
    levels = [th.boundary(plane, level) for level in ts.LEVELS]
    rates, lin = th.rates_in_d(plane), th.rates_in_d(floor)
    col = th.collapse(plane, np.ones(ks.shape, bool))
    row_ks = {m: list(ks[2] * (0.1 if m.endswith("lin") else 1)) for m in MODEL_NAMES}
    row_ref = [cv.PooledDistance(k, 0.1 * k) for k in row_ks[REFERENCE]]
    assert set(columns(ts.row_table(row_ks, beta, 1000, [p.se for p in row_ref]))) == {5}
    assert set(columns(ts.rates_table(rates, lin, plane))) == {5}
    assert set(columns(ts.boundary_table(levels))) == {7}
    plain(ts.row_values(row_ks, [p.se for p in row_ref], list(beta), 1000, 1.3, 0.01))
    plain(ts.plane_values(plane, rates, lin, levels, col))
    points = [
        th.NormalizerPoint(int(v), float(b), 4, th.exact_std(b, v), 0.002, th.exact_std(b, v))
        for v in d[:2]
        for b in beta
    ]
    norm = ts.normalizer_test(points, 50, 0)
    plain(ts.normalizer_values(norm))
    row_dist = {m: [cv.PooledDistance(k, 0.1 * k) for k in row_ks[m]] for m in MODEL_NAMES}
    claims = ts.threshold_claims(row_dist, plane, rates, levels, col, norm)
    verdicts(claims, "✓✓✓✓✗✗○○○○✓")
    parallel = next(c for c in claims if "run parallel to" in c.claim)
    assert parallel.holds is False  # c = 0.45 is far from 1
    assert len(ts.plane_text(plane)) == 4 and "±" in ts.plane_text(plane)[0][0]


def test_new_figures_draw(series):
    conv, _ = series
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
    fig = lf.law_frames_grid(fr)
    assert [ax.get_title() for ax in fig.axes[:4]] == [
        r"$\beta$ = 0.5",
        r"$\beta$ = 1",
        r"$\beta$ = 1.5",
        r"$\beta$ = 2",
    ]
    plotting.plt.close(fig)
    fig = plotting.rates_and_collapse(
        [0.5, 1.0], [0.8, 0.6], [0.05, 0.04], {"a": ([0, 1], [0.1, 0.2])}, "c", "x", "y"
    )
    assert len(fig.axes) == 2 and fig.axes[1].get_yscale() == "log"
    plotting.plt.close(fig)
    fig = ef.per_trial_points({"$a$": [1, 2], "$b$": [3]}, {"edge": 2.5}, "y")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["$a$", "$b$"]
    assert all(t.get_rotation() == 0 for t in ax.get_xticklabels())
    plotting.plt.close(fig)
    fig = plotting.phase_diagram(
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
    plotting.plt.close(fig)
    assert html_tables("<table><tr><td>a</td></tr></table>") == [[["a"]]]
