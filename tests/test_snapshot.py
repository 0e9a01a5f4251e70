"""Every published number is the one in the golden snapshot, `tests/snapshots/`.

A change that alters a table together with the function it shows passes every other
test; here it fails until `make snapshot` rewrites the files, so that `git diff` shows
each changed number for review. One file per published thing, in lines that diff well:

- `tables/<name>.json`: each cell of a table of `rulesref.tables`, exact, one a line;
- `tables/campaign-<name>.json`: each battle and measure of a campaign table, exact;
- `downloads/<name>.csv`: each CSV download of the site, byte for byte;
- `data/<calculator>.json`: every answer of a calculator's data file, one a line by its
  path in the file, with the SHA-256 of the whole published file (its nulls included);
- `data/workbench.json`: each probability of the Workbench's first answers, by its path;
- `rulings/`: the words of rulings and refusals, and every standard's verdict (checked by
  tests/test_rulings.py).
"""

import difflib
import hashlib
import json
from pathlib import Path

import pytest

from rulesref.tables import (
    MEASURES,
    BattleTable,
    Table,
    calculator_data,
    campaign_tables,
    downloads,
    tables,
)
from rulesref.workbench_choices import page_data

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
# the words of the rulings have their own fast test, tests/test_rulings.py
STORED = sorted(
    name
    for name in (p.relative_to(SNAPSHOTS).as_posix() for p in SNAPSHOTS.rglob("*") if p.is_file())
    if not name.startswith("rulings/")
)
HOW_TO_UPDATE = "if the change is meant, run `make snapshot` and review `git diff tests/snapshots`"


def _lines(entries: dict) -> str:
    """A flat JSON object, sorted, one entry a line."""
    return json.dumps(entries, indent=0, sort_keys=True, ensure_ascii=False) + "\n"


def _cells(table: Table) -> dict[str, str]:
    cells = {
        f"{table.row_label}={row} {table.column_label}={column}": str(table.cell(row, column))
        for row in table.rows
        for column in table.columns
    }
    return {"title": table.title, **cells}


def _battle_cells(table: BattleTable) -> dict[str, str]:
    cells = {
        f"{row} | {measure}": str(value)
        for row, values in zip(table.rows, table.cells, strict=True)
        for measure, value in zip(MEASURES, values, strict=True)
    }
    return {"title": table.title, **cells}


def _leaves(value: object, path: str = ""):
    """(path, value) of every non-null scalar in nested lists and dicts."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    else:
        if value is not None:
            yield path, value
        return
    for key, item in items:
        yield from _leaves(item, f"{path}/{key}" if path else str(key))


def _data(data: dict) -> dict:
    published = json.dumps(data, separators=(",", ":"))  # as docs/hooks/downloads.py writes it
    return {
        "about": "answers/<an index per input>/<the options packed>[/<outcome>]; "
        "null answers left out, the sha256 covers them",
        "sha256": hashlib.sha256(published.encode()).hexdigest(),
        **dict(_leaves(data)),
    }


def _workbench() -> dict:
    """The Workbench's first answers in data/workbench.json: each probability, by its path."""
    force = json.loads((SNAPSHOTS.parent.parent / "examples/b-company.json").read_text())
    answers = dict(_leaves(page_data(force)["answers"]))
    return {path: value for path, value in answers.items() if path.endswith("/probability")}


def snapshot() -> dict[str, str]:
    """Every snapshot file's path (under tests/snapshots/) and text, from the current code."""
    files = {}
    for table in tables():
        files[f"tables/{table.name}.json"] = _lines(_cells(table))
    for table in campaign_tables().values():
        files[f"tables/{table.name}.json"] = _lines(_battle_cells(table))
    for name, text in downloads().items():
        files[f"downloads/{name}"] = text
    for name, data in calculator_data().items():
        files[f"data/{name}.json"] = _lines(_data(data))
    files["data/workbench.json"] = _lines(_workbench())
    return files


@pytest.fixture(scope="module")
def current() -> dict[str, str]:
    return snapshot()


def test_the_snapshot_has_a_file_for_everything_published(current):
    assert STORED, f"no snapshot in {SNAPSHOTS}: run `make snapshot`"
    missing, gone = sorted(set(current) - set(STORED)), sorted(set(STORED) - set(current))
    assert not missing, f"published but not in the snapshot: {missing}; {HOW_TO_UPDATE}"
    assert not gone, f"in the snapshot but no longer published: {gone}; {HOW_TO_UPDATE}"


@pytest.mark.parametrize("name", STORED)
def test_published_numbers_equal_the_snapshot(name, current):
    assert name in current, f"{name} is no longer published; {HOW_TO_UPDATE}"
    stored = (SNAPSHOTS / name).read_text(encoding="utf-8")
    if current[name] != stored:
        diff = list(
            difflib.unified_diff(
                stored.splitlines(), current[name].splitlines(), "snapshot", "now", lineterm="", n=0
            )
        )
        more = f"\n... and {len(diff) - 30} more lines" if len(diff) > 30 else ""
        pytest.fail(
            f"published numbers in {name} changed; {HOW_TO_UPDATE}:\n"
            + "\n".join(diff[:30])
            + more,
            pytrace=False,
        )


if __name__ == "__main__":  # `make snapshot`: rewrite the snapshot from the current code
    from test_rulings import rulings

    files = snapshot() | rulings()
    for name in set(STORED) - set(files):
        (SNAPSHOTS / name).unlink()
    for name, text in files.items():
        (SNAPSHOTS / name).parent.mkdir(parents=True, exist_ok=True)
        (SNAPSHOTS / name).write_text(text, encoding="utf-8")
    print(f"{len(files)} files written to {SNAPSHOTS}: review `git diff tests/snapshots`")
