"""The decision table and the decision diagrams of "Army Standard", drawn from the rules.

The table answers every round of `standards.every_round` with `standards.standard_fate`;
each diagram draws one standard's steps (`REGIMENTAL_STEPS`, `ARMY_STEPS`), the very
table `standard_fate` decides by, so neither can drift from the rules.

```python
from rulesref.standards import ARMY_STEPS
from rulesref.views.standards import decision_svg

svg = decision_svg(ARMY_STEPS, title="The army standard", name="st-army")
print(svg.startswith("<svg"), 'href="#st-13"' in svg)
#> True True
```
"""

from collections.abc import Sequence
from html import escape
from textwrap import wrap

from rulesref.standards import (
    Fate,
    Round,
    Standard,
    Step,
    Troops,
    Verdict,
    Victor,
    every_round,
    standard_fate,
)
from rulesref.views.svg import Colour, arrow_marker, line, link, rect, svg, text

__all__ = ["table_groups", "decision_table_html", "decision_svg"]

GROUPS = (  # (title, alone, regimental, army)
    ("Regimental standard, no ASB", False, True, False),
    ("ASB in a unit with a regimental standard", False, True, True),
    ("ASB in a unit without a regimental standard", False, False, True),
    ("ASB fighting alone", True, False, True),
)
VICTOR_LABELS = {Victor.PURSUES: "pursues", Victor.FREE: "free, stays", Victor.TIED: "tied down"}
FATE_COLOURS = {Fate.CAPTURED: Colour.RED, Fate.LOST: Colour.AMBER, Fate.KEPT: Colour.GREEN}


def _cell(verdict: Verdict, rules_page: str) -> str:
    return (
        f'<td class="{FATE_COLOURS[verdict.fate]}">{verdict.fate.value} '
        f'<a href="{rules_page}#{verdict.clause.lower()}">{verdict.clause}</a></td>'
    )


def table_groups() -> list[tuple[str, list[Round]]]:
    """Every round, grouped as the decision table shows them: by who carries what, then
    by troops.

    ```python
    from rulesref.views.standards import table_groups

    title, rounds = table_groups()[0]
    print(title, len(rounds))
    #> Regimental standard, no ASB: takes Break tests normally 10
    ```
    """
    rounds = list(every_round())
    groups = []
    for title, alone, regimental, army in GROUPS:
        for troops in Troops:
            members = [
                r
                for r in rounds
                if (r.alone, r.regimental_standard, r.army_standard, r.troops)
                == (alone, regimental, army, troops)
            ]
            groups.append((f"{title}: {troops.value}", members))
    return groups


TABLE_STYLE = (  # compact cells, so that three columns fit on a phone; few elements a row
    "<style>.st-table table td, .st-table table th {padding: .5em .6em}"
    " .st-table table {font-size: .62rem} .st-table td[class] {font-weight: 700}"
    " .st-table small {display: block; font-size: inherit; font-style: italic}</style>"
)


def decision_table_html(rules_page: str = "") -> str:
    """The complete decision table as HTML: one collapsible table per group, one row per
    round (what happened, then the victor), each fate linked to the deciding clause on
    `rules_page` (the rules page's address from the page showing the table; "" for itself)."""
    parts = [TABLE_STYLE]
    for title, rounds in table_groups():
        standards = [s for s in Standard if any(v.standard is s for v in standard_fate(rounds[0]))]
        head = "".join(f"<th>{s.value.split()[0]}</th>" for s in standards)
        rows = [
            f"<tr><td>{escape(r.label)}<small>victor: {VICTOR_LABELS[r.victor]}</small></td>"
            + "".join(_cell(v, rules_page) for v in standard_fate(r))
            + "</tr>"
            for r in rounds
        ]
        parts.append(
            f'<details class="st-table"><summary>{escape(title)} ({len(rounds)} rounds)</summary>'
            f"<table><thead><tr><th>round</th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></details>"
        )
    return "\n".join(parts)


LINE_H, INDENT, CHAR_W = 18, 34, 7.2  # CHAR_W: the width of a letter at 13px, about
CHARS = 43  # letters a line: the diagram is 354 wide, drawn unscaled on a phone


def _lines(x: float, y: float, words: str) -> tuple[list[str], float]:
    """`words` wrapped to CHARS a line from (x, y); their text and the height they take."""
    wrapped = wrap(words, CHARS)
    texts = [text(x, y + 19 + LINE_H * n, one, size=13) for n, one in enumerate(wrapped)]
    return texts, 10 + LINE_H * len(wrapped)


def decision_svg(steps: Sequence[Step], *, title: str, name: str) -> str:
    """A flowchart in one narrow column, to read on a phone: each step's question, its
    "yes" ruling below it (linked to the clause), and "no" down the left to the next step.
    Long words wrap, so the picture stays narrow enough to keep its text at 13 px.

    `name` keeps the arrow marker's id apart from other diagrams on the page."""
    width, marker = round(CHARS * CHAR_W) + INDENT + 10, f"{name}-arrow"
    body = [arrow_marker(marker), text(2, 18, title, size=15, bold=True)]
    y = 30.0
    for index, step in enumerate(steps):
        question, question_h = _lines(10, y, step.question)
        out_y = y + question_h + 12
        ruling, ruling_h = _lines(INDENT + 8, out_y, f"{step.yes.summary} · {step.clause}")
        body += [
            rect(2, y, width - 4, question_h, rx=6),
            *question,
            line(INDENT + 20, y + question_h, INDENT + 20, out_y - 1, arrow=marker),
            link(
                f"#{step.clause.lower()}",
                [
                    rect(
                        INDENT,
                        out_y,
                        width - INDENT - 2,
                        ruling_h,
                        colour=Colour.BLUE,
                        tint=True,
                        rx=6,
                    ),
                    *ruling,
                ],
            ),
        ]
        next_y = out_y + ruling_h + 16
        if index < len(steps) - 1:
            body += [
                text(INDENT + 25, y + question_h + 11, "yes", size=12),
                line(14, y + question_h, 14, next_y - 1, arrow=marker),
                text(18, y + question_h + 26, "no", size=12),
            ]
        y = next_y
    return svg(width, y - 14, body, title=title)
