"""Precompressed twins of a built site's files, for a host to send as they are.

    python tools/compress.py SITE

Beside each text file and the WebAssembly (`page.html` → `page.html.gz`, `page.html.br`)
the gzip -9 and brotli encodings of it, when they are smaller; any static host that
serves twins (nginx's gzip_static and brotli_static, tools/serve_site.py) then sends them
compressed. Brotli runs at its densest setting on small files and a fast one on large ones
(11 on the 9.6 MB WebAssembly would take minutes), except for the files made once and sent
often (`dense`: the Workbench's runtime and standard library); each encoding of a file is
kept in a cache by the file's sha256, so a build recompresses only what changed.
docs/hooks/precompress.py runs it after each `mkdocs build`; tools/fetch_pyodide.py makes
the Pyodide runtime's twins once per set of pins.
"""

import gzip
import hashlib
import sys
from collections.abc import Iterator
from pathlib import Path

import brotli

COMPRESSIBLE = {
    ".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".txt", ".csv", ".map", ".wasm",
    ".ipynb",
}  # fmt: skip
SMALL = 512 * 1024  # brotli's quality 11 up to this size, 5 above it
WORTH = 0.95  # a twin is written only if it saves at least 5%


def gzipped(data: bytes) -> bytes:
    """gzip -9, with no time stamp: the same bytes for the same input."""
    return gzip.compress(data, 9, mtime=0)


def brotlied(data: bytes) -> bytes:
    return brotli.compress(data, quality=11 if len(data) <= SMALL else 5)


def densest(data: bytes) -> bytes:
    """Brotli as dense as a build can afford, for a file made once and sent often (the
    Workbench's runtime and standard library): above `SMALL`, quality 10 with a 16 MB
    window (the 9.6 MB WebAssembly: 3.23 -> 2.86 MB for 20 s of CPU, once per Pyodide)."""
    return brotli.compress(data, quality=11 if len(data) <= SMALL else 10, lgwin=24)


ENCODERS = {".gz": gzipped, ".br": brotlied}
DECODERS = {".gz": gzip.decompress, ".br": brotli.decompress}


def twins(
    data: bytes, cache: Path | None = None, dense: bool = False
) -> Iterator[tuple[str, bytes]]:
    """(suffix, encoded bytes) for each encoding that saves at least 5%, through the cache;
    `dense`: brotli by `densest`."""
    key = hashlib.sha256(data).hexdigest() + ("-dense" if dense else "")
    for suffix, encode in (ENCODERS | {".br": densest} if dense else ENCODERS).items():
        kept = cache / f"{key}{suffix}" if cache else None
        if kept and kept.exists():
            encoded = kept.read_bytes()
            kept.touch()  # used by this build
        else:
            encoded = encode(data)
            if kept:
                kept.parent.mkdir(parents=True, exist_ok=True)
                kept.write_bytes(encoded)
        if len(encoded) <= WORTH * len(data):
            yield suffix, encoded


def has_twins(path: Path) -> bool:
    """Its twins were laid out with it, newer than it (tools/fetch_pyodide.py's)."""
    found = [path.with_name(path.name + suffix) for suffix in ENCODERS]
    return any(twin.exists() and twin.stat().st_mtime >= path.stat().st_mtime for twin in found)


def compress_site(site: Path, cache: Path | None = None) -> int:
    """Write the twins of every compressible file of `site` that has none; returns the
    number of files written."""
    written = 0
    for path in sorted(site.rglob("*")):
        if path.suffix in COMPRESSIBLE and path.is_file() and not has_twins(path):
            for suffix, encoded in twins(path.read_bytes(), cache):
                path.with_name(path.name + suffix).write_bytes(encoded)
                written += 1
    return written


if __name__ == "__main__":
    print(f"{compress_site(Path(sys.argv[1]))} twins written")
