"""Chapter sources and their executed notebooks: in sync, glued, stable; the chapters/run CLI."""

import json
import re
import subprocess
import sys

import nbformat
import pytest

from attnspec.cli import main
from attnspec.core.errors import InvalidInput
from attnspec.present.claims import Claim
from attnspec.present.tables import claims_markdown
from attnspec.publish.chapters import chapter, toc_chapter_names
from attnspec.publish.paths import EXECUTED, SOURCES
from tests.helpers import assert_cells_agree
from tests.nbval_glue import glued_values, notebook_outputs

CHAPTERS = toc_chapter_names()
REQUIRED_GLUE = {
    # init_srank*: the one stable-rank scale that Part III and the intro read
    "rank-one-mode": ["rank1_s1_mean", "init_srank", "init_srank_pred", "init_srank_causal"],
    "normalizer-concentration": ["norm_D_std", "norm_D_std_pred"],
    "theta-statistics": ["theta_q1_exact", "theta_q2_exact", "theta_q1_mc", "theta_q1_mc_se"],
    "bulk-equivalence": ["bulk_l1_Y_f_lin", "bulk_ks_Y_f_lin"],
    "limit-law": ["law_edge", "law_mp_edge", "law_ks_sqrt_d_A_perp", "law_fig_slider"],
    "limit-law-edge": ["edge_spacing", "edge_linear_overshoot_spacings"],
    "convergence": ["conv_rate_sqrt_d_A_perp", "conv_rigidity_exp_grid", "conv_fig_d"],
    "convergence-threshold": ["thresh_ks_beta_2", "thresh_gamma_txt", "thresh_collapse_c_txt"],
    "canonical-model": ["canon_alpha_dev_f_ell", "canon_alpha_dev_f_log"],
    "canonical-causal": ["canon_order_lambda2_desc", "canon_order_lambda2_asc", "canon_cb_main"],
    "canonical-ranks": ["canon_crossing", "canon_sigma0_srank_max_ell"],
    "real-attention": ["real_minilm_ux_ks", "real_smollm_ux_kl"],
    "real-spectra": ["real_minilm_srank_median", "real_smollm_srank_median", "real_rank_scale_fig"],
    "head-dimension": ["headdim_ks_1000", "headdim_ks_64", "headdim_floor_64"],
}


def executed(name: str) -> nbformat.NotebookNode:
    return nbformat.read(EXECUTED / f"{name}.ipynb", as_version=4)


def results(name: str) -> dict:
    return json.loads((EXECUTED / f"{name}.results.json").read_text())


def glued(nb: nbformat.NotebookNode) -> dict[str, str]:
    """Glue key -> stored text/plain value."""
    out = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            meta = output.get("metadata", {}).get("scrapbook")
            if meta:
                out[meta["name"]] = output["data"].get("application/papermill.record/text/plain")
    return out


def test_every_source_has_an_executed_notebook_and_the_toc_lists_only_real_chapters():
    sources = {p.stem for p in SOURCES.glob("*.md")}
    assert set(CHAPTERS) <= sources
    assert all((EXECUTED / f"{name}.ipynb").is_file() for name in sources)


@pytest.mark.parametrize("name", CHAPTERS)
def test_source_and_executed_notebook_agree_cell_by_cell(name):
    assert_cells_agree(chapter(name).read_source(), executed(name))


@pytest.mark.parametrize("name", CHAPTERS)
def test_executed_notebook_is_clean(name):
    nb = executed(name)
    assert "papermill" not in nb.metadata
    for cell in nb.cells:
        assert "execution" not in cell.metadata and "papermill" not in cell.metadata
        for output in cell.get("outputs", []):
            assert output["output_type"] != "error", f"{name}: a cell raised"
    text = json.dumps(nb.cells)
    assert "/work/" not in text and " at 0x" not in text


