"""The numeric glue check (tests/nbval_glue.py): a glued number that moves by 1e-6 relative fails
nbval with a message naming chapter, key, both values and the relative difference; a tolerance
declared in the notebook's metadata, with a reason, loosens it for that key only."""

import nbformat
import pytest
from nbclient import NotebookClient

from tests.helpers import run_nbval
from tests.nbval_glue import PLAIN

pytestmark = pytest.mark.slow
SOURCE = 'from myst_nb import glue\nglue("demo_value", 0.123456, display=False)\nprint("done")'


def executed_demo() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SOURCE)]
    NotebookClient(nb, kernel_name="python3").execute()
    return nb


def nudge(nb, factor):
    out = next(o for o in nb.cells[0].outputs if o.get("metadata", {}).get("scrapbook"))
    out["data"][PLAIN] = repr(float(out["data"][PLAIN]) * factor)


def test_a_glued_value_moved_by_one_millionth_fails_readably(tmp_path):
    nb = executed_demo()
    nudge(nb, 1 + 1e-6)
    nbformat.write(nb, tmp_path / "demo-chapter.ipynb")
    done = run_nbval(tmp_path / "demo-chapter.ipynb", "tests.nbval_glue", timeout=300)
    assert done.returncode == 1, done.stdout
    assert (
        "glued value changed: chapter demo-chapter, key demo_value: stored 0.12345612345599999, "
        "new 0.123456, relative difference 1e-06"
    ) in done.stdout


def test_an_unchanged_notebook_passes(tmp_path):
    nbformat.write(executed_demo(), tmp_path / "demo-chapter.ipynb")
    done = run_nbval(tmp_path / "demo-chapter.ipynb", "tests.nbval_glue", timeout=300)
    assert done.returncode == 0, done.stdout


def test_a_declared_tolerance_loosens_the_check_for_its_key(tmp_path):
    nb = executed_demo()
    nudge(nb, 1 + 1e-6)
    nb.metadata["attnspec"] = {"glue_tolerance": {"demo_value": {"rtol": 1e-5, "reason": "a test"}}}
    nbformat.write(nb, tmp_path / "demo-chapter.ipynb")
    done = run_nbval(tmp_path / "demo-chapter.ipynb", "tests.nbval_glue", timeout=300)
    # the text still differs (nbval compares text exactly), but no numeric complaint is raised
    assert "glued value changed" not in done.stdout
