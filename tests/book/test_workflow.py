"""The GitHub workflow publishes only what passed its tests: Jupyter Book 1's GitHub Pages recipe
with the gate explicit. Checked offline: its structure here, GitHub's workflow schema (vendored in
check-jsonschema) and zizmor's offline audit, as `make lint` runs them. Nothing here runs GitHub.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from attnspec.publish.paths import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "book.yml"
FLOW = yaml.safe_load(WORKFLOW.read_text())
JOBS = FLOW["jobs"]
BIN = Path(sys.executable).parent


def steps(job: str) -> list[dict]:
    return JOBS[job]["steps"]


def uses(job: str, action: str) -> list[dict]:
    return [s for s in steps(job) if s.get("uses", "").startswith(f"{action}@")]


def runs(job: str) -> list[str]:
    return [s["run"] for s in steps(job) if "run" in s]


def test_triggers_and_least_privilege():
    on = FLOW.get("on", FLOW.get(True))  # YAML 1.1 reads a bare `on` as true
    assert on["push"]["branches"] == ["main"] and "pull_request" in on
    assert FLOW["permissions"] == {"contents": "read"}


def test_the_test_job_runs_the_readmes_make_test_on_python_3_11():
    job = JOBS["test"]
    assert job["runs-on"] == "ubuntu-latest"
    assert "make test" in (ROOT / "README.md").read_text()
    (python,) = uses("test", "actions/setup-python")
    assert str(python["with"]["python-version"]) == "3.11" and python["with"]["cache"] == "pip"
    assert "requirements.lock" in python["with"]["cache-dependency-path"]
    (cache,) = uses("test", "actions/cache")
    assert cache["with"]["path"] == "~/.cache/attnspec"
    order = runs("test")
    made = [r for r in order if r.startswith("make ")]
    assert made == ["make test", "make site", "make pdf", "make dist", "make pages"]


def test_the_pdf_and_the_archive_are_uploaded_as_artifacts():
    uploaded = {
        s["with"]["name"]: s["with"]["path"] for s in uses("test", "actions/upload-artifact")
    }
    assert uploaded == {
        "site": "_build/pages",  # the site with downloads/ (attnspec.publish.downloads)
        "pdf": "_build/pdf/attnspec.pdf",
        "supplement": "dist/attnspec-*-supplement.zip",
    }


def test_deploy_needs_the_tests_and_runs_only_on_main():
    job = JOBS["deploy"]
    assert job["needs"] == "test"
    assert "github.ref == 'refs/heads/main'" in job["if"] and "push" in job["if"]
    assert job["permissions"] == {"pages": "write", "id-token": "write"}
    assert job["environment"]["name"] == "github-pages"
    (download,) = uses("deploy", "actions/download-artifact")
    (pages,) = uses("deploy", "actions/upload-pages-artifact")
    assert download["with"] == {"name": "site", "path": "_build/pages"}
    assert pages["with"]["path"] == "_build/pages"
    (deploy,) = uses("deploy", "actions/deploy-pages")
    assert job["environment"]["url"] == "${{ steps.deployment.outputs.page_url }}"
    assert deploy["id"] == "deployment"


def test_every_action_is_pinned_to_a_commit_with_its_tag():
    lines = [line for line in WORKFLOW.read_text().splitlines() if "uses:" in line]
    assert lines
    for line in lines:
        assert re.search(r"uses: [\w-]+/[\w-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$", line), line


def tool(name: str) -> str:
    found = BIN / name
    assert found.exists() or shutil.which(name), f"{name} is not installed (make install)"
    return str(found if found.exists() else shutil.which(name))


def check_schema(path: Path, schema: str = "vendor.github-workflows"):
    return subprocess.run(
        [tool("check-jsonschema"), "--builtin-schema", schema, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "schema", ["vendor.github-workflows", "custom.github-workflows-require-timeout"]
)
def test_workflow_passes_githubs_schema(schema):
    done = check_schema(WORKFLOW, schema)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_check_can_fail(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text(WORKFLOW.read_text().replace("runs-on: ubuntu-latest", "runs_on: x", 1))
    assert check_schema(broken).returncode != 0


def test_zizmor_finds_nothing_offline():
    done = subprocess.run(
        [tool("zizmor"), "--offline", "--no-progress", str(WORKFLOW)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_make_lint_runs_the_workflow_checks():
    makefile = (ROOT / "Makefile").read_text()
    lint = makefile[makefile.index("\nlint:") : makefile.index("\n\n", makefile.index("\nlint:"))]
    for command in (
        'check-jsonschema" --builtin-schema vendor.github-workflows $(WORKFLOWS)',
        "custom.github-workflows-require-timeout",
        'zizmor" --offline',
    ):
        assert command in lint, command
