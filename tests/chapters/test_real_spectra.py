"""The real-spectra chapter's study at small parameters: both models against their canonical
counterparts and the rank scale, measured in the test's process (``in_this_process``)."""

from __future__ import annotations

import pytest

from attnspec.chapters.real_spectra import RealSpectra
from tests.chapters import test_real_attention
from tests.helpers import check_figures, in_this_process, verdicts_of

#: The real-attention chapter's small parameters, and the trials of the random-init rank scale.
SMALL = test_real_attention.SMALL | {"trials": 2}


@pytest.fixture(scope="module")
def study():
    with in_this_process():
        return RealSpectra.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    # ○: the GPT-2 comparison and overlapping intervals; ✗ ✗: at n = 64 (c = d_h/n = 1/2) MiniLM's
    # canonical srank is far from its all-spike limit, and real erank₁ lies below the canonical one
    claims = study.claims()
    assert verdicts_of(claims) == "○○✓○✓✗✗○✓✓"
    assert any(c.holds is None and "same-scale" in c.criterion for c in claims)
    v = study.values()
    assert v["init_n"] == 64 and v["init_srank"] == "2.35 ± 0.05"
    assert v["init_srank_causal"] == "2.95 ± 0.12" and v["canon_srank_scale"] == 4.02
    assert v["minilm_w1"] == 0.1844 and v["smollm_srank"] == 1.31
    assert v["smollm_w1_64_iv"] == "0.3307 [0.2784, 0.3860]"
    assert v["slope_diff"] == "0.138 [-0.139, 0.263]"
    assert v["minilm_srank_c_formula"] == 24.83 and v["prefix_srank"] == 1.8581


def test_tables_and_figures(study):
    tables, v = study.tables(), study.values()
    assert set(tables) == {"spectra", "ranks", "paper", "scale_srank", "scale_erank1"}
    rows = 2 * len(SMALL["lengths"])  # per model and length
    assert tables["spectra"].count("\n") == tables["ranks"].count("\n") == 2 + rows - 1
    assert tables["paper"].count("\n") == 2 + 9 - 1  # the paper's nine reported values
    assert "random init" in tables["scale_srank"] and "random init" in tables["scale_erank1"]
    assert all(v[f"table_{k}"] == t for k, t in tables.items())
    check_figures(study, {"fig_spectra", "fig_ranks", "rank_scale_fig"}, legends=True)
