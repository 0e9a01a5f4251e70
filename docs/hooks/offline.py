"""MkDocs hook: keep every page free of assets from other hosts, so the site works offline.

nbconvert's notebook template adds MathJax and Mermaid loaders that point at a CDN.
Our notebooks use neither (formulas and diagrams are rendered at build time), so the
script blocks that name another host are dropped from the notebook pages.
"""

import re

CDN_SCRIPT = re.compile(
    r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->"
    r"|<script[^>]*>(?:(?!</script>).)*?https?://(?:(?!</script>).)*?</script>",
    re.S,
)


def on_post_page(output, page, config):
    if page.file.src_uri.endswith(".ipynb"):
        return CDN_SCRIPT.sub("", output)
    return output
