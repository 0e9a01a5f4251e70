"""Lay out everything the Workbench page needs to run rulesref in the browser, from pins.

    python tools/fetch_pyodide.py DEST [--cache DIR]
    python tools/fetch_pyodide.py --cache-only    # make sure the cache entry exists

DEST receives Pyodide's runtime (from the `pyodide` npm package), the pure-Python wheels
of sympy and mpmath (from PyPI), a wheel of this checkout's rulesref, and a
`pyodide-lock.json` naming only those three wheels, so that
`pyodide.loadPackage("rulesref")` fetches them from DEST and checks each against its
sha256. No file of DEST comes from anywhere else, so the page never leaves its host.

The third-party part is made once per set of pins and kept in a cache outside the clone
(`${XDG_CACHE_HOME:-~/.cache}/rulesref/pyodide/<key>`, so that fresh clones on one machine
share it): downloads through the ordinary clients (`npm pack`, `pip download
--require-hashes`), each checked against its pin, then sympy, mpmath and the standard
library byte-compiled by Pyodide itself under Node (tools/compile_wheels.py: the page
would otherwise compile ~600 modules from source on every visit). Every cached file is
checked against the sha256 recorded when it was made, on every lay-out. The rulesref wheel
(source only, a few modules) is written afresh each time, with no build tool.

docs/hooks/pyodide_assets.py calls `lay_out` when the site has the Workbench page.
"""

import argparse
import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
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
# the same versions as requirements/constraints.txt; gmpy2 has no wheel for Pyodide on PyPI
# (rulesref.dice falls back to Python's integers there). name: version, file, sha256, needs
WHEELS = {
    "mpmath": (
        "1.3.0",
        "mpmath-1.3.0-py3-none-any.whl",
        "a0b2b9fe80bbcd81a6647ff13108738cfb482d481d826cc0e02f5b35e5c88d2c",
        [],
    ),
    "sympy": (
        "1.14.0",
        "sympy-1.14.0-py3-none-any.whl",
        "e091cc3e99d2141a0ba2847328f5479b05d94a6635cb96148ccb3f34671bd8f5",
        ["mpmath"],
    ),
}
OPTIMIZE = 0  # -OO would save ~0.7 MB of sympy but drops asserts: not worth a doubt
MANIFEST = "manifest.json"  # in a cache entry: the sha256 of each of its files
LOCK = "pyodide-lock.json"


def cache_root() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulesref/pyodide"


def cache_key() -> str:
    """Changes with any pin, the compile step, or the Node runner: a new entry is made."""
    digest = hashlib.sha256(
        json.dumps([PYODIDE, PYODIDE_TARBALL, RUNTIME, WHEELS, OPTIMIZE]).encode()
    )
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
            ["npm", "pack", f"pyodide@{PYODIDE}", "--pack-destination", str(downloads)],
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


def wheels(downloads: Path, dest: Path) -> None:
    missing = [f for _, f, d, _ in WHEELS.values() if not (downloads / f).exists()]
    if missing:
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as requirements:
            for name, (version, _, digest, _) in WHEELS.items():
                requirements.write(f"{name}=={version} --hash=sha256:{digest}\n")
            requirements.flush()
            pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
            subprocess.run(
                [*pip, "--only-binary=:all:", "--require-hashes", "--dest", str(downloads)]
                + ["-r", requirements.name],
                check=True,
            )
    for _, file_name, digest, _ in WHEELS.values():
        shutil.copyfile(checked(downloads / file_name, digest), dest / file_name)


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


def lock(info: dict, dest: Path, wheel: Path) -> None:
    """A lock file naming only our wheels, as they are in dest now: Pyodide resolves
    `rulesref` to them and checks each download against its sha256 (the rulesref wheel
    needs no gmpy2 on emscripten, and the lock leaves it out)."""
    entries = {
        name: (version, file_name, depends)
        for name, (version, file_name, _, depends) in WHEELS.items()
    }
    entries["rulesref"] = (wheel.name.split("-")[1], wheel.name, ["sympy"])
    packages = {
        name: {
            "name": name,
            "version": version,
            "file_name": file_name,
            "install_dir": "site",
            "sha256": sha256(dest / file_name),
            "package_type": "package",
            "imports": [name],
            "depends": depends,
            "unvendored_tests": False,
        }
        for name, (version, file_name, depends) in entries.items()
    }
    (dest / LOCK).write_text(json.dumps({"info": info, "packages": packages}, indent=1))


def _build_entry(entry: Path) -> None:
    """Download, check and compile the third-party files into a new cache entry (made in a
    folder beside it and renamed at the end, so that a build that stops leaves nothing)."""
    downloads = entry.parent / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{entry.name}-", dir=entry.parent))
    try:
        info = runtime(downloads, work)["info"]
        (work / "info.json").write_text(json.dumps(info))
        wheels(downloads, work)
        probe = rulesref_wheel(work)  # imported by the compile step's probe, then dropped
        lock(info, work, probe)
        archives = [file_name for _, file_name, _, _ in WHEELS.values()] + ["python_stdlib.zip"]
        subprocess.run(
            ["node", str(ROOT / "tools/pyodide_run.mjs"), str(work)]
            + [str(ROOT / "tools/compile_wheels.py"), "--optimize", str(OPTIMIZE), *archives],
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


def third_party(cache: Path | None = None) -> Path:
    """The cache entry for the current pins, made if missing; refuses a changed file."""
    entry = (cache or cache_root()) / cache_key()
    if not (entry / MANIFEST).exists():
        _build_entry(entry)
    manifest = json.loads((entry / MANIFEST).read_text())
    for name, digest in manifest.items():
        checked(entry / name, digest)
    return entry


def lay_out(dest: Path, cache: Path | None = None) -> list[Path]:
    """Fill dest with the page's Python: the cached third-party files, a fresh rulesref
    wheel, and the lock that names the three wheels. Returns the files laid out."""
    entry = third_party(cache)
    dest.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((entry / MANIFEST).read_text())
    for name in manifest:
        if name != "info.json":
            shutil.copyfile(entry / name, dest / name)
    wheel = rulesref_wheel(dest)
    lock(json.loads((entry / "info.json").read_text()), dest, wheel)
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
