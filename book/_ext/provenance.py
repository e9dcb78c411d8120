"""Sphinx extension: end every chapter page with its provenance (just before its "Cite this
chapter" section), and put the version in the footer.

For a page ``NAME`` with ``NAME.results.json`` beside its notebook (written by every execution, see
:mod:`attnspec.publish.provenance`), a collapsible block shows the parameters, versions and content
hashes that produced the page (with the commit only when it held exactly those files) and the exact
``attnspec run`` command that reproduces it. Nothing is added to pages without a results file.

The footer (``html.extra_footer`` in _config.yml) gets the installed attnspec version in place of
``{version}``: the one version, defined in pyproject.toml. Loaded by ``local_mathjax`` (the book's
one local extension).
"""

from __future__ import annotations

import html
import json
import shlex
from importlib.metadata import version
from pathlib import Path

from docutils import nodes

VERSION_NAMES = [
    ("attnspec", "attnspec"),
    ("python", "Python"),
    ("numpy", "NumPy"),
    ("scipy", "SciPy"),
    ("matplotlib", "Matplotlib"),
    ("blas", "BLAS"),
]


def _text(value) -> str:
    return ",".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)


def command(chapter: str, parameters: dict) -> str:
    """The ``attnspec run`` command that re-executes ``chapter`` with ``parameters``."""
    options = " ".join(
        f"-p {name} {shlex.quote(_text(value))}" for name, value in parameters.items()
    )
    return f"attnspec run {chapter} {options} -o runs/{chapter} --html".replace("  ", " ")


def stamp(made: dict) -> str:
    """What produced the outputs, as a sentence: the content hashes of the chapter source and the
    package, and the commit when it held exactly those files (an older "-dirty" commit, which does
    not say what ran, is left out)."""
    e = html.escape
    hashes = [
        f"{label} <code>{e(made[key].removeprefix('sha256:')[:16])}</code>"
        for key, label in (("source", "chapter source"), ("package", "package"))
        if made.get(key)
    ]
    text = f" SHA-256 of the {' and of the '.join(hashes)}." if hashes else ""
    commit = made.get("commit")
    if commit and not commit.endswith("-dirty"):
        text += f" Commit <code>{e(commit[:12])}</code>."
    return text


def footer(app, config) -> None:
    """Put the installed attnspec version in place of ``{version}`` in the footer."""
    options = config.html_theme_options
    if "{version}" in (options.get("extra_footer") or ""):
        options["extra_footer"] = options["extra_footer"].replace(
            "{version}", html.escape(version("attnspec"))
        )


def block(results: dict) -> str:
    """The provenance block of one chapter as HTML."""
    e = html.escape
    versions = results.get("versions", {})
    rows = "".join(
        f"<tr><td><code>{e(k)}</code></td><td>{e(_text(v).replace(',', ', '))}</td></tr>"
        for k, v in results.get("parameters", {}).items()
    )
    listed = ", ".join(
        f"{label} {e(str(versions[key]))}" for key, label in VERSION_NAMES if key in versions
    )
    made = f"Executed {e(results.get('time') or '')} (UTC) with {listed}."
    return (
        '<details class="attnspec-provenance" id="provenance"><summary>Provenance: the '
        "parameters, versions and command that produced this page</summary>"
        f"<p>{made}{stamp(results.get('attnspec') or {})}</p>"
        f'<table class="table"><thead><tr><th>parameter</th><th>value</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
        f"<p>To reproduce it (see <em>Reproduce and re-execute</em>):</p>"
        f"<pre><code>{e(command(results['chapter'], results.get('parameters', {})))}</code></pre>"
        f"<p>Every glued number and claim of this page is listed in "
        f"<code>{e(results['chapter'])}.results.json</code>"
        f" beside the executed notebook; <code>attnspec diff</code> compares two such files."
        f"</p></details>"
    )


def _add(app, doctree) -> None:
    docname = app.env.docname
    path = Path(app.srcdir) / f"{docname}.results.json"
    if not path.is_file():
        return
    app.env.note_dependency(str(path))
    results = json.loads(path.read_text())
    sections = [n for n in doctree.children if isinstance(n, nodes.section)]
    target = sections[-1] if sections else doctree
    raw = nodes.raw("", block(results), format="html")
    cite = [n for n in target.children if "cite-this-chapter" in n.get("ids", [])]
    if cite:  # before the closing "Cite this chapter" section (book/_ext/citation.py)
        target.insert(target.index(cite[0]), raw)
    else:
        target.append(raw)


def setup(app):
    app.connect("config-inited", footer)
    app.connect("doctree-read", _add)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
