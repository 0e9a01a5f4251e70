"""Serve built sites as a host would and time the Workbench's first live answer in Chromium.

    make site && .venv/bin/python tools/measure_workbench.py site [OTHER_SITE ...]
        [--phone] [--cpu RATE] [--runs 3] [--service-worker]

Each run opens /workbench/ on a fresh browser profile (cold: an empty cache), then once
more on the same profile in a new browser (warm: a return visit, what the HTTP cache
kept); with several sites the runs take turns (A, B, A, B ...), so that a busy machine
weighs on each alike. Prints, per site, the medians of the seconds to the first live
answer and of when each step of the start ended (the Worker's marks and fetches, on the
page's clock: see `worker()` in docs/javascripts/workbench.js), the first run's requests
with their bytes on the wire, and whether its answer (the sample force, B Company) equals
rulesref.workbench's in CPython. `--phone` is the phone profile of issue 22 (390 px, 4x
CPU, 9 Mbit/s and 170 ms round trip, through the Chrome DevTools Protocol); `--cpu`
throttles the CPU alone. Chromium's throttling slows the page's main thread, not the
Worker that runs Python (a fixed loop took 2 to 3 times as long in the page at 4x, and no
longer in a Worker): the phone profile's Python runs at this machine's speed. A cold
visit waits until the page has kept Python for the next (`data-kept`), as a reader who
stays would. The sites are served by tools/serve_site.py (the build's `.br` twins, the
headers it sends); service workers are blocked unless `--service-worker`, which also
waits for the site to be stored whole on the cold visit. Saves a 390 px screenshot of the
first cold visit in test-artifacts/.
"""

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from playwright.sync_api import sync_playwright

from rulesref.workbench import answer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from serve_site import serving  # noqa: E402

FORCE = ROOT / "examples/b-company.json"
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync"]  # fmt: skip
# issue 22's phone: 9 Mbit/s down and up, 170 ms round trip
NETWORK = {"offline": False, "latency": 170, "downloadThroughput": 9e6 / 8,
           "uploadThroughput": 9e6 / 8}  # fmt: skip
READ = """(root => ({answer: root.answer, timings: root.timings, startup: root.startup,
  ms: Number(root.dataset.ms)}))(document.getElementById('rr-workbench'))"""


def visit(playwright, profile: Path, url: str, options: argparse.Namespace) -> dict:
    """One visit of the Workbench on `profile`, in a browser of its own."""
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, headless=True, args=FLAGS,
        viewport={"width": 390, "height": 844},
        service_workers="allow" if options.service_worker else "block",
    )  # fmt: skip
    requests: list = []
    context.on("requestfinished", lambda request: requests.append(request))
    page = context.pages[0] if context.pages else context.new_page()
    cdp = context.new_cdp_session(page)
    if options.phone:
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", NETWORK)
    if options.cpu > 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": options.cpu})
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("#rr-workbench[data-answered]", timeout=180_000)
    seconds = time.perf_counter() - start
    result = page.evaluate(READ)
    if (result["startup"] or {}).get("keeping"):  # as a reader would stay: Python kept
        page.wait_for_selector("#rr-workbench[data-kept]", state="attached", timeout=60_000)
        result["kept"] = page.get_attribute("#rr-workbench", "data-kept")
    if options.service_worker:  # the site stored whole, as after a reader's first visit
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    if options.screenshot:
        page.screenshot(path=str(options.screenshot), full_page=True)
        options.screenshot = None
    sent = [(r.url.split("/")[-1] or "(page)", r.sizes()["responseBodySize"]) for r in requests]
    context.close()
    return {"seconds": seconds, "load": os.getloadavg()[0], "sent": sent, **result}


def steps(run: dict) -> dict[str, float]:
    """When each step of the start ended, in seconds since the page opened."""
    found = dict(run["startup"]["marks"]) if run.get("startup") else {}
    for fetch in run["startup"]["fetches"] if run.get("startup") else ():
        found[f"fetched {fetch['name']}"] = fetch["end"]
    found |= {f"page: {name}": ms for name, ms in run["timings"].items() if name != "answer"}
    found["first live answer"] = run["timings"]["answer"]
    return {name: ms / 1000 for name, ms in sorted(found.items(), key=lambda item: item[1])}


def report(site: str, runs: dict[str, list[dict]], expected: dict) -> None:
    print(f"== {site}")
    for mode, visits in runs.items():
        seconds = statistics.median(run["seconds"] for run in visits)
        loads = ", ".join(f"{run['load']:.1f}" for run in visits)
        times = ", ".join(f"{run['seconds']:.2f}" for run in visits)
        # the page's clock starts when the browser starts the navigation (as FCP's and
        # LCP's do); the harness's includes the new browser's own start before it
        opened = [run["timings"]["answer"] / 1000 for run in visits]
        each_opened = ", ".join(f"{s:.2f}" for s in opened)
        print(f"{mode}: first live answer {statistics.median(opened):.2f} s after the page"
              f" opened ({each_opened}), {seconds:.2f} s after the harness asked for it"
              f" ({times}), medians of {len(visits)}; load {loads}")  # fmt: skip
        first = visits[0]
        each = [steps(run) for run in visits]
        for name in each[0]:
            times = [found[name] for found in each if name in found]
            print(f"  {statistics.median(times):6.2f} s  {name}")
        print(f"  kept: {first.get('kept')}")
        print(f"  answer worked out in {statistics.median(run['ms'] for run in visits):.0f} ms")
        sent = sum(size for _, size in first["sent"])
        print(f"  first run: {len(first['sent'])} requests, {sent / 1e6:.2f} MB of bodies sent,"
              f" same answer as CPython: {first['answer'] == expected}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", type=Path, nargs="+")
    parser.add_argument("--phone", action="store_true", help="390 px, 4x CPU, 9 Mbit/s, 170 ms")
    parser.add_argument("--cpu", type=float, default=None, help="CPU throttling rate")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--service-worker", action="store_true", help="let the site's run")
    options = parser.parse_args()
    options.cpu = options.cpu or (4 if options.phone else 1)
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    options.screenshot = ROOT / "test-artifacts/workbench-measured-390.png"
    expected = answer({"force": json.loads(FORCE.read_text())})
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    runs: dict = {site: {"cold": [], "warm": []} for site in options.sites}
    with ExitStack() as stack, sync_playwright() as playwright:
        urls = {site: stack.enter_context(serving(site)) + "/workbench/" for site in options.sites}
        for _ in range(options.runs):
            for site in options.sites:
                profile = Path(tempfile.mkdtemp(prefix="workbench-profile-"))
                try:
                    for mode in ("cold", "warm"):
                        runs[site][mode].append(visit(playwright, profile, urls[site], options))
                finally:
                    shutil.rmtree(profile, ignore_errors=True)
    for site in options.sites:
        report(str(site), runs[site], expected)
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
