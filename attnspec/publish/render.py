"""A re-run chapter as one self-contained HTML page, rendered by the book's own pipeline.

:func:`render_html` builds a one-page Jupyter Book (Sphinx + myst-nb, the book's ``_config.yml``:
sphinx-book-theme, the bundled MathJax 3, execution off) in a temporary folder beside the notebook,
so every glue role shows the re-run's value. The page opens with the parameters of the run, a
table of what changed against the published chapter (:mod:`attnspec.publish.provenance`) and the
way back to that chapter. References to other chapters become links into the published book, or
words that say what and where they are (``book/_ext/rerun_refs.py``); citations resolve to a
reference list at the end of the page.
Stylesheets, scripts, fonts and figures are then embedded as ``data:`` URIs: the page is one file
that loads nothing from another host and typesets its math offline.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import re
import shutil
import sys
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import yaml

from ..core import cleanup
from ..core.errors import InvalidInput
from ..present.tables import markdown_table
from .chapters import Chapter
from .diff import diff, format_rel
from .paths import BIBLIOGRAPHY, CONFIG, EXTENSIONS
from .provenance import printable
from .repository import site_url


def _value(value) -> str:
    return ", ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)


def shortened(text: str | None, width: int = 60) -> str:
    """``text`` on one line, cut to about ``width`` characters, never inside ``$…$`` math or a
    role: what a table cell of the page shows of a long value (``–`` for none)."""
    if text is None:
        return "–"
    text = printable(" ".join(str(text).split()))
    if len(text) <= width:
        return text
    cut = text[:width]
    if cut.count("$") % 2:
        cut = cut[: cut.rfind("$")]
    if cut.count("`") % 2:
        cut = cut[: cut.rfind("{", 0, cut.rfind("`"))]
    return cut.rstrip() + " …"


def back_to(chap: Chapter) -> str:
    """Markdown that leads from the re-run page to the published chapter."""
    url = site_url()
    if url:
        return f"[The published chapter]({url}book/chapters/{chap.name}.html) shows the defaults."
    return (
        f"The published chapter, *{chap.title}* in the book, shows the defaults (this copy knows "
        "no published address to link)."
    )


def preface(chap: Chapter, parameters: dict, results_file: Path | None) -> str:
    """Markdown that opens a re-run page.

    It gives the parameters used and what changed against the published chapter.
    """
    from . import provenance

    defaults = chap.defaults
    order = list(defaults) + [k for k in parameters if k not in defaults]
    rows = [
        [
            f"`{k}`",
            _value(parameters[k]),
            _value(defaults.get(k, "–")),
            "" if parameters[k] == defaults.get(k) else "changed",
        ]
        for k in order
        if k in parameters
    ]
    text = [
        "```{admonition} Re-run of this chapter\n:class: important\n",
        "This page shows the chapter re-executed with the parameters below; every number in the "
        f"prose and every figure comes from this run. {back_to(chap)}\n",
        markdown_table(["parameter", "this run", "published", ""], rows),
        "",
    ]
    try:
        published = provenance.load(provenance.published(chap.name))
        current = provenance.load(results_file) if results_file else None
    except InvalidInput:
        published = current = None
    if published and current:
        result = diff(current, published)
        unchanged = len(result.values) - len(result.changed)
        text.append(
            f"**What changed** against the published chapter: {len(result.changed)} of "
            f"{len(result.values)} glued values ({unchanged} unchanged).\n"
        )
        if result.changed:
            text.append(
                markdown_table(
                    ["key", "published", "this run", "relative change"],
                    [
                        [f"`{printable(v.key)}`", shortened(v.b), shortened(v.a)]
                        + [format_rel(v.rel_change)]
                        for v in result.changed
                    ],
                )
            )
        if not result.claims_compared:
            text.append(
                "\nClaims are not compared: the published chapter did not record its claims."
            )
        elif result.claims:
            text.append("\nClaims whose verdict changed:\n")
            text.append(
                markdown_table(
                    ["claim", "published", "this run"],
                    [[c.claim, c.b, c.a] for c in result.claims],
                )
            )
    else:
        text.append("No published results of this chapter to compare with.")
    text.append("```")
    return "\n".join(text)


def _config(work: Path) -> dict:
    config = yaml.safe_load(CONFIG.read_text())
    config["title"] = "attnspec re-run"
    config["only_build_toc_files"] = True
    config["exclude_patterns"] = ["_build", ".*", "**/.*"]
    config["execute"] = {"execute_notebooks": "off"}
    config["bibtex_bibfiles"] = ["references.bib"]
    config.setdefault("sphinx", {})["local_extensions"] = {
        "local_mathjax": str(EXTENSIONS.resolve()),
        "rerun_refs": str(EXTENSIONS.resolve()),
    }
    # an interactive figure shows its static rendering (image/png): the one-file page has no plotly
    config["sphinx"].setdefault("config", {})["nb_mime_priority_overrides"] = [
        ["html", "image/png", 25]
    ]
    return config


def _data_uri(path: Path, data: bytes | None = None) -> str:
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    if path.suffix == ".js":
        kind = "text/javascript"
    elif path.suffix in (".woff2", ".woff"):
        kind = f"font/{path.suffix[1:]}"
    payload = data if data is not None else path.read_bytes()
    return f"data:{kind};base64,{base64.b64encode(payload).decode()}"


def _local(base: Path, url: str) -> Path | None:
    """The file a relative URL in ``base`` points to, or None (remote, anchor, data or missing)."""
    parts = urlsplit(url)
    if not url or url.startswith("#") or parts.scheme or parts.netloc:
        return None
    path = (base / parts.path).resolve()
    return path if path.is_file() else None


def _inline_css(path: Path) -> bytes:
    """The style sheet at ``path`` with every local ``url(…)`` it loads embedded."""
    css = path.read_text(errors="replace")

    def repl(match):
        target = _local(path.parent, match.group(2))
        quote = match.group(1)
        return f"url({quote}{_data_uri(target)}{quote})" if target else match.group(0)

    return re.sub(r"url\((['\"]?)([^)'\"]+)\1\)", repl, css).encode()


def inline(page: Path) -> str:
    """``page`` with every local stylesheet, script, icon and image embedded as a ``data:`` URI,
    without preload hints, the headings' pilcrow links and the links from figures to their image
    files (which the one-file page does not have)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page.read_text(), "html.parser")
    hints = "link[rel~=preload], link[rel~=prefetch], link[rel~=modulepreload], a.headerlink"
    for tag in soup.select(hints):
        tag.decompose()
    for link in soup.select('a[href^="_images/"]'):
        if len(link.find_all(True)) == 1 and link.img and not link.get_text(strip=True):
            link.replace_with(link.img)
    for tag in soup.find_all(["script", "img", "link", "source"]):
        for name in ("src", "href"):
            target = _local(page.parent, tag.get(name, ""))
            rel = " ".join(tag.get("rel", []))
            if target and (tag.name != "link" or "stylesheet" in rel or "icon" in rel):
                data = _inline_css(target) if target.suffix == ".css" else None
                tag[name] = _data_uri(target, data)
    return str(soup)


