"""MkDocs hook: the Python API page's rendering, kept until what it is made of changes.

mkdocstrings renders each `::: rulesref.x` block of docs/api.md from the package's
docstrings through its Jinja templates: 45% of a warm build's CPU (2.9 s of 6.5 s), done
again on every build and on every edit under `properdocs serve`, though only a change to
rulesref, to the site's Markdown settings or to the renderer can change it. This hook
keeps each block's HTML and the headings it announced in `.cache/api/<inputs>/`, named
after a hash of those inputs (`inputs_hash`) and of the block's object and options. The
headings still go back to mkdocstrings on every build, which makes from them the page's
table of contents, the cross-reference targets and `objects.inv`, as it would have.

Those headings and the names' aliases come from griffe's reading of the package (0.3 s
of each rebuild under `properdocs serve`, a fifth once the rest was kept). The hooks stay
loaded there, so the package as griffe has just read it is kept in this process,
pickled, while the inputs' hash stays the same (`collect`): each build takes a fresh copy
(0.04 s), since a build changes what it is given (resolving aliases) and what the next
build writes (`objects.inv`) depends on that.
"""

import hashlib
import json
import os
import pickle
import shutil
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from xml.etree.ElementTree import Element

from griffe import AliasResolutionError
from mkdocstrings_handlers.python import PythonHandler
from notebook_cache import package_hash

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "api"
# what the rendered HTML depends on besides rulesref's source
SETTINGS = ("mkdocs.yml", "docs/includes")
RENDERERS = (
    "mkdocstrings", "mkdocstrings-python", "griffelib", "mkdocs-autorefs", "Markdown",
    "pymdown-extensions", "Pygments", "black", "ruff",
)  # fmt: skip
_state = {"folder": CACHE}


def _version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "-"


def inputs_hash(root: Path = ROOT) -> str:
    """A hash of everything a rendering of the API page reads: the package's source, the
    site's settings and abbreviations, this hook and the renderers' versions."""
    digest = hashlib.sha256(package_hash().encode())
    read = sorted(p for name in SETTINGS for p in [root / name, *(root / name).rglob("*")])
    for path in filter(Path.is_file, read):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    digest.update(Path(__file__).read_bytes())
    digest.update(" ".join(map(_version, RENDERERS)).encode())
    return digest.hexdigest()[:16]


def block_file(folder: Path, identifier: str, options: object, locale: str | None) -> Path:
    """Where the rendering of one block with these options is kept."""
    key = hashlib.sha256(f"{identifier}\0{options!r}\0{locale}".encode()).hexdigest()[:24]
    return folder / f"{key}.json"


def stored(html: str, headings: list[Element]) -> str:
    """A rendering and its headings (tag, attributes, text) as JSON."""
    kept = [(h.tag, dict(h.attrib), h.text) for h in headings]
    return json.dumps({"html": html, "headings": kept}, ensure_ascii=False)


def restored(text: str) -> tuple[str, list[Element]]:
    """The rendering and headings of `stored`."""
    data = json.loads(text)
    headings = []
    for tag, attributes, content in data["headings"]:
        heading = Element(tag, attributes)
        heading.text = content
        headings.append(heading)
    return data["html"], headings


def _resolve_aliases(data) -> None:
    """Resolve the names the block imports, as rendering it does: each then knows its
    aliases, which mkdocstrings lists in objects.inv (`rulesref.odds.battle.counts_of`)."""
    for member in data.members.values():
        if member.is_alias:
            try:
                member.target  # noqa: B018 (resolving registers the alias with its target)
            except AliasResolutionError:
                continue  # a name from outside the package, as rendering skips it
        elif member.is_module or member.is_class:
            _resolve_aliases(member)


# the hooks stay loaded under `serve` (and the tests load them again): wrap the original once
UNCACHED = getattr(PythonHandler.render, "uncached", PythonHandler.render)
UNCOLLECTED = getattr(PythonHandler.collect, "uncached", PythonHandler.collect)
# griffe's modules and source lines as just read, pickled, by the inputs' hash
_read: dict[str, bytes] = {}


def render(handler: PythonHandler, data, options, locale: str | None = None) -> str:
    """PythonHandler.render, from the cache when this block was rendered from these inputs."""
    kept = block_file(_state["folder"], data.path, options, locale)
    if kept.exists():
        html, headings = restored(kept.read_text(encoding="utf-8"))
        handler._headings.extend(headings)
        _resolve_aliases(data)
        return html
    before = len(handler._headings)
    html = UNCACHED(handler, data, options, locale=locale)
    kept.parent.mkdir(parents=True, exist_ok=True)
    part = kept.with_suffix(f".{os.getpid()}.part")  # another build may read it meanwhile
    part.write_text(stored(html, handler._headings[before:]), encoding="utf-8")
    part.replace(kept)
    return html


render.uncached = UNCACHED  # type: ignore[attr-defined]


def collect(handler: PythonHandler, identifier: str, options):
    """PythonHandler.collect, given a copy of the package as an earlier build of this
    process read it from the same inputs, else reading it and keeping a copy."""
    inputs = _state["folder"].name
    # griffe reads the package at a handler's first collect (never at a fallback's, `{}`)
    first = options != {} and identifier.split(".", 1)[0] not in handler._modules_collection
    if first and inputs in _read:
        handler._modules_collection, handler._lines_collection = pickle.loads(_read[inputs])
    found = UNCOLLECTED(handler, identifier, options)
    if first and inputs not in _read:
        kept = (handler._modules_collection, handler._lines_collection)
        _read.clear()  # read from older inputs
        _read[inputs] = pickle.dumps(kept, pickle.HIGHEST_PROTOCOL)
    return found


collect.uncached = UNCOLLECTED  # type: ignore[attr-defined]


def on_config(config):
    _state["folder"] = CACHE / inputs_hash()
    PythonHandler.render = render
    PythonHandler.collect = collect
    return config


def on_post_build(config):
    for folder in CACHE.glob("*"):  # the renderings of older inputs
        if folder != _state["folder"]:
            shutil.rmtree(folder, ignore_errors=True)
