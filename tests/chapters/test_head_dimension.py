"""The head-dimension chapter's study at small parameters: its verdicts, key values, tables and
figures are pinned here, in the fast loop, not only by nbval on the stored notebook."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

from attnspec.chapters.head_dimension import HeadDimension
from attnspec.chapters.head_dimension.claims import map_claims
from attnspec.chapters.head_dimension.tables import STEPS, ratio_text, real_values
from tests.experiments import test_head_dimension
from tests.helpers import check_figures, in_this_process, verdicts_of
from tests.present.test_plotting import problems

#: The small parameters of the study (tests/experiments/test_head_dimension.py) and of the
#: Hermite-block series.
SMALL = test_head_dimension.SMALL | dict(
    half_heads=[6, 8, 10], fifth_heads=[4, 9], k_max=3, block_trials=2, real_contexts=[256, 4096]
)


@pytest.fixture(scope="module")
def study():
    with in_this_process():
        return HeadDimension.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    # the study's thirteen claims, then the Hermite blocks': the laws of Y_1..Y_3 against sampled
    # Y_k, attention nearer the best law and falling at alpha = 1/2 and 2/5, the asymptotic one
    assert verdicts_of(study.claims()) == "○✗○○✓○✓✓✓✗✓✓✓" + "○○✗" + "○✓✓✓" + "○"
    claims = map_claims(study)
    assert claims[-1].holds and all(c.provenance for c in claims)
    v = study.values()
    for key in ("ks_1000", "ks_64", "floor_64", "ks_64_txt", "growth_txt", "threshold"):
        assert key in v
    assert v["ks_64"] == pytest.approx(study.result.point(12).gap.ks, abs=0.01)
    assert v["ks_1000"] == pytest.approx(study.result.point(96).gap.ks, abs=0.01)
    assert v["theta2_exact_64"] > v["theta2"]
    assert v["hadamard_rank_min"] == 78  # binom(12 + 1, 2) < 96
    assert v["real_r2"] == 78 and v["real_c2_nmax"] == 0.02  # C(13, 2) / 4096
    assert v["half_d_max"] == 100 and v["fifth_d_max"] == 243  # 10^2, 9^(5/2)
    assert v["yk_best_half"] == 3 and v["yk_ks_half"] < v["lin_ks_half"]
    for key in ("yk_ks_half", "lin_ks_half", "yk_rate_half", "yk_rate_half_se"):
        assert isinstance(v[key], float), key
    assert study.grid_lines().splitlines()[0] == (
        "map: d = 96; d_qk = 96, 24, 12; beta = 0.5, 1; 2 trials each"
    )


def test_tables_and_figures(study):
    tables = study.tables()
    assert set(tables) == {"laws", "map", "series", "blocks", "normalizers", "chain", "beta"}
    for name, table in tables.items():
        assert table.startswith("| ") and "nan" not in table, name
    assert tables["blocks"].count("\n") == 1 + len(SMALL["half_heads"]) + len(SMALL["fifth_heads"])
    assert tables["map"].count("\n") == 2 + len(SMALL["d_qk_values"]) - 1
    # the chain table's columns: every step computed, the consecutive ones linked end to start
    assert set(study.result.point(12).chain) == set(STEPS)
    consecutive = [k for k in STEPS if k != ("rows_f", "rows_G")]
    assert [a for a, _ in consecutive][1:] == [b for _, b in consecutive][:-1]

    def legible(name, fig):
        assert fig.get_size_inches()[0] <= 7.0 + 1e-9, name
        sizes = [t.get_fontsize() for t in fig.findobj(plt.Text) if t.get_text()]
        assert min(sizes) >= 9, name
        if name == "fig_map":  # drawn from the study only: the book's figure standard here
            assert problems(fig) == []

    check_figures(study, {"fig_blocks", "fig_phase", "fig_map", "fig_series"}, legible)


def test_real_values():
    # d_qk = 64: r_2 = C(65, 2) = 2080, so c_2 = 2080/4096 = 0.51 and 2080/256 = 8.12
    v = real_values(64, [256, 4096])
    assert v["real_r2"] == 2080 and v["real_r3"] == 45760
    assert v["real_c2_nmax"] == 0.51 and v["real_c2_nmin"] == 8.12


def test_ratio_text():
    assert [ratio_text(c) for c in (1.0, 0.25, 0.0625, 0.064)] == [
        "1",
        "1/4",
        "1/16",
        "0.064",
    ]
