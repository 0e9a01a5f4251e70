"""What a player waits for and what an author waits for, measured on the built site.

    .venv/bin/python benchmarks/site.py            # everything below
    .venv/bin/python benchmarks/site.py --site DIR # only the pages of a site built already

- **Weight**: every page's HTML in bytes, raw, gzip -9 and brotli, and its element
  count; the Workbench's bytes (its page and `workbench/`), as sent compressed (the
  build's `.br`/`.gz` twins where they exist, else raw).
- **Paint**: First and Largest Contentful Paint of the home, a rules page, an odds page
  and the calculators in headless Chromium (/usr/bin/chromium) at 390 px on a phone profile:
  4x CPU throttling and a 9 Mbit/s, 170 ms round-trip network (Chrome DevTools Protocol),
  a cold cache each time, the median of 3; served by tools/serve_site.py as a host would.
- **Build**: a strict build with no cache, then with the caches warm, and how soon
  `properdocs serve` shows a one-line edit of docs/glossary.md (the file is restored);
  wall clock and, since the machine may be shared, the CPU seconds the build used.

Goals (issue 22): pages under 40 KB gzipped and 1,500 DOM elements, FCP under 1 s and LCP
under 1.5 s; a strict build under 8 s, an edit shown under 3 s.
"""

import argparse
import gzip
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import brotli

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from serve_site import serving  # noqa: E402

DOCS = [str(Path(sys.executable).parent / "properdocs")]
CONFIG = ["-f", "mkdocs.yml"]
EDITED = ROOT / "docs" / "glossary.md"
PORT = "127.0.0.1:8765"
CHROMIUM = "/usr/bin/chromium"
PAINTED = {
    "home": "",
    "Break test rules": "rules/break-test/",
    "Break test odds": "odds/break-test/",
    "calculators": "tools/calculators/",
}
RUNS = 3
# 9 Mbit/s down, 170 ms round trip: a slow 4G phone
NETWORK = {
    "offline": False,
    "latency": 170,
    "downloadThroughput": 9_000_000 / 8,
    "uploadThroughput": 9_000_000 / 8,
}
PAINT_SCRIPT = """() => new Promise(resolve => {
  let lcp = 0;
  new PerformanceObserver(list => {
    for (const entry of list.getEntries()) lcp = entry.startTime;
  }).observe({type: "largest-contentful-paint", buffered: true});
  setTimeout(() => {
    const fcp = performance.getEntriesByName("first-contentful-paint")[0];
    resolve({fcp: fcp ? fcp.startTime : null, lcp,
             dom: document.getElementsByTagName("*").length});
  }, 300);
})"""



def kb(size: float) -> str:
    return f"{size / 1000:8.1f}"


def page_weights(site: Path) -> None:
    """Every page's HTML: raw, gzip -9, brotli (KB)."""
    print(f"{'page':40} {'raw KB':>8} {'gzip':>8} {'brotli':>8} {'DOM':>6}")
    for page in sorted(site.rglob("index.html")):
        name = page.parent.relative_to(site).as_posix().replace(".", "(home)")
        data = page.read_bytes()
        if len(data) < 2000:
            continue  # a redirect stub
        packed = kb(len(brotli.compress(data)))
        elements = len(re.findall(rb"<[a-zA-Z]", data))
        print(f"{name:40} {kb(len(data))} {kb(len(gzip.compress(data, 9)))} {packed} {elements:6}")


def sent(path: Path) -> int:
    """Bytes a compressing host sends for a file: its smallest twin, else the file."""
    twins = [path.with_name(path.name + suffix) for suffix in (".br", ".gz")]
    return min([path.stat().st_size] + [twin.stat().st_size for twin in twins if twin.exists()])


def workbench_weight(site: Path) -> None:
    folder = site / "workbench"
    files = [
        path
        for path in folder.rglob("*")
        if path.is_file() and path.suffix not in (".gz", ".br")
    ]
    raw = sum(path.stat().st_size for path in files)
    print(f"Workbench (page and its Python): {raw / 1e6:.2f} MB raw, "
          f"{sum(map(sent, files)) / 1e6:.2f} MB as sent")
    for path in sorted(files, key=lambda path: -path.stat().st_size)[:6]:
        print(f"  {path.relative_to(folder).as_posix():40} {kb(path.stat().st_size)} KB raw"
              f" {kb(sent(path))} KB sent")


def paints(site: Path) -> None:
    from playwright.sync_api import sync_playwright

    print(f"{'page (390 px, 4x CPU, 9 Mbit/s, 170 ms)':40} {'FCP s':>6} {'LCP s':>6} {'DOM':>6}")
    with serving(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name, path in PAINTED.items():
            runs = []
            for _ in range(RUNS):
                context = browser.new_context(viewport={"width": 390, "height": 844})
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.emulateNetworkConditions", NETWORK)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
                page.goto(f"{base}/{path}", wait_until="load")
                runs.append(page.evaluate(PAINT_SCRIPT))
                context.close()
            fcp = statistics.median(run["fcp"] for run in runs) / 1000
            lcp = statistics.median(run["lcp"] for run in runs) / 1000
            print(f"{name:40} {fcp:6.2f} {lcp:6.2f} {runs[0]['dom']:6}")
        browser.close()


def build(site: str) -> str:
    """Wall-clock and CPU seconds of a strict build."""
    start, cpu = time.perf_counter(), os.times()
    subprocess.run(
        [*DOCS, "build", *CONFIG, "--strict", "-q", "-d", site],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    after = os.times()
    used = after.children_user + after.children_system - cpu.children_user - cpu.children_system
    return f"{time.perf_counter() - start:5.1f} s ({used:4.1f} s CPU)"


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
                [*DOCS, "serve", *CONFIG, "--strict", "--dev-addr", PORT],
                cwd=ROOT,
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="measure this built site; no build timings")
    args = parser.parse_args()
    if args.site:
        page_weights(args.site)
        workbench_weight(args.site)
        paints(args.site)
        return
    with tempfile.TemporaryDirectory() as site:
        shutil.rmtree(ROOT / ".cache", ignore_errors=True)
        print(f"strict build, no cache:      {build(site)}")
        print(f"strict build, caches warm:   {build(site)}")
        page_weights(Path(site))
        workbench_weight(Path(site))
        paints(Path(site))
    print(f"serve, a one-line edit shown in: {serve_edit():5.1f} s")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
