// The interactive figures load plotly.js (4.7 MB) on demand: when a figure first comes near the
// window, not with the page. Each figure's own script (type "text/x-plotly-figure", written by
// book/_ext/local_plotly.py) runs once plotly.js has loaded. The script's address is the
// data-plotly attribute of this script's own tag.
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
  function draw(figure) {
    plotly().then(function () {
      const run = document.createElement("script");
      run.text = figure.text;
      figure.replaceWith(run);
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
