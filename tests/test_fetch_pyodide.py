"""The Workbench's runtime cache (tools/fetch_pyodide.py): every file checked against the
pins kept in the repository, never against anything the cache says of itself; a missing
file is taken again, a changed or planted one refused by name; old entries do not pile up.

The tests pin a small stand-in package of their own (no network), with the same code."""

import _imp
import ast
import base64
import gzip
import hashlib
import importlib.util
import io
import json
import os
import subprocess
import sys
import tarfile
import time
import zipfile
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = {
    "pyodide.mjs": b"export const loadPyodide = () => 'stand-in';\n" * 40,
    "pyodide.asm.mjs": b"// the runtime's JavaScript\n" * 200,
    "pyodide.asm.wasm": bytes(range(256)) * 64,
    "pyodide.asm.data": os.urandom(4096),  # as incompressible as a zip
    "pyodide-lock.json": b'{"info": {"arch": "wasm32", "version": "0"}, "packages": {}}',
}


def _fetch_pyodide():
    spec = importlib.util.spec_from_file_location("fetch_pyodide", ROOT / "tools/fetch_pyodide.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PINNED = _fetch_pyodide()  # as the repository pins it


def _tarball() -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name, data in FILES.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


@pytest.fixture
def fetch(tmp_path, monkeypatch):
    """The module pinned to the stand-in package, whose tarball the cache has downloaded."""
    module = _fetch_pyodide()
    tarball = _tarball()
    pins = {name: hashlib.sha256(data).hexdigest() for name, data in FILES.items()}
    monkeypatch.setattr(module, "RUNTIME", pins)
    monkeypatch.setattr(module, "SERVED", sorted(set(FILES) - {module.LOCK}))
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()
    monkeypatch.setattr(module, "INTEGRITY", integrity)
    monkeypatch.setattr(module, "NODE", None)  # the stand-in runtime writes no bytecode
    (tmp_path / "downloads").mkdir()
    (tmp_path / "downloads" / f"pyodide-{module.PYODIDE}.tgz").write_bytes(tarball)
    module.tarball_bytes = tarball
    return module


def test_an_entry_is_made_from_the_checked_tarball_with_its_twins(fetch, tmp_path):
    entry = fetch.third_party(tmp_path)
    for name, data in FILES.items():
        assert (entry / name).read_bytes() == data
    wasm = FILES["pyodide.asm.wasm"]
    assert gzip.decompress((entry / "pyodide.asm.wasm.gz").read_bytes()) == wasm
    assert (entry / "pyodide.asm.wasm.br").exists()
    assert not (entry / "pyodide.asm.data.gz").exists()  # a twin only where it saves bytes
    assert not (entry / "pyodide-lock.json.gz").exists()  # never served: the page gets ours


def test_a_missing_file_is_taken_again_from_the_tarball(fetch, tmp_path):
    entry = fetch.third_party(tmp_path)
    (entry / "pyodide.asm.wasm").unlink()
    assert fetch.third_party(tmp_path) == entry
    assert (entry / "pyodide.asm.wasm").read_bytes() == FILES["pyodide.asm.wasm"]


@pytest.mark.parametrize("name", ["pyodide.mjs", "pyodide.asm.wasm.gz", "pyodide.mjs.br"])
def test_a_changed_file_is_refused_by_name(fetch, tmp_path, name):
    entry = fetch.third_party(tmp_path)
    poisoned = b"import('https://elsewhere.example/x.mjs')"
    if name.endswith(".gz"):
        poisoned = gzip.compress(poisoned)  # a valid encoding of other bytes
    (entry / name).write_bytes(poisoned)
    with pytest.raises(fetch.CacheError, match=rf"{name} differs from its pin"):
        fetch.third_party(tmp_path)


def test_a_planted_entry_is_refused(fetch, tmp_path):
    """An entry made by someone else: a `pyodide.mjs` that calls another host and a
    manifest vouching for it (what the cache once trusted)."""
    entry = tmp_path / fetch.cache_key()
    entry.mkdir()
    mjs = b"import('https://elsewhere.example/x.mjs')"
    (entry / "pyodide.mjs").write_bytes(mjs)
    with pytest.raises(fetch.CacheError, match="pyodide.mjs differs from its pin"):
        fetch.third_party(tmp_path)
    (entry / "pyodide.mjs").unlink()
    vouching = {"pyodide.mjs": hashlib.sha256(mjs).hexdigest()}
    (entry / "manifest.json").write_text(json.dumps(vouching))
    with pytest.raises(fetch.CacheError, match="manifest.json is not a file of the pins"):
        fetch.third_party(tmp_path)


def test_a_wrong_tarball_is_downloaded_again_and_a_wrong_download_refused(
    fetch, tmp_path, monkeypatch
):
    tarball = tmp_path / "downloads" / f"pyodide-{fetch.PYODIDE}.tgz"
    tarball.write_bytes(b"not the package")
    served = [fetch.tarball_bytes]
    monkeypatch.setattr(fetch.urllib.request, "urlopen", lambda url, timeout: io.BytesIO(served[0]))
    fetch.third_party(tmp_path)
    assert tarball.read_bytes() == fetch.tarball_bytes
    tarball.unlink()
    (tmp_path / fetch.cache_key() / "pyodide.mjs").unlink()
    served[0] = b"a tampered package"
    with pytest.raises(fetch.CacheError, match="is not the pinned package"):
        fetch.third_party(tmp_path)
    assert not tarball.exists()


def test_lay_out_copies_the_runtime_and_writes_a_lock_of_our_wheel(fetch, tmp_path):
    dest = tmp_path / "site" / "pyodide"
    names = {path.name for path in fetch.lay_out(dest, tmp_path)}
    assert {"pyodide.mjs", "pyodide.asm.wasm.br", "python_stdlib.zip", "pyodide-lock.json"} <= names
    assert (dest / "python_stdlib.zip").read_bytes() == fetch.page_stdlib()
    assert any(name.startswith("rulesref-") and name.endswith(".whl") for name in names)
    lock = (dest / "pyodide-lock.json").read_text()
    assert '"rulesref"' in lock and '"arch": "wasm32"' in lock
    stdlib = hashlib.sha256((dest / "python_stdlib.zip").read_bytes()).hexdigest()
    assert json.loads(lock)["info"]["python_stdlib_sha256"] == stdlib  # in the kept Python's key
    assert "used" not in names
    for name in ["python_stdlib.zip", next(name for name in names if name.endswith(".whl"))]:
        for suffix, decode in fetch.DECODERS.items():  # stored, each sent compressed whole
            assert decode((dest / (name + suffix)).read_bytes()) == (dest / name).read_bytes()
        assert {info.compress_type for info in zipfile.ZipFile(dest / name).infolist()} == {0}
    stdlib_br = (dest / "python_stdlib.zip.br").stat().st_size
    assert stdlib_br < 0.75 * _deflated_size(fetch.page_stdlib())  # than deflate file by file


def _wheel(fetch, entry: Path, cache: Path) -> Path:
    """The wheel `lay_out` writes, with its bytecode kept in `cache`, into `cache`."""
    return fetch.rulesref_wheel(cache, lambda sources: fetch.bytecode(sources, entry, cache))


def test_where_node_is_installed_the_wheel_holds_checked_bytecode_of_every_module(
    tmp_path, capfd
):
    """As Pyodide's own Python writes it (its standard library's magic number), each file
    made from the source beside it in the wheel and checked against that source's hash on
    import (PEP 552); without Node.js, the source alone, and nothing said."""
    fetch = _fetch_pyodide()
    # the real runtime, as `make workbench-assets` keeps it (not even looked for without Node)
    entry = tmp_path / "no runtime" if fetch.NODE is None else fetch.third_party()
    made = _wheel(fetch, entry, tmp_path)
    wheel = zipfile.ZipFile(made)
    names = wheel.namelist()
    sources = [name for name in names if name.endswith(".py")]
    assert "rulesref/workbench.py" in sources
    compiled = sorted(name for name in names if name.endswith(".pyc"))
    if fetch.NODE is None:
        assert compiled == [] and capfd.readouterr().err == ""
        return
    tag = f"cpython-{fetch.PYODIDE.split('.')[0]}"  # Pyodide 314 is Python 3.14

    def bytecode_of(source: str) -> str:
        folder, _, module = source.removesuffix(".py").rpartition("/")
        return f"{folder}/__pycache__/{module}.{tag}.pyc"

    assert compiled == sorted(map(bytecode_of, sources))
    stdlib = zipfile.ZipFile(fetch.STDLIB)
    magic = stdlib.read(next(n for n in stdlib.namelist() if n.endswith(".pyc")))[:4]
    for name in sources:
        header = wheel.read(bytecode_of(name))[:16]
        assert header[:4] == magic
        assert int.from_bytes(header[4:8], "little") == 0b11  # hash-based, checked
        source_hash = _imp.source_hash(int.from_bytes(magic, "little"), wheel.read(name))
        assert header[8:16] == source_hash, name
    record = wheel.read(next(n for n in names if n.endswith("RECORD"))).decode()
    assert all(f"\n{name},sha256=" in record for name in compiled)
    # kept: the next build's wheel is the same, byte for byte; a spoilt copy is made again
    first = made.read_bytes()
    (kept,) = (tmp_path / "bytecode").iterdir()
    assert _wheel(fetch, entry, tmp_path).read_bytes() == first
    kept.write_text('{"rulesref/__pycache__/exact.cpython-314.pyc": "not base64!"}')
    again = _wheel(fetch, entry, tmp_path)
    assert sorted(n for n in zipfile.ZipFile(again).namelist() if n.endswith(".pyc")) == compiled
    assert json.loads(kept.read_text()).keys() == set(compiled)
    assert capfd.readouterr().err == ""


def test_bytecode_that_cannot_be_written_is_said_in_one_line_and_the_source_sent(
    fetch, tmp_path, capfd, monkeypatch
):
    monkeypatch.setattr(fetch, "NODE", "/bin/false")
    entry = fetch.third_party(tmp_path)
    wheel = zipfile.ZipFile(_wheel(fetch, entry, tmp_path))
    assert not [name for name in wheel.namelist() if name.endswith(".pyc")]
    said = capfd.readouterr().err
    assert said == (
        "fetch_pyodide: rulesref's bytecode not written (exit status 1); the page compiles "
        "its source\n"
    )
    # Node missing since, or too slow: the same, in one line each
    monkeypatch.setattr(fetch, "NODE", str(tmp_path / "no-node"))
    assert fetch.bytecode({"rulesref/x.py": b""}, entry, tmp_path) == {}
    assert "No such file or directory" in capfd.readouterr().err.splitlines()[0]

    def slow(*args, **kwargs):
        raise subprocess.TimeoutExpired(args[0], 120)

    monkeypatch.setattr(fetch.subprocess, "run", slow)
    assert fetch.bytecode({"rulesref/x.py": b""}, entry, tmp_path) == {}
    (said,) = capfd.readouterr().err.splitlines()
    assert "timed out after 120 seconds" in said and said.endswith("the page compiles its source")


def test_a_changed_standard_library_is_refused(fetch, tmp_path, monkeypatch):
    monkeypatch.setattr(fetch, "STDLIB_SHA256", "0" * 64)
    with pytest.raises(fetch.CacheError, match="python_stdlib.zip differs from its pin"):
        fetch.lay_out(tmp_path / "site", tmp_path)


def _deflated_size(stored: bytes) -> int:
    """The size of a zip's files deflated one by one (as the pinned zip has them)."""
    with zipfile.ZipFile(io.BytesIO(stored)) as archive:
        return sum(len(zlib.compress(archive.read(info), 9)) - 6 for info in archive.infolist())


def test_the_page_gets_the_listed_modules_of_the_standard_library_byte_for_byte():
    """The trimmed zip holds the files of the listed modules and nothing else, each file
    as the pinned zip has it (its bytes, time and CRC), stored, and reads as a zip."""
    listed = {line for line in PINNED.STDLIB_MODULES.read_text().splitlines()}
    listed = {line for line in listed if line and not line.startswith("#")}
    whole = zipfile.ZipFile(PINNED.STDLIB)
    trimmed = zipfile.ZipFile(io.BytesIO(PINNED.page_stdlib()))
    assert trimmed.testzip() is None
    kept = [info.filename for info in whole.infolist() if _module(info.filename) in listed]
    assert trimmed.namelist() == kept and {_module(name) for name in kept} == listed
    for info in trimmed.infolist():
        original = whole.getinfo(info.filename)
        assert (info.compress_type, info.file_size, info.CRC, info.date_time) == (
            zipfile.ZIP_STORED,
            original.file_size,
            original.CRC,
            original.date_time,
        )
        assert trimmed.read(info) == whole.read(original)
    assert {"encodings", "encodings.utf_8", "fractions", "json", "unicodedata"} - listed == {
        "unicodedata"  # built into Pyodide's runtime, not a file of the zip
    }
    assert PINNED.page_stdlib() == PINNED.page_stdlib()  # the same bytes each time
    assert len(trimmed.infolist()) < 0.3 * len(whole.infolist())


def _imports(path: Path) -> set[str]:
    """Every module a file of rulesref imports, anywhere in it (in a function too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def test_every_module_of_the_standard_library_the_workbench_may_import_is_listed():
    """From rulesref.workbench through the rulesref modules it imports: a module of the
    standard library they import that is a file of the zip must be in the list (else run
    tools/pyodide/used_modules.py); the rest are built into Pyodide's runtime."""
    package = ROOT / "rulesref"
    reached, todo, stdlib = set(), ["rulesref.workbench"], set()
    while todo:
        name = todo.pop()
        path = package.parent / (name.replace(".", "/") + ".py")
        path = path if path.exists() else path.with_suffix("") / "__init__.py"
        if name in reached or not path.exists():  # `from rulesref import x`: x is a name
            continue
        reached.add(name)
        for module in _imports(path):
            if module.startswith("rulesref"):
                todo.append(module)
            elif module.split(".")[0] in sys.stdlib_module_names:
                stdlib |= {".".join(module.split(".")[:n]) for n in range(1, module.count(".") + 2)}
    assert "rulesref.dice" in reached and "rulesref.odds.cascade" in reached
    held = {_module(name) for name in zipfile.ZipFile(PINNED.STDLIB).namelist()}
    listed = set(PINNED.STDLIB_MODULES.read_text().splitlines())
    assert sorted((stdlib & held) - listed) == []


def _module(path: str) -> str:
    return PINNED.module_of(path)


@pytest.mark.parametrize(
    "path, module",
    [
        ("encodings/utf_8.pyc", "encodings.utf_8"),
        ("json/__init__.py", "json"),
        ("zipfile/_path/glob.pyc", "zipfile._path.glob"),
        ("asyncio/", "asyncio/"),
        ("pyodide/py.typed", "pyodide/py.typed"),
    ],
)
def test_each_file_of_the_zip_is_named_by_its_module(path, module):
    assert _module(path) == module


def test_a_changed_list_of_modules_is_refused(fetch, tmp_path, monkeypatch):
    """One module less (or more) is another zip: the build stops and names the list."""
    modules = tmp_path / "stdlib-modules.txt"
    modules.write_text("\n".join(fetch.STDLIB_MODULES.read_text().splitlines()[:-1]) + "\n")
    monkeypatch.setattr(fetch, "STDLIB_MODULES", modules)
    with pytest.raises(fetch.CacheError, match="trimmed to .*stdlib-modules.txt differs"):
        fetch.lay_out(tmp_path / "site", tmp_path)


def test_a_zip_with_trailing_descriptors_is_trimmed_as_any_other(fetch):
    """A record whose sizes follow its data is read all the same, and stored."""

    class Stream(io.RawIOBase):  # a pipe: zipfile writes each size after its data
        data = b""

        def writable(self) -> bool:
            return True

        def write(self, data) -> int:
            self.data += bytes(data)
            return len(data)

    out = Stream()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("json/__init__.py", "pass\n")
        archive.writestr("fractions.py", "pass\n")
    trimmed = zipfile.ZipFile(io.BytesIO(fetch.trimmed_stdlib(out.data, {"json"})))
    assert [(info.filename, info.compress_type) for info in trimmed.infolist()] == [
        ("json/__init__.py", zipfile.ZIP_STORED)
    ]
    assert trimmed.read("json/__init__.py") == b"pass\n"


def test_the_command_refuses_a_poisoned_cache_in_one_line(tmp_path):
    fetch = _fetch_pyodide()
    entry = tmp_path / fetch.cache_key()
    entry.mkdir()
    (entry / "pyodide.mjs").write_text("import('https://elsewhere.example/x.mjs')")
    run = subprocess.run(
        [sys.executable, "tools/fetch_pyodide.py", "--cache", str(tmp_path), "--cache-only"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert f"{entry / 'pyodide.mjs'} differs from its pin" in run.stderr


def test_entries_unused_for_a_month_are_pruned_and_nothing_else(tmp_path):
    fetch = _fetch_pyodide()
    now = time.time()
    day = 24 * 3600
    for name, age in [("old-pins", fetch.STALE_DAYS + 1), ("recent-pins", fetch.STALE_DAYS - 1)]:
        (tmp_path / name).mkdir()
        mark = tmp_path / name / fetch.MARK
        mark.write_text("")
        os.utime(mark, (now - age * day, now - age * day))
    (tmp_path / "downloads").mkdir()  # the npm tarballs: no mark, kept
    (tmp_path / "bytecode").mkdir()  # rulesref's, by its sources: touched when used
    for name, age in [("old", fetch.STALE_DAYS + 1), ("recent", fetch.STALE_DAYS - 1)]:
        kept = tmp_path / "bytecode" / f"{name}.json"
        kept.write_text("{}")
        os.utime(kept, (now - age * day, now - age * day))
    removed = fetch.prune(tmp_path, now)
    assert removed == [tmp_path / "old-pins", tmp_path / "bytecode" / "old.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bytecode", "downloads", "recent-pins"]
    assert [p.name for p in (tmp_path / "bytecode").iterdir()] == ["recent.json"]


def test_the_entry_in_use_is_marked_as_used(fetch, tmp_path):
    entry = fetch.third_party(tmp_path)
    long_ago = time.time() - 2 * fetch.STALE_DAYS * 24 * 3600
    os.utime(entry / fetch.MARK, (long_ago, long_ago))
    assert fetch.third_party(tmp_path) == entry
    assert not fetch.prune(tmp_path)
