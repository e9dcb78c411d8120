"""What a reader sees on a page of the built site, read in headless Chromium once MathJax has
typeset it: its text outside typeset math and code, its images, tables, words and width (the
checks: ``tests/site/test_built_pages.py``; a re-run's page: ``tests/site/test_run_html.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from attnspec.publish.paths import ROOT, TOC

BUILT = ROOT / "_build" / "html"
PHONE, DESKTOP = 390, 1280
#: The reference pages, looked up rather than read (their docstrings name True, False and None).
API = "book/api"
#: The page's width: more than the window's when something makes it scroll sideways.
WIDTH = "() => document.documentElement.scrollWidth"

#: What must not show in a page's text outside typeset math and code: (what it is, pattern).
DEFECTS = [
    ("a Python object repr", r"<[A-Za-z_][\w.]* object(?: at 0x[0-9a-fA-F]+)?>"),
    ("a figure's repr", r"<Figure size [^>]*>"),
    ("a repr", r"<(?:function|module|class|built-in function|bound method) [^>]*>"),
    ("a NumPy scalar repr", r"\bnp\.(?:float|int)\d+\("),
    ("an unresolved role", r"\{(?:glue|numref|doc|ref|cite|eq|math|download)(?::\w+)?\}"),
    ("a dollar sign (raw TeX)", r"\$"),
    ("raw TeX delimiters", r"\\[()\[\]]"),
    ("a backslash command or escape (raw TeX)", r"\\[A-Za-z]+"),
    ("caret TeX", r"\^"),
]
#: What must not show outside the API pages (whose docstrings name True, False and None).
PROSE_DEFECTS = [("a Python literal (a debug print?)", r"\b(?:True|False|None)\b")]

READ = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    try { await MathJax.startup.promise; } catch (e) {}
  }
  const article = document.querySelector('article.bd-article') || document.body;
  const style = getComputedStyle(article);
  const column = article.clientWidth - parseFloat(style.paddingLeft)
                 - parseFloat(style.paddingRight);
  const textWithout = (selector, keepMath) => {
    const copy = article.cloneNode(true);
    copy.querySelectorAll(selector).forEach(e => e.remove());
    if (!keepMath) copy.querySelectorAll('mjx-container').forEach(e => e.replaceWith(' '));
    copy.style.position = 'absolute';
    copy.style.left = '-10000px';
    article.parentElement.appendChild(copy);
    const text = copy.innerText;
    copy.remove();
    return text;
  };
  const code = 'script, style, .cell_input, code, div[class^="highlight-"]:not(.cell_output *),'
               + ' dt.sig';
  const captionOf = img => {
    const figure = img.closest('figure');
    const caption = figure && figure.querySelector('figcaption');
    return caption ? caption.innerText : '';
  };
  const top = [...article.querySelectorAll('dl.py')].filter(d => !d.parentElement.closest('dl.py'));
  return {
    column: column,
    text: textWithout(code, false),
    words: (textWithout('script, style, .cell_input, .attnspec-source', true).match(/\\S+/g) || [])
      .length,
    images: [...article.querySelectorAll('img')].map(i => ({
      alt: i.getAttribute('alt') || '', src: i.getAttribute('src') || '', caption: captionOf(i)})),
    tables: [...article.querySelectorAll('table')].map(t => ({
      width: t.getBoundingClientRect().width,
      head: (t.rows[0] ? t.rows[0].innerText : '').replace(/\\s+/g, ' ').slice(0, 80)})),
    members: top.map(d => d.querySelector(':scope > dt[id]'))
                .filter(dt => dt).map(dt => dt.id),
    summarized: [...article.querySelectorAll('table.api-summary td:first-child a[href^="#"]')]
                .map(a => a.getAttribute('href').slice(1)),
  };
}"""


def toc_pages() -> list[str]:
    """Every page of ``_toc.yml`` (``book/intro``, ``book/chapters/setup``, …), in order."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            for key in ("root", "file"):
                if key in node:
                    found.append(node[key])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(yaml.safe_load(TOC.read_text()))
    return found


def read(tab, page: Path) -> dict:
    """What a reader sees on ``page``: read at 1280 px, and its width at 390 px."""
    tab.set_viewport_size({"width": DESKTOP, "height": 900})
    tab.goto(page.resolve().as_uri(), wait_until="load")
    seen = tab.evaluate(READ)
    tab.set_viewport_size({"width": PHONE, "height": 900})
    tab.wait_for_timeout(200)
    seen["phone_width"] = tab.evaluate(WIDTH)
    return seen


def defects(text: str, prose: bool = True) -> list[str]:
    """Every defect of :data:`DEFECTS` (and :data:`PROSE_DEFECTS`) in ``text``, in context."""
    found = []
    for what, pattern in DEFECTS + (PROSE_DEFECTS if prose else []):
        for m in re.finditer(pattern, text):
            context = " ".join(text[max(0, m.start() - 40) : m.end() + 40].split())
            found.append(f"{what}: …{context}…")
    return found


def alt_problems(images: list[dict]) -> list[str]:
    """Each image whose alt text is a file path, fewer than four words, or its caption again."""
    found = []
    for image in images:
        alt = " ".join(image["alt"].split())
        name = image["src"].rsplit("/", 1)[-1]
        if re.search(r"[/\\]|\.(?:png|jpe?g|svg|gif)\b", alt):
            found.append(f"{name}: alt text {alt!r} is a file path")
        elif len(re.findall(r"[^\W\d_]{2,}", alt)) < 4:
            found.append(f"{name}: alt text {alt!r} is not a description (four words at least)")
        elif alt == " ".join(image["caption"].split()):
            found.append(f"{name}: alt text repeats the caption")
    return found
