"""Sphinx extension: ship plotly.js inside the built site, for the interactive figures, offline.

``plotly.min.js`` comes from the installed plotly package (``plotly/package_data``), is copied once
to ``_static/plotly/plotly.min.js``, and is loaded (in the head, before the figures' own scripts
run) only by the pages that hold a plotly figure. The figures' outputs carry no plotly.js of their
own (:mod:`attnspec.publish.interactive`), so nothing is loaded from another host.
"""

import shutil
from importlib.util import find_spec
from pathlib import Path

SCRIPT = "plotly/plotly.min.js"
#: The class of the div plotly draws into: a page whose body has one loads the script.
MARKER = "plotly-graph-div"


def plotly_script() -> Path:
    """The installed ``plotly.min.js``; RuntimeError with what to install when missing."""
    spec = find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("plotly is not installed: run `make install` (plotly>=6,<8)")
    path = Path(next(iter(spec.submodule_search_locations))) / "package_data" / "plotly.min.js"
    if not path.is_file():
        raise RuntimeError(f"{path} is missing: reinstall plotly (plotly>=6,<8)")
    return path


def _add_script(app, pagename, templatename, context, doctree):
    if MARKER in (context.get("body") or ""):
        app.add_js_file(SCRIPT)


def _copy(app, exception):
    if exception is None and app.builder.format == "html":
        target = Path(app.outdir) / "_static" / SCRIPT
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(plotly_script(), target)


def setup(app):
    plotly_script()  # fail early with a clear message
    app.connect("html-page-context", _add_script)
    app.connect("build-finished", _copy)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
