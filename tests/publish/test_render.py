"""Tests of attnspec.publish.render: a built page made one self-contained file."""

from __future__ import annotations

import base64

from bs4 import BeautifulSoup

from attnspec.publish.render import inline, shortened

PAGE = """<!DOCTYPE html>
<html><head>
<link rel="stylesheet" href="_static/site.css">
<link rel="preload" as="script" href="_static/app.js">
<link rel="icon" href="_static/logo.png">
<link rel="next" href="other.html">
<script src="_static/app.js"></script>
<script src="https://example.org/remote.js"></script>
</head><body>
<h1>Title<a class="headerlink" href="#title">¶</a></h1>
<a class="reference" href="_images/fig.png"> <img src="_images/fig.png" alt="a figure"> </a>
<a href="#top">top</a> <p>1 &lt; 2 &amp; x</p>
</body></html>
"""


def test_inline_embeds_local_files_and_drops_what_a_single_file_has_no_use_for(tmp_path):
    (tmp_path / "_static").mkdir()
    (tmp_path / "_images").mkdir()
    (tmp_path / "_static" / "site.css").write_text('@font-face { src: url("font.woff2"); }')
    (tmp_path / "_static" / "font.woff2").write_bytes(b"FONT")
    (tmp_path / "_static" / "app.js").write_text("let a = 1;")
    (tmp_path / "_static" / "logo.png").write_bytes(b"PNG")
    (tmp_path / "_images" / "fig.png").write_bytes(b"FIG")
    (tmp_path / "page.html").write_text(PAGE)
    soup = BeautifulSoup(inline(tmp_path / "page.html"), "html.parser")

    def decoded(uri: str) -> bytes:
        assert uri.startswith("data:")
        return base64.b64decode(uri.split(",", 1)[1])

    css = decoded(soup.find("link", rel="stylesheet")["href"]).decode()
    assert css == '@font-face { src: url("data:font/woff2;base64,Rk9OVA=="); }'
    assert decoded(soup.find("link", rel="icon")["href"]) == b"PNG"
    assert soup.find("link", rel="next")["href"] == "other.html"
    assert not soup.select("link[rel=preload], a.headerlink")
    scripts = [s["src"] for s in soup.find_all("script")]
    assert scripts[0].startswith("data:text/javascript;") and decoded(scripts[0]) == b"let a = 1;"
    assert scripts[1] == "https://example.org/remote.js"
    image = soup.find("img")
    assert image.parent.name == "body" and decoded(image["src"]) == b"FIG"
    assert soup.h1.get_text() == "Title" and soup.find("a")["href"] == "#top"
    assert soup.p.get_text() == "1 < 2 & x"


def test_shortened_never_cuts_inside_math_or_a_role():
    assert shortened(None) == "–" and shortened("a\n  b") == "a b"
    assert shortened("x" * 50 + " $a + b$ tail", width=53) == "x" * 50 + " …"
    assert shortened("y" * 50 + " {glue}`key` more", width=58) == "y" * 50 + " …"
