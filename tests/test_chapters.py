"""Chapter sources and their executed notebooks: in sync, glued, stable; the chapters/run CLI."""

import json
import subprocess
import sys

import nbformat
import pytest

from attnspec.chapters import EXECUTED, SOURCES, chapter, read_source, toc_chapter_names
from attnspec.cli import main

CHAPTERS = toc_chapter_names()
REQUIRED_GLUE = {
    "rank-one-mode": ["rank1_s1_mean"],
    "normalizer-concentration": ["norm_D_std", "norm_D_std_pred"],
    "theta-statistics": ["theta_q1_exact", "theta_q2_exact", "theta_q1_mc", "theta_q1_mc_se"],
    "bulk-equivalence": ["bulk_l1_Y_f_lin", "bulk_ks_Y_f_lin"],
    "limit-law": ["law_edge", "law_mp_edge", "law_ks_sqrt_d_A_perp"],
    "convergence": ["conv_rate_sqrt_d_A_perp", "thresh_ks_beta_2"],
    "canonical-model": ["canon_alpha_dev_f_ell", "canon_causal_srank_slope"],
    "real-attention": ["real_minilm_srank_median", "real_smollm_srank_median"],
}


def executed(name: str) -> nbformat.NotebookNode:
    return nbformat.read(EXECUTED / f"{name}.ipynb", as_version=4)


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
    src, run = read_source(name), executed(name)
    assert len(src.cells) == len(run.cells)
    for a, b in zip(src.cells, run.cells):
        assert (a.cell_type, a.source, a.metadata.get("tags", [])) == (b.cell_type, b.source, b.metadata.get("tags", []))


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
    headings = [line for c in nb.cells if c.cell_type == "markdown" for line in c.source.splitlines()
                if line.startswith("## ")]
    for section in ["## Overview", "## Parameters", "## Computation", "## Claims", "## Summary"]:
        assert section in headings, f"{name}: missing {section}"
    assert chapter(name).parameters, f"{name}: no parameters"
    assert "claims hold at these parameters" in json.dumps(nb.cells[-3:] + nb.cells), name


def test_glue_keys_are_unique_across_the_book_and_prefixed():
    seen = {}
    for name in CHAPTERS:
        for key in glued(executed(name)):
            assert key not in seen, f"glue key {key} in both {seen.get(key)} and {name}"
            seen[key] = name
    for name, keys in REQUIRED_GLUE.items():
        if name in CHAPTERS:
            assert set(keys) <= {k for k, v in seen.items() if v == name}, name


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
    assert {"name": "d", "type": "int", "default": 1000} == {k: setup[0][k] for k in ("name", "type", "default")}
    assert main(["chapters"]) == 0
    assert "rank-one-mode" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["nochapter"], "unknown chapter 'nochapter'"),
    (["setup", "-p", "bogus", "1"], "has no parameter 'bogus'"),
    (["setup", "-p", "d", "2.5"], "d='2.5' is not of type int"),
    (["setup", "-p", "d", "1"], "d=1 is out of range"),
    (["setup", "-p", "beta", "-1"], "beta=-1.0 is out of range"),
    (["rank-one-mode", "-p", "d_values", "250,x"], "d_values"),
])
def test_run_rejects_bad_input_before_running(args, message, tmp_path, capsys):
    assert main(["run", *args, "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_run_with_new_parameters_writes_notebook_and_html(tmp_path):
    done = subprocess.run([sys.executable, "-m", "attnspec.cli", "run", "setup", "-p", "d", "200", "-p", "beta", "0.5",
                           "-o", str(tmp_path), "--html"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["setup.html", "setup.ipynb"]
    values = glued(nbformat.read(tmp_path / "setup.ipynb", as_version=4))
    assert values["setup_d"] == "200"
    assert "<html" in (tmp_path / "setup.html").read_text()


def test_run_at_the_defaults_reproduces_the_stored_glue(tmp_path):
    assert main(["run", "theta-statistics", "-o", str(tmp_path)]) == 0
    assert glued(nbformat.read(tmp_path / "theta-statistics.ipynb", as_version=4)) == glued(executed("theta-statistics"))
