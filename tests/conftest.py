import fcntl
import shutil
import subprocess
import sys
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


def pytest_collection_modifyitems(items):
    """The tests of the built site run after all others (in the order collected otherwise):
    under pytest-xdist, one worker builds the site while the other goes on with the rest."""
    items.sort(key=lambda item: "site" in item.fixturenames)


@pytest.fixture(scope="session")
def site(tmp_path_factory, worker_id) -> Path:
    """The site, built once per test run with the pinned ProperDocs, `build --strict`,
    notebooks executed, with its compressed twins. Under pytest-xdist the workers share one
    build: the first to ask builds it while the others wait on a lock."""
    if worker_id == "master":
        return _build(tmp_path_factory.mktemp("site"))
    shared = tmp_path_factory.getbasetemp().parent  # the run's directory, above each worker's
    out = shared / "site"
    with open(shared / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "site.built").exists():
            shutil.rmtree(out, ignore_errors=True)
            _build(out)
            (shared / "site.built").touch()
    return out


def _build(out: Path) -> Path:
    build = subprocess.run(
        [sys.executable, "-m", "properdocs", "build", "-f", "mkdocs.yml", "--strict"]
        + ["--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, f"properdocs build --strict failed:\n{build.stdout}{build.stderr}"
    return out


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
