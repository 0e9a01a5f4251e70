"""Lay out everything the Workbench page needs to run rulesref in the browser, from pins.

    python tools/fetch_pyodide.py DEST [--cache DIR]
    python tools/fetch_pyodide.py --cache-only    # make sure the cache entry exists

DEST receives Pyodide's runtime (from the `pyodide` npm package), a wheel of this
checkout's rulesref, and a `pyodide-lock.json` naming only that wheel, so that
`pyodide.loadPackage("rulesref")` fetches it from DEST and checks it against its sha256.
No file of DEST comes from anywhere else, so the page never leaves its host. The page runs
rulesref on Python's fractions (`RULESREF_FRACTIONS=1`, see rulesref.exact) and the dice
core on Python's integers (no gmpy2 there): the same answers, with no sympy to ship.

The runtime is kept in a cache outside the clone
(`${XDG_CACHE_HOME:-~/.cache}/rulesref/pyodide/<key>`, so that fresh clones on one machine
share it). The npm tarball is downloaded over HTTPS with Python alone (no Node.js, no npm)
and checked against the registry's sha512 integrity pinned here; each file the page loads
is checked against its sha256 pinned here (`RUNTIME`), never against anything the cache
says of itself, on every lay-out, and so are its precompressed twins (`.gz`, `.br`, made
once per set of pins by tools/compress.py; decompressed and hashed). A missing file is
taken again from the tarball (downloaded again if it is missing or wrong); a changed file
or one the pins do not name is refused by name. Pyodide's standard library comes from the
repository, byte-compiled (`STDLIB`, pinned too), and the page gets only the modules the
Workbench imports (`STDLIB_MODULES`; the trimmed zip is pinned too). The rulesref wheel
is written afresh each time, with no build tool: its source, and where Node.js is
installed its bytecode, written by Pyodide's own Python (`bytecode`). Both zips
are stored, not deflated, and laid out with their twins (kept by content in the cache's
`twins/`): brotli of a whole archive is 30% smaller than deflate file by file. An
entry is marked as used on every lay-out; when a new one is made, entries unused for
`STALE_DAYS` are removed.

docs/hooks/pyodide_assets.py calls `lay_out` when the site has the Workbench page.
"""

import argparse
import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import urllib.request
import zipfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from compress import DECODERS, ENCODERS, twins  # noqa: E402

PYODIDE = "314.0.7"
TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE}.tgz"
# the npm registry's `dist.integrity` of that tarball
INTEGRITY = (
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
)
# the files of the npm package the page loads (the rest are types, source maps, consoles)
RUNTIME = {
    "pyodide.mjs": "6f1d60f7bf529beb300f0f47983c921d3982363640ba20af0e38efdddbc66109",
    "pyodide.asm.mjs": "f7cdc8ece80678ceb712f8e65ebe6d3a83203a180c399865f49612a051693635",
    "pyodide.asm.wasm": "cc36e3cab04fdfc9a63ff13eb52eae2b911bf46c025cc7b281f394bd3de1d5e6",
    "pyodide-lock.json": "5dc2fc119108bc148c7457dc86e7675b5c87e1cafd420b9c34c1eaef7b36c010",
}
# Pyodide's standard library as its own interpreter byte-compiled it (the modules that
# Pyodide's start and rulesref import; the rest as source), kept in the repository: no
# other interpreter can write its bytecode, and compiling them in the page on every visit
# doubled the Workbench's start. Made from the package's python_stdlib.zip (sha256
# fa1957e5...) by tools/compile_wheels.py under Node, as of commit 01f6203; bumping Pyodide
# means making it again so (or shipping the package's own zip: the page then compiles).
STDLIB = ROOT / "tools/pyodide/python_stdlib.zip"
STDLIB_SHA256 = "2b39f0de33cea0b90e9efa4b1712364ba3f5e4606ad792035fcfff248bcce501"
# What the page gets of it: the modules the Workbench imports under Pyodide (Pyodide's start,
# loading our wheel, every answer and refusal of the Workbench's tests), one a line, found
# by tools/pyodide/used_modules.py; 155 of its 614 files, stored: 3.9 MB, 1.14 MB as brotli.
STDLIB_MODULES = ROOT / "tools/pyodide/stdlib-modules.txt"
TRIMMED_SHA256 = "5f4d4e843888cd6276f35b48b8055d0e33d251b02db37d083fa8502ce2910937"
# rulesref's bytecode, where Node.js is installed (`bytecode`)
COMPILE = ROOT / "tools/pyodide/compile.mjs"
NODE = shutil.which("node")
LOCK = "pyodide-lock.json"  # read for its "info"; the page gets a lock of our wheel instead
SERVED = sorted(set(RUNTIME) - {LOCK})
MARK = "used"  # in a cache entry: touched on every lay-out, for pruning
STALE_DAYS = 30


