"""MkDocs hook: keep every page free of assets from other hosts, so the site works offline.

nbconvert's notebook template adds MathJax and Mermaid loaders that point at a CDN.
Our notebooks use neither (formulas and diagrams are rendered at build time), so the
script blocks that name another host are dropped from the notebook pages.

markdown-exec links the stylesheet and script of its in-browser Python (pyodide) on
every page; the stylesheet imports highlight themes from a CDN. No page of ours runs
Python in the browser, so both are dropped from every page (404.html included, which is
a template rather than a page) and from the site.
"""

import re
from pathlib import Path

CDN_SCRIPT = re.compile(
    r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->"
    r"|<script[^>]*>(?:(?!</script>).)*?https?://(?:(?!</script>).)*?</script>",
    re.S,
)


PYODIDE_ASSETS = re.compile(
    r'<(?:link|script)[^>]*_markdown_exec_pyodide\.(?:css|js)"[^>]*>(?:</script>)?'
)


def on_post_page(output, page, config):
    output = PYODIDE_ASSETS.sub("", output)
    if page.file.src_uri.endswith(".ipynb"):
        return CDN_SCRIPT.sub("", output)
    return output


def on_post_template(output, template_name, config):
    return PYODIDE_ASSETS.sub("", output)


def on_post_build(config):
    for name in ("_markdown_exec_pyodide.css", "_markdown_exec_pyodide.js"):
        (Path(config["site_dir"]) / "assets" / name).unlink(missing_ok=True)
