"""The theta-statistics chapter's study at small parameters: its verdicts, key values, tables and
figures are pinned here, in the fast loop, not only by nbval on the stored notebook."""

from __future__ import annotations

import pytest

from attnspec.chapters.theta_statistics import ThetaStatistics
from tests.helpers import check_figures, verdicts_of

SMALL = dict(d=100, beta=1.0, seed=0, c_poly=2.0, mc_samples=2000)
#: The seed notebook's draw (beta = 1, n = 8, 200,000 samples from default_rng(0)): half a second.
SEED_DRAW = dict(d=1000, beta=1.0, seed=0, c_poly=2.0, mc_samples=200_000)


@pytest.fixture(scope="module")
def study():
    return ThetaStatistics.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    # not the seed notebook's draw: nothing to reproduce, so ○
    assert verdicts_of(study.claims()) == "✓✓✓○✓✓"
    v = study.values()
    assert v["poly_degree"] == 7 and v["q1_exact"] == 1.6331676 and v["f1"] == 1.7182818
    assert v["q1_mc_txt"] == "1.29 ± 0.13" and v["mc_mean_txt"] == "1.68 ± 0.07"
    assert v["mc_within2"] == 12 and v["mc_top_n"] == 2 and v["gap1_nd"] == 5.0
    assert v["same_draw"] == "a different draw" and v["mc_count"] == 20


def test_the_seed_notebooks_draw_is_reproduced():
    study = ThetaStatistics.run(**SEED_DRAW)
    assert verdicts_of(study.claims()) == "✓✓✓✓✓✓"
    v = study.values()
    assert (v["q1_mc"], v["q2_mc"]) == (1.7047, 0.9987) and v["same_draw"] == "the same draw"


def test_tables_and_figures(study):
    tables = study.tables()
    assert set(tables) == {"thetas", "degrees"}
    assert tables["thetas"].count("\n") == 2 + 4 - 1
    assert tables["degrees"].count("\n") == 2 + 6 - 1
    check_figures(study, {"fig_gap"})
    lines = study.estimate_lines().splitlines()
    assert lines[0] == "mean of 20 independent estimates of θ₁ of Q: 1.684 ± 0.067"
    assert len(lines) == 3