class CacheError(Exception):
    """A file of the cache or the download is not the pinned one (a one-line message)."""


def cache_root() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulesref/pyodide"


def cache_key() -> str:
    """Changes with any pin or the compression: a new entry is made."""
    digest = hashlib.sha256(json.dumps([PYODIDE, INTEGRITY, RUNTIME]).encode())
    digest.update((ROOT / "tools/compress.py").read_bytes())
    return f"{PYODIDE}-{digest.hexdigest()[:16]}"


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while block := file.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def integrity(path: Path) -> str:
    """npm's Subresource Integrity string of a file: sha512, base64."""
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode()


def tarball(downloads: Path) -> Path:
    """The pinned npm tarball, downloaded over HTTPS if missing or not the pinned one."""
    path = downloads / f"pyodide-{PYODIDE}.tgz"
    if path.exists() and integrity(path) == INTEGRITY:
        return path
    downloads.mkdir(parents=True, exist_ok=True)
    part = downloads / f".{path.name}.part"
    print(f"fetch_pyodide: downloading {TARBALL}", file=sys.stderr)
    with urllib.request.urlopen(TARBALL, timeout=120) as response, part.open("wb") as out:
        shutil.copyfileobj(response, out)
    if integrity(part) != INTEGRITY:
        part.unlink()
        raise CacheError(f"{TARBALL} is not the pinned package (its sha512 is not {INTEGRITY})")
    part.rename(path)
    return path


def extract(downloads: Path, names: list[str], dest: Path) -> None:
    """Take the named files out of the checked tarball into dest, each checked, with its
    twins; each appears whole (renamed into place), so another build never sees half."""
    archive_path = tarball(downloads)
    with tarfile.open(archive_path) as archive, tempfile.TemporaryDirectory(dir=downloads) as tmp:
        for name in names:
            archive.extract(f"package/{name}", tmp, filter="data")
            source = Path(tmp, "package", name)
            if sha256(source) != RUNTIME[name]:
                raise CacheError(f"{name} in {TARBALL} does not match its pin")
            encoded = list(twins(source.read_bytes(), dense=True)) if name in SERVED else []
            os.replace(source, dest / name)
            for suffix, data in encoded:
                Path(tmp, name + suffix).write_bytes(data)
                os.replace(Path(tmp, name + suffix), dest / (name + suffix))


def pinned_names() -> set[str]:
    """Every file a cache entry may hold: the runtime, its twins, the mark of use."""
    return {MARK} | set(RUNTIME) | {name + suffix for name in SERVED for suffix in ENCODERS}


def check_entry(entry: Path) -> list[str]:
    """Refuses a file of the entry that the pins do not name, or that differs from its pin
    (a twin: once decompressed); returns the pinned files that are missing."""
    for path in sorted(entry.iterdir()):
        if path.name not in pinned_names():
            raise CacheError(f"{path} is not a file of the pins: remove {entry} to fetch again")
        name, suffix = os.path.splitext(path.name)
        if path.name in RUNTIME:
            actual = sha256(path)
        elif suffix in DECODERS:
            try:
                actual = hashlib.sha256(DECODERS[suffix](path.read_bytes())).hexdigest()
            except Exception:  # not even the encoding it claims: refused like a changed file
                actual = "not " + suffix
        else:
            continue
        if actual != RUNTIME[name if suffix in DECODERS else path.name]:
            raise CacheError(f"{path} differs from its pin: remove {entry} to fetch it again")
    return [name for name in RUNTIME if not (entry / name).exists()]


def third_party(cache: Path | None = None) -> Path:
    """The cache entry for the current pins, made or repaired from the tarball if files are
    missing; refuses a changed or planted file (CacheError)."""
    root = cache or cache_root()
    entry = root / cache_key()
    made = not entry.exists()
    entry.mkdir(parents=True, exist_ok=True)
    missing = check_entry(entry)
    if missing:
        extract(root / "downloads", missing, entry)
    (entry / MARK).touch()  # used: not stale
    if made:
        prune(root)
    return entry


