"""Every chapter's parameters are declared once, by its notebook's ``parameters`` cell, and
everything reads that declaration: it is read as papermill reads it, the study checks its
parameters before it computes anything (a bad value is refused in one line naming the parameter,
and ``compute`` is never reached), and ``core`` names no chapter."""

from __future__ import annotations

from pathlib import Path

import pytest

from attnspec.chapters.bulk_equivalence import BulkEquivalence
from attnspec.chapters.canonical_causal import CanonicalCausal
from attnspec.chapters.canonical_model import CanonicalModel
from attnspec.chapters.canonical_ranks import CanonicalRanks
from attnspec.chapters.convergence import Convergence
from attnspec.chapters.convergence_threshold import ConvergenceThreshold
from attnspec.chapters.head_dimension import HeadDimension
from attnspec.chapters.ladder import Ladder
from attnspec.chapters.limit_law import LimitLaw
from attnspec.chapters.limit_law_edge import LimitLawEdge
from attnspec.chapters.normalizer_concentration import NormalizerConcentration
from attnspec.chapters.parameters import declared, read_cell
from attnspec.chapters.rank_one_mode import RankOneMode
from attnspec.chapters.real_attention import RealAttention
from attnspec.chapters.real_spectra import RealSpectra
from attnspec.chapters.setup import Setup
from attnspec.chapters.theta_statistics import ThetaStatistics
from attnspec.core.errors import InvalidInput
from attnspec.core.kinds import PARAMETERS
from attnspec.publish.chapters import chapter, parameters_cell
from tests.book.test_chapter_budget import CHAPTERS
from tests.chapters import test_bulk_equivalence as test_chapter_bulk_equivalence
from tests.chapters import test_canonical_causal as test_chapter_canonical_causal
from tests.chapters import test_canonical_model as test_chapter_canonical_model
from tests.chapters import test_canonical_ranks as test_chapter_canonical_ranks
from tests.chapters import test_convergence as test_chapter_convergence
from tests.chapters import test_convergence_threshold as test_chapter_convergence_threshold
from tests.chapters import test_head_dimension as test_chapter_head_dimension
from tests.chapters import test_ladder as test_chapter_ladder
from tests.chapters import test_limit_law as test_chapter_limit_law
from tests.chapters import test_limit_law_edge as test_chapter_limit_law_edge
from tests.chapters import test_normalizer_concentration as test_chapter_normalizer_concentration
from tests.chapters import test_rank_one_mode as test_chapter_rank_one_mode
from tests.chapters import test_real_attention as test_chapter_real_attention
from tests.chapters import test_real_spectra as test_chapter_real_spectra
from tests.chapters import test_setup as test_chapter_setup
from tests.chapters import test_theta_statistics as test_chapter_theta_statistics

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
    (CanonicalModel, test_chapter_canonical_model.SMALL, {"spikes": 0}, "spikes"),
    (CanonicalCausal, test_chapter_canonical_causal.SMALL, {"bulk_max": 6.0}, "bulk_max"),
    (CanonicalRanks, test_chapter_canonical_ranks.SMALL, {"spikes": 0}, "spikes"),
    (RealAttention, test_chapter_real_attention.SMALL, {"conventions": 1}, "conventions"),
    (RealSpectra, test_chapter_real_spectra.SMALL, {"trials": 0}, "trials"),
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


@pytest.mark.parametrize("name", CHAPTERS)
def test_the_declaration_is_the_cell_as_papermill_reads_it(name):
    """Names, order, types, defaults and help, as papermill's own parser reads the cell of the
    notebook that jupytext builds; papermill leaves out a line with a second ``=`` (in its help)."""
    from papermill.translators import PythonTranslator

    cell = parameters_cell(chapter(name).read_source())
    read = [(p.name, p.type_name, p.default, p.help) for p in declared(name)]
    assert [r for r in read if "=" not in r[3]] == [
        (p.name, p.inferred_type_name, eval(p.default), p.help)
        for p in PythonTranslator.inspect(cell)
    ]


@pytest.mark.parametrize(
    "line",
    [
        "d = 1000  # matrix size",  # no type
        "d: float = 1000.0  # matrix size",  # not the kind's type
        "d: int = 1  # matrix size",  # out of the kind's range
        "dd: int = 1000  # matrix size",  # no such kind
        "d: int = 1000",  # no help
        "d: int = 10 ** 3  # matrix size",  # not a literal
    ],
)
def test_a_cell_line_that_is_not_a_declaration_is_refused(line):
    """Each line is ``name: type = default  # help``, of a kind's name, type and range."""
    with pytest.raises(
        ValueError, match="chapter 'x': .* must read `name: type = default  # help`"
    ):
        read_cell("x", f"beta: float = 1.0  # inverse temperature\n\n{line}\n")


def test_a_declared_set_checks_values_rules_and_names():
    two = read_cell("x", "d: int = 1000  # size\nbeta: float = 1.0  # temperature")
    assert two.validate({"beta": 2}) == {"d": 1000, "beta": 2.0}
    with pytest.raises(ValueError, match="chapter 'x' has no parameter 'dd'"):
        two.validate({"dd": 64})
    with pytest.raises(ValueError, match="beta=-1"):
        two.validate({"beta": -1.0})
    with pytest.raises(ValueError, match="remove_top_k is not a parameter of this chapter"):
        two.validate({"d": 3})  # remove_top_k < d, at its shared default 3


def test_every_kind_has_help_and_a_default_in_range():
    for name, p in PARAMETERS.items():
        assert p.name == name and p.help and "#" not in p.help
        text = ",".join(map(str, p.default)) if p.kind is list else str(p.default)
        assert p.parse(text) == p.default
    for name in CHAPTERS:
        chapter_parameters = declared(name)
        assert all(p.help and "#" not in p.help for p in chapter_parameters)
        assert chapter_parameters.validate({}) == chapter_parameters.defaults  # obey every rule


def test_run_takes_the_declared_defaults_and_refuses_an_unknown_name(monkeypatch):
    monkeypatch.setattr(LimitLaw, "compute", lambda self: None)
    study = LimitLaw.run(d=60)
    assert study.params == declared("limit-law").defaults | {"d": 60}
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
    core = Path(__file__).resolve().parents[2] / "attnspec" / "core"
    for path in core.glob("*.py"):
        text = path.read_text()
        assert not [n for n in CHAPTERS if f'"{n}"' in text or f"'{n}'" in text], path


def test_the_listed_range_of_an_int_starts_where_the_chapter_accepts_it():
    """``run setup -p d 2`` was refused by ``remove_top_k < d`` (remove_top_k, not
    a parameter of setup, at its default 3) while ``attnspec chapters`` listed d >= 2."""
    assert declared("setup").range_text("d") == ">= 4 and <= 20000"
    chapters = [declared(name) for name in CHAPTERS]
    without = [c for c in chapters if "d" in c.names and "remove_top_k" not in c.names]
    assert {c.chapter for c in without} >= {"setup", "theta-statistics"}
    for chapter_parameters in without:
        low = int(chapter_parameters.range_text("d").split()[1])
        chapter_parameters.validate({"d": low})
        with pytest.raises(InvalidInput):
            chapter_parameters.validate({"d": low - 1})
