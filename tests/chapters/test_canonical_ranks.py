"""The canonical-ranks chapter's study at small parameters: its verdicts, key values, tables and
figures are pinned here, in the fast loop, not only by nbval on the stored notebook.

The chapter fixes its lengths (up to ℓ = 2²² for the Cesàro matrix, 2²⁴ for the crossing's
search); here they are 2⁶ … 2¹⁰ for the grid and up to 2¹⁴ for the rest, and two spikes put the
crossing of the causal stable rank with k + 1 near ℓ = 5 × 10³, inside that range. The verdicts
are the chapter's, in the same order."""

from __future__ import annotations

import pytest

from attnspec.chapters.canonical_ranks import CanonicalRanks
from tests.helpers import check_figures, verdicts_of

SMALL = dict(spikes=2, bulk_max=2.0, seed=0)


class SmallRanks(CanonicalRanks):
    grid_exponents = range(6, 11)
    lanczos_exponents = range(6, 13, 2)
    sigma0_ells = (2**8, 2**10, 2**12, 2**14)
    cross_start, cross_cap = 2**12, 2**14


@pytest.fixture(scope="module")
def study():
    return SmallRanks.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    # ○: erank2's verdict is a convention; ✗ ✗: the premise σ_i ≍ 1/i fails at Σ = 0, and with
    # it erank1 = Θ(√ℓ log ℓ)
    assert verdicts_of(study.claims()) == "✓✓✓✓○✓✓✗✗✓"
    v = study.values()
    assert v["crossing_text"] == "5.4 × 10³" and v["crossing"] == 5400.0
    assert v["sigma0_norms"] == "1.68643 / 1.74901 / 1.79478 / 1.82921"
    assert v["sigma0_sranks"] == "2.1534 / 2.4547 / 2.7614 / 3.0727"
    assert v["b_srank_max"] == 2.8729 and v["c_srank_max"] == 2.6476
    assert v["bulk_srank_slope"] == 0.2159 and v["erank1_power"] == 0.571
    assert v["grid"] == "64, 128, 256, 512, 1024" and v["sigma0_max_ell_log2"] == 14


def test_tables_and_figures(study):
    tables, v = study.tables(), study.values()
    assert set(tables) == {"ranks", "cesaro"}
    assert tables["ranks"].count("\n") == 2 + 3 - 1  # every second of the 5 grid lengths
    assert tables["cesaro"].count("\n") == 2 + 4 - 1
    assert v["table_ranks"] == tables["ranks"] and v["table_cesaro"] == tables["cesaro"]
    check_figures(study, {"fig_sigma0", "fig_ranks"}, legends=True)
