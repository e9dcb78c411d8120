"""The rank-one-mode chapter's study at small parameters: its verdicts, key values, tables and
figures are pinned here, in the fast loop, not only by nbval on the stored notebook."""

from __future__ import annotations

import pytest

from attnspec.chapters.rank_one_mode import RankOneMode
from tests.helpers import check_figures, verdicts_of

SMALL = dict(d=120, beta=1.0, trials=4, seed=0, c_poly=2.0, d_values=[60, 120, 240])


@pytest.fixture(scope="module")
def study():
    return RankOneMode.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    # three sizes leave one degree of freedom: too few for the slope's uncertainty, so ✗
    assert verdicts_of(study.claims()) == "✓✓✗✓✓✓"
    v = study.values()
    assert v["s1_txt"] == "1.0094 ± 0.0011" and v["srank_txt"] == "2.54 ± 0.06"
    assert v["excess_slope_txt"] == "-1.04 (too few sizes for an uncertainty)"
    assert v["outlier_models"] == r"$\sqrt{d}\,A$, $Y$" and v["max_abs_z"] == 2.7
    assert v["trials"] == 4 and v["n_sizes"] == 3


def test_tables_and_figures(study):
    tables = study.tables()
    assert set(tables) == {"trials", "excess", "top", "deficits"}
    assert tables["trials"].count("\n") == 2 + SMALL["trials"] - 1
    assert tables["excess"].count("\n") == 2 + len(SMALL["d_values"]) - 1
    check_figures(study, {"fig_excess", "fig_top"})
    assert study.stable_rank_lines().splitlines()[0] == "bidirectional srank(A) = 2.538 ± 0.055"
