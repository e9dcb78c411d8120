"""Sphinx extension: ship plotly.js inside the built site, for the interactive figures, offline.

``plotly.min.js`` comes from the installed plotly package (``plotly/package_data``) and is copied
once to ``_static/plotly/plotly.min.js``. It is not loaded with the page (4.7 MB, blocking): a page
that holds a plotly figure gets ``_static/plotly-on-demand.js`` (deferred), which loads it when a
figure first comes near the window and then runs the figure's own script, written as
``<script type="text/x-plotly-figure">`` so that it waits. The figures' outputs carry no plotly.js
of their own (:mod:`attnspec.present.interactive`), so nothing is loaded from another host.
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


#: How plotly's ``to_html`` opens a figure's script, and what it becomes: a script that waits.
FIGURE_SCRIPT = "<script>                window.PLOTLYENV"
WAITING = '<script type="text/x-plotly-figure">                window.PLOTLYENV'


def _add_script(app, pagename, templatename, context, doctree):
    body = context.get("body") or ""
    if MARKER in body:
        context["body"] = body.replace(FIGURE_SCRIPT, WAITING)
        plotly = context["pathto"]("_static/" + SCRIPT, 1)
        app.add_js_file("plotly-on-demand.js", loading_method="defer", **{"data-plotly": plotly})


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
