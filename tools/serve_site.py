"""Serve a built site as a static host would: each file's precompressed twin (`.br`, else
`.gz`, written by the build beside it, docs/hooks/precompress.py) when the browser accepts it.

    python tools/serve_site.py [SITE] [--port 8000]

`make preview` runs it on `site/`; the browser tests and benchmarks/site.py serve the site
they built through `serving`. Only 127.0.0.1 is ever bound. `compressing` does the same
for `mkdocs serve` (docs/hooks/precompress.py), which writes no twins: it gzips on the fly.
"""

import argparse
import email.utils
import functools
import gzip
import hashlib
import http.server
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# the encodings the build writes, best first, by the suffix of their twin file
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


class Handler(http.server.SimpleHTTPRequestHandler):
    """SimpleHTTPRequestHandler, plus the precompressed twins and the types Pyodide needs."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
    }

    def log_message(self, *args: object) -> None:
        pass

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # its redirect to the folder's address
            path = path / "index.html"
        accepted = accepted_encodings(self.headers.get("Accept-Encoding", ""))
        for encoding, suffix in ENCODINGS:
            twin = path.with_name(path.name + suffix)
            if encoding in accepted and path.is_file() and twin.is_file():
                return self._send_twin(path, twin, encoding)
        return super().send_head()

    def _send_twin(self, path: Path, twin: Path, encoding: str):  # type: ignore[no-untyped-def]
        """The twin, with the validators a static host sends (`ETag`, `Last-Modified`),
        and a bodiless 304 when the browser's copy is still this one: without them a
        browser keeps nothing of a compressed response, and Chromium keeps no compiled
        WebAssembly either (it caches the code of a response its HTTP cache holds)."""
        stat = twin.stat()
        tag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}-{encoding}"'
        if tag in self.headers.get("If-None-Match", "") or unchanged_since(
            self.headers.get("If-Modified-Since"), stat.st_mtime
        ):
            self.send_response(304)
            self.send_header("ETag", tag)
            self.end_headers()
            return None
        file = twin.open("rb")
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(stat.st_size))
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("ETag", tag)
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return file

    def end_headers(self) -> None:
        # as most static hosts do: the browser may keep every file, asking the host
        # whether it changed before using it again (a new build is seen at once)
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        # a browser that drops a connection mid-answer (a page closed, a preload left
        # unused) is no fault of the site's: no traceback in the output
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextmanager
def serving(site: Path, port: int = 0) -> Iterator[str]:
    """The site served on 127.0.0.1 in a thread for as long as the block runs; yields its
    base address."""
    handler = functools.partial(Handler, directory=str(site))
    server = Server(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


COMPRESSIBLE_TYPES = ("text/", "application/javascript", "application/json", "application/wasm",
                      "application/xml", "image/svg+xml")  # fmt: skip
_gzipped: dict[str, bytes] = {}  # by the sha256 of the body: the runtime is gzipped once


def unchanged_since(header: str | None, modified: float) -> bool:
    """Whether a file modified at `modified` (seconds) is as old as an If-Modified-Since
    header says the browser's copy is (Chromium asks so, not by ETag, for a twin)."""
    try:
        since = email.utils.parsedate_to_datetime(header or "")
    except (TypeError, ValueError):
        return False
    return since.tzinfo is not None and int(modified) <= since.timestamp()


def accepted_encodings(header: str) -> set[str]:
    """The codings an Accept-Encoding header names (without their weights)."""
    return {part.split(";")[0].strip() for part in header.split(",")}


def compressing(app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    """WSGI middleware: a text or WebAssembly response of more than 1 KB, gzipped for a
    browser that accepts it (the live-reload server of `mkdocs serve`)."""

    def wrapped(environ: dict, start_response: Callable) -> Iterable[bytes]:
        if "gzip" not in accepted_encodings(environ.get("HTTP_ACCEPT_ENCODING", "")):
            return app(environ, start_response)
        answer: dict = {}

        def keep(status: str, headers: list, exc_info: object = None) -> Callable:
            answer.update(status=status, headers=headers)
            return lambda data: None  # the write() of old applications: not used there

        body = b"".join(app(environ, keep))
        status, headers = answer["status"], answer["headers"]
        kind = next((value for name, value in headers if name.lower() == "content-type"), "")
        if status.startswith("200") and kind.startswith(COMPRESSIBLE_TYPES) and len(body) > 1024:
            key = hashlib.sha256(body).hexdigest()
            if key not in _gzipped:
                if len(_gzipped) > 64:
                    _gzipped.clear()
                _gzipped[key] = gzip.compress(body, 6, mtime=0)
            body = _gzipped[key]
            headers = [(name, value) for name, value in headers if name.lower() != "content-length"]
            headers += [("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")]
            headers += [("Content-Length", str(len(body)))]
        start_response(status, headers)
        return [body]

    return wrapped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, nargs="?", default=Path("site"))
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    with serving(args.site, args.port) as url:
        print(f"Serving {args.site} on {url}/ (Ctrl-C stops)", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
