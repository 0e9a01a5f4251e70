"""MkDocs hook: generate the site's data files from rulesref at build time.

- `downloads/<table>.csv`: every probability table of the site, one line per cell with
  its percentage and its exact fraction as a numerator and a denominator;
- `data/<calculator>.json`: every answer each calculator can show.

They are computed by the package, never written by hand, so a download always agrees
with the page and with `rulesref` itself.
"""

import json

from mkdocs.structure.files import File

from rulesref.tables import calculator_data, downloads


def on_files(files, config):
    for name, content in downloads().items():
        files.append(File.generated(config, f"downloads/{name}", content=content))
    for name, data in calculator_data().items():
        content = json.dumps(data, separators=(",", ":"))
        files.append(File.generated(config, f"data/{name}.json", content=content))
    return files
