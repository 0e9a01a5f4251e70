"""Lay out everything the Workbench page needs to run rulesref in the browser, from pins.

    python tools/fetch_pyodide.py DEST [--cache DIR]
    python tools/fetch_pyodide.py --cache-only    # make sure the cache entry exists

DEST receives Pyodide's runtime (from the `pyodide` npm package), a wheel of this
checkout's rulesref, and a `pyodide-lock.json` naming only that wheel, so that
`pyodide.loadPackage("rulesref")` fetches it from DEST and checks it against its sha256.
No file of DEST comes from anywhere else, so the page never leaves its host. The page runs
rulesref on Python's fractions (`RULESREF_FRACTIONS=1`, see rulesref.exact) and the dice
core on Python's integers (no gmpy2 there): the same answers, with no sympy to ship.

The runtime is made once per set of pins and kept in a cache outside the clone
(`${XDG_CACHE_HOME:-~/.cache}/rulesref/pyodide/<key>`, so that fresh clones on one machine
share it): downloaded through the ordinary client (`npm pack`), checked against its pins,
then the standard library byte-compiled by Pyodide itself under Node
(tools/compile_wheels.py: the page would otherwise compile ~160 modules from source on
every visit). Every cached file is checked against the sha256 recorded when it was made,
on every lay-out. The rulesref wheel (source only, a few modules) is written afresh each
time, with no build tool. An entry is marked as used on every lay-out; when a new one is
made, entries unused for `STALE_DAYS` are removed (the pins change now and then, and
another clone on the machine may still use the old ones).

docs/hooks/pyodide_assets.py calls `lay_out` when the site has the Workbench page.
"""

import argparse
import base64
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PYODIDE = "314.0.7"
PYODIDE_TARBALL = "66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0"
# the files of the npm package the page loads (the rest are types, source maps, consoles)
RUNTIME = {
    "pyodide.mjs": "6f1d60f7bf529beb300f0f47983c921d3982363640ba20af0e38efdddbc66109",
    "pyodide.asm.mjs": "f7cdc8ece80678ceb712f8e65ebe6d3a83203a180c399865f49612a051693635",
    "pyodide.asm.wasm": "cc36e3cab04fdfc9a63ff13eb52eae2b911bf46c025cc7b281f394bd3de1d5e6",
    "python_stdlib.zip": "fa1957e5777068fc4f7437f96d860ae2fbe9c19732ba06c84e004ec16dd7dd7a",
    "pyodide-lock.json": "5dc2fc119108bc148c7457dc86e7675b5c87e1cafd420b9c34c1eaef7b36c010",
}
OPTIMIZE = 0  # -OO drops asserts and docstrings: not worth a doubt for a few kB
MANIFEST = "manifest.json"  # in a cache entry: the sha256 of each of its files
STALE_DAYS = 30
LOCK = "pyodide-lock.json"


def cache_root() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulesref/pyodide"


def cache_key() -> str:
    """Changes with any pin, the compile step, or the Node runner: a new entry is made."""
    digest = hashlib.sha256(json.dumps([PYODIDE, PYODIDE_TARBALL, RUNTIME, OPTIMIZE]).encode())
    for tool in ("compile_wheels.py", "pyodide_run.mjs"):
        digest.update((ROOT / "tools" / tool).read_bytes())
    return f"{PYODIDE}-{digest.hexdigest()[:16]}"


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while block := file.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def checked(path: Path, expected: str) -> Path:
    actual = sha256(path)
    if actual != expected:
        raise RuntimeError(f"fetch_pyodide: {path} has sha256 {actual}, expected {expected}")
    return path


