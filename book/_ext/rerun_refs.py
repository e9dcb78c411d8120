"""Sphinx extension of a re-run page (:mod:`attnspec.publish.render`): references to the rest of
the book.

A re-run page is one chapter built alone, so what it refers to in other chapters (a theorem, a
section, a figure, a glossary term) and its links to other chapters' notebooks have no target in
it. Each becomes a link into the published book when the site's address is known
(:mod:`attnspec.publish.repository`), and otherwise says in words what it refers to and where:
"Theorem (…), in Setup: …". The labels come from the chapter sources (``(label)=`` before a
heading, ``:label:`` or ``:name:`` of a directive). Nothing is left as a raw role or a dead
anchor.
"""

from __future__ import annotations

import re
from functools import cache

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from attnspec.publish.chapters import chapters
from attnspec.publish.paths import SOURCES
from attnspec.publish.repository import site_url

#: ``(label)=`` and the heading it labels
HEADING = re.compile(r"^\((?P<label>[\w-]+)\)=\s*\n+#+\s+(?P<title>[^\n]+)", re.M)
#: a directive (backtick or colon fence), its argument and its options
DIRECTIVE = re.compile(
    r"^(?:`{3,}|:{3,})\{(?P<kind>[\w:-]+)\}(?P<title>[^\n]*)\n(?P<options>(?::[\w-]+:[^\n]*\n)*)",
    re.M,
)
#: what a directive's target is called in words
KINDS = {"glue:figure": "a figure", "figure": "a figure", "table": "a table", "math": "an equation"}
#: a link to a page of the book by its notebook's name
PAGE_LINK = re.compile(
    r"(?:\.\./)*(?:book/)?(?:chapters/)?(?P<name>[\w-]+)\.(?:ipynb|md)(?:#(?P<anchor>[\w-]*))?"
)


@cache
def titles() -> dict[str, str]:
    """Chapter name -> title."""
    return {c.name: c.title for c in chapters()}


@cache
def labels() -> dict[str, tuple[str, str]]:
    """Label -> ``(chapter, what it is in words)``, from every chapter source."""
    found: dict[str, tuple[str, str]] = {}
    for source in sorted(SOURCES.glob("*.md")):
        text = source.read_text(encoding="utf-8")
        for m in HEADING.finditer(text):
            found[m["label"]] = (source.stem, f"“{m['title'].strip()}”")
        for m in DIRECTIVE.finditer(text):
            option = re.search(r"^:(?:label|name):\s*(\S+)", m["options"], re.M)
            if not option:
                continue
            kind = m["kind"]
            if kind in KINDS:
                words = KINDS[kind]
            else:
                title = m["title"].strip()
                words = kind.removeprefix("prf:").capitalize() + (f" ({title})" if title else "")
            found[option.group(1)] = (source.stem, words)
    return found


def words(text: str) -> list[nodes.Node]:
    """``text`` as nodes, its ``$…$`` as math."""
    parts = text.split("$")
    return [nodes.math(p, p) if i % 2 else nodes.Text(p) for i, p in enumerate(parts) if p or i % 2]


def page_url(name: str, anchor: str | None = None) -> str | None:
    """The published address of page ``name`` (a chapter or a page of the book), or None."""
    site = site_url()
    if not site:
        return None
    folder = "book/chapters/" if name in titles() else "book/"
    return f"{site}{folder}{name}.html" + (f"#{anchor}" if anchor else "")


def elsewhere(
    children: list[nodes.Node], name: str, anchor: str | None = None, say_where: bool = True
) -> nodes.Node:
    """``children`` linked to page ``name`` of the published book, or as text (naming the chapter
    when ``say_where``)."""
    url = page_url(name, anchor)
    if url:
        return nodes.reference("", "", *children, refuri=url, internal=False)
    if say_where and name in titles():
        children = [*children, nodes.Text(", in "), nodes.emphasis("", "", *words(titles()[name]))]
    return nodes.inline("", "", *children, classes=["attnspec-elsewhere"])


def _missing(app, env, node, contnode):
    """A reference whose target is another chapter's: see the module docstring."""
    target = node.get("reftarget", "")
    if node.get("reftype") == "term":
        url = page_url("glossary")
        term = nodes.emphasis("", contnode.astext())
        return nodes.reference("", "", term, refuri=url, internal=False) if url else term
    found = labels().get(target) or labels().get(target.lower())
    if not found:
        return None
    chapter, what = found
    shown = [nodes.Text(contnode.astext())] if node.get("refexplicit") else words(what)
    return elsewhere(shown, chapter, target)


class ChapterLinks(SphinxPostTransform):
    """A Markdown link to another page's notebook (``[Setup](setup.ipynb)``), which MyST would
    leave as a dead anchor (``#setup.ipynb``), goes to that page (see :func:`elsewhere`)."""

    default_priority = 8  # before MyST's resolver (9)

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(addnodes.pending_xref)):
            if node.get("reftype") != "myst":
                continue
            link = PAGE_LINK.fullmatch(node.get("reftarget", ""))
            if not link or link["name"] == self.env.docname:
                continue
            shown = [nodes.Text(node.astext())]
            node.replace_self(elsewhere(shown, link["name"], link["anchor"], say_where=False))


def setup(app):
    app.connect("missing-reference", _missing)
    app.add_post_transform(ChapterLinks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
