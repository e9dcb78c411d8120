"""Sphinx extension: the ways from a page to the code, the downloads and a citation.

The repository's address and the site's come from one place, :mod:`attnspec.publish.repository`
(the repository a GitHub workflow runs in, or git's remote ``origin``); when there is none, nothing
names one. With an address:

- the theme shows its repository button;
- the footer (``{links}`` in ``html.extra_footer``) links the code and the downloads page of the
  published site (``downloads/``: the PDF and the supplement archive, with their sizes and SHA-256,
  written by :mod:`attnspec.publish.downloads`), by absolute address, so that the copy in the
  archive links the published files too;
- the ``@software`` entry on the Citing page gets its ``url``.

Every chapter page (a page with ``NAME.results.json``) ends with a section "Cite this chapter": a
BibTeX ``@incollection`` entry with the chapter's title, the book, its version and year, and the
chapter's address when the site's is known. Loaded by ``local_mathjax``.
"""

from __future__ import annotations

import html
import re
from importlib.metadata import version
from pathlib import Path

from docutils import nodes
from sphinx import addnodes

from attnspec.publish.pdf import release_date
from attnspec.publish.repository import repository_url, site_url

BOOK = "attnspec: an executable paper on the spectra of softmax self-attention"
AUTHOR = "{The attnspec developers}"
SOFTWARE = "@software{attnspec-"
DOWNLOADS = "downloads/index.html"
#: The id of the "Cite this chapter" section (the provenance block goes before it).
SECTION = "cite-this-chapter"


def links(repository: str | None, site: str | None) -> str:
    """The footer's links (HTML, each after " · "); empty without an address."""
    e = html.escape
    found = []
    if repository:
        found.append(f'<a href="{e(repository)}">code</a>')
    if site:
        found.append(f'<a href="{e(site + DOWNLOADS)}">PDF and supplement archive</a>')
    return "".join(f" · {link}" for link in found)


def _footer(app, config) -> None:
    options = config.html_theme_options
    repository, site = repository_url(), site_url()
    if "{links}" in (options.get("extra_footer") or ""):
        options["extra_footer"] = options["extra_footer"].replace(
            "{links}", links(repository, site)
        )
    if repository:
        options["repository_url"] = repository
        options["use_repository_button"] = True


def chapter_entry(chapter: str, title: str, url: str | None) -> str:
    """The BibTeX entry of one chapter of this version of the book."""
    fields = [
        ("title", "{" + title + "}"),
        ("booktitle", "{" + BOOK + "}"),
        ("author", "{" + AUTHOR + "}"),
        ("year", "{" + release_date()[:4] + "}"),
        ("version", "{" + version("attnspec") + "}"),
    ] + ([("url", "{" + url + "}")] if url else [])
    width = max(len(k) for k, _ in fields)
    body = "".join(f"  {k.ljust(width)} = {v},\n" for k, v in fields)
    return f"@incollection{{attnspec-{release_date()[:4]}-{chapter},\n{body}}}"


def with_url(entry: str, url: str | None) -> str:
    """The ``@software`` entry with a ``url`` line after its ``license`` line (unchanged without
    an address)."""
    if not url:
        return entry
    return re.sub(
        r"^(\s*)license(\s*)= \{[^}]*\},\n",
        rf"\g<0>\1url    \2= {{{url}}},\n",
        entry,
        count=1,
        flags=re.M,
    )


def _software_url(app, doctree) -> None:
    if app.env.docname != "book/citing":
        return
    for block in doctree.findall(nodes.literal_block):
        if SOFTWARE in block.astext():
            text = with_url(block.astext(), repository_url())
            block.children = [nodes.Text(text)]
            block.rawsource = text


def _cite(app, doctree) -> None:
    """Append the "Cite this chapter" section to a chapter page (before the table of contents and
    section numbers are collected from it: see :func:`setup`)."""
    docname = app.env.docname
    if not (Path(app.srcdir) / f"{docname}.results.json").is_file():
        return
    sections = [n for n in doctree.children if isinstance(n, nodes.section)]
    if not sections:
        return
    title = sections[0].next_node(nodes.title).astext()
    site = site_url()
    entry = chapter_entry(Path(docname).name, title, f"{site}{docname}.html" if site else None)
    section = nodes.section(ids=[SECTION], names=["cite this chapter"])
    section += nodes.title(text="Cite this chapter")
    citing = addnodes.pending_xref(
        "", refdomain="std", reftype="doc", reftarget="/book/citing", refexplicit=True
    )
    citing += nodes.inline(text="How to cite")
    section += nodes.paragraph(
        "",
        "",
        nodes.Text("Cite the version you read, with the entry below; "),
        citing,
        nodes.Text(" lists the papers this chapter supplements."),
    )
    section += nodes.literal_block(entry, entry, language="bibtex")
    sections[-1].append(section)


def setup(app):
    app.connect("config-inited", _footer)
    app.connect("doctree-read", _software_url)
    # before Sphinx's table-of-contents collector (priority 500), so the section is numbered
    app.connect("doctree-read", _cite, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
