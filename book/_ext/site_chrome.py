"""Sphinx extension: the theme's page furniture, made light, offline-clean and accessible.

- **No Thebe.** Jupyter Book always loads ``sphinx_thebe``, which adds an inline script declaring
  ``THEBE_JS_URL`` (a CDN address) on every page, twice: a console SyntaxError on each. The book
  executes nothing in the browser, so the extension's handlers and stylesheet are removed.
- **No source copies.** ``_sources`` (the executed notebooks again, 6 MB) is not written
  (``html_copy_source: false``); the download menu keeps what works without it (print to PDF).
- **Search under file://** shows its results without the snippets it cannot fetch there
  (``book/_static/attnspec-offline.js``).
- **No source maps** (``*.map``, 3.4 MB that no page uses) in the built ``_static``.
- **Nothing a page cannot use** (:func:`lighten`, 2.6 MB): Font Awesome's script
  ``fontawesome.js`` (1.5 MB; it redraws each icon as SVG, which the theme's stylesheet already
  draws from the web font), the web fonts' TrueType copies (0.7 MB; every stylesheet names the
  WOFF2 file first, which every browser that runs the theme reads), the theme's translation
  catalogues (``_static/locales``: the book is in English, and Sphinx reads them at build time,
  not the browser), and the alpha channel of the figures (``_images``), which are opaque: the
  same pixels, 13 % fewer bytes.
- **Accessible theme markup**, fixed in the written pages (axe-core, ``tests/site/axe.py``): a
  button whose visible text is not part of its accessible name (the search field's "Search
  Ctrl+K" named "Search", the colour-mode icons titled "Light"/"Dark", myst-nb's "Show code cell
  outputs" named "Toggle hidden content"), the sidebar's empty ``<summary>`` toggles, and the
  bibliography's ``role="list"`` whose entries are not list items.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from PIL import Image

#: (what the theme writes, what the page gets instead), in every written HTML page.
REPLACEMENTS = [
    # the search field's name is its visible text ("Search Ctrl+K"), not "Search" alone
    (
        'class="btn search-button-field search-button__button pst-js-only" title="Search"'
        ' aria-label="Search"',
        'class="btn search-button-field search-button__button pst-js-only" title="Search"',
    ),
    # the colour-mode button is named "Color mode"; its icons carry no competing visible title
    (' data-mode="light" title="Light"', ' data-mode="light" aria-hidden="true"'),
    (' data-mode="dark"  title="Dark"', ' data-mode="dark" aria-hidden="true"'),
    (' data-mode="auto"  title="System Settings"', ' data-mode="auto" aria-hidden="true"'),
    # myst-nb's folded outputs: the name is the visible "Show code cell outputs"
    ('<summary aria-label="Toggle hidden content">', "<summary>"),
    # the sidebar's toggles of a page's sections have a name
    (
        '<summary><span class="toctree-toggle" role="presentation">',
        '<summary aria-label="Show or hide the sections">'
        '<span class="toctree-toggle" role="presentation">',
    ),
    # the bibliography: a list of list items
    ('<div role="list" class="citation-list">', '<div class="citation-list">'),
]


def _drop_thebe(app, config) -> None:
    """Disconnect ``sphinx_thebe`` (its scripts, config nodes and static folder) and drop its
    stylesheet."""
    for listeners in app.events.listeners.values():
        listeners[:] = [
            lst for lst in listeners if getattr(lst.handler, "__module__", "") != "sphinx_thebe"
        ]
    app.registry.css_files = [
        (name, attrs) for name, attrs in app.registry.css_files if "thebe" not in (name or "")
    ]


def _colour_mode(app, config) -> None:
    """The colour mode follows the reader's system unless chosen: without ``default_mode`` (a
    template variable of pydata-sphinx-theme) the theme writes an empty mode and logs a console
    error on every page."""
    config.html_context = {**config.html_context, "default_mode": "auto"}


def _download_menu(app, pagename, templatename, context, doctree) -> None:
    """Keep only the download entries that work when no source is copied (print to PDF)."""
    if app.config.html_copy_source:
        return
    for button in context.get("header_buttons", []):
        if button.get("label") == "download-buttons":
            button["buttons"] = [b for b in button["buttons"] if "_sources" not in b.get("url", "")]


#: Font Awesome's SVG script, which every page of the theme loads.
FONTAWESOME_JS = re.compile(
    r'\s*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>'
)
#: A TrueType fallback after a web font's WOFF2 source in the theme's stylesheets.
TRUETYPE = re.compile(r',url\([^)]*\.ttf\) format\("truetype"\)')


def fix_page(text: str) -> str:
    """A written page with the theme's markup fixed (:data:`REPLACEMENTS`), without
    ``fontawesome.js``."""
    for old, new in REPLACEMENTS:
        text = text.replace(old, new)
    return FONTAWESOME_JS.sub("", text)


def opaque_rgb(path: Path) -> None:
    """Rewrite the PNG at ``path`` without its alpha channel when every pixel is opaque."""
    with Image.open(path) as image:
        if image.mode != "RGBA" or image.getextrema()[3][0] < 255:
            return
        rgb = image.convert("RGB")
    rgb.save(path, optimize=True)


def lighten(out: Path) -> None:
    """Remove from the built site ``out`` what no page uses (see the module docstring)."""
    static = out / "_static"
    for path in static.glob("scripts/fontawesome.js*"):
        path.unlink()
    for css in static.glob("styles/*.css"):
        text = css.read_text(encoding="utf-8")
        if TRUETYPE.search(text):
            css.write_text(TRUETYPE.sub("", text), encoding="utf-8")
    for path in static.glob("vendor/fontawesome/webfonts/*.ttf"):
        path.unlink()
    shutil.rmtree(static / "locales", ignore_errors=True)
    for path in (out / "_images").glob("*.png"):
        opaque_rgb(path)


#: an entry of viewcode's index of highlighted sources (``_modules/index.html``)
MODULE_ENTRY = re.compile(r'<li><a href="([^"]*)">[^<]*</a>\s*(?:</li>)?\s*')


def list_written_sources(index: Path) -> None:
    """Keep in viewcode's index ``index`` only the entries whose page was written: viewcode lists
    every module it saw, but writes the pages of the chapters layer only (an entry without a name,
    ``.html``, stands for the package's top level)."""
    if not index.is_file():
        return
    text = index.read_text(encoding="utf-8")

    def kept(entry: re.Match) -> str:
        href = entry.group(1)
        return entry.group(0) if href != ".html" and (index.parent / href).is_file() else ""

    fixed = MODULE_ENTRY.sub(kept, text)
    if fixed != text:
        index.write_text(fixed, encoding="utf-8")


def _finish(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    if not app.config.html_copy_source:  # nor one left by an earlier build
        shutil.rmtree(out / "_sources", ignore_errors=True)
    for path in out.rglob("*.map"):
        path.unlink()
    lighten(out)
    list_written_sources(out / "_modules" / "index.html")
    for path in out.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        fixed = fix_page(text)
        if fixed != text:
            path.write_text(fixed, encoding="utf-8")


def setup(app):
    app.connect("config-inited", _drop_thebe)
    app.connect("config-inited", _colour_mode)
    app.add_js_file("attnspec-offline.js")  # search results without snippets under file://
    app.add_js_file("attnspec-open-target.js", loading_method="defer")  # #provenance opens it
    # after the theme filled the header buttons (sphinx_book_theme's handler, priority 501)
    app.connect("html-page-context", _download_menu, priority=900)
    app.connect("build-finished", _finish)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
