"""The canonical-causal chapter's study at small parameters: its verdicts, key values, tables and
figures are pinned here, in the fast loop, not only by nbval on the stored notebook."""

from __future__ import annotations

import copy

import pytest

from attnspec.chapters.canonical_causal import CanonicalCausal
from tests.helpers import check_figures, verdicts_of

SMALL = dict(ell_values=[64, 128, 256], spikes=4, bulk_max=2.0, seed=0, dense_max=128)


@pytest.fixture(scope="module")
def study():
    return CanonicalCausal.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    # ✗ and ○○○: at ℓ ≤ 256 the smallest C_B still grows like log ℓ (e^B is not far below ℓ),
    # though its exponent is not separated from 0 on three lengths; the count constant's exponent
    # can be separated from neither the log ℓ candidate's nor 0
    assert verdicts_of(study.claims()) == "✓✓✓✓✓✓✗○○○✓✓✓"
    v = study.values()
    assert v["order_lambda2_desc"] == 0.5 and v["order_lambda2_asc"] == 0.8
    assert study.bounds["bulk uniform in [0, B]"][256].constant <= 1.0 + 1e-9
    assert v["cb_main"] == 0.971 and v["counts"] == "27 / 33 / 46"
    assert v["min3i"] == 1.517 and v["search_spectra"] == 5973
    assert v["spike_fgap_last"] == "2.8e-09" and v["order_srank"] == "5.221 / 4.365 / 4.976"


def test_the_spike_claim_detects_a_wrong_gap(study):
    first = study.claims()[0]
    assert first.holds is True and "≤ 1e-12" in first.measured
    bad = copy.copy(study)
    bad.spike_gaps = {e: g * (1 + 1e-9) for e, g in study.spike_gaps.items()}
    assert study.spike_check()[0] <= 1e-12 < bad.spike_check()[0]
    assert bad.claims()[0].holds is False


def test_tables_and_figures(study):
    tables, v = study.tables(), study.values()
    assert set(tables) == {"summary", "bound", "search"}
    assert tables["summary"].count("\n") == 2 + len(SMALL["ell_values"]) - 1
    assert tables["bound"].count("\n") == 2 + len(study.families) - 1
    assert v["table_bound"] == tables["bound"] and v["table_search"] == tables["search"]
    check_figures(study, {"fig_causal", "fig_bound", "fig_order"}, legends=True)