@pytest.mark.parametrize("name", CHAPTERS)
def test_chapter_has_skeleton_parameters_and_claims(name):
    nb = executed(name)
    headings = [
        line
        for c in nb.cells
        if c.cell_type == "markdown"
        for line in c.source.splitlines()
        if line.startswith("## ")
    ]
    for section in ["## Overview", "## Parameters", "## Computation", "## Claims", "## Summary"]:
        assert section in headings, f"{name}: missing {section}"
    assert chapter(name).parameters, f"{name}: no parameters"
    # the claims table is the output of the last code cell before the Summary
    summary = next(
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "markdown" and c.source.startswith("## Summary")
    )
    claims_cell = nb.cells[summary - 1]
    assert claims_cell.cell_type == "code", f"{name}: no claims cell before the Summary"
    shown = "".join(o.get("data", {}).get("text/markdown", "") for o in claims_cell.outputs)
    assert "claims hold at these parameters" in shown, f"{name}: no claims table before the Summary"


def test_glue_keys_are_unique_across_the_book_and_prefixed():
    seen = {}
    for name in CHAPTERS:
        for key in glued(executed(name)):
            assert key not in seen, f"glue key {key} in both {seen.get(key)} and {name}"
            seen[key] = name
    for name, keys in REQUIRED_GLUE.items():
        if name in CHAPTERS:
            assert set(keys) <= {k for k, v in seen.items() if v == name}, name


@pytest.mark.parametrize("name", CHAPTERS)
def test_every_glue_role_fits_its_value(name):
    """Text is glued as Markdown, shown by {glue:md}; {glue:text} would print its repr."""
    nb = executed(name)
    values = {v["key"]: v for v in results(name)["values"]}
    prose = "".join(c.source for c in nb.cells if c.cell_type == "markdown")
    wrong = [
        f"{role} of {kind} {key}"
        for role, key in re.findall(r"\{glue:(text|md)\}`([\w-]+)", prose)
        if key in values
        for kind in [values[key]["kind"]]
        if (role == "md") != (kind == "markdown")
    ]
    missing = [k for k in re.findall(r"\{glue:\w+\}`([\w-]+)", prose) if k not in values]
    assert wrong == [] and missing == []


def test_setup_states_the_theorem_other_chapters_cite():
    """The theorem box other chapters reference by ``{prf:ref}`thm-gaussian-equivalence```."""
    import yaml

    text = (SOURCES / "setup.md").read_text()
    assert ":::{prf:theorem}" in text and ":label: thm-gaussian-equivalence" in text
    config = yaml.safe_load((SOURCES.parent / "_config.yml").read_text())
    assert {"sphinx_proof", "sphinx_design"} <= set(config["sphinx"]["extra_extensions"])


def test_glued_values_at_the_defaults():
    rank1 = glued(executed("rank-one-mode"))
    assert 1.0 < float(rank1["rank1_s1_mean"]) < 1.01
    theta = glued(executed("theta-statistics"))
    assert float(theta["theta_q1_exact"]) == pytest.approx(1.6860913, abs=1e-7)
    assert float(theta["theta_q2_exact"]) == pytest.approx(0.9964998, abs=1e-7)
    norm = glued(executed("normalizer-concentration"))
    assert float(norm["norm_D_std"]) == pytest.approx(float(norm["norm_D_std_pred"]), rel=0.05)


