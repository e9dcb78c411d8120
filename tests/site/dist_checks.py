"""The real supplement archive (`make dist` -> dist/attnspec-VERSION-supplement.zip), unpacked into
a temporary folder: its checksums verify, it holds the published site and PDF as built, and the
book opens offline from its `index.html`.

`make dist` writes the archive and then runs this file by name; `make test` does not collect it (it
builds no archive; tests/site/test_archive.py checks the archive builder there). Every check
fails, none skips, when the archive is missing.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import zipfile
from pathlib import Path

import pytest

from attnspec import __version__
from attnspec.publish import archive
from attnspec.publish.gate import SITE
from attnspec.publish.paths import ROOT
from attnspec.publish.pdf import TARGET as PDF
from tests.helpers import probe_page

ARCHIVE = ROOT / "dist" / archive.name()
TOP = archive.folder()


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory) -> Path:
    assert ARCHIVE.is_file(), f"{ARCHIVE} is missing: `make dist` builds it, then runs these checks"
    base = tmp_path_factory.mktemp("dist")
    with zipfile.ZipFile(ARCHIVE) as z:
        z.extractall(base)
    return base / TOP


def test_checksums_verify_with_sha256sum(unpacked):
    assert archive.verify(ARCHIVE) > 0
    done = subprocess.run(
        ["sha256sum", "--check", "--quiet", "SHA256SUMS"], cwd=unpacked, capture_output=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def digests(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in folder.rglob("*")
        if p.is_file()
    }


def test_it_holds_the_published_site_and_the_pdf(unpacked):
    assert digests(unpacked / "site") == digests(ROOT / SITE)
    assert (unpacked / f"{TOP}.pdf").read_bytes() == PDF.read_bytes()
    assert (unpacked / "dist" / f"attnspec-{__version__}-py3-none-any.whl").is_file()


def redirect_target(page: Path) -> Path:
    found = re.search(r'http-equiv="refresh" content="0; url=([^"]+)"', page.read_text(), re.I)
    assert found, f"{page.name} is not a redirect"
    return page.parent / found.group(1)


def test_the_book_opens_offline_from_index_html(unpacked):
    site_index = redirect_target(unpacked / "index.html")
    assert site_index == unpacked / "site" / "index.html"
    intro = redirect_target(site_index)
    assert intro.is_file(), intro
    seen = probe_page(intro)  # read only: nothing is written into the unpacked archive
    assert seen["mathjax"] and seen["math"] > 0 and seen["untypeset"] == 0, seen
    assert seen["broken"] == [] and f"attnspec version {__version__}" in seen["text"]
