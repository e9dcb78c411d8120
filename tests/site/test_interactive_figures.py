"""The interactive figures in a real browser: headless Chromium (Playwright driving Debian's
chromium) opens a copy of the built site from file://. Each figure draws, the slider changes the
plotted data, hovering the phase diagram shows a cell's error, a legend click hides a rung, and no
request leaves the copied site's folder.

Needs the built site (`make book`) and /usr/bin/chromium.
"""

from __future__ import annotations

import pytest

from attnspec.present import interactive

FIGURES = {
    "limit-law": interactive.LAW_SLIDER,
    "convergence": interactive.DISTANCE_IN_D,
    "convergence-threshold": interactive.PHASE_DIAGRAM,
}
pytestmark = pytest.mark.site


@pytest.fixture(scope="module")
def figures(browser, site) -> dict:
    """Each figure's page, opened when a test first asks for it, for the tests that change
    nothing on it; a test that clicks or types opens its own (:func:`open_figure`)."""

    class Opened(dict):
        def __missing__(self, name: str):
            self[name] = open_figure(browser, site, name)
            return self[name]

    return Opened()


def open_figure(browser, site, name: str, width: int = 1280):
    """The page of chapter ``name`` at ``width`` px once its figure has drawn, and every URL it
    requested."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto((site / "book" / "chapters" / f"{name}.html").as_uri())
    div = FIGURES[name]
    assert page.evaluate("() => typeof Plotly") == "undefined"  # loaded on demand, not upfront
    page.locator(f"#{div}").scroll_into_view_if_needed()
    page.wait_for_function(
        f"() => {{ const g = document.getElementById('{div}');"
        " return g && g._fullData && g.querySelector('.main-svg'); }",
        timeout=30000,
    )
    return page, requests


@pytest.mark.parametrize("name", FIGURES)
def test_each_figure_draws_and_loads_nothing_from_outside_the_site(figures, site, name):
    page, requests = figures[name]
    div = FIGURES[name]
    traces = page.evaluate(f"() => document.getElementById('{div}')._fullData.length")
    drawn = page.evaluate(
        f"() => document.getElementById('{div}').querySelectorAll('.trace, .hm').length"
    )
    assert traces >= 1 and drawn >= 1
    assert page.evaluate("() => typeof Plotly") == "object"
    root = site.as_uri()
    outside = [u for u in requests if not (u.startswith(root + "/") or u.startswith("data:"))]
    assert outside == []


def test_moving_the_slider_changes_the_plotted_data(browser, site):
    page, _ = open_figure(browser, site, "limit-law")
    div = FIGURES["limit-law"]
    read = f"() => {{ const g = document.getElementById('{div}');"
    before = page.evaluate(read + " return [g.data[0].y, g.layout.sliders[0].active]; }")
    rail = page.locator(f"#{div} .slider-rail-touch-rect").bounding_box()
    page.mouse.click(rail["x"] + rail["width"] - 4, rail["y"] + rail["height"] / 2)
    page.wait_for_function(read + f" return g.layout.sliders[0].active !== {before[1]}; }}")
    after = page.evaluate(read + " return [g.data[0].y, g.layout.sliders[0].active]; }")
    steps = page.evaluate(read + " return g.layout.sliders[0].steps.length; }")
    assert after[1] == steps - 1 and after[0] != before[0]
    page.close()


def test_hovering_a_cell_shows_its_distance_and_error(figures):
    page, _ = figures["convergence-threshold"]
    div = FIGURES["convergence-threshold"]
    box = page.locator(f"#{div} .nsewdrag").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.5)
    page.wait_for_selector(f"#{div} .hovertext", timeout=10000)
    text = page.locator(f"#{div} .hovertext").first.text_content()
    assert "±" in text and "β" in text


def test_a_legend_click_hides_a_rung(browser, site):
    page, _ = open_figure(browser, site, "convergence")
    div = FIGURES["convergence"]
    page.locator(f"#{div} .legend .traces").first.click()
    page.wait_for_function(
        f"() => document.getElementById('{div}').data[0].visible === 'legendonly'"
    )
    page.close()


@pytest.mark.parametrize("name", FIGURES)
def test_the_mode_bar_offers_no_upload_and_print_shows_the_static_image(figures, name):
    page, _ = figures[name]
    div = FIGURES[name]
    buttons = page.evaluate(
        f"() => [...document.getElementById('{div}').querySelectorAll('.modebar-btn')]"
        ".map(b => b.getAttribute('data-title'))"
    )
    assert buttons and not [b for b in buttons if "Share" in b or "Cloud" in b], buttons
    shown = f"""() => {{ const g = document.getElementById('{div}');
        const img = g.closest('.attnspec-interactive').querySelector('img.attnspec-print');
        return [g.getBoundingClientRect().height > 0, img.getBoundingClientRect().height > 0,
                img.naturalWidth > 0]; }}"""
    assert page.evaluate(shown) == [True, False, True]  # on screen: the plotly figure only
    page.emulate_media(media="print")
    try:
        assert page.evaluate(shown) == [False, True, True]  # printed: the static image only
    finally:
        page.emulate_media(media="screen")


def test_the_keyboard_hides_and_shows_a_rung_as_a_legend_click_does(browser, site):
    page, _ = open_figure(browser, site, "convergence")
    div = FIGURES["convergence"]
    first = page.locator(f"#{div} ~ .attnspec-legend-keys button").first
    first.focus()
    assert first.is_visible() and first.get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.getElementById('{div}').data[0].visible === 'legendonly'"
    )
    assert first.get_attribute("aria-pressed") == "false"
    page.keyboard.press("Space")
    page.wait_for_function(f"() => document.getElementById('{div}').data[0].visible === true")
    page.close()


def test_the_mode_bar_clears_the_title_on_a_phone(browser, site):
    page, _ = open_figure(browser, site, "limit-law", width=390)
    div = FIGURES["limit-law"]
    page.wait_for_function(
        f"() => document.getElementById('{div}')._fullLayout.modebar.orientation === 'v'"
    )
    page.locator(f"#{div}").hover()
    bar = page.locator(f"#{div} .modebar").bounding_box()
    title = page.locator(f"#{div} .gtitle").bounding_box()
    overlap = not (
        bar["x"] >= title["x"] + title["width"]
        or title["x"] >= bar["x"] + bar["width"]
        or bar["y"] >= title["y"] + title["height"]
        or title["y"] >= bar["y"] + bar["height"]
    )
    assert not overlap, (bar, title)
    page.close()
