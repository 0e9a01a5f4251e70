"""Serve the workbench prototype on 127.0.0.1 and time it in headless Chromium.

    .venv/bin/python tools/workbench_prototype/measure.py ASSETS [--max-age SECONDS]

ASSETS is the folder tools/fetch_pyodide.py filled. Opens the page twice with one
profile (a cold open on an empty cache, then a warm one), records every request and the
bytes the server sent for each, and compares the page's answer with the command line's.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
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


def serve(assets: Path, max_age: int | None):
    root = Path(tempfile.mkdtemp(prefix="workbench-"))
    shutil.copyfile(HERE / "index.html", root / "index.html")
    shutil.copyfile(FORCE, root / "b-company.json")
    shutil.copytree(assets, root / "pyodide")
    Handler.max_age = max_age
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, root


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
    page.wait_for_function("window.workbench !== undefined", timeout=120_000)
    seconds = time.perf_counter() - start
    cpu = cpu_seconds() - cpu
    result = page.evaluate("window.workbench")
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
    parser.add_argument("assets", type=Path)
    parser.add_argument("--max-age", type=int, default=None, help="Cache-Control max-age")
    args = parser.parse_args()
    cli = subprocess.run(
        [sys.executable, "-m", "rulesref.cli", "cascade", "--json", str(FORCE)],
        check=True,
        capture_output=True,
        text=True,
    )
    expected = json.loads(cli.stdout)
    server, root = serve(args.assets, args.max_age)
    url = f"http://127.0.0.1:{server.server_port}/index.html"
    profile = Path(tempfile.mkdtemp(prefix="workbench-profile-"))
    artifacts = ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    report = {}
    try:
        with sync_playwright() as playwright:
            shot = artifacts / "workbench-prototype-390.png"
            report["cold"] = visit(playwright, profile, url, shot)
            report["warm"] = visit(playwright, profile, url)
            report["warm again"] = visit(playwright, profile, url)
    finally:
        server.shutdown()
        shutil.rmtree(root)
        shutil.rmtree(profile)
    for name, visit_ in report.items():
        hosts = {urlsplit(u).hostname for u in visit_["requests"]}
        print(
            f"{name}: {visit_['seconds']} s to the answer ({visit_['cpu']} s of CPU, load"
            f" {visit_['load']:.1f}), page timings {visit_['timings']}"
        )
        print(f"  requests {len(visit_['requests'])}, hosts {sorted(hosts)}")
        print(f"  bytes served {sum(n for _, n in visit_['served'])}: {visit_['served']}")
        print(f"  same answer as the command line: {visit_.get('answer') == expected}")
        if "error" in visit_:
            print(f"  error: {visit_['error']}")
    print(json.dumps(report["cold"].get("answer"), indent=1))


if __name__ == "__main__":
    main()
