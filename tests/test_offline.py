"""Offline and installable: the manifest and its icons, the service worker's list of the
build, and in Chromium, after one visit with the network off, every page, a calculator,
search and a Workbench answer; a new build replaces the old cache whole."""

import functools
import http.server
import importlib.util
import json
import shutil
import threading
import time
from pathlib import Path

import pytest
import yaml
from serve_site import Handler
from sympy import Rational

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


service_worker = _load("service_worker", ROOT / "docs/hooks/service_worker.py")
rules_data = _load("rules_data", ROOT / "docs/hooks/rules_data.py")
draw_icons = _load("draw_icons", ROOT / "tools/draw_icons.py")


def test_the_icons_are_the_ones_we_draw():
    for name, content in draw_icons.drawn().items():
        assert (ROOT / "docs/icons" / name).read_bytes() == content, name


def test_the_manifest_names_the_site_its_icons_and_colours():
    manifest = json.loads((ROOT / "docs/manifest.webmanifest").read_text())
    assert manifest["short_name"] == "rulesref" and manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["scope"] == "./"
    assert manifest["theme_color"] == "#4051b5" and manifest["background_color"] == "#ffffff"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"any", "192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert (ROOT / "docs" / icon["src"]).is_file(), icon
        assert "//" not in icon["src"]  # on our own host


def test_the_worker_lists_every_file_and_its_cache_name_follows_the_contents(tmp_path):
    (tmp_path / "rules/break-test").mkdir(parents=True)
    (tmp_path / "index.html").write_text("home")
    (tmp_path / "rules/break-test/index.html").write_text("BR")
    (tmp_path / "data.json").write_text("{}")
    (tmp_path / "bundle.js.map").write_text("map")
    (tmp_path / "sw.js").write_text("old worker")
    files = service_worker.addresses(tmp_path)
    assert sorted(files) == ["./", "data.json", "rules/break-test/"]
    first = service_worker.cache_name(tmp_path, files)
    assert first == service_worker.cache_name(tmp_path, files)  # the same build, the same name
    (tmp_path / "rules/break-test/index.html").write_text("BR, changed")
    assert service_worker.cache_name(tmp_path, files) != first
    script = service_worker.worker(tmp_path)
    assert script.startswith(
        f"const CACHE = {json.dumps(service_worker.cache_name(tmp_path, files))};"
    )
    assert '"rules/break-test/"' in script and "bundle.js.map" not in script


def test_every_page_links_the_manifest(site):
    for page in site.rglob("index.html"):
        html = page.read_text()
        if "<title>Redirecting...</title>" in html:  # mkdocs-redirects' old addresses
            continue
        if page.relative_to(site).parts[0] == "r":  # a rule's short address: sends on at once
            continue
        depth = len(page.relative_to(site).parts) - 1
        assert f'<link rel="manifest" href="{"../" * depth}manifest.webmanifest">' in html, page
    name = service_worker.cache_name(site, service_worker.addresses(site))
    assert (site / "sw.js").read_text().startswith(f"const CACHE = {json.dumps(name)};")


class _Counting(Handler):
    """Serves the site and counts what it served: nothing once the network is off."""

    served: list[str]

    def do_GET(self):
        self.served.append(self.path)
        super().do_GET()


@pytest.fixture
def serve():
    servers = []

    def start(directory: Path):
        served: list[str] = []
        handler = functools.partial(
            type("Handler", (_Counting,), {"served": served}), directory=str(directory)
        )
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_port}/", served

    yield start
    for server in servers:
        server.shutdown()


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    yield context
    context.close()


