"""The repository's address from one place: the workflow's repository, else git's GitHub remote,
else none (never an invented address); the site's address by GitHub Pages' rule; the archive's
CITATION.cff and .zenodo.json name it; the book's "Cite this chapter" and @software entries."""

from __future__ import annotations

import json
import subprocess

import pytest

from attnspec import __version__
from attnspec.publish import archive
from attnspec.publish.paths import ROOT
from attnspec.publish.pdf import release_date
from attnspec.publish.repository import repository_url, site_url
from tests.book.test_version import load_extension

WORKFLOW = {"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "Attn-Lab/attnspec"}


def checkout(tmp_path, remote: str | None):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    if remote:
        subprocess.run(["git", "-C", str(tmp_path), "remote", "add", "origin", remote], check=True)
    return tmp_path


def test_in_a_workflow_the_address_is_the_workflows_repository(tmp_path):
    root = checkout(tmp_path, "git@github.com:someone/else.git")
    assert repository_url(WORKFLOW, root) == "https://github.com/Attn-Lab/attnspec"
    assert site_url(WORKFLOW, root) == "https://attn-lab.github.io/attnspec/"
    user_site = {"GITHUB_REPOSITORY": "Attn-Lab/attn-lab.github.io"}
    assert site_url(user_site, root) == "https://attn-lab.github.io/"
    enterprise = WORKFLOW | {"GITHUB_SERVER_URL": "https://git.example.org"}
    assert repository_url(enterprise, root) is None and site_url(enterprise, root) is None


@pytest.mark.parametrize(
    "remote",
    [
        "https://github.com/Attn-Lab/attnspec.git",
        "https://github.com/Attn-Lab/attnspec",
        "git@github.com:Attn-Lab/attnspec.git",
        "ssh://git@github.com/Attn-Lab/attnspec.git",
    ],
)
def test_in_a_checkout_the_address_is_the_github_remote(tmp_path, remote):
    root = checkout(tmp_path, remote)
    assert repository_url({}, root) == "https://github.com/Attn-Lab/attnspec"
    assert site_url({}, root) == "https://attn-lab.github.io/attnspec/"


@pytest.mark.parametrize("remote", [None, "/srv/git/attnspec", "https://gitlab.com/a/attnspec"])
def test_without_a_github_repository_no_address_is_named(tmp_path, remote):
    root = checkout(tmp_path, remote)
    assert repository_url({}, root) is None and site_url({}, root) is None
    assert repository_url({}, tmp_path / "not-a-checkout") is None


def test_the_archive_names_the_repository_in_its_citation_files():
    files = {f: (ROOT / f).read_bytes() for f in ("CITATION.cff", ".zenodo.json")}
    assert archive.with_repository(files, None) == files
    named = archive.with_repository(files, "https://github.com/Attn-Lab/attnspec")
    cff = named["CITATION.cff"].decode()
    assert 'repository-code: "https://github.com/Attn-Lab/attnspec"\nlicense: MIT' in cff
    assert cff.replace('repository-code: "https://github.com/Attn-Lab/attnspec"\n', "") == (
        files["CITATION.cff"].decode()
    )
    zenodo = json.loads(named[".zenodo.json"])
    assert zenodo["related_identifiers"][-1] == {
        "identifier": "https://github.com/Attn-Lab/attnspec",
        "relation": "isSupplementTo",
        "scheme": "url",
    }
    assert (
        zenodo["related_identifiers"][:-1]
        == json.loads(files[".zenodo.json"])["related_identifiers"]
    )


def test_the_chapter_entry_and_the_software_url():
    ext = load_extension("citation")
    entry = ext.chapter_entry(
        "limit-law", "The limit law", "https://a.github.io/b/book/chapters/limit-law.html"
    )
    year = release_date()[:4]
    assert entry.startswith(f"@incollection{{attnspec-{year}-limit-law,\n") and entry.endswith(
        "\n}"
    )
    assert "  title     = {The limit law},\n" in entry
    assert "  url       = {https://a.github.io/b/book/chapters/limit-law.html},\n" in entry
    assert (
        f"  booktitle = {{{ext.BOOK}}}," in entry and f"  version   = {{{__version__}}}," in entry
    )
    assert "url" not in ext.chapter_entry("limit-law", "The limit law", None)
    software = (
        "@software{attnspec-2026,\n  version = {0.1.0},\n  license = {MIT},\n  note = {x},\n}"
    )
    assert ext.with_url(software, None) == software
    assert ext.with_url(software, "https://github.com/a/b") == software.replace(
        "  license = {MIT},\n", "  license = {MIT},\n  url     = {https://github.com/a/b},\n"
    )
    assert ext.links(None, None) == ""
    assert ext.links("https://github.com/a/b", "https://a.github.io/b/") == (
        ' · <a href="https://github.com/a/b">code</a>'
        ' · <a href="https://a.github.io/b/downloads/index.html">PDF and supplement archive</a>'
    )
