"""Sphinx extension: a summary table above the members of every module on the API pages.

For each module that ``automodule`` documents on a page under ``book/api/``, the table lists every
member documented below it (function, class, constant), with a link to its entry and the first
paragraph of its docstring. It is built from the documented entries themselves when the page is
read, so it cannot drift from the code or from the ``:members:`` lists.
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


def add_summaries(app, doctree) -> None:
    if not app.env.docname.startswith(API_PAGES):
        return
    for members in _members(doctree).values():
        first = members[0]
        first.parent.insert(first.parent.index(first), table(members))


def setup(app):
    app.connect("doctree-read", add_summaries)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
