"""Every chapter's parameters are declared once, and everything reads that declaration: the study
checks its parameters before it computes anything (a bad value is refused in one line naming the
parameter, and ``compute`` is never reached), the notebook's ``parameters`` cell states the same
names, types, defaults and help, and ``core`` names no chapter."""

from __future__ import annotations

from pathlib import Path

import pytest

from attnspec.chapters.bulk_equivalence import BulkEquivalence
from attnspec.chapters.canonical_causal import CanonicalCausal
from attnspec.chapters.canonical_model import CanonicalModel
from attnspec.chapters.canonical_ranks import CanonicalRanks
from attnspec.chapters.convergence import Convergence
from attnspec.chapters.convergence_threshold import ConvergenceThreshold
from attnspec.chapters.declarations import DECLARED, LIMIT_LAW
from attnspec.chapters.head_dimension import HeadDimension
from attnspec.chapters.ladder import Ladder
from attnspec.chapters.limit_law import LimitLaw
from attnspec.chapters.limit_law_edge import LimitLawEdge
from attnspec.chapters.normalizer_concentration import NormalizerConcentration
from attnspec.chapters.parameters import BOOK_KINDS, KINDS
from attnspec.chapters.rank_one_mode import RankOneMode
from attnspec.chapters.real_attention import RealAttention
from attnspec.chapters.real_spectra import RealSpectra
from attnspec.chapters.setup import Setup
from attnspec.chapters.theta_statistics import ThetaStatistics
from attnspec.core.config import PARAMETERS
from attnspec.core.errors import InvalidInput
from attnspec.publish.chapters import chapter, parameters_cell
from tests import (
    test_chapter_bulk_equivalence,
    test_chapter_convergence,
    test_chapter_convergence_threshold,
    test_chapter_head_dimension,
    test_chapter_ladder,
    test_chapter_limit_law,
    test_chapter_limit_law_edge,
    test_chapter_normalizer_concentration,
    test_chapter_rank_one_mode,
    test_chapter_setup,
    test_chapter_theta_statistics,
)
from tests.chapters import (
    test_canonical_causal,
    test_canonical_model,
    test_canonical_ranks,
    test_real_attention,
    test_real_spectra,
)
from tests.test_chapter_budget import CHAPTERS

#: (study, its tests' small parameters, the bad values, the parameter the message names)
CASES = [
    (Setup, test_chapter_setup.SMALL, {"beta": -1.0}, "beta"),
    (RankOneMode, test_chapter_rank_one_mode.SMALL, {"trials": 0}, "trials"),
    (NormalizerConcentration, test_chapter_normalizer_concentration.SMALL, {"trials": 0}, "trials"),
    (NormalizerConcentration, test_chapter_normalizer_concentration.SMALL, {"beta": 6.0}, "beta"),
    (ThetaStatistics, test_chapter_theta_statistics.SMALL, {"mc_samples": 10}, "mc_samples"),
    (
        Ladder,
        test_chapter_ladder.SMALL,
        {"remove_top_k": test_chapter_ladder.SMALL["d"]},
        "remove_top_k",
    ),
    (BulkEquivalence, test_chapter_bulk_equivalence.SMALL, {"hist_min": 9.0}, "hist_min"),
    (LimitLaw, test_chapter_limit_law.SMALL, {"betas": [0.0, 1.0]}, "betas"),
    (LimitLawEdge, test_chapter_limit_law_edge.SMALL, {"beta": 0.0}, "beta"),
    (Convergence, test_chapter_convergence.SMALL, {"d_scale": [3, 80]}, "d_scale"),
    (
        ConvergenceThreshold,
        test_chapter_convergence_threshold.SMALL,
        {"betas": [-0.5, 1.0]},
        "betas",
    ),
    (HeadDimension, test_chapter_head_dimension.SMALL, {"fifth_heads": [9, 10]}, "fifth_heads"),
    (CanonicalModel, test_canonical_model.SMALL, {"spikes": 0}, "spikes"),
    (CanonicalCausal, test_canonical_causal.SMALL, {"bulk_max": 6.0}, "bulk_max"),
    (CanonicalRanks, test_canonical_ranks.SMALL, {"spikes": 0}, "spikes"),
    (RealAttention, test_real_attention.SMALL, {"conventions": 1}, "conventions"),
    (RealSpectra, test_real_spectra.SMALL, {"trials": 0}, "trials"),
]


