"""MkDocs hook: generate the site's data files from rulesref at build time.

- `downloads/<table>.csv`: every probability table of the site, one line per cell with
  its percentage and its exact fraction as a numerator and a denominator;
- `data/<calculator>.json`: every answer each calculator can show, and (`tables`) the
  table of the site that holds them, for each set of options (`rulesref.data`).

They are computed by the package, never written by hand, so a download always agrees
with the page and with `rulesref` itself. Computing them (32,768 small battles among
them) took a third of a build, so `generated` keeps them in `.cache/data/`, in a file
named after the hash of the package's source (docs/hooks/notebook_cache.py): a change to
rulesref (or to this file) computes them again, an edit of a page does not.
"""

import hashlib
import json
import os
from functools import cache
from pathlib import Path

from mkdocs.structure.files import File
from notebook_cache import package_hash

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "data"


def computed() -> list[tuple[str, str]]:
    """(path in the site, content) of every data file, computed by the package."""
    from rulesref.data import calculator_tables
    from rulesref.tables import calculator_data, downloads

    tables = [(f"downloads/{name}", content) for name, content in downloads().items()]
    held = calculator_tables()
    answers = [
        (f"data/{name}.json", json.dumps(data | {"tables": held.get(name)}, separators=(",", ":")))
        for name, data in calculator_data().items()
    ]
    return tables + answers


@cache  # once per process: `mkdocs serve` rebuilds on an edit, the package stays loaded
def generated(cache_dir: Path = CACHE) -> tuple[tuple[str, str], ...]:
    """`computed()`, read from the cache file of the package's current source if there is
    one, else computed and written there (the files of older sources removed)."""
    this_file = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:8]
    kept = cache_dir / f"{package_hash()}-{this_file}.json"
    if kept.exists():
        return tuple(map(tuple, json.loads(kept.read_text())))
    files = computed()
    cache_dir.mkdir(parents=True, exist_ok=True)
    for old in cache_dir.glob("*.json"):
        old.unlink(missing_ok=True)
    part = kept.with_suffix(f".{os.getpid()}.part")  # another build may read it meanwhile
    part.write_text(json.dumps(files))
    part.replace(kept)
    return tuple(files)


def on_files(files, config):
    for path, content in generated():
        files.append(File.generated(config, path, content=content))
    return files
