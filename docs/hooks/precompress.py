"""MkDocs hook: every text file of the built site (and the WebAssembly) with its gzip and
brotli twins beside it, so a static host sends them compressed (tools/compress.py does
the work, with a cache in `.cache/twins/` so a build compresses only what changed).

Under `mkdocs serve` no twin is written (an edit shows sooner); the development server
sends its responses gzipped instead (`tools/serve_site.py`'s `compressing`), and the
Workbench's runtime with the twins laid out from the cache.
"""

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT / "tools"))

from compress import compress_site  # noqa: E402
from serve_site import compressing  # noqa: E402

CACHE = ROOT / ".cache" / "twins"
_state = {"serving": False, "started": 0.0}


def on_startup(command, dirty):
    _state["serving"] = command == "serve"


def on_pre_build(config):
    _state["started"] = time.time()


def on_post_build(config):
    if not _state["serving"]:
        compress_site(Path(config["site_dir"]), CACHE)
        for kept in CACHE.glob("*"):  # what this build did not use: a page since changed
            if kept.stat().st_mtime < _state["started"]:
                kept.unlink()


def on_serve(server, config, builder):
    server.set_app(compressing(server.serve_request))
    return server
