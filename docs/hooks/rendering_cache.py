"""MkDocs hook: the highlighted code and the search entries of what has not changed, kept.

Two libraries' work was done again on every build for every page, though a one-line edit
under `properdocs serve` had touched one: together a third of such a rebuild. This hook
wraps each so that its output is kept (`kept.Kept`) under a hash of all it is made from.

- **Highlighting** (`.cache/highlight.json`): Pygments lexed and formatted every code
  block again (the Code pages' source, the worked examples, the command line's sessions,
  the API page's signatures). Every block goes through
  `pymdownx.highlight.Highlight.highlight` (superfences, inlinehilite, mkdocstrings); its
  HTML is kept under the block, every argument, the highlighter's settings and the versions
  of Pygments and pymdown-extensions. A title given as HTML goes through Markdown's stash
  (a side effect a kept string would skip), so such a block is highlighted afresh.
- **Search** (`.cache/search.json`): Material's search parsed every page's HTML into
  sections again. `SearchIndex.add_entry_from_context` keeps a page's entries under the
  search plugin's settings, the page's HTML, address, title, metadata (`search: boost`,
  `exclude`, tags) and table of contents, and Material's version. The index itself is
  still written on every build from every page's entries, in the pages' order.
"""

from importlib.metadata import version
from pathlib import Path
from typing import Any

from kept import Kept, key
from material.plugins.search.plugin import SearchIndex
from pymdownx.highlight import Highlight

CACHE = Path(__file__).resolve().parents[2] / ".cache"
OWN = Path(__file__).read_bytes()
VERSIONS = {
    "highlight": (version("Pygments"), version("pymdown-extensions"), OWN),
    "search": (version("mkdocs-material"), OWN),
}
_state = {name: Kept(CACHE / f"{name}.json", {}) for name in VERSIONS}

# the hooks stay loaded under `properdocs serve` (and the tests load them again): wrap once
UNHIGHLIGHTED = getattr(Highlight.highlight, "uncached", Highlight.highlight)
ADD_ENTRY = SearchIndex.add_entry_from_context
UNSEARCHED = getattr(ADD_ENTRY, "uncached", ADD_ENTRY)


def settings(highlighter: Highlight) -> dict[str, Any]:
    """What the highlighter was configured with (all but its Markdown instance)."""
    return {name: value for name, value in vars(highlighter).items() if name != "md"}


def highlight(highlighter: Highlight, src: str, language: str, *args: Any, **kwargs: Any) -> str:
    """Highlight.highlight, from the cache when this block was highlighted so before."""
    kept_settings = settings(highlighter)
    made = lambda: UNHIGHLIGHTED(highlighter, src, language, *args, **kwargs)  # noqa: E731
    if kept_settings["title_mode"] == "html" or kept_settings["auto_title_map"]:
        return made()
    inputs = (kept_settings, src, language, args, sorted(kwargs.items()))
    return _state["highlight"].get(key(VERSIONS["highlight"], *inputs), made)


def anchors(items) -> list[tuple[str, str]]:
    """(id, address) of every heading of a table of contents, in order."""
    return [pair for item in items for pair in [(item.id, item.url), *anchors(item.children)]]


def entries(config: dict, page) -> list[dict]:
    """The search entries of one page, as Material makes them."""
    index = SearchIndex(**config)
    UNSEARCHED(index, page)
    return index.entries


def add_entry_from_context(index: SearchIndex, page) -> None:
    """SearchIndex.add_entry_from_context, from the cache when the page is as it was."""
    inputs = (index.config, page.content, page.url, page.title, page.meta, anchors(page.toc))
    name = key(VERSIONS["search"], *inputs)
    index.entries.extend(_state["search"].get(name, lambda: entries(index.config, page)))


highlight.uncached = UNHIGHLIGHTED  # type: ignore[attr-defined]
add_entry_from_context.uncached = UNSEARCHED  # type: ignore[attr-defined]


def on_config(config):
    for name in VERSIONS:
        _state[name] = Kept.read(CACHE / f"{name}.json")
    Highlight.highlight = highlight
    SearchIndex.add_entry_from_context = add_entry_from_context
    return config


def on_post_build(config):
    for kept in _state.values():
        kept.write()
