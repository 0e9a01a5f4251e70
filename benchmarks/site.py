"""The site's authoring loop, timed: a strict build with and without the notebook cache,
and how long `mkdocs serve` takes to show a one-line edit of a Markdown page.

Run: `.venv/bin/python benchmarks/site.py`. It builds into a temporary folder, appends
one line to docs/glossary.md while `mkdocs serve` runs (and restores the file), and
prints wall-clock seconds. Goals (issue 13): strict build under 8 s, an edit under 5 s.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = str(Path(sys.executable).parent / "mkdocs")
EDITED = ROOT / "docs" / "glossary.md"
PORT = "127.0.0.1:8765"
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def build(site: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        [MKDOCS, "build", "--strict", "-q", "-d", site],
        cwd=ROOT,
        env=ENV,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start


def wait_for(log: Path, pattern: str, after: int, timeout: float = 120) -> float:
    """Seconds until `pattern` appears in `log` past byte `after`."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if re.search(pattern, log.read_text(errors="replace")[after:]):
            return time.perf_counter() - start
        time.sleep(0.05)
    raise TimeoutError(pattern)


def serve_edit() -> float:
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "serve.log"
        with log.open("w") as out:
            server = subprocess.Popen(
                [MKDOCS, "serve", "--strict", "--dev-addr", PORT],
                cwd=ROOT,
                env=ENV,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        original = EDITED.read_text()
        try:
            wait_for(log, r"Serving on", 0)
            time.sleep(1)  # let the watcher settle
            mark = log.stat().st_size
            EDITED.write_text(original + "\nAn edit.\n")
            return wait_for(log, r"Reloading browsers|Serving on", mark)
        finally:
            EDITED.write_text(original)
            server.terminate()
            server.wait()


def main() -> None:
    cache = ROOT / ".cache" / "mkdocs-jupyter"
    with tempfile.TemporaryDirectory() as site:
        shutil.rmtree(cache, ignore_errors=True)
        print(f"strict build, no notebook cache: {build(site):5.1f} s")
        print(f"strict build, notebooks cached:  {build(site):5.1f} s")
    print(f"serve, a one-line edit shown in: {serve_edit():5.1f} s")


if __name__ == "__main__":
    main()
