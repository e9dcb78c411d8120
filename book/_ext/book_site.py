"""Sphinx extension: what every page of the site shares beyond MathJax and the provenance block.

- the site stylesheet ``book/_static/attnspec.css`` (nothing scrolls sideways on a phone, tables
  fit the content column);
- ``{glue:md}`` pastes glued Markdown as MyST, like the chapters' Markdown outputs
  (``nb_render_markdown_format: myst``). myst-nb's role and directive default to CommonMark unless
  the key ends in ``:myst``; CommonMark has no ``$…$`` math, so a glued ``$\\Sigma = 0$`` showed as
  raw TeX and ``\\,`` lost its backslash. An explicit ``key:commonmark`` is kept;
- in API signatures, a default that is one of the book's paths (:mod:`attnspec.publish.paths`) is
  shown by its name, not as this machine's absolute path (a dataclass's defaults have no source
  text for ``autodoc_preserve_defaults``);
- the summary table of each module on the API pages (:mod:`api_summary`).

Loaded by ``local_mathjax`` (the book's one local extension), so the re-run page of ``attnspec run
--html`` gets it too.
"""

from __future__ import annotations

import re
from pathlib import Path

from myst_nb.ext.glue.directives import PasteMarkdownDirective
from myst_nb.ext.glue.roles import PasteMarkdownRole

STATIC = Path(__file__).resolve().parent.parent / "_static"


class MystMarkdownRole(PasteMarkdownRole):
    """``{glue:md}`key` `` as MyST (``{glue:md}`key:FORMAT` `` keeps FORMAT)."""

    def run(self):
        if ":" not in self.text:
            self.text += ":myst"
        return super().run()


class MystMarkdownDirective(PasteMarkdownDirective):
    """The ``glue:md`` directive, MyST unless ``:format:`` says otherwise."""

    def run(self):
        self.options.setdefault("format", "myst")
        return super().run()


def _path_names(app, what, name, obj, options, signature, annotation):
    """``signature`` with every ``PosixPath('…')`` of a book path replaced by the path's name."""
    if not signature or "Path(" not in signature:
        return None
    from attnspec.publish import paths

    names = {str(v): k for k, v in vars(paths).items() if isinstance(v, Path)}

    def name_of(match):
        return names.get(match.group(2), match.group(0))

    return re.sub(r"(Posix|Windows)?Path\('([^']*)'\)", name_of, signature), annotation


def _static_path(app, config) -> None:
    config.html_static_path = [*config.html_static_path, str(STATIC)]


def setup(app):
    app.connect("config-inited", _static_path)
    app.connect("autodoc-process-signature", _path_names)
    app.add_css_file("attnspec.css")
    app.add_role_to_domain("glue", "md", MystMarkdownRole(), override=True)
    app.add_directive_to_domain("glue", "md", MystMarkdownDirective, override=True)
    app.setup_extension("api_summary")
    app.setup_extension("chapter_api")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
