"""Byte-compile the wheels and the standard library for the page's interpreter (runs
inside Pyodide, at build time).

    node tools/pyodide_run.mjs RUNTIME tools/compile_wheels.py [--optimize N] ARCHIVE...

Installs the wheels of RUNTIME (a folder laid out by tools/fetch_pyodide.py, mounted at
/runtime), imports rulesref and computes a cascade and a battle, then rewrites each
ARCHIVE (a wheel, or python_stdlib.zip) in place: test folders dropped, and every module
that Pyodide's start or the probe imported replaced by its bytecode (`module.pyc` where
`module.py` was, as Pyodide's own distribution ships packages), so that the page does
not compile a hundred modules of the standard library from source on every visit.
Modules the probe did not import stay source, compiled only if ever needed.
Only the interpreter that will run the bytecode can write it, hence Pyodide under Node.
"""

import argparse
import base64
import hashlib
import json
import os
import sys
import zipfile
from pathlib import Path

from pyodide_js import loadPackage

RUNTIME = Path("/runtime")
# what the page asks first: a force and a battle, through rulesref.workbench
UNIT = {"name": "A", "starting": 10, "leadership": "4+"}
QUESTIONS = [
    {"force": {"commands": [{"name": "P", "units": [UNIT]}], "casualties": {"A": 6}}},
    {"battle": {"attacker": {"platoons": [{"kind": "artillery"}]}, "defender": {"platoons": [{}]}}},
]


async def probe() -> set[str]:
    """The files of every module the workbench's work imports, relative to site-packages
    or to the standard library's zip."""
    await loadPackage("rulesref")
    os.environ["RULESREF_FRACTIONS"] = "1"  # as the page runs it: Python's fractions
    from rulesref.workbench import answer

    roots = [Path(json.__file__).parent.parent]
    for question in QUESTIONS:
        assert "error" not in answer(question), question
    files = (getattr(module, "__file__", None) for module in list(sys.modules.values()))
    return {
        path.relative_to(root).as_posix()
        for path in map(Path, filter(None, files))
        for root in roots
        if path.is_relative_to(root)
    }


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def bytecode(name: str, source: bytes, optimize: int) -> bytes:
    """A sourceless .pyc: the header's timestamp and size are never checked without a .py."""
    from importlib._bootstrap_external import _code_to_timestamp_pyc

    code = compile(source, name, "exec", dont_inherit=True, optimize=optimize)
    return bytes(_code_to_timestamp_pyc(code, 0, len(source)))


def rewrite(path: Path, imported: set[str], optimize: int) -> None:
    entries = []
    with zipfile.ZipFile(path) as wheel:
        for info in wheel.infolist():
            name = info.filename
            if "/tests/" in name or name.endswith(".dist-info/RECORD"):
                continue  # the tests are not needed, and the wheel's RECORD is rewritten
            data = wheel.read(info)
            if name in imported:
                name, data = name + "c", bytecode(name, data, optimize)
            entries.append((name, data))
    dist_info = [name.split("/")[0] for name, _ in entries if ".dist-info/" in name]
    if dist_info:
        record = f"{dist_info[0]}/RECORD"
        lines = [record_line(name, data) for name, data in entries] + [f"{record},,"]
        entries.append((record, ("\n".join(lines) + "\n").encode()))
    with zipfile.ZipFile(path, "w") as wheel:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            wheel.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)


parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--optimize", type=int, default=0, choices=(0, 1, 2))
parser.add_argument("archives", nargs="+")
args = parser.parse_args()
imported = await probe()  # noqa: F704 (runPythonAsync allows a top-level await)
for name in args.archives:
    rewrite(RUNTIME / name, imported, args.optimize)
