"""MkDocs hook: each code block's highlighted HTML, kept until the block or its settings change.

Pygments lexed and formatted every code block of the site again on every build: the
source on the four Code pages, the worked examples, the command line's sessions, the
Python API page's signatures. That was a sixth of a rebuild under `properdocs serve`,
for blocks a one-line edit had not touched. Every block goes through
`pymdownx.highlight.Highlight.highlight` (superfences, inlinehilite, mkdocstrings); this
hook wraps it so that its HTML is kept in `.cache/highlight.json` (`kept.Kept`) under a
hash of the block, every argument, the highlighter's settings and the versions of
Pygments and pymdown-extensions. A title given as HTML goes through Markdown's stash (a
side effect a kept string would skip), so such a block is always highlighted afresh.
"""

from importlib.metadata import version
from pathlib import Path
from typing import Any

from kept import Kept, key
from pymdownx.highlight import Highlight

CACHE = Path(__file__).resolve().parents[2] / ".cache" / "highlight.json"
VERSIONS = (version("Pygments"), version("pymdown-extensions"), Path(__file__).read_bytes())
_state = {"kept": Kept(CACHE, {})}

# the hooks stay loaded under `properdocs serve` (and the tests load them again): wrap once
UNCACHED = getattr(Highlight.highlight, "uncached", Highlight.highlight)


def settings(highlighter: Highlight) -> dict[str, Any]:
    """What the highlighter was configured with (all but its Markdown instance)."""
    return {name: value for name, value in vars(highlighter).items() if name != "md"}


def highlight(highlighter: Highlight, src: str, language: str, *args: Any, **kwargs: Any) -> str:
    """Highlight.highlight, from the cache when this block was highlighted so before."""
    kept_settings = settings(highlighter)
    made = lambda: UNCACHED(highlighter, src, language, *args, **kwargs)  # noqa: E731
    if kept_settings["title_mode"] == "html" or kept_settings["auto_title_map"]:
        return made()
    name = key(VERSIONS, kept_settings, src, language, args, sorted(kwargs.items()))
    return _state["kept"].get(name, made)


highlight.uncached = UNCACHED  # type: ignore[attr-defined]


def on_config(config):
    _state["kept"] = Kept.read(CACHE)
    Highlight.highlight = highlight
    return config


def on_post_build(config):
    _state["kept"].write()
