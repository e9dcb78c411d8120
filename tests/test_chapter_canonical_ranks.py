"""The canonical-ranks chapter's study at small parameters: its verdicts, key values, tables and
figures are pinned here, in the fast loop, not only by nbval on the stored notebook.

The chapter's grids are fixed (up to ℓ = 2²² for the Cesàro matrix); two spikes put the crossing
of the causal stable rank with k + 1 near ℓ = 5 × 10³, so that its search stays short."""

from __future__ import annotations

import pytest

from attnspec.chapters.canonical_ranks import CanonicalRanks
from tests.helpers import check_figures, verdicts_of

SMALL = dict(spikes=2, bulk_max=2.0, seed=0)


@pytest.fixture(scope="module")
def study():
    return CanonicalRanks.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    # ○: erank2's verdict is a convention; ✗ ✗: the premise σ_i ≍ 1/i fails at Σ = 0, and with
    # it erank1 = Θ(√ℓ log ℓ)
    assert verdicts_of(study.claims()) == "✓✓✓✓○✓✓✗✗✓"
    v = study.values()
    assert v["crossing_text"] == "5.4 × 10³" and v["crossing"] == 5400.0
    assert v["sigma0_norms"] == "1.79478 / 1.85575 / 1.89331 / 1.90687"
    assert v["sigma0_sranks"] == "2.7614 / 3.3880 / 4.0284 / 4.3525"
    assert v["b_srank_max"] == 2.9672 and v["c_srank_max"] == 3.2402
    assert v["bulk_srank_slope"] == 0.1807 and v["erank1_power"] == 0.54


def test_tables_and_figures(study):
    tables, v = study.tables(), study.values()
    assert set(tables) == {"ranks", "cesaro"}
    assert tables["ranks"].count("\n") == 2 + 5 - 1  # every second of the 9 grid lengths
    assert tables["cesaro"].count("\n") == 2 + 4 - 1
    assert v["table_ranks"] == tables["ranks"] and v["table_cesaro"] == tables["cesaro"]
    check_figures(study, {"fig_sigma0", "fig_ranks"}, legends=True)
