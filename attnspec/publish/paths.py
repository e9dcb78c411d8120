"""Where the book's files are, resolved once: the one place that names them.

``DATA`` is ``attnspec/_book``: in a checkout it holds links to the checkout's ``notebooks/``,
``_toc.yml``, ``_config.yml``, ``book/_ext``, ``book/chapters`` and ``book/references.bib``; in an
installed package, copies of them. ``ROOT`` is the folder of the table of contents behind
``DATA/_toc.yml``: the checkout (where git history and the book's other files are), or ``DATA``
itself in an installed package.
"""

from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "_book"
ROOT = (DATA / "_toc.yml").resolve().parent
TOC = DATA / "_toc.yml"
CONFIG = DATA / "_config.yml"
EXTENSIONS = DATA / "_ext"
BIBLIOGRAPHY = DATA / "references.bib"
#: chapter sources (MyST Markdown notebooks)
SOURCES = DATA / "notebooks"
#: executed chapter notebooks and their ``CHAPTER.results.json``
EXECUTED = DATA / "chapters"
#: the published pages and the sources of the generated ones (in a checkout only)
BOOK = ROOT / "book"
PAGE_SOURCES = ROOT / "notebooks" / "pages"
