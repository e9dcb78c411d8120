"""Sphinx extension: a "Source · Re-run" line under every figure and claims table of a chapter.

"Source" links the highlighted source (``sphinx.ext.viewcode``) of the chapter study's hook that
made it: :meth:`~attnspec.chapters.base.ChapterStudy.figures` for a figure,
:meth:`~attnspec.chapters.base.ChapterStudy.claims` for the claims table, where the chapter's
folder defines it, else the study class (whose ``drawings`` name the figures' functions). "Re-run"
links the chapter's provenance block (book/_ext/provenance.py), which holds the exact command; the
line shows its short form, ``attnspec run CHAPTER``. In a build without viewcode's pages (the
single-page HTML the PDF is printed from) the line has no links, only the command. viewcode writes
the pages that a Source line links only: those of the whole package would add 6 MB to the site.
Loaded by ``local_mathjax``.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

from docutils import nodes
from sphinx import addnodes

import attnspec.chapters
from attnspec.chapters.base import ChapterStudy

CHAPTERS = "book/chapters/"
#: The study's methods a Source line names: what drew a figure, what built the claims table.
HOOKS = ("figures", "claims")


@functools.cache
def studies() -> dict[str, type[ChapterStudy]]:
    """Every chapter's study class, by chapter name."""
    found = {}
    for info in pkgutil.iter_modules(attnspec.chapters.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"attnspec.chapters.{info.name}.study")
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, ChapterStudy)
                and value.__module__ == module.__name__
                and "name" in vars(value)
            ):
                found[value.name] = value
    return found


def target(study: type[ChapterStudy], hook: str) -> tuple[str, str]:
    """(module, qualified name) that the Source line of ``study``'s ``hook`` links: the hook where
    the chapter's folder defines it, else the study class."""
    method = getattr(study, hook)
    if method.__module__.startswith(study.__module__.rpartition(".")[0] + "."):
        return method.__module__, method.__qualname__
    return study.__module__, study.__qualname__


@functools.cache
def shown() -> frozenset[str]:
    """The modules whose highlighted source viewcode writes: those a Source line links."""
    return frozenset(target(s, hook)[0] for s in studies().values() for hook in HOOKS)


def is_claims_table(table: nodes.table) -> bool:
    """A claims table (attnspec.present.tables.claims_markdown): its last column is "verdict"."""
    head = next(iter(table.findall(nodes.thead)), None)
    entries = list(head.findall(nodes.entry)) if head is not None else []
    return bool(entries) and entries[-1].astext().strip() == "verdict"


def line(app, docname: str, study: type[ChapterStudy], hook: str) -> nodes.paragraph:
    """``Source · Re-run: attnspec run CHAPTER`` for ``study``'s method ``hook``."""
    module, name = target(study, hook)
    para = nodes.paragraph(classes=["attnspec-source"])
    if app.builder.name == "html":  # viewcode writes its pages for this builder only
        page = "_modules/" + module.replace(".", "/")
        uri = app.builder.get_relative_uri(docname, page) + "#" + name
        para += nodes.reference("", "Source", refuri=uri, internal=True)
        para += nodes.Text(" · ")
        para += nodes.reference("", "Re-run", refuri="#provenance", internal=True)
    else:  # one page holds every chapter's provenance block: no anchor names one
        para += nodes.Text("Re-run")
    para += nodes.Text(": ")
    para += nodes.literal("", f"attnspec run {study.name}")
    return para


def add_lines(app, doctree, docname: str) -> None:
    if not docname.startswith(CHAPTERS):
        return
    study = studies().get(docname.removeprefix(CHAPTERS))
    if study is None:
        return
    for figure in list(doctree.findall(nodes.figure)):
        figure.parent.insert(figure.parent.index(figure) + 1, line(app, docname, study, "figures"))
    for table in list(doctree.findall(nodes.table)):
        if is_claims_table(table):  # after the table's counts and notes: its output's end
            table.parent.append(line(app, docname, study, "claims"))


def chapters_only(app, doctree) -> None:
    """Mark every other documented module as having no source page, before viewcode reads the
    page (viewcode skips a module its ``_viewcode_modules`` maps to False)."""
    modules = app.builder.env.__dict__.setdefault("_viewcode_modules", {})
    for signature in doctree.findall(addnodes.desc_signature):
        module = signature.get("module") or ""
        if module not in shown():
            modules[module] = False


def setup(app):
    app.connect("doctree-read", chapters_only, priority=400)  # before viewcode's (500)
    app.connect("doctree-resolved", add_lines)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
