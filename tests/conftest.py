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


def pytest_collection_modifyitems(items):
    """The tests of the built site run after all others, the modules kept on one worker
    (`xdist_group`: the longest) first among them, in the order collected otherwise:
    under pytest-xdist the site is built while the workers go on with the rest, and no
    long module starts last (`make test` keeps this order: --no-loadscope-reorder)."""
    items.sort(
        key=lambda item: (
            "site" in item.fixturenames,
            item.get_closest_marker("xdist_group") is None,
        )
    )


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


@pytest.fixture(autouse=True)
def _count_the_dice_afresh():
    """Each test counts its own dice: a count cached by an earlier test would hide the
    kernel a test runs (mutation testing maps each test to the code it reaches)."""
    dice._kept_power.cache_clear()
    dice._kept_at_most.cache_clear()
