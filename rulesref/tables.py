"""The site's probability tables and calculator data, computed exactly from the rules.

One definition of each table serves the notebooks, the CSV downloads, the calculators
and the command line, so they cannot disagree.

```python
from rulesref.tables import break_test_table

table = break_test_table()
print(table.cell(8, 3))  # Leadership 8, lost by 3
#> 5/18
print(table.csv().splitlines()[7])  # the row of Leadership 8
#> 8,13/18,7/12,5/12,5/18,1/6,1/12,1/36,1/36,1/36,1/36,1/36
```
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import product

from sympy import Rational

from rulesref.break_test import (
    MAX_LEADERSHIP,
    MAX_LOST_BY,
    break_test_probability,
    reform_test_probability,
)
from rulesref.campaign import ROLES, TERRAINS, Battle, Platoon, Side, battle_odds
from rulesref.leadership import leadership_test_probability

LEADERSHIP = range(2, MAX_LEADERSHIP + 1)
LOST_BY = range(0, 11)
CALCULATOR_REROLLS = 3  # Doctrines give one or two; three covers stacked ones


@dataclass(frozen=True)
class Table:
    """A grid of exact probabilities: one row per `rows` value, one column per `columns`."""

    name: str  # the file name of its download, without .csv
    title: str
    row_label: str
    column_label: str
    rows: tuple[int, ...]
    columns: tuple[int, ...]
    cells: tuple[tuple[Rational, ...], ...]

    def cell(self, row: int, column: int) -> Rational:
        return self.cells[self.rows.index(row)][self.columns.index(column)]

    def csv(self) -> str:
        """The table as CSV, each cell an exact fraction."""
        columns = (f"{self.column_label}={column}" for column in self.columns)
        lines = [",".join((self.row_label, *columns))]
        for row, cells in zip(self.rows, self.cells, strict=True):
            lines.append(f"{row}," + ",".join(map(str, cells)))
        return "\n".join(lines) + "\n"

    def markdown(self, cell: Callable[[Rational], str] = str) -> str:
        """The table in Markdown, each cell formatted by `cell` (exact fractions by default)."""
        labels = (self.row_label.replace("_", " "), self.column_label.replace("_", " "))
        header = f"| {labels[0]} ↓, {labels[1]} → | " + " | ".join(map(str, self.columns))
        lines = [header + " |", "|---" * (len(self.columns) + 1) + "|"]
        for row, cells in zip(self.rows, self.cells, strict=True):
            lines.append(f"| **{row}** | " + " | ".join(cell(p) for p in cells) + " |")
        return "\n".join(lines)


def percent(p: Rational) -> str:
    """A probability as a percentage to one decimal place, for reading (never for computing)."""
    return f"{float(p):.1%}"


def _grid(name: str, title: str, probability: Callable[..., Rational], **options) -> Table:
    return Table(
        name=name,
        title=title,
        row_label="leadership",
        column_label="lost_by",
        rows=tuple(LEADERSHIP),
        columns=tuple(LOST_BY),
        cells=tuple(tuple(probability(ld, by, **options) for by in LOST_BY) for ld in LEADERSHIP),
    )


def break_test_table(*, insane_courage: bool = True, reroll: bool = False) -> Table:
    """Chance to stand a Break test (BR-3, BR-5), Leadership 2-10 against lost by 0-10."""
    name = "break-test" + "-no-insane-courage" * (not insane_courage) + "-reroll" * reroll
    title = "Break test: chance to stand" + (
        ", without Insane Courage" * (not insane_courage) + ", re-roll variant" * reroll
    )
    return _grid(name, title, break_test_probability, insane_courage=insane_courage, reroll=reroll)


def reform_test_table() -> Table:
    """Chance to pass the reform test after a defeat (BR-15), without Insane Courage."""
    return _grid(
        "reform-test", "Reform test after a defeat: chance to pass", reform_test_probability
    )


def tables() -> tuple[Table, ...]:
    """Every table the site publishes, each with a CSV download."""
    return (
        break_test_table(),
        break_test_table(insane_courage=False),
        break_test_table(reroll=True),
        reform_test_table(),
    )


def _calculator(
    answer: Callable[..., Rational | dict[str, Rational] | None],
    inputs: dict[str, tuple[int, int]],
    options: tuple[str, ...],
    outcomes: tuple[str, ...] = (),
) -> dict:
    """Every answer over whole-number `inputs` (name: lowest, highest), nested in the order
    of `inputs`, then by the yes/no `options` packed into one index (the first option the
    highest bit). An answer is a fraction as text; with `outcomes`, a list of fractions,
    one per outcome; None where the inputs describe no possible case."""

    def as_text(value: Rational | dict[str, Rational] | None) -> str | list[str] | None:
        if isinstance(value, dict):
            return [str(value[outcome]) for outcome in outcomes]
        return None if value is None else str(value)

    def answers(fixed: dict, names: list[str]) -> list:
        if not names:
            return [
                as_text(answer(**fixed, **dict(zip(options, flags, strict=True))))
                for flags in product((False, True), repeat=len(options))
            ]
        name, *rest = names
        low, high = inputs[name]
        return [answers({**fixed, name: value}, rest) for value in range(low, high + 1)]

    data = {"inputs": inputs, "options": options, "answers": answers({}, list(inputs))}
    return {**data, "outcomes": outcomes} if outcomes else data


BATTLE_KINDS = ("infantry", "cavalry", "artillery")
BATTLE_SIZE = 3  # platoons a side, at most, in the battle calculator


def small_battle_victor(*, terrain: int, fortified: bool, **platoons: int) -> dict | None:
    """Who wins a small campaign battle of fresh, supplied platoons (CA-2 to CA-18), each
    side 1 to 3 platoons given as counts (`attacker_infantry=2, ...`); `terrain` is an
    index into TERRAINS. None when a side has no platoon or more than three.

    ```python
    from rulesref.tables import small_battle_victor

    three_infantry = {"infantry": 3, "cavalry": 0, "artillery": 0}
    sides = {f"{role}_{k}": n for role in ("attacker", "defender") for k, n in three_infantry.items()}
    print(small_battle_victor(terrain=0, fortified=False, **sides))
    #> {'attacker wins': 2401/11664, 'defender wins': 11207/15552, 'no victor': 3431/46656}
    ```
    """
    sides = []
    for role in ROLES:
        members = [
            Platoon(kind) for kind in BATTLE_KINDS for _ in range(platoons[f"{role}_{kind}"])
        ]
        if not 1 <= len(members) <= BATTLE_SIZE:
            return None
        sides.append(Side(members, fortified=fortified and role == "defender"))
    victor = battle_odds(Battle(*sides, terrain=TERRAINS[terrain])).victor
    return {
        "attacker wins": victor["attacker"],
        "defender wins": victor["defender"],
        "no victor": victor[None],
    }


@cache
def calculator_data() -> dict:
    """Every answer the site's calculators can show, by calculator.

    Each has `inputs` (whole numbers, each with its lowest and highest value),
    `options` (yes/no) and `answers`: exact fractions as text, nested by input
    (`answers[leadership - lowest][lost_by - lowest][flags]`), where `flags` packs the
    options, the first as the highest bit. The battle calculator's answers list one
    fraction for each of its `outcomes` (None: a side with no platoon, or too many).
    """
    test = {"leadership": (0, MAX_LEADERSHIP), "lost_by": (0, MAX_LOST_BY)}
    return {
        "break": _calculator(
            break_test_probability, test, ("steadfast", "insane_courage", "reroll")
        ),
        "reform": _calculator(
            reform_test_probability, test, ("steadfast", "unbreakable", "insane_courage")
        ),
        "leadership": _calculator(
            leadership_test_probability,
            {"target": (2, 6), "rerolls": (0, CALCULATOR_REROLLS)},
            ("ignore",),
        ),
        "battle": {"impossible": "each side needs 1 to 3 platoons"}
        | _calculator(
            small_battle_victor,
            {
                **{f"{role}_{kind}": (0, BATTLE_SIZE) for role in ROLES for kind in BATTLE_KINDS},
                "terrain": (0, len(TERRAINS) - 1),
            },
            ("fortified",),
            ("attacker wins", "defender wins", "no victor"),
        ),
    }
