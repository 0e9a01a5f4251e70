"""Lay out everything the workbench page needs to run rulesref in the browser, from pins.

    python tools/fetch_pyodide.py DEST [--cache .cache/pyodide]

DEST receives Pyodide's runtime (from the `pyodide` npm package), the pure-Python wheels
of sympy and mpmath (from PyPI), a wheel of this checkout's rulesref, all three and
the standard library byte-compiled by Pyodide itself under Node
(tools/compile_wheels.py), and a
`pyodide-lock.json` naming only those wheels, so that `pyodide.loadPackage("rulesref")`
fetches them from DEST and checks each against its sha256. Every download goes through
the ordinary clients (`npm pack`, `pip download --require-hashes`) into the cache, and
is checked against the pins below before anything is copied; a second run downloads
nothing. No file of DEST comes from anywhere else, so the page never leaves its host.
"""

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
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


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while block := file.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def checked(path: Path, expected: str) -> Path:
    actual = sha256(path)
    if actual != expected:
        sys.exit(f"fetch_pyodide: {path} has sha256 {actual}, pinned {expected}")
    return path


def runtime(cache: Path, dest: Path) -> dict:
    """Copy Pyodide's runtime files into dest; returns the npm package's own lock file."""
    tarball = cache / f"pyodide-{PYODIDE}.tgz"
    if not tarball.exists() or sha256(tarball) != PYODIDE_TARBALL:
        subprocess.run(
            ["npm", "pack", f"pyodide@{PYODIDE}", "--pack-destination", str(cache)],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    checked(tarball, PYODIDE_TARBALL)
    with tarfile.open(tarball) as archive, tempfile.TemporaryDirectory() as tmp:
        for name, digest in RUNTIME.items():
            archive.extract(f"package/{name}", tmp, filter="data")
            source = checked(Path(tmp, "package", name), digest)
            if name != "pyodide-lock.json":
                shutil.copyfile(source, dest / name)
        return json.loads(Path(tmp, "package", "pyodide-lock.json").read_text())


def wheels(cache: Path, dest: Path) -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as requirements:
        for name, (version, _, digest, _) in WHEELS.items():
            requirements.write(f"{name}=={version} --hash=sha256:{digest}\n")
        requirements.flush()
        missing = [f for _, f, d, _ in WHEELS.values() if not (cache / f).exists()]
        if missing:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--quiet",
                    "--no-deps",
                    "--only-binary=:all:",
                    "--require-hashes",
                    "--dest",
                    str(cache),
                    "-r",
                    requirements.name,
                ],
                check=True,
            )
    for _, file_name, digest, _ in WHEELS.values():
        shutil.copyfile(checked(cache / file_name, digest), dest / file_name)


def rulesref_wheel(dest: Path) -> Path:
    """A wheel of this checkout (built afresh: its hash is recorded, never pinned)."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", tmp, str(ROOT)],
            check=True,
        )
        (built,) = Path(tmp).glob("rulesref-*.whl")
        return Path(shutil.copyfile(built, dest / built.name))


def lock(npm_lock: dict, wheel: Path) -> dict:
    """A lock file naming only our wheels, as they are in the wheel's folder now: Pyodide
    resolves `rulesref` to them and checks each download against its sha256 (the rulesref
    wheel declares gmpy2, which the lock leaves out: in the browser the dice core falls
    back to Python's integers)."""
    dest = wheel.parent
    entries = {
        name: (version, file_name, sha256(dest / file_name), depends)
        for name, (version, file_name, _, depends) in WHEELS.items()
    }
    entries["rulesref"] = (wheel.name.split("-")[1], wheel.name, sha256(wheel), ["sympy"])
    packages = {
        name: {
            "name": name,
            "version": version,
            "file_name": file_name,
            "install_dir": "site",
            "sha256": digest,
            "package_type": "package",
            "imports": [name],
            "depends": depends,
            "unvendored_tests": False,
        }
        for name, (version, file_name, digest, depends) in entries.items()
    }
    return {"info": npm_lock["info"], "packages": packages}


def compile_wheels(dest: Path, optimize: int) -> None:
    names = [file_name for _, file_name, _, _ in WHEELS.values()]
    names += [p.name for p in dest.glob("rulesref-*.whl")] + ["python_stdlib.zip"]
    subprocess.run(
        [
            "node",
            str(ROOT / "tools/pyodide_run.mjs"),
            str(dest),
            str(ROOT / "tools/compile_wheels.py"),
            "--optimize",
            str(optimize),
            *names,
        ],
        check=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path)
    parser.add_argument("--cache", type=Path, default=ROOT / ".cache/pyodide")
    parser.add_argument("--source", action="store_true", help="ship the Python files as they are")
    parser.add_argument("--optimize", type=int, default=0, choices=(0, 1, 2))
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    args.dest.mkdir(parents=True, exist_ok=True)
    npm_lock = runtime(args.cache, args.dest)
    wheels(args.cache, args.dest)
    wheel = rulesref_wheel(args.dest)
    lock_file = args.dest / "pyodide-lock.json"
    lock_file.write_text(json.dumps(lock(npm_lock, wheel), indent=1))
    if not args.source:
        compile_wheels(args.dest, args.optimize)
        lock_file.write_text(json.dumps(lock(npm_lock, wheel), indent=1))
    for path in sorted(args.dest.iterdir()):
        print(f"{path.stat().st_size:>10}  {sha256(path)}  {path.name}")


if __name__ == "__main__":
    main()
