"""Sphinx extension: on the API pages, a section and a summary table for every module.

Each module that ``automodule`` documents on a page under ``book/api/`` (besides the page's own
subpackage, whose docstring opens the page) becomes a section headed by its name, so that it shows
in the page's contents. Above its entries, a table lists every member documented there (function,
class, constant), with a link to its entry and the first paragraph of its docstring. Both are built
from the documented entries themselves when the page is read, so they cannot drift from the code or
from the ``:members:`` lists.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes

API_PAGES = "book/api/"
KINDS = ("function", "class", "exception", "data")


def _members(doctree) -> dict[str, list[addnodes.desc]]:
    """The top-level documented members of each module of a page, in page order."""
    found: dict[str, list[addnodes.desc]] = {}
    for desc in doctree.findall(addnodes.desc):
        if desc.get("domain") != "py" or desc.get("objtype") not in KINDS:
            continue
        if any(isinstance(a, addnodes.desc_content) for a in _ancestors(desc)):
            continue  # a method or attribute of a class: listed on its class's entry
        signature = next(desc.findall(addnodes.desc_signature), None)
        if signature is not None and signature.get("ids"):
            found.setdefault(signature.get("module", ""), []).append(desc)
    return found


def _ancestors(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def _row(desc: addnodes.desc) -> nodes.row:
    signature = next(desc.findall(addnodes.desc_signature))
    name = signature.get("fullname", "") + ("()" if desc["objtype"] == "function" else "")
    link = nodes.reference(
        "", "", nodes.literal(text=name), refid=signature["ids"][0], internal=True
    )
    content = next(desc.findall(addnodes.desc_content), None)
    first = next(content.findall(nodes.paragraph), None) if content is not None else None
    summary = nodes.paragraph("", "", *(c.deepcopy() for c in first.children)) if first else None
    row = nodes.row()
    row += nodes.entry("", nodes.paragraph("", "", link))
    row += nodes.entry("", summary if summary is not None else nodes.paragraph())
    return row


def table(members: list[addnodes.desc]) -> nodes.table:
    """The summary table of one module's documented members."""
    group = nodes.tgroup(cols=2)
    group += nodes.colspec(colwidth=30)
    group += nodes.colspec(colwidth=70)
    head = nodes.thead()
    header = nodes.row()
    for title in ("member", "summary"):
        header += nodes.entry("", nodes.paragraph(text=title))
    head += header
    body = nodes.tbody()
    for desc in members:
        body += _row(desc)
    group += head
    group += body
    return nodes.table("", group, classes=["api-summary"])


def _module(node) -> str | None:
    """The module a module target (``ismod``, its id ``module-NAME`` or moved to ``refid``)
    starts, or None."""
    if isinstance(node, nodes.target) and node.get("ismod"):
        for target_id in [*node.get("ids", []), node.get("refid", "")]:
            if target_id.startswith("module-"):
                return target_id[len("module-") :]
    return None


def add_sections(doctree) -> None:
    """Wrap what documents each module (from its target to the next module's) in a section."""
    page = next(doctree.findall(nodes.section), None)
    if page is None:
        return
    children = list(page.children)
    starts = [i for i, n in enumerate(children) if (_module(n) or "").count(".") >= 2]
    # a module's index entry, just before its target, belongs to it
    firsts = [i - 1 if isinstance(children[i - 1], addnodes.index) else i for i in starts]
    for k, first in enumerate(firsts):
        end = firsts[k + 1] if k + 1 < len(firsts) else len(children)
        name = _module(children[starts[k]])
        section = nodes.section(ids=[nodes.make_id(f"module {name}")], names=[name])
        section += nodes.title("", "", nodes.literal(text=name))
        at = page.index(children[first])
        for node in children[first:end]:
            page.remove(node)
            section += node
        page.insert(at, section)


def add_summaries(app, doctree) -> None:
    if not app.env.docname.startswith(API_PAGES):
        return
    add_sections(doctree)
    for members in _members(doctree).values():
        first = members[0]
        first.parent.insert(first.parent.index(first), table(members))


def setup(app):
    app.connect("doctree-read", add_summaries, priority=400)  # before the contents are collected
    return {"parallel_read_safe": True, "parallel_write_safe": True}
