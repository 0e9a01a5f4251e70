"""MkDocs hook: generate the site's data files from rulesref at build time.

- `downloads/<table>.csv`: every probability table of the site, one line per cell with
  its percentage and its exact fraction as a numerator and a denominator;
- `data/<calculator>.json`: every answer each calculator can show.

They are computed by the package, never written by hand, so a download always agrees
with the page and with `rulesref` itself.
"""

import json
from functools import cache

from mkdocs.structure.files import File

from rulesref.tables import calculator_data, downloads


@cache  # once per process: `mkdocs serve` rebuilds on an edit, the package stays loaded
def generated() -> tuple[tuple[str, str], ...]:
    tables = [(f"downloads/{name}", content) for name, content in downloads().items()]
    answers = [
        (f"data/{name}.json", json.dumps(data, separators=(",", ":")))
        for name, data in calculator_data().items()
    ]
    return tuple(tables + answers)


def on_files(files, config):
    for path, content in generated():
        files.append(File.generated(config, path, content=content))
    return files
