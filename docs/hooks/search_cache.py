"""MkDocs hook: each page's search entries, kept until the page's HTML, address or title change.

Material's search parses every page's HTML into sections on every build: after a
one-line edit under `properdocs serve`, a seventh of the rebuild went to pages that had
not changed. This hook wraps `SearchIndex.add_entry_from_context` so that a page's
entries are kept in `.cache/search.json` (`kept.Kept`) under a hash of all they are made
from: the page's HTML, address, title, metadata (`search: boost`, `exclude`, tags) and
table of contents, Material's version and this file. The index itself is still written
on every build from every page's entries, in the pages' order, as it was.
"""

from importlib.metadata import version
from pathlib import Path

from kept import Kept, key
from material.plugins.search.plugin import SearchIndex

CACHE = Path(__file__).resolve().parents[2] / ".cache" / "search.json"
VERSIONS = (version("mkdocs-material"), Path(__file__).read_bytes())
_state = {"kept": Kept(CACHE, {})}

# the hooks stay loaded under `properdocs serve` (and the tests load them again): wrap once
ADD_ENTRY = SearchIndex.add_entry_from_context
UNCACHED = getattr(ADD_ENTRY, "uncached", ADD_ENTRY)


def anchors(items) -> list[tuple[str, str]]:
    """(id, address) of every heading of a table of contents, in order."""
    return [pair for item in items for pair in [(item.id, item.url), *anchors(item.children)]]


def entries(config: dict, page) -> list[dict]:
    """The search entries of one page, as Material makes them."""
    index = SearchIndex(**config)
    UNCACHED(index, page)
    return index.entries


def add_entry_from_context(index: SearchIndex, page) -> None:
    """SearchIndex.add_entry_from_context, from the cache when the page is as it was."""
    inputs = (page.content, page.url, page.title, page.meta, anchors(page.toc))
    made = _state["kept"].get(key(VERSIONS, *inputs), lambda: entries(index.config, page))
    index.entries.extend(made)


add_entry_from_context.uncached = UNCACHED  # type: ignore[attr-defined]


def on_config(config):
    _state["kept"] = Kept.read(CACHE)
    SearchIndex.add_entry_from_context = add_entry_from_context
    return config


def on_post_build(config):
    _state["kept"].write()