def runtime(downloads: Path, dest: Path) -> dict:
    """Copy Pyodide's runtime files into dest; returns the npm package's own lock file."""
    tarball = downloads / f"pyodide-{PYODIDE}.tgz"
    if not tarball.exists() or sha256(tarball) != PYODIDE_TARBALL:
        subprocess.run(
            ["npm", "pack", "--silent", f"pyodide@{PYODIDE}", "--pack-destination", str(downloads)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    checked(tarball, PYODIDE_TARBALL)
    with tarfile.open(tarball) as archive, tempfile.TemporaryDirectory() as tmp:
        for name, digest in RUNTIME.items():
            archive.extract(f"package/{name}", tmp, filter="data")
            source = checked(Path(tmp, "package", name), digest)
            if name != LOCK:
                shutil.copyfile(source, dest / name)
        return json.loads(Path(tmp, "package", LOCK).read_text())


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def rulesref_wheel(dest: Path) -> Path:
    """A wheel of this checkout's rulesref/ (Python source; the same bytes for the same
    source), written directly: no build tool, nothing downloaded, well under a second."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    version = project["version"]
    dist_info = f"rulesref-{version}.dist-info"
    entries = [
        (path.relative_to(ROOT).as_posix(), path.read_bytes())
        for path in sorted((ROOT / "rulesref").rglob("*.py"))
    ]
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
    with zipfile.ZipFile(path, "w") as wheel:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            wheel.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return path


def lock(info: dict, wheel: Path) -> None:
    """A lock file naming only our wheel, as it is now: Pyodide resolves `rulesref` to it
    and checks the download against its sha256 (it needs neither gmpy2 on emscripten nor
    sympy on fractions, and the lock names neither)."""
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
    (wheel.parent / LOCK).write_text(json.dumps({"info": info, "packages": {"rulesref": package}}))


def _build_entry(entry: Path) -> None:
    """Download, check and compile the runtime's files into a new cache entry (made in a
    folder beside it and renamed at the end, so that a build that stops leaves nothing)."""
    downloads = entry.parent / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{entry.name}-", dir=entry.parent))
    try:
        info = runtime(downloads, work)["info"]
        (work / "info.json").write_text(json.dumps(info))
        probe = rulesref_wheel(work)  # imported by the compile step's probe, then dropped
        lock(info, probe)
        subprocess.run(
            ["node", str(ROOT / "tools/pyodide_run.mjs"), str(work)]
            + [str(ROOT / "tools/compile_wheels.py"), "--optimize", str(OPTIMIZE)]
            + ["python_stdlib.zip"],
            check=True,
        )
        probe.unlink()
        (work / LOCK).unlink()
        manifest = {path.name: sha256(path) for path in sorted(work.iterdir())}
        (work / MANIFEST).write_text(json.dumps(manifest, indent=1))
        work.rename(entry)
    except OSError:
        if not entry.exists():  # another build made it first: keep theirs
            raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    prune(entry.parent)


def prune(cache: Path, now: float | None = None) -> list[Path]:
    """Remove the cache's entries unused for `STALE_DAYS` (their manifest untouched since);
    the downloads and anything else stay. Returns the entries removed."""
    bar = (time.time() if now is None else now) - STALE_DAYS * 24 * 3600
    stale = [
        entry
        for entry in cache.iterdir()
        if (entry / MANIFEST).is_file() and (entry / MANIFEST).stat().st_mtime < bar
    ]
    for entry in stale:
        shutil.rmtree(entry, ignore_errors=True)
    return stale


def third_party(cache: Path | None = None) -> Path:
    """The cache entry for the current pins, made if missing; refuses a changed file."""
    entry = (cache or cache_root()) / cache_key()
    if not (entry / MANIFEST).exists():
        _build_entry(entry)
    manifest = json.loads((entry / MANIFEST).read_text())
    for name, digest in manifest.items():
        checked(entry / name, digest)
    (entry / MANIFEST).touch()  # used: not stale
    return entry


def lay_out(dest: Path, cache: Path | None = None) -> list[Path]:
    """Fill dest with the page's Python: the cached runtime, a fresh rulesref wheel, and
    the lock that names it. Returns the files laid out."""
    entry = third_party(cache)
    dest.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((entry / MANIFEST).read_text())
    for name in manifest:
        if name != "info.json":
            shutil.copyfile(entry / name, dest / name)
    wheel = rulesref_wheel(dest)
    lock(json.loads((entry / "info.json").read_text()), wheel)
    return sorted(path for path in dest.iterdir())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path, nargs="?")
    parser.add_argument("--cache", type=Path, default=None, help=f"default {cache_root()}")
    parser.add_argument("--cache-only", action="store_true", help="only make the cache entry")
    args = parser.parse_args()
    if args.cache_only or args.dest is None:
        print(f"workbench assets: {third_party(args.cache)}")
        return
    for path in lay_out(args.dest, args.cache):
        print(f"{path.stat().st_size:>10}  {sha256(path)}  {path.name}")


if __name__ == "__main__":
    main()