def module_of(path: str) -> str:
    """The module a file of the standard library zip holds: `encodings/utf_8.pyc` is
    `encodings.utf_8`, `json/__init__.py` is `json` (a folder or a data file: its path)."""
    stem, dot, suffix = path.rpartition(".")
    if not dot or suffix not in ("py", "pyc"):
        return path
    parts = stem.split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def trimmed_stdlib(source: bytes, modules: set[str]) -> bytes:
    """The zip `source` with only the files of `modules`, in its order, each stored (not
    compressed: the host's brotli twin of the whole archive is 30% smaller than deflate
    file by file, and Python reads a stored file without inflating it); the same bytes on
    any machine (each file's name, time, attributes and bytes as in `source`)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(source)) as archive, zipfile.ZipFile(out, "w") as trimmed:
        for info in archive.infolist():
            if module_of(info.filename) in modules:
                header = _stored(info.filename, info.date_time, info.external_attr)
                trimmed.writestr(header, archive.read(info))
    return out.getvalue()


def _stored(
    name: str, date_time: tuple[int, ...], attributes: int = 0o644 << 16
) -> zipfile.ZipInfo:
    """A zip record's header for a file stored as it is, as on any machine."""
    info = zipfile.ZipInfo(name, date_time)
    info.create_system, info.external_attr, info.compress_type = 3, attributes, zipfile.ZIP_STORED
    return info


def page_stdlib() -> bytes:
    """The standard library the page gets: the pinned zip trimmed to `STDLIB_MODULES`,
    both checked against their pins."""
    source = STDLIB.read_bytes()
    if hashlib.sha256(source).hexdigest() != STDLIB_SHA256:
        raise CacheError(f"{STDLIB} differs from its pin")
    lines = STDLIB_MODULES.read_text().splitlines()
    trimmed = trimmed_stdlib(source, {line for line in lines if line and line[0] != "#"})
    if hashlib.sha256(trimmed).hexdigest() != TRIMMED_SHA256:
        raise CacheError(f"the standard library trimmed to {STDLIB_MODULES} differs from its pin")
    return trimmed


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def bytecode(sources: dict[str, bytes], entry: Path, cache: Path) -> dict[str, bytes]:
    """The bytecode of each module of `sources` ({path in the wheel: source}) as Pyodide's
    own Python writes it, by that Python under Node (tools/pyodide/compile.mjs), kept in
    the cache's `bytecode/` by the sources and pins; {} where Node.js is not installed
    (the page then compiles the source, 0.2 to 0.35 s more for its first answer), and {}
    with a line said where Node could not write it. No other Python can write it
    (Pyodide's is 3.14). Checked bytecode: it is never run for a source it was not made
    from."""
    if NODE is None:
        return {}
    digest = hashlib.sha256(f"{entry.name} {STDLIB_SHA256}".encode())
    digest.update(COMPILE.read_bytes())
    for path, source in sorted(sources.items()):
        digest.update(f"{path} {hashlib.sha256(source).hexdigest()}".encode())
    kept = cache / "bytecode" / f"{digest.hexdigest()[:32]}.json"
    compiled = _kept_bytecode(kept)
    if compiled is not None:
        return compiled
    kept.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=kept.parent) as tmp:
        asked, made = Path(tmp, "sources.json"), Path(tmp, "bytecode.json")
        asked.write_text(json.dumps({path: base64.b64encode(source).decode()
                                     for path, source in sources.items()}))  # fmt: skip
        command = [NODE, str(COMPILE), str(entry), str(STDLIB), str(asked), str(made)]
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=120)
            said = (run.stderr.strip().splitlines() or [f"exit status {run.returncode}"])[-1]
        except (OSError, subprocess.TimeoutExpired) as error:
            run, said = None, str(error)
        if run is None or run.returncode != 0 or not made.exists():
            print(f"fetch_pyodide: rulesref's bytecode not written ({said}); the page "
                  "compiles its source", file=sys.stderr)  # fmt: skip
            return {}
        os.replace(made, kept)
    prune(cache)
    return _kept_bytecode(kept) or {}


def _kept_bytecode(kept: Path) -> dict[str, bytes] | None:
    """The bytecode kept in `kept`, marked as used; None if it is missing or is not what
    `bytecode` writes (then made again)."""
    try:
        os.utime(kept)  # used: not stale
        written = json.loads(kept.read_text())
        return {path: base64.b64decode(text, validate=True) for path, text in written.items()}
    except (OSError, ValueError, AttributeError):
        return None


