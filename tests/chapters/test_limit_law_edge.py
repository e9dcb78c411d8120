"""The edge page's study at small parameters: its verdicts, key values, tables and figure are
pinned here, in the fast loop, not only by nbval on the stored notebook."""

from __future__ import annotations

import pytest

from attnspec.chapters.limit_law_edge import LimitLawEdge
from tests.helpers import check_figures, verdicts_of

SMALL = dict(d=100, beta=1.0, trials=4, seed=0, remove_top_k=3, c_poly=2.0)


@pytest.fixture(scope="module")
def study():
    return LimitLawEdge.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    assert verdicts_of(study.claims()) == "✓✓✓"
    v = study.values()
    assert v["lambda"] == 9.00954 and v["spacing"] == 1.109
    assert v["linear_overshoot_spacings"] == 0.24 and v["above_nonlinear"] == 0.4
    assert v["spearman"] == 1.0 and v["weight_median"] == 0.711
    assert v["d_isolated"] == "3.4 × 10⁵" and v["r"] == 3 and v["r1"] == 4
    assert all(isinstance(x, int | float | str) for x in v.values())  # what glue takes


def test_tables_and_figures(study):
    tables = study.tables()
    assert set(tables) == {"edge", "outliers"}
    assert tables["edge"].count("\n") == 2 + 7 - 1  # header, rule, seven rungs
    assert tables["outliers"].count("\n") == 2 + SMALL["trials"] - 1
    assert {row.count("|") for row in tables["edge"].splitlines()} == {6}
    assert {row.count("|") for row in tables["outliers"].splitlines()} == {7}

    def first_tick(name, fig):
        assert [t.get_text() for t in fig.axes[0].get_xticklabels()][0] == r"$\sqrt{d}\,A$"

    check_figures(study, {"fig_points"}, first_tick, labelled=False)
