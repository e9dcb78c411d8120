"""Sphinx extension: ship MathJax 3 (tex-svg.js) inside the built site, so pages work offline.

The script comes from the ``django-static-mathjax`` package (MathJax 3.2.2, Apache-2.0), installed
by ``make install``; it is copied to ``_static/mathjax/tex-svg.js``, the ``mathjax_path`` of
_config.yml.
"""

import shutil
from importlib.util import find_spec
from pathlib import Path


def _mathjax_script() -> Path:
    spec = find_spec("mathjax")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "MathJax is not installed: run `make install` (package django-static-mathjax)"
        )
    return (
        Path(next(iter(spec.submodule_search_locations)))
        / "static"
        / "mathjax"
        / "es5"
        / "tex-svg.js"
    )


def _copy(app, exception):
    if exception is None and app.builder.format == "html":
        target = Path(app.outdir) / "_static" / "mathjax"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(_mathjax_script(), target / "tex-svg.js")


def setup(app):
    _mathjax_script()  # fail early with a clear message
    app.setup_extension(
        "provenance"
    )  # every chapter page ends with its provenance (book/_ext/provenance.py)
    app.setup_extension("site_chrome")  # no Thebe, no sources or maps, accessible (site_chrome.py)
    app.setup_extension("citation")  # code, downloads and "Cite this chapter" (citation.py)
    app.setup_extension("source_links")  # "Source · Re-run" under figures and claims tables
    app.setup_extension("book_site")  # stylesheet, glue:md as MyST, API summaries (book_site.py)
    app.connect("build-finished", _copy)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
