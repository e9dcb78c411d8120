"""The normalizer-concentration chapter's study at small parameters: its verdicts, key values,
tables and figures are pinned here, in the fast loop, not only by nbval on the stored notebook."""

from __future__ import annotations

import pytest

from attnspec.chapters.normalizer_concentration import NormalizerConcentration
from tests.helpers import check_figures, verdicts_of

SMALL = dict(d=30, beta=1.5, trials=4, seed=0, betas=[0.5, 1.5, 3.0])
#: A temperature so low that the powered test stops at its most trials before it resolves the
#: excess (about a second and a half).
COLD = dict(d=10, beta=0.3, trials=4, seed=0, betas=[0.5, 1.0])


@pytest.fixture(scope="module")
def study():
    return NormalizerConcentration.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    # at beta = 3, e^(beta^2)/d is about 270: the first-order spread misses the grid's end, so ✗
    assert verdicts_of(study.claims()) == "✓✓✓✗"
    v = study.values()
    assert v["D_mean_txt"] == "0.993 ± 0.047" and v["D_mean_exact"] == 1.045
    assert v["D_std_txt"] == "0.564 ± 0.077" and v["D_std_pred"] == 0.606
    assert v["mt_d"] == 30 and v["mt_trials"] == 183 and v["mt_excess_txt"] == "0.031 ± 0.011"
    assert v["worst_beta"] == 3.0 and v["worst_rel_err"] == -79.6 and v["max_abs_z"] == 10.9
    assert v["n_rows"] == 120 and v["mt_size"] == 30 and v["mt_ratio"] == 5.0


def test_tables_figures_and_printed_lines(study):
    tables = study.tables()
    assert set(tables) == {"spread"}
    assert tables["spread"].count("\n") == 2 + len(SMALL["betas"]) - 1
    assert tables["spread"].splitlines()[-1].endswith("| -79.6 % | 270.1028 |")
    check_figures(study, {"fig_hist", "fig_beta"})
    assert study.diagnostic_lines().splitlines()[0] == "rows: 120 (4 trials)"
    assert study.powered_lines().splitlines()[-1] == "above 1 by 2.9 standard errors"


def test_an_unresolved_excess_leaves_its_claim_open():
    study = NormalizerConcentration.run(**COLD)
    assert verdicts_of(study.claims()) == "✓○✓✓"
    assert study.values()["mt_trials"] == 20000
    assert study.claims()[1].if_fails == (
        "with 20000 trials the test detects only deviations ≥ 0.00069, not the predicted excess "
        "0.0002."
    )
