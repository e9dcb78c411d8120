"""Interactive figures: deterministic HTML without plotly.js, a static rendering in the bundle,
the slider, and the Sphinx extension that ships plotly.min.js."""

from __future__ import annotations

import base64
import importlib.util
import types

import matplotlib

matplotlib.use("Agg")

import numpy as np

from attnspec.chapters.limit_law import figures as limit_law_figures
from attnspec.experiments.limit_law import SliderFrame
from attnspec.present import interactive, plotting
from attnspec.publish.paths import ROOT


def frame(beta: float) -> SliderFrame:
    x = np.linspace(0.02, 7.0, 50)
    edges = np.linspace(0.0, 7.0, 15)
    return SliderFrame(
        beta, 1.7, x, np.exp(-x) * beta, np.exp(-x), edges, np.full(14, 0.1 * beta), 0.01, 0.06, 5.2
    )


def test_rounded_keeps_significant_digits_and_drops_non_finite_values():
    assert interactive.rounded([1.23456789, 0.000123456, 0.0, np.nan], 3) == [
        1.23,
        0.000123,
        0.0,
        None,
    ]
    assert interactive.rounded(np.array([[1.0, 2.0], [3.0, np.inf]]), 2) == [
        [1.0, 2.0],
        [3.0, None],
    ]
    assert interactive.rounded(12345.678, 2) == 12000.0


def test_slider_figure_has_one_step_per_frame_and_fixed_html():
    frames = [frame(0.5), frame(1.0), frame(1.5)]
    fig = interactive.law_slider(frames, active=1)
    steps = fig.layout.sliders[0].steps
    assert len(steps) == 3 and fig.layout.sliders[0].active == 1
    assert steps[2].args[0]["y"][0] == interactive.rounded(frames[2].hist, 4)
    assert "1.5" in steps[2].args[1]["title.text"] and fig.data[0].y == tuple(
        interactive.rounded(frames[1].hist, 4)
    )
    static = limit_law_figures.law_frames_grid(frames)
    made = interactive.InteractiveFigure(fig, interactive.LAW_SLIDER, static, 'a "label"')
    html = made.html()
    assert (
        html
        == interactive.InteractiveFigure(
            interactive.law_slider(frames, 1), interactive.LAW_SLIDER, static, 'a "label"'
        ).html()
    )
    assert f'id="{interactive.LAW_SLIDER}"' in html and "<script src" not in html
    assert 'aria-label="a &quot;label&quot;"' in html and "bdata" not in html  # plain numbers
    bundle = made._repr_mimebundle_()
    assert set(bundle) == {"text/html", "image/png", "text/plain"}
    assert base64.b64decode(bundle["image/png"])[:8] == b"\x89PNG\r\n\x1a\n"
    assert '"showSendToCloud": false' in html  # no "Share chart…" (upload to plotly's cloud)
    printed = f'src="data:image/png;base64,{bundle["image/png"]}"'
    assert f'class="attnspec-print" alt="a &quot;label&quot;" {printed}' in html
    plotting.plt.close(static)


def load_extension():
    spec = importlib.util.spec_from_file_location(
        "local_plotly", ROOT / "book" / "_ext" / "local_plotly.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_extension_adds_the_script_only_to_pages_with_a_figure_and_copies_it(tmp_path):
    ext = load_extension()
    assert ext.plotly_script().name == "plotly.min.js" and ext.plotly_script().stat().st_size > 1e6
    added = []
    app = types.SimpleNamespace(
        add_js_file=lambda name, **attrs: added.append((name, attrs)), outdir=str(tmp_path)
    )
    figure = {
        "body": '<div class="plotly-graph-div"></div>' + ext.FIGURE_SCRIPT + " = {};</script>",
        "pathto": lambda name, resource: "../" + name,
    }
    ext._add_script(app, "p", "page.html", figure, None)
    ext._add_script(app, "q", "page.html", {"body": "<p>no figure</p>"}, None)
    assert added == [
        (
            "plotly-on-demand.js",
            {"loading_method": "defer", "data-plotly": "../_static/" + ext.SCRIPT},
        )
    ]
    assert ext.WAITING in figure["body"] and ext.FIGURE_SCRIPT not in figure["body"]
    app.builder = types.SimpleNamespace(format="html")
    ext._copy(app, None)
    copied = tmp_path / "_static" / "plotly" / "plotly.min.js"
    assert copied.read_bytes() == ext.plotly_script().read_bytes()


def test_the_pdf_and_the_rerun_page_prefer_the_static_rendering(tmp_path):
    import yaml

    from attnspec.publish import render
    from attnspec.publish.paths import CONFIG

    book = yaml.safe_load(CONFIG.read_text())["sphinx"]
    assert ["singlehtml", "image/png", 25] in book["config"]["nb_mime_priority_overrides"]
    assert "local_plotly" in book["local_extensions"]  # the site itself keeps the plotly html
    rerun = render._config(tmp_path)["sphinx"]["config"]["nb_mime_priority_overrides"]
    assert ["html", "image/png", 25] in rerun  # 25 < 30, the priority of text/html
