"""One version, defined once in pyproject.toml (read at run time through importlib.metadata), and
the same everywhere it is shown: the installed package, `attnspec --version`, CITATION.cff,
.zenodo.json, CHANGELOG.md (Keep a Changelog), the Citing page, every results file and the site's
footer. (The PDF's title page: tests/site/pdf_checks.py, run by `make pdf`.)"""

from __future__ import annotations

import importlib.util
import json
import re
import tomllib
from importlib.metadata import version
from types import SimpleNamespace

import pytest
import yaml

import attnspec
from attnspec.publish.paths import EXECUTED, ROOT
from tests.helpers import cli_status

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
CFF = yaml.safe_load((ROOT / "CITATION.cff").read_text())
ZENODO = json.loads((ROOT / ".zenodo.json").read_text())
CHANGELOG = (ROOT / "CHANGELOG.md").read_text()
#: Keep a Changelog 1.1.0: a release heading, and the kinds of change it may list.
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", re.M)
KINDS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def load_extension(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "book" / "_ext" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_installed_version_is_pyprojects():
    assert version("attnspec") == attnspec.__version__ == VERSION


def test_cli_prints_the_version(capsys):
    assert cli_status(["--version"]) == 0
    assert capsys.readouterr().out == f"attnspec {VERSION}\n"


def test_citation_files_name_the_version_and_its_date():
    assert str(CFF["version"]) == ZENODO["version"] == VERSION
    assert str(CFF["date-released"]) == ZENODO["publication_date"]


def test_zenodo_metadata_agrees_with_citation_cff():
    assert ZENODO["title"] == CFF["title"]
    assert [c["name"] for c in ZENODO["creators"]] == [a["name"] for a in CFF["authors"]]
    assert ZENODO["description"] == " ".join(CFF["abstract"].split())
    assert ZENODO["keywords"] == CFF["keywords"] and ZENODO["license"] == CFF["license"]
    assert ZENODO["upload_type"] == "software" and CFF["type"] == "software"
    arxiv = [r for r in ZENODO["related_identifiers"] if r["scheme"] == "arxiv"]
    assert [r["identifier"] for r in arxiv] == ["arXiv:2510.06685"]
    assert arxiv[0]["relation"] == "isSupplementTo"


def test_changelog_follows_keep_a_changelog_and_its_latest_release_is_this_version():
    lines = CHANGELOG.splitlines()
    assert lines[0] == "# Changelog" and "keepachangelog.com/en/1.1.0" in CHANGELOG
    releases = RELEASE.findall(CHANGELOG)
    assert releases, "no release heading '## [X.Y.Z] - YYYY-MM-DD'"
    assert CHANGELOG.index("## [Unreleased]") < CHANGELOG.index(f"## [{releases[0][0]}]")
    assert releases[0] == (VERSION, str(CFF["date-released"]))
    dates = [d for _, d in releases]
    assert dates == sorted(dates, reverse=True), "releases newest first"
    kinds = set(re.findall(r"^### (.+)$", CHANGELOG, re.M))
    assert kinds and kinds <= KINDS, kinds - KINDS


def test_citing_page_names_this_version_everywhere():
    text = (ROOT / "book" / "citing.md").read_text()
    named = re.findall(r"attnspec-(\d+\.\d+\.\d+)", text) + re.findall(
        r"version = \{([^}]*)\}", text
    )
    assert f"This is version {VERSION} of the book." in text
    assert len(named) >= 3 and set(named) == {VERSION}, named


def test_every_results_file_records_the_version():
    files = sorted(EXECUTED.glob("*.results.json"))
    assert files
    for path in files:
        results = json.loads(path.read_text())
        assert results["attnspec"]["version"] == results["versions"]["attnspec"] == VERSION, path


def test_footer_gets_the_installed_version():
    footer = yaml.safe_load((ROOT / "_config.yml").read_text())["html"]["extra_footer"]
    assert "{version}" in footer
    config = SimpleNamespace(html_theme_options={"extra_footer": footer})
    load_extension("provenance").footer(None, config)
    filled = config.html_theme_options["extra_footer"]
    assert f"attnspec version {VERSION}" in filled and "{version}" not in filled


@pytest.mark.site  # needs the built site (make book)
@pytest.mark.parametrize("page", ["book/citing.html", "book/chapters/setup.html"])
def test_built_pages_show_the_version_in_their_footer(page):
    path = ROOT / "_build" / "html" / page
    assert path.is_file(), f"{path} is missing: build the site first (`make book`)"
    footer = re.search(r'<div class="extra_footer">(.*?)</div>', path.read_text(), re.S)
    assert footer and f"attnspec version {VERSION}" in footer.group(1)
