"""The real-attention chapters' package side: formatting, claims, tables, the rank scale and the
figures, on a small study of both models (needs the model weights)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest

from attnspec.present.tables import markdown_table
from attnspec.publish import real_figures
from attnspec.real import tables
from attnspec.real.claims import decimals, interval_text, isotropy_claims, spectra_claims
from attnspec.real.rank_scale import rank_scale
from attnspec.real.uncertainty import Interval
from tests.helpers import verdicts_of


def test_decimals_follow_the_standard_error():
    assert decimals(0.023) == 2 and decimals(0.013) == 3 and decimals(0.5) == 1
    assert decimals(1e-9) == 5 and decimals(float("nan")) == 4
    assert interval_text(Interval(0.1234, 0.11, 0.13, 4, 10, 0.004)) == "0.123 [0.110, 0.130]"


@pytest.mark.weights
def test_small_study_claims_tables_scale_and_figures(tmp_path, monkeypatch):
    from attnspec.real.study import run_study

    monkeypatch.setenv("ATTNSPEC_CACHE", str(tmp_path))
    study = run_study([16, 32, 64], 2, 2, 50, 0, 2, [40])
    assert {b for (_, b) in study.bands} == {(17, 64)}
    iso = isotropy_claims(study)
    assert verdicts_of(iso) == "✓✓✓✓✗✓○"
    assert iso[4].provenance.startswith("this book's hypothesis")
    scale = rank_scale([16, 32, 64], 0, 2, study)
    spec = spectra_claims(study, scale)
    assert verdicts_of(spec) == "○○✓○✓✗✗○✓✓"
    assert any(c.holds is None and "same-scale" in c.criterion for c in spec)
    values = tables.isotropy_values(study) | tables.spectra_values(study, scale)
    assert values["minilm_ux_ks"].count("[") == 1 and values["init_n"] == 64
    for build in (
        tables.token_table,
        tables.rotation_table,
        tables.literal_table,
        tables.band_table,
        tables.spectra_table,
        tables.ranks_table,
        tables.paper_table,
    ):
        assert markdown_table(*build(study)).count("\n") >= 2
    assert "random init" in markdown_table(*tables.scale_table(scale, "srank"))
    for fig in (
        real_figures.real_tokens(study),
        real_figures.real_angles(study, 50),
        real_figures.real_spectra(study),
        real_figures.real_ranks(study),
        real_figures.rank_scale(scale),
    ):
        assert fig.legends
        real_figures.plt.close(fig)
