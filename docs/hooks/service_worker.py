"""MkDocs hook: the site installs like an app and works offline after one visit.

Every page links the web app manifest (`manifest.webmanifest`, icons in `icons/`).
After the build, `sw.js` is written at the site's root: the list of every built file
(source maps aside) and a cache name made from a hash of all their contents.
`docs/javascripts/offline.js` registers it; on the first visit it stores every file
(pages, tables, CSVs, calculator data, search index, the Workbench's Pyodide and wheel)
and then answers from that cache alone. A new build has a new cache name: its worker
stores the whole new build beside the old one, then waits; the page says a new version
is ready, and on reload (or the next visit) the new cache replaces the old one whole.
"""

import hashlib
import json
from pathlib import Path

WORKER = "sw.js"
# source maps (for a developer's tools, never for reading offline) and the compressed twins of
# every file (the host sends them for the file itself; the browser never asks for them)
LEFT_OUT = (".map", ".gz", ".br")
HEAD = (
    '<link rel="manifest" href="{root}manifest.webmanifest">'
    '<meta name="theme-color" content="#4051b5">'
    '<link rel="apple-touch-icon" href="{root}icons/icon-192.png">'
)


def addresses(site: Path) -> list[str]:
    """Every file of the built site as the address a browser asks for, relative to the
    root: a page `rules/break-test/index.html` as `rules/break-test/`, the home page `./`."""
    found = []
    for path in sorted(site.rglob("*")):
        name = path.relative_to(site).as_posix()
        if not path.is_file() or name == WORKER or name.endswith(LEFT_OUT):
            continue
        if name.endswith("index.html"):
            name = name.removesuffix("index.html") or "./"
        found.append(name)
    return found


def cache_name(site: Path, files: list[str]) -> str:
    """`rulesref-` and a hash of every listed file's address and contents."""
    digest = hashlib.sha256()
    for address in files:
        path = site / (address + "index.html" if address.endswith("/") else address)
        digest.update(address.encode() + b"\0" + path.read_bytes() + b"\0")
    return f"rulesref-{digest.hexdigest()[:16]}"


def worker(site: Path) -> str:
    """The service worker of the site built in `site`."""
    files = addresses(site)
    script = (Path(__file__).parent / "service_worker.js").read_text(encoding="utf-8")
    return (
        f"const CACHE = {json.dumps(cache_name(site, files))};\n"
        f"const FILES = {json.dumps(files, indent=0)};\n{script}"
    )


def on_post_page(output, page, config):
    root = "../" * page.url.count("/")
    return output.replace("</head>", HEAD.format(root=root) + "</head>", 1)


def on_post_build(config):
    site = Path(config["site_dir"])
    (site / WORKER).write_text(worker(site), encoding="utf-8")
