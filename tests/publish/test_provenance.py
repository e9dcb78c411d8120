"""The results file: its provenance stamp names exactly what produced the outputs (the SHA-256 of
the chapter source and of the package, and the commit only when both are as committed; no page
ever says "-dirty"), and its JSON Schema (attnspec/publish/results.schema.json): every stored
results file meets it, a file that does not is refused in one line naming where, and the schema
ships with the package."""

from __future__ import annotations

import copy
import hashlib
import json
import math
import subprocess
import tomllib
from pathlib import Path

import matplotlib.pyplot as plt
import pytest
from jsonschema import Draft202012Validator

from attnspec.core.errors import InvalidInput
from attnspec.present import record
from attnspec.present.claims import Claim
from attnspec.publish import provenance
from attnspec.publish.paths import EXECUTED, ROOT, SOURCES
from tests.book.test_version import load_extension

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        [*GIT, "-C", str(root), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def committed(root: Path, files: dict[str, str]) -> Path:
    """A git checkout at ``root`` holding ``files`` (path -> text), all committed."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "start")
    return root


@pytest.fixture
def repo(tmp_path) -> Path:
    files = {"pkg/a.py": "x = 1\n", "notes.md": "chapter\n", "other.txt": "other\n"}
    return committed(tmp_path / "repo", {**files, ".gitignore": "__pycache__/\n"})


def test_content_hash_sees_every_change_and_nothing_else():
    base = [("a", "1" * 64), ("b/c", "2" * 64)]
    h = provenance.content_hash(base)
    assert h.startswith("sha256:") and h == provenance.content_hash(list(reversed(base)))
    changed = [
        [("a", "3" * 64), ("b/c", "2" * 64)],  # content
        [("a2", "1" * 64), ("b/c", "2" * 64)],  # name
        base[:1],  # removed
        [*base, ("d", "4" * 64)],  # added
    ]
    assert len({h, *map(provenance.content_hash, changed)}) == 5


def test_package_hash_leaves_out_book_data_and_caches(tmp_path):
    package = tmp_path / "attnspec"
    (package / "core").mkdir(parents=True)
    (package / "core" / "x.py").write_text("a = 1\n")
    before = provenance.package_hash(package)
    for junk in ("_book/chapters/n.ipynb", "core/__pycache__/x.cpython-311.pyc", "y.pyc"):
        (package / junk).parent.mkdir(parents=True, exist_ok=True)
        (package / junk).write_text("junk")
    assert provenance.package_hash(package) == before
    (package / "core" / "x.py").write_text("a = 2\n")
    assert provenance.package_hash(package) != before


def test_commit_only_when_the_paths_are_as_committed(repo):
    head = git(repo, "rev-parse", "HEAD")
    paths = [repo / "pkg", repo / "notes.md"]
    assert provenance.commit_if_clean(paths, repo) == head
    (repo / "other.txt").write_text("changed elsewhere\n")  # e.g. a chapter just written
    assert provenance.commit_if_clean(paths, repo) == head
    (repo / "pkg" / "new.py").write_text("")  # untracked inside the package
    assert provenance.commit_if_clean(paths, repo) is None
    (repo / "pkg" / "new.py").unlink()
    (repo / "notes.md").write_text("edited\n")
    assert provenance.commit_if_clean(paths, repo) is None


def test_no_commit_outside_a_checkout(tmp_path):
    assert provenance.commit_if_clean([tmp_path], tmp_path) is None


def test_stamp_names_the_chapter_source_and_the_package():
    made = provenance.stamp("setup")
    source = (SOURCES / "setup.md").read_bytes()
    assert made["source"] == "sha256:" + hashlib.sha256(source).hexdigest()
    assert made["package"] == provenance.package_hash()
    assert made["commit"] is None or len(made["commit"]) == 40  # never "-dirty"


def test_results_of_an_execution_carry_the_stamp_and_version():
    recorded = {"values": [{"key": "setup_x", "kind": "number", "value": 1, "text": "1"}]}
    made = provenance.results("setup", {"d": 1000}, recorded | {"claims": []})["attnspec"]
    assert set(made) == {"version", "source", "package", "commit"}
    assert made["version"] == provenance.__version__


ext = load_extension("provenance")


def results_with(made: dict) -> dict:
    return {"chapter": "setup", "parameters": {"d": 1000}, "time": "t", "attnspec": made}


def test_block_shows_hashes_and_a_clean_commit():
    made = {"source": "sha256:" + "a" * 64, "package": "sha256:" + "b" * 64, "commit": "c" * 40}
    block = ext.block(results_with(made))
    assert "a" * 16 in block and "b" * 16 in block and "c" * 12 in block


def test_block_never_says_dirty():
    block = ext.block(results_with({"version": "0.1.0", "commit": "d" * 40 + "-dirty"}))
    assert "dirty" not in block and "d" * 12 not in block


@pytest.mark.parametrize("path", sorted(EXECUTED.glob("*.results.json")), ids=lambda p: p.name)
def test_no_published_chapter_page_says_dirty(path):
    assert "-dirty" not in ext.block(json.loads(path.read_text()))


STORED = sorted(EXECUTED.glob("*.results.json"))


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(json.loads(provenance.SCHEMA.read_text()))


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.name)
def test_every_stored_results_file_meets_the_schema(path):
    data = json.loads(path.read_text())
    assert list(provenance.schema_validator().iter_errors(data)) == []
    assert provenance.check_results(data, path) is data


@pytest.mark.parametrize(
    "break_it, where",
    [
        (lambda d: d["values"][1].update(kind="colour"), "values[1].kind"),
        (lambda d: d["values"][0].update(value="3"), "values[0].value"),
        (lambda d: d["claims"][0].update(holds="yes"), "claims[0].holds"),
        (lambda d: d.pop("claims"), "the file"),
        (lambda d: d["attnspec"].update(commit="abc-dirty"), "attnspec.commit"),
    ],
)
def test_a_file_off_the_schema_is_refused_in_one_line_naming_where(break_it, where):
    data = copy.deepcopy(json.loads((EXECUTED / "ladder.results.json").read_text()))
    assert data["values"][0]["kind"] == "number"
    break_it(data)
    with pytest.raises(InvalidInput) as raised:
        provenance.check_results(data, "x.results.json")
    message = str(raised.value)
    assert (
        message.startswith(f"x.results.json: not a results file ({where}: ") and "\n" not in message
    )


def test_the_schema_is_package_data():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert provenance.SCHEMA.name in data["package-data"]["attnspec.publish"]


def test_a_record_of_every_kind_meets_the_schema():
    """What a study records (attnspec.present.record) is strict JSON and a valid results file: a
    float that is not finite is text, never a number NaN."""
    fig = plt.figure()
    values = [
        record.entry(key, value)
        for key, value in [("k_n", 3), ("k_x", 0.5), ("k_s", "≤ 1e-12"), ("k_nan", math.nan)]
    ] + [record.entry("k_fig", fig)]
    plt.close(fig)
    claims = [Claim("c", "1", "< 2", None, "no power").as_dict()]
    strict = json.dumps({"chapter": "ladder", "values": values, "claims": claims}, allow_nan=False)
    data = json.loads(strict)
    assert provenance.check_results(data, "x.results.json") is data
    assert [v["kind"] for v in data["values"]] == ["number", "number", "markdown", "text", "figure"]
