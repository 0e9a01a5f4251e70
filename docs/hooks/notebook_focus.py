"""MkDocs hook: no Tab stop on a notebook cell that does nothing.

nbconvert gives every cell's input and every output of a notebook `tabindex="0"`, so that
JupyterLab can scroll them from the keyboard. On an odds page they hold prose and tables
that do not scroll: each was a stop of Tab that showed no focus and did nothing (19 on
the campaign battles page, before its first link). A table wider than the column still
scrolls from the keyboard: it is wrapped in a box that docs/javascripts/a11y.js makes a
named region Tab reaches while it scrolls.
"""

import re

CELL_STOP = re.compile(
    r'(<div class="jp-(?:Cell-inputWrapper|RenderedHTMLCommon)[^"]*"[^>]*?) tabindex="0"'
)


def without_cell_stops(html: str) -> str:
    """The page without the cells' Tab stops (`<div class="jp-Cell-inputWrapper"
    tabindex="0">` becomes `<div class="jp-Cell-inputWrapper">`); any other `tabindex` is
    kept (tests/test_site_hooks.py)."""
    return CELL_STOP.sub(r"\1", html)


def on_post_page(output, page, config):
    return without_cell_stops(output) if page.file.src_uri.endswith(".ipynb") else output
