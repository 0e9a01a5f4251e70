"""MkDocs hook: the Workbench's Python, served by the site itself.

When the site has the Workbench page, `workbench/pyodide/` of the built site receives
Pyodide's runtime, its standard library trimmed to the modules the Workbench imports, a
wheel of this checkout's rulesref, and the lock that names it
(tools/fetch_pyodide.py `lay_out`: pinned, checked against the sha256 pins of the repo,
with their precompressed twins). No other page loads any of it, so the rest of the site
keeps its weight. This hook only wires `lay_out` in; a file of the cache that is not the
pinned one stops the build with its name (no traceback).
"""

import importlib.util
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent.parent
PAGE = "workbench.md"
_state = {"page": False}


def _fetch_pyodide():
    spec = importlib.util.spec_from_file_location("fetch_pyodide", ROOT / "tools/fetch_pyodide.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def on_files(files, config):
    _state["page"] = files.get_file_from_path(PAGE) is not None
    if _state["page"]:  # the page's sample force: the command line's example file
        sample = (ROOT / "examples/b-company.json").read_text()
        files.append(File.generated(config, "workbench/b-company.json", content=sample))
    return files


def on_post_build(config):
    if _state["page"]:
        fetch = _fetch_pyodide()
        try:
            fetch.lay_out(Path(config["site_dir"]) / "workbench/pyodide")
        except (fetch.CacheError, OSError) as error:
            raise PluginError(f"Workbench assets: {error}") from None
