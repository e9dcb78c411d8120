"""Where the book's files are, resolved once.

``DATA`` is ``attnspec/_book``: in a checkout it holds links to the checkout's
``notebooks/``, ``_toc.yml``, ``book/chapters`` and ``book/references.bib``; in an installed
package, copies of them.
``ROOT`` is the folder of the table of contents behind ``DATA/_toc.yml``: the checkout (where git
history and the book's other files are), or ``DATA`` itself in an installed package.
"""

from pathlib import Path

DATA = Path(__file__).resolve().parent / "_book"
ROOT = (DATA / "_toc.yml").resolve().parent
