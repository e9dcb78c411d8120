"""The provenance stamp: a results file names exactly what produced the outputs (the SHA-256 of the
chapter source and of the package, and the commit only when both are as committed), and no page
ever says "-dirty"."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from attnspec.publish import provenance
from attnspec.publish.paths import EXECUTED, SOURCES
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
