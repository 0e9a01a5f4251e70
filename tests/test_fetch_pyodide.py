"""The Workbench's runtime cache (tools/fetch_pyodide.py): old entries do not pile up."""

import importlib.util
import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _fetch_pyodide():
    spec = importlib.util.spec_from_file_location("fetch_pyodide", ROOT / "tools/fetch_pyodide.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_entries_unused_for_a_month_are_pruned_and_nothing_else(tmp_path):
    fetch = _fetch_pyodide()
    now = time.time()
    day = 24 * 3600
    for name, age in [("old-pins", fetch.STALE_DAYS + 1), ("recent-pins", fetch.STALE_DAYS - 1)]:
        (tmp_path / name).mkdir()
        manifest = tmp_path / name / fetch.MANIFEST
        manifest.write_text("{}")
        os.utime(manifest, (now - age * day, now - age * day))
    (tmp_path / "downloads").mkdir()  # the npm tarballs: no manifest, kept
    (tmp_path / ".half-built").mkdir()  # a build in progress elsewhere: kept
    removed = fetch.prune(tmp_path, now)
    assert removed == [tmp_path / "old-pins"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [".half-built", "downloads", "recent-pins"]


def test_the_entry_in_use_is_marked_as_used(tmp_path):
    fetch = _fetch_pyodide()
    entry = tmp_path / fetch.cache_key()
    entry.mkdir()
    (entry / fetch.MANIFEST).write_text("{}")
    long_ago = time.time() - 2 * fetch.STALE_DAYS * 24 * 3600
    os.utime(entry / fetch.MANIFEST, (long_ago, long_ago))
    assert fetch.third_party(tmp_path) == entry
    assert not fetch.prune(tmp_path)
