"""What the site's hooks compute, called as plain functions without a build (the hooks
only wire them in), and what they promise of the built site: light notebook pages, a
compressed twin beside every text file, served compressed."""

import gzip
import hashlib
import importlib.util
import json
import sys
import urllib.request
from pathlib import Path

import brotli
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT / "tools"))
sys.path.append(str(ROOT / "docs" / "hooks"))

import compress  # noqa: E402
import serve_site  # noqa: E402
from notebook_css import pruned, split_styles, used_classes  # noqa: E402

# the promise of issue 22 for the pages that hold a table of odds or the rules (its other
# promise, 1,500 elements, waits on the tables' cells: seven elements each today)
MAX_GZIPPED_HTML = 40_000
ODDS_PAGES = ["odds/break-test", "odds/leadership-test", "odds/campaign-battles"]


def _hook(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / f"docs/hooks/{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_styles_leave_the_page_and_the_cascade_keeps_its_place():
    html = "<h1>t</h1><style>.a{x:1}</style><p class='a'>x</p>\n<style>.b{y:2}</style>"
    page, blocks = split_styles(html)
    assert blocks == [".a{x:1}", ".b{y:2}"]
    assert page == "<h1>t</h1><!--notebook.css--><p class='a'>x</p>\n"
    assert split_styles("<p>no style</p>") == ("<p>no style</p>", [])


def test_only_rules_a_page_can_match_and_variables_they_read_are_kept():
    css = (
        ".w{--used:1px;--unused:2px;--chain:var(--deep);--deep:3px}"
        ".w .a{margin:var(--used)}.w .b{padding:var(--chain)}.w .gone{color:red}"
        ".w :root{--never:1}.x:not(.absent){color:blue}"
        "@media (max-width:10px){.gone{a:b}.w{c:d}}"
    )
    kept = pruned(css, {"w", "a", "b", "x"})
    assert ".gone" not in kept and ":root" not in kept and "--unused" not in kept
    assert "--used:1px" in kept and "--chain:var(--deep)" in kept and "--deep:3px" in kept
    assert ".x:not(.absent)" in kept and "@media (max-width:10px){.w{c:d}}" in kept
    assert used_classes('<p class="a b"><i class="c"></i></p>') == {"a", "b", "c"}


def test_twins_are_written_when_they_save_bytes_and_kept_by_content(tmp_path):
    site, cache = tmp_path / "site", tmp_path / "cache"
    site.mkdir()
    (site / "page.html").write_text("<p>a table of odds</p>\n" * 200)
    (site / "tiny.css").write_text("a{}")  # compression would not save 5%
    (site / "picture.png").write_bytes(b"\x89PNG" * 500)  # not a text file
    assert compress.compress_site(site, cache) == 2
    html = (site / "page.html").read_bytes()
    assert gzip.decompress((site / "page.html.gz").read_bytes()) == html
    assert brotli.decompress((site / "page.html.br").read_bytes()) == html
    assert sorted(path.name for path in site.iterdir()) == [
        "page.html", "page.html.br", "page.html.gz", "picture.png", "tiny.css"
    ]  # fmt: skip
    assert len(list(cache.iterdir())) == 4  # each encoding of each text file, by its sha256
    assert compress.compress_site(site, cache) == 0  # twins in place: nothing to do


def test_the_static_server_sends_the_twin_the_browser_accepts(tmp_path):
    (tmp_path / "index.html").write_text("<p>odds</p>\n" * 300)
    compress.compress_site(tmp_path)
    with serve_site.serving(tmp_path) as url:
        for accepted, encoding, decode in [
            ("gzip, deflate, br", "br", brotli.decompress),
            ("gzip", "gzip", gzip.decompress),
            ("", None, bytes),
        ]:
            request = urllib.request.Request(url + "/", headers={"Accept-Encoding": accepted})
            with urllib.request.urlopen(request) as response:
                assert response.headers["Content-Encoding"] == encoding
                assert response.headers["Content-Type"].startswith("text/html")
                assert decode(response.read()) == (tmp_path / "index.html").read_bytes()


def test_the_development_server_gzips_on_the_fly():
    page = b"<p>odds</p>\n" * 300

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html"), ("Content-Length", "3600")])
        return [page]

    wrapped = serve_site.compressing(app)
    sent = {}
    body = wrapped({"HTTP_ACCEPT_ENCODING": "gzip"}, lambda s, h: sent.update(h=dict(h)))
    assert gzip.decompress(b"".join(body)) == page
    assert sent["h"]["Content-Encoding"] == "gzip"
    assert sent["h"]["Content-Length"] == str(len(b"".join(body)))
    assert b"".join(wrapped({}, lambda s, h: None)) == page  # a client without gzip


def test_the_calculators_data_comes_from_the_cache_of_this_source(tmp_path):
    """A file named for the package's source and the hook is read, not computed again."""
    downloads, notebook_cache = _hook("downloads"), _hook("notebook_cache")
    own = hashlib.sha256((ROOT / "docs/hooks/downloads.py").read_bytes()).hexdigest()[:8]
    kept = [["data/x.json", '{"a": 1}']]
    (tmp_path / f"{notebook_cache.package_hash()}-{own}.json").write_text(json.dumps(kept))
    assert downloads.generated.__wrapped__(tmp_path) == (("data/x.json", '{"a": 1}'),)


@pytest.mark.parametrize("page", ODDS_PAGES)
def test_odds_pages_are_light(site, page):
    html = (site / page / "index.html").read_text()
    gzipped = len(gzip.compress(html.encode(), 9))
    assert gzipped < MAX_GZIPPED_HTML, f"{page}: {gzipped} bytes gzipped"
    assert "<style" not in html
    assert html.count("stylesheets/notebook.css") == 1


def test_the_notebook_stylesheet_is_one_small_file(site):
    css = (site / "stylesheets/notebook.css").read_text()
    assert 0 < len(css) < 30_000
    assert ".jp-Cell" in css


def test_every_text_file_of_the_site_has_its_twins(site):
    missing = [
        path.relative_to(site).as_posix()
        for path in site.rglob("*")
        if path.suffix in (".html", ".css", ".js", ".json", ".wasm", ".mjs")
        and path.stat().st_size > 2_000
        and not path.with_name(path.name + ".gz").exists()
    ]
    assert not missing, missing
    wasm = site / "workbench/pyodide/pyodide.asm.wasm"
    assert brotli.decompress((wasm.parent / (wasm.name + ".br")).read_bytes()) == wasm.read_bytes()
    lock = site / "workbench/pyodide/pyodide-lock.json"  # ours, not the npm package's
    assert gzip.decompress((lock.parent / (lock.name + ".gz")).read_bytes()) == lock.read_bytes()
