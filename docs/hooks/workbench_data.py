"""MkDocs hook: the Workbench's data file, `data/workbench.json`, from rulesref.

The page reads its choices, defaults and limits from it, and shows its first answers
(the sample force and battle, computed here by the same code) while Python starts in
the browser (`rulesref.workbench_choices.page_data`).
"""

import json
from functools import cache
from pathlib import Path

from mkdocs.structure.files import File

from rulesref.workbench_choices import page_data

ROOT = Path(__file__).resolve().parent.parent.parent
PATH = "data/workbench.json"


@cache  # once per process: `mkdocs serve` rebuilds on an edit, the package stays loaded
def generated() -> str:
    sample = json.loads((ROOT / "examples/b-company.json").read_text(encoding="utf-8"))
    return json.dumps(page_data(sample), separators=(",", ":"), ensure_ascii=False)


def on_files(files, config):
    if files.get_file_from_path("workbench.md") is not None:
        files.append(File.generated(config, PATH, content=generated()))
    return files
