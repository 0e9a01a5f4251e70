import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import settings
from playwright.sync_api import sync_playwright

from rulesref import dice

# Property tests: the same examples on every run (no flaky CI), no per-example deadline
# (exact arithmetic on a loaded CI machine can be slow, which is no failure).
settings.register_profile("rulesref", deadline=None, derandomize=True)
settings.load_profile("rulesref")

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT / "tools"))

from serve_site import serving  # noqa: E402

# Where the controller of a run spread over workers builds the site (see pytest_configure).
BUILT_BY_THE_CONTROLLER = "RULESREF_TEST_SITE"


def pytest_configure(config):
    """A run spread over workers (pytest-xdist) builds the site once, in the background,
    from the moment it starts: the workers run the tests that need no site meanwhile, and
    none of them waits idle on a build of its own."""
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return
    shared = Path(tempfile.mkdtemp(prefix="rulesref-site-"))
    os.environ[BUILT_BY_THE_CONTROLLER] = str(shared)  # the workers start with it
    # the exit status written last, by the shell, once the build has ended
    script = '"$@" > "$LOG" 2>&1; echo $? > "$STATUS.part"; mv "$STATUS.part" "$STATUS"'
    config.rulesref_build = subprocess.Popen(
        ["sh", "-c", script, "build", *_build_command(shared / "site")],
        cwd=ROOT,
        env={**os.environ, "LOG": str(shared / "build.log"), "STATUS": str(shared / "status")},
        start_new_session=True,  # its own process group, to end the build with the shell
    )


def pytest_unconfigure(config):
    build = getattr(config, "rulesref_build", None)
    if build is not None:
        if build.poll() is None:  # a run that ended first (its tests needed no site)
            os.killpg(build.pid, signal.SIGKILL)
        build.wait()
        shutil.rmtree(os.environ.pop(BUILT_BY_THE_CONTROLLER), ignore_errors=True)


# The modules of the built site whose tests take longest (worker seconds in a run of
# `make test`: the Workbench's 260, the audit's 265 in parts of 20-30 s, the site offline's
# 80 in one test of 65, the browser's 300), longest first: the short ones come last and
# fill in, so no worker waits long on the other at the end.
LONGEST_FIRST = (
    "test_offline.py",
    "test_a11y.py",
    "test_browser_workbench.py",
    "test_workbench.py",
    "test_browser.py",
)


def pytest_collection_modifyitems(items):
    """The tests that need no site run first (under pytest-xdist the site is built
    meanwhile), then those of the site, the longest modules first (`make test` hands the
    tests to the workers in this order: `--dist load`)."""

    def rank(module: str) -> int:
        return LONGEST_FIRST.index(module) if module in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=lambda item: ("site" in item.fixturenames, rank(item.path.name)))


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The site, built once per test run with the pinned ProperDocs, `build --strict`,
    notebooks executed, with its compressed twins: by the controller of a run spread over
    workers (the workers wait for it to end), or here."""
    shared = os.environ.get(BUILT_BY_THE_CONTROLLER)
    if shared is None:
        out = tmp_path_factory.mktemp("site")
        build = subprocess.run(_build_command(out), cwd=ROOT, capture_output=True, text=True)
        _built(build.returncode, build.stdout + build.stderr)
        return out
    status, waited = Path(shared) / "status", time.monotonic()
    while not status.exists():
        assert time.monotonic() - waited < 30 * 60, (
            "the controller's build of the site ended unseen"
        )
        time.sleep(0.2)
    _built(int(status.read_text()), (Path(shared) / "build.log").read_text())
    return Path(shared) / "site"


def _build_command(out: Path) -> list[str]:
    build = [sys.executable, "-m", "properdocs", "build", "-f", "mkdocs.yml", "--strict"]
    return [*build, "--site-dir", str(out)]


def _built(status: int, output: str) -> None:
    assert status == 0, f"properdocs build --strict failed:\n{output}"


@pytest.fixture(scope="session")
def base_url(site) -> str:
    """The site served on 127.0.0.1 as a host serves it: each file's brotli or gzip twin
    when the browser accepts it (tools/serve_site.py)."""
    with serving(site) as url:
        yield url


CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium, one for each worker's whole run and every module's
    (Playwright's sync API cannot start a second one beside it)."""
    assert CHROMIUM.exists(), "headless Chromium is needed: apt-get install chromium"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield launched
        launched.close()


def _view_page(browser, width: int, scheme: str):
    context = browser.new_context(
        viewport={"width": width, "height": 900},
        color_scheme=scheme,
        permissions=["clipboard-read", "clipboard-write"],
        service_workers="block",  # tests/test_offline.py covers the worker
    )
    return context.new_page()


@pytest.fixture(scope="session")
def _open_views(browser):
    """One page for each width and colour scheme, kept open for the run and taken to each
    address afresh: a page opened anew costs Chromium here about a processor-second more
    than an open one loading its next address, and the test run is bound by the processor."""
    pages: dict[tuple[int, str], object] = {}
    yield pages
    for page in pages.values():
        page.context.close()


# Until the page's own scripts have run ("load"), then what they draw from the data they
# fetch (calculators, comparisons).
LOADED = "[...document.querySelectorAll('[data-source]')].every((e) => e.dataset.ready)"


@pytest.fixture
def view(browser, base_url, _open_views):
    """A page loaded afresh at a given width and colour scheme, the clipboard allowed; a
    second page of the same width and scheme in one test is a page of its own."""
    taken, own, listening = set(), [], []

    def open_page(path: str, width: int, scheme: str, *, listeners: dict | None = None):
        """`listeners`: the page's events to follow during this test, by name."""
        key = (width, scheme)
        if key in taken:
            page = _view_page(browser, width, scheme)
            own.append(page)
        else:
            taken.add(key)
            if key not in _open_views or _open_views[key].is_closed():
                _open_views[key] = _view_page(browser, width, scheme)
            page = _open_views[key]
        url = base_url + path
        if page.url.partition("#")[0] == url.partition("#")[0]:
            page.goto("about:blank")  # the same document would only move to the fragment
        page.mouse.move(0, 0)  # no hover left over from the last test
        page.emulate_media(media="null")  # nor print media
        for event, listener in (listeners or {}).items():
            page.on(event, listener)
            listening.append((page, event, listener))
        page.goto(url)
        page.wait_for_function(LOADED)
        return page

    yield open_page
    for page, event, listener in listening:
        page.remove_listener(event, listener)
    for page in own:
        page.context.close()


@pytest.fixture(autouse=True)
def _count_the_dice_afresh():
    """Each test counts its own dice: a count cached by an earlier test would hide the
    kernel a test runs (mutation testing maps each test to the code it reaches)."""
    dice._kept_power.cache_clear()
    dice._kept_at_most.cache_clear()