def render_html(notebook: str | Path, chap: Chapter, target: str | Path | None = None) -> Path:
    """Render an executed notebook of ``chap`` (and its results file) to one self-contained page.

    Written atomically to ``target`` (default: the notebook's name with ``.html``); the temporary
    book lives in a hidden folder beside it and is removed in any case.
    """
    target = Path(target) if target else Path(notebook).with_suffix(".html")
    notebook = Path(notebook).resolve()
    nb = nbformat.read(notebook, as_version=4)
    meta = nb.metadata.get("attnspec", {})
    name = chap.name
    results_file = notebook.with_name(f"{notebook.stem}.results.json")
    parameters = meta.get("parameters") or chap.defaults
    with cleanup.temporary_folder(target.resolve().parent, f".{name}-html-") as work:
        opening = preface(chap, parameters, results_file if results_file.is_file() else None)
        first = next(c for c in nb.cells if c.cell_type == "markdown")
        title, _, rest = first.source.partition(
            "\n"
        )  # the page opens with the run: right below the title
        first.source = f"{title}\n\n{opening}\n\n{rest}"
        if any("{cite" in c.source for c in nb.cells if c.cell_type == "markdown"):
            nb.cells.append(
                nbformat.v4.new_markdown_cell("## References\n\n```{bibliography}\n```")
            )
        nbformat.write(nb, work / f"{name}.ipynb")
        if results_file.is_file():
            shutil.copy2(results_file, work / f"{name}.results.json")
        if BIBLIOGRAPHY.is_file():
            shutil.copy2(BIBLIOGRAPHY, work / "references.bib")
        (work / "_config.yml").write_text(yaml.safe_dump(_config(work), sort_keys=False))
        (work / "_toc.yml").write_text(yaml.safe_dump({"format": "jb-article", "root": name}))
        done = cleanup.run(
            [
                sys.executable,
                "-c",
                "import sys; from jupyter_book.cli.main import main; sys.exit(main())",
                "build",
                str(work),
                "--all",
                "--quiet",
            ]
        )
        page = work / "_build" / "html" / f"{name}.html"
        if done.returncode != 0 or not page.is_file():
            raise RuntimeError(
                f"rendering {name} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
            )
        (work / "final.html").write_text(inline(page))
        os.chmod(work / "final.html", 0o644)
        os.replace(work / "final.html", target)
    return target
