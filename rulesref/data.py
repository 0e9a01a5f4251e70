"""The rules and the tables as data: what `rules.json` and `odds/*.json` of the site hold.

A clarification that admits two readings is governed by a field of its document's
`Readings`; `readings` finds those fields (each is listed, with the id, in the docstring
of that `Readings`). `odds` is a table of the site with every cell an exact numerator
and denominator, as its CSV download gives them.

```python
from rulesref.data import odds, readings
from rulesref.tables import break_test_table

(floor,) = readings("BR-C2")
print(floor["readings"], floor["field"], floor["options"], floor["default"])
#> rulesref.break_test.Readings floor_per_unit [False, True] False
print(floor["other_reading"])
#> each unit of a side needs Unit Strength 10, not the side.
table = odds(break_test_table())
print(table["rows"]["values"][6], table["columns"]["values"][3], table["cells"][6][3])
#> 8 3 {'numerator': 5, 'denominator': 18}
```
"""

import importlib
import inspect
import re
from collections.abc import Callable
from dataclasses import fields
from itertools import product

from rulesref.clauses import Clause, clause
from rulesref.errors import instance_of
from rulesref.exact import Rational
from rulesref.questions import TABLE_ADDRESSES, break_table, leadership_table
from rulesref.tables import MEASURES, BattleTable, Table, tables

__all__ = ["READINGS", "readings", "odds", "calculator_tables"]

READINGS = {
    "BR": "rulesref.break_test.Readings",
    "LD": "rulesref.leadership.Readings",
    "CA": "rulesref.campaign.Readings",
    "ST": "rulesref.standards.Readings",
}
"""Each document's `Readings`, by the prefix of its ids."""

# a line of a Readings docstring: "- `floor_per_unit` (BR-C2): what the other reading says"
_FIELD = re.compile(
    r"^- `(?P<field>\w+)` \((?P<id>[A-Z]{2}-C\d+)\): (?P<words>.+?)(?=^- |\Z)", re.M | re.S
)


def readings(id: str) -> list[dict[str, object]]:
    """The fields of its document's `Readings` that clarification `id` governs: each field's
    options (every field is yes or no), the site's reading (its default) and, in our
    words, what the other reading says."""
    rule: Clause = clause(id)
    module, _, name = READINGS[rule.document.name].rpartition(".")
    record = getattr(importlib.import_module(module), name)
    defaults = {field.name: field.default for field in fields(record)}
    found = []
    for match in _FIELD.finditer(inspect.cleandoc(record.__doc__ or "")):
        if match["id"] == rule.id:
            found.append(
                {
                    "readings": READINGS[rule.document.name],
                    "field": match["field"],
                    "options": [False, True],
                    "default": defaults[match["field"]],
                    "other_reading": " ".join(match["words"].split()),
                }
            )
    return found


def _exact(p: Rational) -> dict[str, int]:
    return {"numerator": int(p.numerator), "denominator": int(p.denominator)}


def odds(table: Table | BattleTable) -> dict[str, object]:
    """A table of the site as JSON: its rows and columns, and each cell exactly, as a whole
    numerator and denominator (`cells[row][column]`)."""
    instance_of("table", table, (Table, BattleTable), "a Table or a BattleTable of the site")
    if isinstance(table, BattleTable):
        rows: dict[str, object] = {"label": "battle", "values": list(table.rows)}
        columns: dict[str, object] = {"label": "measure", "values": list(MEASURES)}
    else:
        rows = {"label": table.row_label, "values": list(table.rows)}
        columns = {"label": table.column_label, "values": list(table.columns)}
    return {
        "name": table.name,
        "title": table.title,
        "csv": f"{table.name}.csv",
        "rows": rows,
        "columns": columns,
        "cells": [[_exact(p) for p in row] for row in table.cells],
    }


# each calculator whose answers a table of the site holds: its yes/no options, in the
# order `rulesref.tables.calculator_data` packs them, and the table they pick
_TABLE_OF: dict[str, tuple[tuple[str, ...], Callable[..., str | None]]] = {
    "break": (("steadfast", "insane_courage", "reroll"), break_table),
    "leadership": (("ignore",), leadership_table),
}


def calculator_tables() -> dict[str, dict[str, object]]:
    """By calculator, the table of the site that holds its answers for each set of its
    options (`by_options`, indexed as `calculator_data` packs `options`, the first the
    highest bit): the table's name, title and address, the inputs its rows and columns
    are, and their values; None where no table has those options. The calculators page
    names the cell its inverse answers come from by it.

    ```python
    from rulesref.data import calculator_tables

    found = calculator_tables()["break"]
    reroll = found["by_options"][0b011]  # insane_courage and reroll
    print(found["options"], reroll["name"], reroll["row"], reroll["column"])
    #> ('steadfast', 'insane_courage', 'reroll') break-test-reroll leadership lost_by
    print(reroll["address"], found["by_options"][0b100])
    #> odds/break-test/#the-re-roll-variant-not-in-break None
    ```
    """
    by_name = {table.name: table for table in tables()}

    def entry(name: str | None) -> dict[str, object] | None:
        if name is None:
            return None
        table = by_name[name]
        return {
            "name": name,
            "title": table.title,
            "address": TABLE_ADDRESSES[name],
            "row": table.row_label,
            "column": table.column_label,
            "rows": list(table.rows),
            "columns": list(table.columns),
        }

    return {
        calculator: {
            "options": options,
            "by_options": [
                entry(table_of(**dict(zip(options, flags, strict=True))))
                for flags in product((False, True), repeat=len(options))
            ],
        }
        for calculator, (options, table_of) in _TABLE_OF.items()
    }
