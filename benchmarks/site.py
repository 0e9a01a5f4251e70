"""What a player waits for and what an author waits for, measured on the built site.

    .venv/bin/python benchmarks/site.py             # everything below
    .venv/bin/python benchmarks/site.py --site DIR  # only the pages of a site built already
    .venv/bin/python benchmarks/site.py --only build --only hooks  # some parts only

- **Weight**: every page's HTML in bytes, raw, gzip -9 and brotli, and its element
  count; the Workbench's bytes (its page and `workbench/`), as sent compressed (the
  build's `.br`/`.gz` twins where they exist, else raw).
- **Paint**: First and Largest Contentful Paint of the home, a rules page, an odds page
  and the calculators in headless Chromium (/usr/bin/chromium) at 390 px on a phone profile:
  4x CPU throttling and a 9 Mbit/s, 170 ms round-trip network (Chrome DevTools Protocol),
  a cold cache each time, the median of 3; served by tools/serve_site.py as a host would.
- **Build**: a strict build with no cache, then with the caches warm, and how soon
  `properdocs serve` shows a one-line edit of docs/glossary.md, the median of five edits
  one after another (the file is restored); wall clock and, since the machine may be
  shared, the CPU seconds the build used.
- **Hooks**: the CPU seconds of a warm strict build, then of each plugin's and hook's
  events and of each page's rendering, the largest first (where a build's time goes).

Goals (issue 22): pages under 40 KB gzipped and 1,500 DOM elements, FCP under 1 s and LCP
under 1.5 s; a strict build under 8 s, an edit shown under 3 s. The Workbench's first live
answer, cold and warm, unthrottled and on the phone profile, step by step:
tools/measure_workbench.py.
"""

import argparse
import gzip
import os
import re
import shutil
import socket
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
        path for path in folder.rglob("*") if path.is_file() and path.suffix not in (".gz", ".br")
    ]
    raw = sum(path.stat().st_size for path in files)
    print(
        f"Workbench (page and its Python): {raw / 1e6:.2f} MB raw, "
        f"{sum(map(sent, files)) / 1e6:.2f} MB as sent"
    )
    for path in sorted(files, key=lambda path: -path.stat().st_size)[:6]:
        print(
            f"  {path.relative_to(folder).as_posix():40} {kb(path.stat().st_size)} KB raw"
            f" {kb(sent(path))} KB sent"
        )


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


def free_port() -> int:
    """A port nobody listens on (other checkouts may run this benchmark at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a running process has used so far (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def serve_edit(edits: int = 5) -> str:
    """How soon `properdocs serve` has rebuilt after a one-line edit, over `edits` edits
    one after another: the medians of the wall clock and of the server's CPU seconds."""
    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "serve.log"
        with log.open("w") as out:
            server = subprocess.Popen(
                [*DOCS, "serve", *CONFIG, "--strict", "--dev-addr", f"127.0.0.1:{free_port()}"],
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        original = EDITED.read_text()
        try:
            wait_for(log, r"Serving on", 0)
            for edit in range(edits):
                time.sleep(1)  # let the watcher settle
                mark, cpu = log.stat().st_size, cpu_seconds(server.pid)
                EDITED.write_text(original + f"\nAn edit, number {edit}.\n")
                walls.append(wait_for(log, r"Reloading browsers|Serving on", mark))
                cpus.append(cpu_seconds(server.pid) - cpu)
        finally:
            EDITED.write_text(original)
            server.terminate()
            server.wait()
    spread = f"{min(walls):.1f}-{max(walls):.1f}"
    return (
        f"{statistics.median(walls):5.1f} s ({statistics.median(cpus):4.1f} s CPU), "
        f"medians of {edits} edits (wall {spread} s)"
    )


def hook_times(site: str, shown: int = 15) -> None:
    """A warm strict build in this process, timing each event of each plugin and hook
    and each page's Markdown rendering (CPU seconds)."""
    import properdocs.replacement  # noqa: F401 (mkdocs.* imports answered by ProperDocs)
    from properdocs.commands.build import build as build_site
    from properdocs.config import load_config
    from properdocs.plugins import PluginCollection
    from properdocs.structure.pages import Page

    spent: dict[str, float] = {}

    def timed(name: str, run, *args, **kwargs):
        start = time.process_time()
        try:
            return run(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.process_time() - start

    def run_event(self, name, item=None, **kwargs):
        for method in self.events[name]:
            self._current_plugin = origin = self._event_origins.get(method, "?")
            call = (item,) if item is not None else ()
            item = timed(f"{origin} on_{name}", method, *call, **kwargs) or item
        self._current_plugin = None
        return item

    render = Page.render
    PluginCollection.run_event = run_event
    Page.render = lambda page, *args: timed(f"render {page.file.src_uri}", render, page, *args)
    os.chdir(ROOT)
    config = timed("load the config and plugins", load_config, "mkdocs.yml", site_dir=site)
    config.plugins.on_startup(command="build", dirty=False)
    timed("build", build_site, config)
    print(f"{'where a warm strict build spends its CPU':60} {'s':>6}")
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1])[:shown]:
        print(f"{name[-60:]:60} {seconds:6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="measure this built site; no build timings")
    parts = ("cold", "build", "weight", "paint", "serve", "hooks")
    parser.add_argument("--only", action="append", choices=parts, help="run only these parts")
    args = parser.parse_args()
    if args.site:
        page_weights(args.site)
        workbench_weight(args.site)
        paints(args.site)
        return
    wanted = set(args.only or set(parts) - {"hooks"})
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    with tempfile.TemporaryDirectory() as site:
        if "cold" in wanted:
            shutil.rmtree(ROOT / ".cache", ignore_errors=True)
            print(f"strict build, no cache:      {build(site)}")
        if wanted & {"build", "weight", "paint"}:
            print(f"strict build, caches warm:   {build(site)}")
        if "weight" in wanted:
            page_weights(Path(site))
            workbench_weight(Path(site))
        if "paint" in wanted:
            paints(Path(site))
        if "serve" in wanted:
            print(f"serve, a one-line edit shown in: {serve_edit()}")
        if "hooks" in wanted:
            hook_times(site)
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