def test_every_chapter_of_the_table_of_contents_is_checked_here():
    assert {study.name for study, *_ in CASES} == set(CHAPTERS)


@pytest.mark.parametrize(
    "study, small, bad, name", CASES, ids=[f"{c[0].name}-{c[3]}" for c in CASES]
)
def test_a_bad_parameter_is_refused_in_one_line_before_any_computation(
    study, small, bad, name, monkeypatch
):
    monkeypatch.setattr(study, "compute", lambda self: pytest.fail("computed"))
    with pytest.raises(InvalidInput, match=name) as refused:
        study.run(**small | bad)
    assert "\n" not in str(refused.value)


def test_every_chapter_has_one_declaration_and_its_study_points_at_it():
    assert list(DECLARED) == CHAPTERS  # in the order of the table of contents
    for study, *_ in CASES:
        assert study.parameters is DECLARED[study.name]


def cell_lines(declared) -> list[str]:
    """The ``parameters`` cell that states a declaration: ``name: type = default  # help``."""
    return [f"{p.name}: {p.type_name} = {p.default!r}  # {p.help}" for p in declared]


@pytest.mark.parametrize("name", CHAPTERS)
def test_the_parameters_cell_states_the_declaration(name):
    """Names, order, types, defaults and help of the cell papermill reads and the reader sees."""
    cell = parameters_cell(chapter(name).read_source())
    assert cell.source.splitlines() == cell_lines(DECLARED[name])


def test_every_kind_has_help_and_a_default_in_range():
    assert not set(BOOK_KINDS) & set(PARAMETERS)  # one kind per name
    for name, p in KINDS.items():
        assert p.name == name and p.help and "#" not in p.help
        text = ",".join(map(str, p.default)) if p.kind is list else str(p.default)
        assert p.parse(text) == p.default
    for declared in DECLARED.values():
        assert all(p.help and "#" not in p.help for p in declared)
        assert declared.validate({}) == declared.defaults  # the defaults obey every rule


def test_run_takes_the_declared_defaults_and_refuses_an_unknown_name(monkeypatch):
    monkeypatch.setattr(LimitLaw, "compute", lambda self: None)
    study = LimitLaw.run(d=60)
    assert study.params == LIMIT_LAW.defaults | {"d": 60}
    assert study.config.hist_max == 10.0  # the chapter's default, not the shared 8.0
    with pytest.raises(InvalidInput, match="chapter 'limit-law' has no parameter 'dd'"):
        LimitLaw.run(dd=60)


def test_run_from_reads_the_declared_names_when_it_runs(monkeypatch):
    """papermill injects its values below the parameters cell: they are in globals() by then."""
    monkeypatch.setattr(Setup, "compute", lambda self: None)
    namespace = {"d": 40, "beta": 1.5, "seed": 3, "c_poly": 2.0, "study": None, "np": object()}
    assert Setup.run_from(namespace).params == {"d": 40, "beta": 1.5, "seed": 3, "c_poly": 2.0}
    with pytest.raises(NameError, match="does not define its parameter 'c_poly'"):
        Setup.run_from({"d": 40, "beta": 1.5, "seed": 3})


def test_core_names_no_chapter():
    """No chapter's short name is a string of ``core``: its rules live with their chapters."""
    core = Path(__file__).resolve().parents[1] / "attnspec" / "core"
    for path in core.glob("*.py"):
        text = path.read_text()
        assert not [n for n in CHAPTERS if f'"{n}"' in text or f"'{n}'" in text], path


def test_the_listed_range_of_an_int_starts_where_the_chapter_accepts_it():
    """Issue 50, L5: ``run setup -p d 2`` was refused by ``remove_top_k < d`` (remove_top_k, not
    a parameter of setup, at its default 3) while ``attnspec chapters`` listed d >= 2."""
    from attnspec.chapters.declarations import DECLARED
    from attnspec.core.errors import InvalidInput

    assert DECLARED["setup"].range_text("d") == ">= 4 and <= 20000"
    without = [c for c in DECLARED.values() if "d" in c.names and "remove_top_k" not in c.names]
    assert {c.chapter for c in without} >= {"setup", "theta-statistics"}
    for declared in without:
        low = int(declared.range_text("d").split()[1])
        declared.validate({"d": low})
        with pytest.raises(InvalidInput):
            declared.validate({"d": low - 1})
