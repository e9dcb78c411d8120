// The interactive figures load plotly.js (4.7 MB) on demand: when a figure first comes near the
// window, not with the page. Each figure's own script (type "text/x-plotly-figure", written by
// book/_ext/local_plotly.py) runs once plotly.js has loaded. The script's address is the
// data-plotly attribute of this script's own tag.
//
// Once drawn, a figure narrower than NARROW px (a phone) gets its title on several lines, its
// legend in rows above the plot with room for both, and its axis titles without their
// parenthesised gloss. A figure with a slider gets a range input beside it, so that the slider
// works from the keyboard (arrow keys) and is announced with its value; a figure with a legend
// gets a button per legend entry, which shows or hides its series as a click on the entry does.
// On a phone the toolbar stands upright at the right edge, clear of the title.
(function () {
  const me = document.currentScript;
  const source = me && me.dataset.plotly;
  let loading = null;
  function plotly() {
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        const tag = document.createElement("script");
        tag.src = source;
        tag.onload = resolve;
        tag.onerror = reject;
        document.head.appendChild(tag);
      });
    }
    return loading;
  }
  const NARROW = 560;
  function wrap(text) {
    return String(text || "").replace(/, /g, ",<br>").replace(/: /g, ":<br>");
  }
  function lines(text) {
    return String(text || "").split("<br>").length;
  }
  function narrow(div) {
    const layout = div.layout;
    const title = wrap(layout.title && layout.title.text);
    const titled = title ? 17 * lines(title) + 14 : 0;
    const first = (layout.margin && layout.margin.t) || 50;
    const update = {
      "title.text": title,
      "title.font.size": 12,
      "title.yref": "container",
      "title.y": 1,
      "title.yanchor": "top",
      "title.pad.t": 10,
      "legend.orientation": "h",
      "legend.x": 0,
      "legend.y": 1.0,
      "legend.xanchor": "left",
      "legend.yanchor": "bottom",
      "legend.font.size": 11,
      "margin.r": 10,
      "modebar.orientation": "v",
    };
    ["xaxis", "yaxis"].forEach(function (axis) {
      const t = layout[axis] && layout[axis].title && layout[axis].title.text;
      if (t) update[axis + ".title.text"] = t.replace(/ \(.*\)$/, "");
    });
    if (layout.sliders && layout.sliders.length) update["sliders[0].pad.t"] = 70;
    Plotly.relayout(div, update).then(function () {
      // the legend's rows, as drawn at this width, decide the room above the plot
      const legend = div.querySelector(".legend");
      const rows = legend ? legend.getBBox().height : 0;
      const top = titled + rows + 12;
      const height = (layout.height || 460) + top - first;
      div.parentElement.style.height = height + "px";
      return Plotly.relayout(div, {"margin.t": top, height: height});
    });
    if (layout.sliders && layout.sliders.length) {
      div.on("plotly_sliderchange", function () {
        setTimeout(function () {
          Plotly.relayout(div, {"title.text": wrap(div.layout.title.text.replace(/<br>/g, " "))});
        }, 0);
      });
    }
  }
  function keyboard(div) {
    const slider = div.layout.sliders && div.layout.sliders[0];
    if (!slider) return;
    const steps = slider.steps;
    const input = document.createElement("input");
    input.type = "range";
    input.min = 0;
    input.max = steps.length - 1;
    input.step = 1;
    input.value = slider.active || 0;
    input.className = "attnspec-keyboard-slider";
    const prefix = (slider.currentvalue && slider.currentvalue.prefix) || "";
    input.setAttribute("aria-label", "slider " + prefix.replace(/[ =]+$/, ""));
    function name(i) { return prefix + steps[i].label; }
    input.setAttribute("aria-valuetext", name(input.value));
    input.addEventListener("input", function () {
      const i = Number(input.value), args = steps[i].args;
      input.setAttribute("aria-valuetext", name(i));
      Plotly.update(div, args[0], Object.assign({}, args[1], {"sliders[0].active": i})).then(
        function () {
          if (div.offsetWidth < NARROW) {
            Plotly.relayout(div, {"title.text": wrap(args[1]["title.text"])});
          }
        });
    });
    div.on("plotly_sliderchange", function (event) {
      input.value = event.slider.active;
      input.setAttribute("aria-valuetext", name(input.value));
    });
    div.after(input);
  }
  function legendKeys(div) {
    const shown = div.data.filter(function (trace) { return trace.showlegend !== false; });
    if (!div.layout.showlegend && shown.length < 2) return;
    const group = document.createElement("div");
    group.className = "attnspec-legend-keys";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", "series of the figure: show or hide each");
    div.data.forEach(function (trace, i) {
      if (trace.showlegend === false || !trace.name) return;
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = String(trace.name).replace(/<[^>]+>/g, "");
      function pressed() { return div.data[i].visible !== "legendonly"; }
      button.setAttribute("aria-pressed", String(pressed()));
      button.addEventListener("click", function () {
        Plotly.restyle(div, {visible: pressed() ? "legendonly" : true}, [i]);
      });
      div.on("plotly_restyle", function () {
        button.setAttribute("aria-pressed", String(pressed()));
      });
      group.appendChild(button);
    });
    if (group.children.length) div.after(group);
  }
  function adapt(box, tries) {
    const div = box.querySelector(".plotly-graph-div");
    if (!div) return;
    if (!div._fullLayout || !div.layout) {  // newPlot draws asynchronously
      if (tries < 100) setTimeout(function () { adapt(box, tries + 1); }, 50);
      return;
    }
    if (div.offsetWidth < NARROW) narrow(div);
    keyboard(div);
    legendKeys(div);
  }
  function draw(figure) {
    plotly().then(function () {
      const box = figure.closest(".attnspec-interactive") || figure.parentElement;
      const run = document.createElement("script");
      run.text = figure.text;
      figure.replaceWith(run);
      adapt(box, 0);
    });
  }
  function start() {
    const figures = [...document.querySelectorAll('script[type="text/x-plotly-figure"]')];
    if (!figures.length) return;
    if (!("IntersectionObserver" in window)) return figures.forEach(draw);
    const seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        seen.unobserve(entry.target);
        const figure = entry.target._plotlyFigure;
        if (figure) draw(figure);
      });
    }, {rootMargin: "600px 0px"});
    figures.forEach(function (figure) {
      const box = figure.previousElementSibling || figure.parentElement;
      box._plotlyFigure = figure;
      seen.observe(box);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
