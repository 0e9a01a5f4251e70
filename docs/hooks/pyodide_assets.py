"""MkDocs hook: the Workbench's Python, served by the site itself.

When the site has the Workbench page, `workbench/pyodide/` of the built site receives
Pyodide's runtime, the sympy and mpmath wheels, a wheel of this checkout's rulesref, and
the lock that names them (tools/fetch_pyodide.py: pinned, checked against their sha256,
byte-compiled once per set of pins in a cache outside the clone). No other page loads
any of it, so the rest of the site keeps its weight.
"""

import importlib.util
from pathlib import Path

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
        _fetch_pyodide().lay_out(Path(config["site_dir"]) / "workbench/pyodide")
