"""The published site is self-contained: opened from disk with no network, every chapter page
typesets its math with the bundled MathJax and loads every figure; nothing comes from another host.

Needs the built site (`make book`; `make test` builds it first) and Debian's chromium.
"""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from attnspec.chapters import ROOT, toc_chapter_names

SITE = ROOT / "_build" / "html"
PROBE = """<script>
function attnspecProbe() {
  const imgs = [...document.images];
  const result = {mathjax: typeof MathJax !== 'undefined' && !!MathJax.startup,
                  typeset: document.querySelectorAll('mjx-container').length,
                  math: document.querySelectorAll('.math').length,
                  untypeset: [...document.querySelectorAll('.math')].filter(m => !m.querySelector('mjx-container')).length,
                  figures: document.querySelectorAll('figure').length,
                  images: imgs.length,
                  broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)};
  const out = document.createElement('pre');
  out.id = 'attnspec-probe';
  out.textContent = JSON.stringify(result);
  document.body.appendChild(out);
}
window.addEventListener('load', () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) MathJax.startup.promise.then(attnspecProbe, attnspecProbe);
  else attnspecProbe();
});
</script>"""
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--virtual-time-budget=20000", "--dump-dom"]


def page(name: str) -> Path:
    path = SITE / "book" / "chapters" / f"{name}.html"
    assert path.is_file(), f"{path} is missing: build the site with `make book` first"
    return path


def probe(path: Path, tmp_path: Path) -> dict:
    """Open a copy of the page (same folder, so relative links resolve) with a probe script appended."""
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is not installed (`make browser`)"
    copy = path.with_name(f"_probe_{path.name}")
    copy.write_text(path.read_text().replace("</body>", PROBE + "</body>"))
    try:
        done = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path}", copy.as_uri()],
                              capture_output=True, text=True, timeout=180)
    finally:
        copy.unlink()
    found = re.search(r'<pre id="attnspec-probe"[^>]*>(.*?)</pre>', done.stdout, re.S)
    assert found, f"the probe did not run in {path.name}"
    return json.loads(found.group(1))


@pytest.mark.parametrize("name", toc_chapter_names())
def test_chapter_page_typesets_math_and_loads_figures_offline(name, tmp_path):
    result = probe(page(name), tmp_path)
    assert result["mathjax"], "MathJax did not load"
    assert result["math"] > 0 and result["untypeset"] == 0, result
    assert result["images"] >= result["figures"] > 0, result
    assert result["broken"] == [], result


def test_no_page_loads_anything_from_another_host():
    remote = re.compile(r'<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)="(?:https?:)?//', re.I)
    offenders = [p.relative_to(SITE).as_posix() for p in SITE.rglob("*.html") if remote.search(p.read_text())]
    assert offenders == []