def rulesref_wheel(dest: Path, compiled: Callable[[dict[str, bytes]], dict[str, bytes]]) -> Path:
    """A wheel of this checkout's rulesref/: its source, and the bytecode `compiled` gives
    for it (the same bytes for the same source and bytecode), written directly: no build
    tool, nothing downloaded."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    version = project["version"]
    dist_info = f"rulesref-{version}.dist-info"
    sources = {
        path.relative_to(ROOT).as_posix(): path.read_bytes()
        for path in sorted((ROOT / "rulesref").rglob("*.py"))
    }
    entries = [*sources.items(), *sorted(compiled(sources).items())]
    requires = "".join(f"Requires-Dist: {need}\n" for need in project["dependencies"])
    metadata = f"Metadata-Version: 2.1\nName: rulesref\nVersion: {version}\n{requires}"
    wheel_file = "Wheel-Version: 1.0\nGenerator: tools/fetch_pyodide.py\n"
    wheel_file += "Root-Is-Purelib: true\nTag: py3-none-any\n"
    entries += [
        (f"{dist_info}/METADATA", metadata.encode()),
        (f"{dist_info}/WHEEL", wheel_file.encode()),
    ]
    record = [_record_line(name, data) for name, data in entries] + [f"{dist_info}/RECORD,,"]
    entries.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode()))
    path = dest / f"rulesref-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as wheel:  # stored: its brotli twin is sent (28% smaller)
        for name, data in entries:
            wheel.writestr(_stored(name, (1980, 1, 1, 0, 0, 0)), data)
    return path


def lock(info: dict, wheel: Path, stdlib: bytes) -> None:
    """A lock file naming only our wheel, as it is now: Pyodide resolves `rulesref` to it
    and checks the download against its sha256 (it needs neither gmpy2 on emscripten nor
    sympy on fractions, and the lock names neither). Its `info` also names the standard
    library's sha256, which Pyodide does not read: the page keeps Python's memory under a
    hash of this file, and that memory holds both (docs/javascripts/workbench.js)."""
    package = {
        "name": "rulesref",
        "version": wheel.name.split("-")[1],
        "file_name": wheel.name,
        "install_dir": "site",
        "sha256": sha256(wheel),
        "package_type": "package",
        "imports": ["rulesref"],
        "depends": [],
        "unvendored_tests": False,
    }
    info = {**info, "python_stdlib_sha256": hashlib.sha256(stdlib).hexdigest()}
    (wheel.parent / LOCK).write_text(json.dumps({"info": info, "packages": {"rulesref": package}}))


def prune(cache: Path, now: float | None = None) -> list[Path]:
    """Remove the cache's entries unused for `STALE_DAYS` (their mark of use untouched
    since; `manifest.json` marked the entries of the Node-compiled runtime before it), and
    the bytecode unused as long; the downloads and anything else stay. Returns what was
    removed."""
    bar = (time.time() if now is None else now) - STALE_DAYS * 24 * 3600
    stale = [
        entry
        for entry in cache.iterdir()
        for mark in (entry / MARK, entry / "manifest.json")
        if mark.is_file() and mark.stat().st_mtime < bar
    ]
    for entry in stale:
        shutil.rmtree(entry, ignore_errors=True)
    unused = [kept for kept in (cache / "bytecode").glob("*.json") if kept.stat().st_mtime < bar]
    for kept in unused:
        kept.unlink()
    return stale + unused


def lay_out(dest: Path, cache: Path | None = None) -> list[Path]:
    """Fill dest with the page's Python: the cached runtime, a fresh rulesref wheel, and
    the lock that names it. Returns the files laid out."""
    root = cache or cache_root()
    entry = third_party(root)
    dest.mkdir(parents=True, exist_ok=True)
    for name in sorted(pinned_names() - {MARK, LOCK}):
        if (entry / name).exists():  # copy2: a twin stays newer than its file
            shutil.copy2(entry / name, dest / name)
    stdlib = page_stdlib()
    (dest / STDLIB.name).write_bytes(stdlib)
    wheel = rulesref_wheel(dest, lambda sources: bytecode(sources, entry, root))
    lock(json.loads((entry / LOCK).read_text())["info"], wheel, stdlib)
    # their twins, kept by content beside the entries: the standard library's once per pin
    kept = root / "twins"
    for path in (dest / STDLIB.name, wheel):
        for suffix, encoded in twins(path.read_bytes(), kept, dense=True):
            path.with_name(path.name + suffix).write_bytes(encoded)
    return sorted(path for path in dest.iterdir())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path, nargs="?")
    parser.add_argument("--cache", type=Path, default=None, help=f"default {cache_root()}")
    parser.add_argument("--cache-only", action="store_true", help="only make the cache entry")
    args = parser.parse_args()
    try:
        if args.cache_only or args.dest is None:
            print(f"workbench assets: {third_party(args.cache)}")
            return
        for path in lay_out(args.dest, args.cache):
            print(f"{path.stat().st_size:>10}  {sha256(path)}  {path.name}")
    except (CacheError, OSError) as error:
        print(f"fetch_pyodide: {error}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
