"""The API reference documents every module, on the page of its subpackage, and every page is in
the table of contents."""

import re
from pathlib import Path

import yaml

from book._ext import chapter_api

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "attnspec"


def documented(page: Path) -> set[str]:
    """The modules a page documents: its ``automodule`` lines, and on the chapters' page those the
    extension ``book/_ext/chapter_api.py`` writes in place of its marker."""
    text = page.read_text()
    if chapter_api.MARKER in text:
        text = text.replace(chapter_api.MARKER, chapter_api.chapter_rst())
    return set(re.findall(r"^\.\. automodule:: (\S+)$", text, re.M))


def test_every_module_is_on_its_subpackages_page():
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        sub = init.parent.name
        if sub == "commands":  # the command line is documented on the Reproduce page
            continue
        page = ROOT / "book" / "api" / f"{sub}.md"
        modules = {  # a chapter's folder too: its package and each of its modules
            ".".join(
                ("attnspec", sub, *p.relative_to(init.parent).with_suffix("").parts)
            ).removesuffix(".__init__")
            for p in init.parent.rglob("*.py")
        }
        assert documented(page) == modules, page


def test_every_api_page_is_in_the_table_of_contents():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    api = next(
        entry for part in toc["parts"] for entry in part["chapters"] if entry["file"] == "book/api"
    )
    listed = {section["file"] for section in api["sections"]}
    assert listed == {f"book/api/{p.stem}" for p in (ROOT / "book" / "api").glob("*.md")}
