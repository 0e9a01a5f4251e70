import os
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


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The site, built once per test run with `mkdocs build --strict`, notebooks executed."""
    out = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert build.returncode == 0, f"mkdocs build --strict failed:\n{build.stdout}{build.stderr}"
    return out


@pytest.fixture(autouse=True)
def _count_the_dice_afresh():
    """Each test counts its own dice: a count cached by an earlier test would hide the
    kernel a test runs (mutation testing maps each test to the code it reaches)."""
    dice._kept_power.cache_clear()
    dice._kept_at_most.cache_clear()
