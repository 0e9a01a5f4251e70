"""Serve a built site on 127.0.0.1 and time its Workbench page in headless Chromium.

    make site && .venv/bin/python tools/measure_workbench.py site [--max-age SECONDS]

Opens /workbench/ three times with one browser profile (a cold open on an empty cache,
then two warm ones), records every request and the bytes the server sent for each, the
page's own stage timings, and compares its answer (the sample force, B Company) with
rulesref.workbench in CPython. Saves a 390 px screenshot in test-artifacts/.
"""

import argparse
import json
import os
import shutil
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import sync_playwright

from rulesref.workbench import answer

ROOT = Path(__file__).resolve().parent.parent
FORCE = ROOT / "examples/b-company.json"


def cpu_seconds() -> float:
    """CPU time of every finished and living process under this one (the browser's), so
    that a visit's cost can be told from the waiting a busy machine adds to its wall time."""
    ticks = os.sysconf("SC_CLK_TCK")
    children = os.times()
    total = children.children_user + children.children_system
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if ancestor_is_me(int(stat.parent.name)):
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def ancestor_is_me(pid: int) -> bool:
    while pid > 1:
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            return False
        if pid == os.getpid():
            return True
    return False


class Handler(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".whl": "application/zip",
    }
    sent: list = []
    max_age: int | None = None

    def end_headers(self):
        if self.max_age is not None:
            self.send_header("Cache-Control", f"max-age={self.max_age}")
        super().end_headers()

    def copyfile(self, source, outputfile):
        start = source.tell()
        super().copyfile(source, outputfile)
        self.sent.append((self.path, source.tell() - start))

    def log_message(self, *args):
        pass


def serve(site: Path, max_age: int | None):
    Handler.max_age = max_age
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def visit(playwright, profile: Path, url: str, screenshot: Path | None = None) -> dict:
    context = playwright.chromium.launch_persistent_context(
        str(profile),
        executable_path="/usr/bin/chromium",
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-background-networking",
            "--disable-gpu",
            "--disable-component-update",
            "--no-first-run",
            "--disable-sync",
        ],
        viewport={"width": 390, "height": 844},
    )
    requests = []
    context.on("request", lambda request: requests.append(request.url))
    Handler.sent.clear()
    page = context.pages[0] if context.pages else context.new_page()
    cpu = cpu_seconds()
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("#rr-workbench[data-answered]", timeout=120_000)
    seconds = time.perf_counter() - start
    cpu = cpu_seconds() - cpu
    result = page.evaluate(
        "(({answer, timings}) => ({answer, timings}))(document.getElementById('rr-workbench'))"
    )
    if screenshot:
        page.screenshot(path=str(screenshot), full_page=True)
    context.close()
    return {
        "seconds": round(seconds, 2),
        "cpu": round(cpu, 2),
        "load": os.getloadavg()[0],
        **result,
        "requests": requests,
        "served": sorted(Handler.sent),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--max-age", type=int, default=None, help="Cache-Control max-age")
    args = parser.parse_args()
    expected = answer({"force": json.loads(FORCE.read_text())})
    server = serve(args.site, args.max_age)
    url = f"http://127.0.0.1:{server.server_port}/workbench/"
    profile = Path(tempfile.mkdtemp(prefix="workbench-profile-"))
    artifacts = ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    report = {}
    try:
        with sync_playwright() as playwright:
            shot = artifacts / "workbench-measured-390.png"
            report["cold"] = visit(playwright, profile, url, shot)
            report["warm"] = visit(playwright, profile, url)
            report["warm again"] = visit(playwright, profile, url)
    finally:
        server.shutdown()
        shutil.rmtree(profile)
    for name, visit_ in report.items():
        hosts = {urlsplit(u).hostname for u in visit_["requests"]}
        print(
            f"{name}: {visit_['seconds']} s to the answer ({visit_['cpu']} s of CPU, load"
            f" {visit_['load']:.1f}), page timings {visit_['timings']}"
        )
        print(f"  requests {len(visit_['requests'])}, hosts {sorted(hosts)}")
        print(f"  bytes served {sum(n for _, n in visit_['served'])}: {visit_['served']}")
        print(f"  same answer as CPython: {visit_.get('answer') == expected}")


if __name__ == "__main__":
    main()
