"""Sphinx extension: the ways from a page to the code, the downloads and a citation.

The repository's address and the site's come from one place, :mod:`attnspec.publish.repository`
(the repository a GitHub workflow runs in, or git's remote ``origin``); when there is none, nothing
names one. With an address:

- the theme shows its repository button;
- the footer (``{links}`` in ``html.extra_footer``) links the code and the downloads page of the
  published site (``downloads/``: the PDF and the supplement archive, with their sizes and SHA-256,
  written by :mod:`attnspec.publish.downloads`), by absolute address, so that the copy in the
  archive links the published files too;
- the ``@software`` entry on the Citing page gets its ``url`` (without one, the page says why it
  has none).

The landing page (the root document) opens with a "Cite this book" box: the version, its release
date, the ``@software`` entry of the Citing page and where the PDF and the archive are. A paragraph
of class ``attnspec-downloads`` says how to make them; the published layout
(:mod:`attnspec.publish.downloads`) replaces it with links to its ``downloads/`` folder, so no copy
of the site links files it does not have. The footer's "How to cite" links the Citing page, and the
reference lists leave out each entry's internal ``note`` (``Checked: …``, where the reference was
checked), which stays in ``references.bib`` (the ``attnspec`` bibliography style).

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
from pybtex.database import Entry
from pybtex.plugin import register_plugin
from pybtex.style.formatting.unsrt import Style as Unsrt
from sphinx import addnodes

from attnspec.publish.downloads import UNPUBLISHED
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


def _footer_link(app, pagename, templatename, context, doctree) -> None:
    """The footer's "How to cite" as a link to the Citing page, relative to each page (in a book
    that has the page: a re-run page does not)."""
    footer = context.get("theme_extra_footer") or ""
    if "How to cite" in footer and "book/citing" in app.env.found_docs:
        href = html.escape(context["pathto"]("book/citing"))
        context["theme_extra_footer"] = footer.replace(
            "How to cite", f'<a href="{href}">How to cite</a>', 1
        )


class Style(Unsrt):
    """BibTeX's ``unsrt`` without a ``note`` that starts with ``Checked:``: where an entry was
    checked is for the book's authors (``references.bib``), not for its readers."""

    def format_entry(self, label, entry, bib_data=None):
        if str(entry.fields.get("note", "")).startswith("Checked:"):
            fields = {k: v for k, v in entry.fields.items() if k.lower() != "note"}
            shown = Entry(entry.type, fields=fields, persons=entry.persons)
            shown.key = getattr(entry, "key", None)
            entry = shown
        return super().format_entry(label, entry, bib_data=bib_data)


def software_entry(srcdir: Path) -> str:
    """The ``@software`` entry of the Citing page (``book/citing.md``), with its ``url`` when the
    repository is known."""
    text = (Path(srcdir) / "book" / "citing.md").read_text(encoding="utf-8")
    found = re.search(r"^@software\{.*?^\}", text, re.M | re.S)
    if not found:
        raise RuntimeError("book/citing.md has no @software entry")
    return with_url(found.group(0), repository_url())


def cite_box(srcdir: Path) -> nodes.Element:
    """The landing page's "Cite this book" box."""
    box = nodes.admonition(classes=["tip", "attnspec-cite-box"])
    box += nodes.title(text="Cite this book")
    citing = addnodes.pending_xref(
        "", refdomain="std", reftype="doc", reftarget="/book/citing", refexplicit=True
    )
    citing += nodes.inline(text="How to cite")
    box += nodes.paragraph(
        "",
        "",
        nodes.Text(
            f"This is version {version('attnspec')}, released {release_date()}. Cite the version "
            "you read, with this entry; "
        ),
        citing,
        nodes.Text(" lists the papers to cite with it and how to re-execute the archive."),
    )
    entry = software_entry(srcdir)
    box += nodes.literal_block(entry, entry, language="bibtex")
    box += nodes.raw("", UNPUBLISHED, format="html")
    return box


def _cite_box(app, doctree) -> None:
    """Put the "Cite this book" box after the landing page's first paragraph."""
    if app.env.docname != app.config.root_doc:
        return
    section = doctree.next_node(nodes.section)
    first = section.next_node(nodes.paragraph) if section else None
    if first is not None and first.parent is section:
        section.insert(section.index(first) + 1, cite_box(app.srcdir))


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


#: what the Citing page says under the ``@software`` entry when no repository is known
NO_URL = (
    "This copy of the book was not built from a GitHub repository, so the entry has no url: the "
    "book states no address it cannot derive. Add the address where you found the book."
)


def _downloads(app, docname, source) -> None:
    """The Citing page's empty paragraph of class ``attnspec-downloads`` becomes
    :data:`~attnspec.publish.downloads.UNPUBLISHED`."""
    if docname == "book/citing":
        source[0] = source[0].replace('<p class="attnspec-downloads"></p>', UNPUBLISHED)


def _software_url(app, doctree) -> None:
    if app.env.docname != "book/citing":
        return
    url = repository_url()
    for block in list(doctree.findall(nodes.literal_block)):
        if SOFTWARE in block.astext():
            text = with_url(block.astext(), url)
            block.children = [nodes.Text(text)]
            block.rawsource = text
            if not url:
                block.parent.insert(
                    block.parent.index(block) + 1,
                    nodes.paragraph(NO_URL, NO_URL, classes=["attnspec-no-url"]),
                )


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
    register_plugin("pybtex.style.formatting", "attnspec", Style, force=True)
    app.connect("config-inited", _footer)
    app.connect("html-page-context", _footer_link)
    app.connect("doctree-read", _software_url)
    app.connect("doctree-read", _cite_box)
    app.connect("source-read", _downloads)
    # before Sphinx's table-of-contents collector (priority 500), so the section is numbered
    app.connect("doctree-read", _cite, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
