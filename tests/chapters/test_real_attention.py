"""The real-attention chapter's study at small parameters (both models, measured in the test's
process: ``in_this_process``, so each model loads once per test worker), and the reporting both
real chapters share (fast, :mod:`attnspec.chapters.shared`): decimals from a bootstrap standard
error, intervals, band falls (:func:`attnspec.real.study.band_falls`) and the interval rule of the
claims."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from attnspec.chapters.real_attention import RealAttention
from attnspec.chapters.shared import ZERO, decimals, interval_text, unless_open
from attnspec.real.paper import PAPER_BANDS
from attnspec.real.study import band_falls
from attnspec.real.uncertainty import Interval
from tests.helpers import check_figures, in_this_process, verdicts_of

SMALL = dict(
    lengths=[16, 32, 64],
    n_texts=2,
    max_heads=2,
    angle_bins=50,
    seed=0,
    conventions=2,
    band_lengths=[40],
)


@pytest.fixture(scope="module")
def study():
    with in_this_process():
        return RealAttention.run(**SMALL)


def test_decimals_follow_the_standard_error():
    assert decimals(0.023) == 2 and decimals(0.013) == 3 and decimals(0.5) == 1
    assert decimals(1e-9) == 5 and decimals(float("nan")) == 4
    assert interval_text(Interval(0.1234, 0.11, 0.13, 4, 10, 0.004)) == "0.123 [0.110, 0.130]"


def test_band_falls_and_the_interval_rule_of_the_real_claims():
    def iv(v):
        return Interval(v, 0.9 * v, 1.1 * v, 4, 3)

    band = SimpleNamespace
    study = SimpleNamespace(
        lengths={"minilm": [32], "smollm": [32]},
        bands={
            ("minilm", PAPER_BANDS[0]): band(U=iv(0.06), V=iv(0.03), haar=0.05),
            ("minilm", PAPER_BANDS[1]): band(U=iv(0.01), V=iv(0.01), haar=0.01),
        },
    )
    falls = band_falls(study)
    assert falls["minilm"] == pytest.approx((6.0, 3.0, 5.0)) and "smollm" not in falls
    assert falls["paper"] == pytest.approx(3.1)
    assert iv(2.0).span(3) == pytest.approx((5.4, 6.6)) and ZERO == (0.0, 0.0)
    assert unless_open(None, "fails", "overlap") == "overlap"
    assert unless_open(False, "fails", "overlap") == unless_open(True, "fails", "o") == "fails"


def test_verdicts_and_key_values_at_small_parameters(study):
    # ○○○: the U_X test is one-sided and its conventions randomize the angles, so it can only
    # reject; ✗: R(S) is not Haar (this book's hypothesis); ○: Haar factors fall between the bands
    claims = study.claims()
    assert verdicts_of(claims) == "○○○✓✗✓○"
    assert "largely by construction" in claims[0].if_fails
    assert claims[4].provenance.startswith("this book's hypothesis")
    assert {b for (_, b) in study.study.bands} == {(17, 64)}
    v = study.values()
    assert v["minilm_ux_ks"] == "0.029 [0.024, 0.033]" and v["minilm_ux_ks"].count("[") == 1
    assert v["smollm_ux_kl"] == "0.134 [0.123, 0.165]"
    assert v["minilm_ux_kl_exp"] == "-1.61 [-1.76, -1.41]"
    assert v["minilm_angle_ks"] == 0.0569 and v["smollm_angle_outside"] == 0.915
    assert v["minilm_band_17_64_U"] == "0.0695" and v["minilm_band_17_64_lengths"] == "32, 40, 64"
    assert (v["n_max"], v["n_first"], v["minilm_records"]) == (64, 16, 432)
    assert v["smollm_embedding_equal"] == 6 and v["smollm_distinct_first_text"] == "*declaration*"


def test_tables_excerpts_and_figures(study, capsys):
    tables, v = study.tables(), study.values()
    assert set(tables) == {"models", "tokens", "rotation", "literal", "bands"}
    rows = 2 * len(SMALL["lengths"])  # per model and length
    assert {k: t.count("\n") for k, t in tables.items()} == {
        "models": 2 + 2 - 1,
        "tokens": 2 + rows - 1,
        "rotation": 2 + rows - 1,
        "literal": 2 + rows - 1,
        "bands": 2 + 2 - 1,  # one band measured, both models
    }
    assert all(v[f"table_{k}"] == tables[k] for k in ("models", "tokens", "rotation", "literal"))
    assert "table_bands" not in v
    study.print_excerpts()
    assert capsys.readouterr().out.splitlines() == [
        "minilm: “IN CONGRESS, July 4, 1776.↵↵The unanimous Declaration of the thirteen”",
        "smollm: “IN CONGRESS, July 4, 1776.↵”",
    ]
    check_figures(study, {"fig_tokens", "fig_angles"}, legends=True)