def _stored(page) -> None:
    """Wait until the worker is active: it is only once every file of the build is stored."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")


def _listed(site: Path) -> list[str]:
    """The files the built service worker stores."""
    return json.loads((site / "sw.js").read_text().split("const FILES = ", 1)[1].split(";\n")[0])


def _caches(page) -> list[str]:
    return page.evaluate("caches.keys()")


def _nav_pages() -> list[tuple[str, str]]:
    def walk(items):
        for item in items:
            for title, value in item.items():
                yield from walk(value) if isinstance(value, list) else [(title, value)]

    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
    return [(title, rules_data.address(source, "")) for title, source in walk(nav)]


def test_after_one_visit_every_page_calculator_search_and_the_workbench_work_offline(
    site, serve, context
):
    url, served = serve(site)
    page = context.new_page()
    page.goto(url)
    _stored(page)
    files = _listed(site)
    stored = page.evaluate(
        """async () => {
            const cache = await caches.open((await caches.keys())[0]);
            let bytes = 0;
            for (const request of await cache.keys())
                bytes += (await (await cache.match(request)).arrayBuffer()).byteLength;
            return {count: (await cache.keys()).length, bytes};
        }"""
    )
    assert stored["count"] == len(files)

    context.set_offline(True)
    served.clear()
    for title, address in _nav_pages():
        response = page.goto(url + address)
        assert response.ok, (title, response.status)
        assert page.locator("h1").first.is_visible(), title
    for data in (
        "rules.json",
        "odds/break-test.json",
        "downloads/break-test.csv",
        "data/break.json",
    ):
        assert page.evaluate(f"fetch('{url}{data}').then(r => r.ok)"), data

    page.goto(url + "tools/calculators/?break.leadership=8&break.lost_by=3&break.reroll=1")
    page.wait_for_selector("#break[data-ready=true]")
    assert Rational(page.text_content("#break .rr-fraction")) == Rational(155, 324)

    page.goto(url + "rules/break-test/")
    page.keyboard.press("/")  # Material's search
    page.keyboard.type("steadfast")
    page.wait_for_selector(".md-search-result__item", timeout=30_000)

    started = time.monotonic()
    page.goto(url + "workbench/")
    page.wait_for_selector("#rr-workbench[data-answered]", timeout=120_000)
    first_answer = time.monotonic() - started
    assert page.evaluate("document.getElementById('rr-workbench').answer")["force_breaks"]
    # the Python the first open kept (Cache Storage, beside the worker's) restored offline
    page.wait_for_selector("#rr-workbench[data-kept]", state="attached", timeout=60_000)
    started = time.monotonic()
    page.goto(url + "workbench/")
    page.wait_for_selector("#rr-workbench[data-answered]", timeout=120_000)
    restored_answer = time.monotonic() - started
    marks = page.evaluate("document.getElementById('rr-workbench').startup.marks")
    assert "Python restored" in marks, marks
    assert page.evaluate("document.getElementById('rr-workbench').answer")["force_breaks"]
    # the browser's own update check of the worker slips past Playwright's offline mode
    # (on a device without a network it fails, harmlessly): everything else stays off it
    asked = [path for path in served if path != "/sw.js"]
    assert not asked, f"asked of the network while offline: {asked[:5]}"

    ARTIFACTS.mkdir(exist_ok=True)
    measured = {"cached_files": stored["count"], "cached_bytes": stored["bytes"]}
    measured["offline_first_workbench_answer_s"] = round(first_answer, 2)
    measured["offline_restored_workbench_answer_s"] = round(restored_answer, 2)
    (ARTIFACTS / "offline.json").write_text(json.dumps(measured))


# when the page asks for the service worker, and whether the Workbench had settled then
REGISTERED = """
window.__registered = [];
const register = navigator.serviceWorker.register.bind(navigator.serviceWorker);
navigator.serviceWorker.register = (...args) => {
  const workbench = document.getElementById("rr-workbench");
  window.__registered.push(Boolean(workbench?.dataset.settled));
  return register(...args);
};
"""


def test_a_first_visit_to_the_workbench_stores_the_site_once_python_has_settled(
    site, serve, context
):
    """The site (about 10 MB) is stored only once the Workbench's Python has started and
    been kept, so that it does not share the first visit's network with Python; then
    stored whole all the same."""
    url, _ = serve(site)
    page = context.new_page()
    page.add_init_script(REGISTERED)
    page.goto(url + "workbench/")
    page.wait_for_selector("#rr-workbench[data-settled]", state="attached", timeout=120_000)
    _stored(page)
    assert page.evaluate("window.__registered") == [True]  # asked for once, once settled
    assert page.get_attribute("#rr-workbench", "data-kept").endswith(" bytes")
    files = _listed(site)
    assert page.evaluate(
        "caches.keys().then((names) => caches.open(names.find((n) => n.startsWith('rulesref-'))))"
        ".then((cache) => cache.keys()).then((keys) => keys.length)"
    ) == len(files)


def test_a_new_build_replaces_the_old_cache_whole(site, serve, context, tmp_path):
    """The second build: a page changed and the worker written again by the hook, as
    `mkdocs build` does. The open page says a new version is ready and keeps serving the
    old build whole until the reader reloads; then only the new cache is left."""
    built = tmp_path / "site"
    shutil.copytree(site, built)
    url, _ = serve(built)
    page = context.new_page()
    page.goto(url)
    _stored(page)
    (old,) = _caches(page)
    page.goto(url + "rules/break-test/")  # now served by the worker, from the first build
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")

    rule_page = built / "rules/break-test/index.html"
    rule_page.write_text(rule_page.read_text().replace("</h1>", " (second build)</h1>", 1))
    (built / "sw.js").write_text(service_worker.worker(built))
    for written in (rule_page, built / "sw.js"):  # the build writes their compressed twins anew
        for twin in (".gz", ".br"):
            written.with_name(written.name + twin).unlink(missing_ok=True)
    page.goto(url + "rules/break-test/")  # a visit: the browser finds the new worker
    notice = page.locator("#rr-update")
    notice.wait_for(timeout=60_000)
    assert notice.inner_text().startswith("A new version is ready")
    assert "second build" not in page.inner_text("h1")  # still the first build, whole
    assert len(_caches(page)) == 2  # the new one stored beside it, not yet in use
    page.screenshot(path=str(ARTIFACTS / "offline-update-390.png"))

    with page.expect_navigation():
        notice.get_by_role("button", name="reload").click()
    page.wait_for_function("document.querySelector('h1').textContent.includes('second build')")
    page.wait_for_function("async () => (await caches.keys()).length === 1")
    (new,) = _caches(page)
    assert new != old and new == json.loads(
        (built / "sw.js").read_text().split("const CACHE = ", 1)[1].split(";")[0]
    )
