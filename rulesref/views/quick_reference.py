"""The printed quick reference: the site's main tables in whole percentages, and every
rule and clarification of the four documents in one line with its id.

It is HTML for one printed page (the Quick reference page of the site); each number is
read from `rulesref.tables`, each line from the clause registry.

```python
from sympy import Rational

from rulesref.views.quick_reference import sheet, sheet_percent

html = sheet()
print("BR-5" in html, html.count("<table"))
#> True 4
print(sheet_percent(Rational(5, 18)), sheet_percent(Rational(1295, 1296)))
#> 28 &gt;99
```
"""

from html import escape

from rulesref.break_test import break_test_probability
from rulesref.clauses import CLAUSES, Document
from rulesref.exact import Rational
from rulesref.tables import (
    Table,
    break_test_table,
    leadership_test_table,
    reform_test_table,
)

__all__ = ["sheet_percent", "grid", "rule_lines", "sheet"]


def sheet_percent(p: Rational) -> str:
    """`p` as a whole percentage, for print; a chance strictly between 0 and 1 never shows
    as 0 or 100 (`<1`, `>99`), and is escaped for HTML."""
    if p in (0, 1):
        return str(int(p) * 100)
    whole = int((p * 200 + 1) // 2)  # rounded half up, exactly
    return "&lt;1" if whole < 1 else "&gt;99" if whole > 99 else str(whole)


def grid(table: Table, title: str, extra: tuple[str, tuple[Rational, ...]] | None = None) -> str:
    """`table` as a compact HTML table in whole percentages, titled `title`; `extra` adds
    a last column (its heading and one value per row)."""
    heads = [str(c) for c in table.columns] + ([extra[0]] if extra else [])
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in heads)
    rows = []
    for n, (row, cells) in enumerate(zip(table.rows, table.cells, strict=True)):
        values = [*cells, *([extra[1][n]] if extra else [])]
        tds = "".join(f"<td>{sheet_percent(p)}</td>" for p in values)
        rows.append(f'<tr><th scope="row">{row}{escape(table.row_suffix)}</th>{tds}</tr>')
    corner = f"{escape(table.row_heading)} ↓ {escape(table.column_heading)} →"
    return (
        f'<table class="rr-sheet-table"><caption>{escape(title)}</caption>'
        f'<thead><tr><th scope="col">{corner}</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def rule_lines(base: str = "") -> str:
    """Every clause and clarification, one line each under its document: its id, linked
    to its rule (`base` leads from the page to the site's root), and its title."""
    parts = []
    for document in Document:
        rules = [rule for rule in CLAUSES.values() if rule.document is document]
        name = f'"{document.title}"' if document.title else "The campaign note"
        items = "".join(
            f'<li><a href="{escape(base + rule.page.replace(".md#", "/#"))}">'
            f"<b>{rule.id}</b></a> {escape(rule.title)}</li>"
            for rule in rules
        )
        parts.append(
            f'<section><h2>{escape(name)}</h2><ul class="rr-sheet-rules">{items}</ul></section>'
        )
    return f'<div class="rr-sheet-columns">{"".join(parts)}</div>'


def sheet(base: str = "") -> str:
    """The whole sheet: the Break test table with its Steadfast column, its re-roll
    variant, the reform test, the d6 Leadership test with re-rolls, then every rule
    (`base` as for `rule_lines`)."""
    breaks = break_test_table()
    steadfast = tuple(break_test_probability(ld, 0, steadfast=True) for ld in breaks.rows)
    tables = [
        grid(
            breaks,
            "Break test: % that stand (BR-3, BR-5); Stf: Steadfast (BR-6)",
            ("Stf", steadfast),
        ),
        grid(break_test_table(reroll=True), "Break test, one re-roll (a variant): % that stand"),
        grid(reform_test_table(), "Reform test after a defeat: % that pass (BR-15)"),
        grid(leadership_test_table(), "d6 Leadership test: % that hold (LD-1, LD-7)"),
    ]
    return f'<div class="rr-sheet">{"".join(tables)}</div>{rule_lines(base)}'
