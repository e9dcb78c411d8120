"""The canonical-model chapter's study at small parameters: its verdicts, key values, tables and
figures are pinned here, in the fast loop, not only by nbval on the stored notebook."""

from __future__ import annotations

import pytest

from attnspec.chapters.canonical_model import CanonicalModel
from tests.helpers import check_figures, verdicts_of

SMALL = dict(ell_values=[64, 128, 256], spikes=4, bulk_max=2.0, seed=0, dense_max=128)


@pytest.fixture(scope="module")
def study():
    return CanonicalModel.run(**SMALL)


def test_verdicts_and_key_values_at_small_parameters(study):
    # ○: the bounded bulk's tail and the erank2 rate cannot be separated on these grids
    assert verdicts_of(study.claims()) == "✓✓✓✓✓✓✓○✓✓✓✓○✓✓✓✓✓✓✓"
    v = study.values()
    assert v["k"] == 4 and v["ell_max"] == 256 and v["ell0"] == 64
    assert v["srank_log"] == "3.2902 / 3.5372 / 3.7334" and v["alpha_dev_f_log"] == 0.152875
    assert v["cex_gaps"] == "0.792, 1.223 / 0.850, 1.157 / 0.893, 1.111"
    assert v["deep_3l_bound"] == "4.0e-07" and v["neg_lam"] == "-0.8628 / -0.8637 / -0.8642"


def test_tables_and_figures(study):
    tables, v = study.tables(), study.values()
    assert set(tables) == {"profile", "forms", "cex", "identities"}
    assert tables["profile"].count("\n") == 2 + len(SMALL["ell_values"]) - 1
    assert tables["cex"].count("\n") == 2 + len(SMALL["ell_values"]) - 1
    assert "≤ 1e-12" in tables["identities"]
    assert all(v[f"table_{name}"] == tables[name] for name in ("forms", "cex", "identities"))
    check_figures(study, {"fig_profile", "fig_forms"}, legends=True)
