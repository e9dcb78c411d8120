"""The setup chapter's study at small parameters: its verdicts, key values, tables and figure are
pinned here, in the fast loop, not only by nbval on the stored notebook."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from attnspec.chapters.setup import Setup
from attnspec.chapters.setup.study import SHARED
from tests.helpers import check_figures, verdicts_of

SMALL = dict(d=40, beta=1.0, seed=0, c_poly=2.0)


@pytest.fixture(scope="module")
def study():
    return Setup.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    # the chapter's claims are sanity checks and a 3σ test: all hold at d = 40 too
    assert verdicts_of(study.claims()) == "✓✓✓"
    v = study.values()
    assert v["row_sum_err"] == "≤ 1e-12" and v["score_var"] == 0.984
    assert v["score_var_sd"] == 0.0615 and v["score_var_z"] == -0.3
    assert v["s1"] == 1.027398 and v["sqrt_d_s2"] == 3.071
    assert v["poly_degree"] == 6 and v["d"] == 40
    assert study.trial_lines().splitlines()[2] == "s1(A), s2(A)             = 1.027398, 0.485534"


def test_tables_and_figures(study):
    tables = study.tables()
    assert set(tables) == {"parameters", "ladder"}
    assert tables["parameters"].count("\n") == 2 + len(SHARED) - 1
    assert tables["ladder"].count("\n") == 2 + 7 - 1
    shared = SimpleNamespace(name="d", default=1000)
    own = SimpleNamespace(name="trials", default=3)
    chapters = [SimpleNamespace(title="A chapter", parameters=[shared, own])]
    rows = study.overrides_table(chapters).data.splitlines()
    assert rows[2:] == ["| A chapter | `trials` | `3` | `10` |"]
    check_figures(study, {"fig_entries"})
