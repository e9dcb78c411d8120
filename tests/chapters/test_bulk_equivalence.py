"""The bulk-equivalence chapter's study at small parameters: its verdicts, key values, table and
figures are pinned here, in the fast loop, not only by nbval on the stored notebook."""

from __future__ import annotations

import math

import pytest

from attnspec.chapters.bulk_equivalence import BulkEquivalence
from tests.helpers import check_figures, verdicts_of

LADDER = dict(d=120, beta=1.0, trials=4, seed=0, remove_top_k=3, c_poly=2.0)
SMALL = LADDER | dict(hist_bins=120, hist_min=0.0, hist_max=8.0)


@pytest.fixture(scope="module")
def study():
    return BulkEquivalence.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    # at d = 120 the noise floor is wide: Y_f^lin's lead and the L1 ranking are not resolved (○)
    assert verdicts_of(study.claims()) == "○✓✓○"
    v = study.values()
    assert v["ks_Y_f_lin"] == 0.071 and v["ks_floor_max"] == 0.024 and v["ratio_ks_Y_f_lin"] == 4.0
    assert v["farthest"] == r"$Y_f^{\mathrm{lin}}$" and v["within_ks"] == "$Y_f$, $Y_Q$"
    assert v["rank_ks"] == r"$Y_Q$ < $Y_f$ < $Y$ < $Y_Q^{\mathrm{lin}}$ < $Y_f^{\mathrm{lin}}$"
    assert v["farthest_ks"] == "not resolved" and v["n_values"] == 4 * (120 - 3)
    assert v["edge"] == 9.0095 and v["mp_edge"] == 6.873 and v["d"] == 120
    assert study.claims()[1].measured == "KS 0.071 = 4.0 × floor"


def test_tables_and_figures(study):
    tables = study.tables()
    assert set(tables) == {"distances"}
    rows = tables["distances"].splitlines()
    assert len(rows) == 2 + 6 + 1 and all(row.count("|") == 5 for row in rows)
    assert rows[-1].startswith("| *noise floor* (mean; max over 3 repetitions) |")
    assert rows[-1].endswith("| 0.28; 0.29 | 0.018; 0.024 | 0.043; 0.057 |")

    def lambda_axis(name, fig):
        assert r"squared singular value $\lambda$" in {ax.get_xlabel() for ax in fig.axes}, name

    check_figures(study, {"fig_cdf", "fig_law"}, lambda_axis, labelled=False)


def test_a_histogram_range_that_holds_no_value_leaves_the_ratio_undefined():
    """With every value beyond ``hist_max`` the L1 floor is zero: its ratio is NaN, no crash."""
    tiny = BulkEquivalence.run(**SMALL | dict(d=10, trials=1, hist_max=1e-6))
    v = tiny.values()
    assert math.isnan(v["ratio_l1_Y_f_lin"]) and v["l1_floor"] == 0.0
    assert len(tiny.claims()) == 4