def test_chapters_cli_lists_every_chapter_with_parameters(capsys):
    assert main(["chapters", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [c["name"] for c in listed] == CHAPTERS
    setup = listed[0]["parameters"]
    assert {"name": "d", "type": "int", "default": 1000} == {
        k: setup[0][k] for k in ("name", "type", "default")
    }
    assert main(["chapters"]) == 0
    assert "rank-one-mode" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, message",
    [
        (["nochapter"], "unknown chapter 'nochapter'"),
        (["setup", "-p", "bogus", "1"], "has no parameter 'bogus'"),
        (["setup", "-p", "d", "2.5"], "d='2.5' is not of type int"),
        (["setup", "-p", "d", "1"], "d=1 is out of range"),
        (["setup", "-p", "beta", "-1"], "beta=-1.0 is out of range"),
        (["rank-one-mode", "-p", "d_values", "250,x"], "d_values"),
        # rules between parameters, checked before a kernel starts (also against another
        # parameter's default)
        (
            ["ladder", "-p", "d", "50", "-p", "remove_top_k", "60"],
            "remove_top_k=60 is out of range: must be >= 0 and < d = 50",
        ),
        (
            ["bulk-equivalence", "-p", "hist_min", "9"],
            "hist_min=9.0 is out of range: must be < hist_max = 8.0",
        ),
        (["setup", "-p", "d", "2"], "remove_top_k is not a parameter of this chapter"),
        (["limit-law", "-p", "beta", "0"], "beta=0.0 is out of range"),
        (["limit-law", "-p", "betas", "0,1"], "each beta must be >= 0.000122"),
        (["convergence-threshold", "-p", "resamples", "1"], "resamples=1 is out of range"),
        (["rank-one-mode", "-p", "d_values", "2,500"], "each d must be > remove_top_k = 3"),
    ],
)
def test_run_rejects_bad_input_before_running(args, message, tmp_path, capsys):
    assert main(["run", *args, "-o", str(tmp_path / "new" / "runs")]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # the output folder is not even created


@pytest.mark.slow  # executes a chapter
def test_run_with_new_parameters_writes_notebook_and_html(tmp_path):
    out = tmp_path / "runs" / "new"  # created, parents included
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "attnspec.cli",
            "run",
            "setup",
            "-p",
            "d",
            "200",
            "-p",
            "beta",
            "0.5",
            "-o",
            str(out),
            "--html",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no kernel warnings
    assert sorted(p.name for p in out.iterdir()) == [
        "setup.html",
        "setup.ipynb",
        "setup.results.json",
    ]
    nb = nbformat.read(out / "setup.ipynb", as_version=4)
    assert glued(nb)["setup_d"] == "200"
    assert (
        nb.metadata["attnspec"]["parameters"]["d"] == 200
        and "numpy" in nb.metadata["attnspec"]["versions"]
    )
    results = json.loads((out / "setup.results.json").read_text())
    assert results["parameters"] == {"d": 200, "beta": 0.5, "seed": 0, "c_poly": 2.0}
    assert {v["key"]: v["text"] for v in results["values"]}["setup_d"] == "200"
    page = (out / "setup.html").read_text()
    assert "<html" in page and "{glue" not in page and "Re-run of this chapter" in page


@pytest.mark.slow  # executes a chapter
def test_run_at_the_defaults_reproduces_the_stored_glue(tmp_path):
    assert main(["run", "theta-statistics", "-o", str(tmp_path)]) == 0
    assert glued(nbformat.read(tmp_path / "theta-statistics.ipynb", as_version=4)) == glued(
        executed("theta-statistics")
    )


@pytest.mark.parametrize("name", CHAPTERS)
def test_stored_results_file_agrees_with_the_stored_notebook(name):
    """CHAPTER.results.json (written by every execution) holds exactly what the notebook shows:
    its glue, and the claims table its claims render to (nbval checks the rest of that output)."""
    nb = executed(name)
    stored = results(name)
    assert stored["chapter"] == name
    shown = {k: (v.kind, v.text) for k, v in glued_values(notebook_outputs(nb)).items()}
    assert {v["key"]: (v["kind"], v["text"]) for v in stored["values"]} == shown
    for v in stored["values"]:
        if v["kind"] == "number":
            assert v["value"] == pytest.approx(float(v["text"]), rel=0, abs=0), v["key"]
    table = claims_markdown([Claim(**c) for c in stored["claims"]])
    tables = [
        o["data"]["text/markdown"]
        for o in notebook_outputs(nb)
        if o.get("data", {}).get("text/markdown", "").startswith("| claim | measured |")
    ]
    assert len(tables) == 1 and tables[0].startswith(table)
    expected = nb.metadata.get("attnspec", {}).get("parameters") or chapter(name).defaults
    assert stored["parameters"] == expected
    assert {"python", "numpy", "scipy", "matplotlib", "blas"} <= set(stored["versions"])


def test_resolve_merges_defaults_and_checks_rules():
    ladder = chapter("ladder")
    run = ladder.resolve({"d": 300})
    assert run.values["d"] == 300 and run.overrides == {"d": 300} and run.chapter is ladder
    assert ladder.resolve({}).values["trials"] == 10
    with pytest.raises(InvalidInput, match="ladder: remove_top_k=60"):
        ladder.resolve({"d": 50, "remove_top_k": 60})
