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
print(table.spreadsheet_csv().splitlines()[:2])  # one line per cell, for spreadsheets
#> ['leadership,lost_by,percent,numerator,denominator', '2,0,2.7778,1,36']
```
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from html import escape
from itertools import product

from rulesref.break_test import (
    MAX_LEADERSHIP,
    MAX_LOST_BY,
    break_test_probability,
    reform_test_probability,
)
from rulesref.campaign import (
    Battle,
    Kind,
    Platoon,
    Policy,
    Role,
    Roll,
    Side,
    State,
    Terrain,
    fewest_withdrawals,
    most_withdrawals,
)
from rulesref.errors import whole_number
from rulesref.exact import Rational
from rulesref.leadership import WRITTEN, leadership_test_probability
from rulesref.odds.battle import battle_odds
from rulesref.views import percent, rounded

__all__ = [
    "Table",
    "tabbed",
    "LEADERSHIP",
    "LOST_BY",
    "break_test_table",
    "reform_test_table",
    "TARGETS",
    "REROLLS",
    "leadership_test_table",
    "tables",
    "MEASURES",
    "BattleTable",
    "INFANTRY",
    "CAVALRY",
    "ARTILLERY",
    "match_ups",
    "policy_battle",
    "ATTACKERS",
    "campaign_tables",
    "downloads",
    "small_battle_victor",
    "calculator_data",
]

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
    row_suffix: str = ""  # shown after each row value: "+" for a d6 target
    row_heading: str = "Ld"  # the corner of the table, short enough for a phone
    column_heading: str = "lost by"

    def cell(self, row: int, column: int) -> Rational:
        return self.cells[self.rows.index(row)][self.columns.index(column)]

    def csv(self) -> str:
        """The table as CSV, each cell an exact fraction."""
        columns = (f"{self.column_label}={column}" for column in self.columns)
        lines = [",".join((self.row_label, *columns))]
        for row, cells in zip(self.rows, self.cells, strict=True):
            lines.append(f"{row}," + ",".join(map(str, cells)))
        return "\n".join(lines) + "\n"

    def spreadsheet_csv(self) -> str:
        """The table as CSV for spreadsheets: one line per cell, its percentage rounded to
        4 places by `percent` (never 0 or 100 for a possible, uncertain outcome), then the
        exact fraction as a whole numerator and denominator (a cell such as 1/12 would be
        read as a date)."""
        lines = [f"{self.row_label},{self.column_label},percent,numerator,denominator"]
        for row, cells in zip(self.rows, self.cells, strict=True):
            for column, p in zip(self.columns, cells, strict=True):
                shown = percent(p, 4).removesuffix("%")
                lines.append(f"{row},{column},{shown},{p.numerator},{p.denominator}")
        return "\n".join(lines) + "\n"

    def html(self, download: str = "") -> str:
        """The table as an HTML heat table: percentages first (whole on a phone, one
        decimal on wider screens), each cell shaded by its chance, and its exact fraction
        behind the "exact fractions" switch; one element a cell, so a page of tables stays
        light. `download` is the address of its CSV."""
        head = "".join(f'<th scope="col">{c}</th>' for c in self.columns)
        body = []
        for row, cells in zip(self.rows, self.cells, strict=True):
            tds = "".join(_heat_cell(p) for p in cells)
            body.append(f'<tr><th scope="row">{row}{escape(self.row_suffix)}</th>{tds}</tr>')
        link = (
            f'<a class="rr-download" href="{escape(download)}" download>CSV</a>' if download else ""
        )
        return (
            # the switch and the link are controls, not words of the page: not searched
            f'<div class="rr-odds"><div class="rr-odds-bar" data-search-exclude>'
            f'<label class="rr-exact"><input type="checkbox"> exact fractions</label>{link}</div>'
            f'<table class="rr-heat"><caption>{escape(self.title)}'
            '<span class="rr-in-percent">, in %</span></caption>'
            f'<thead><tr><th scope="col" class="rr-corner">{escape(self.row_heading)} ↓<br>'
            f"{escape(self.column_heading)} →</th>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div>"
        )

    def markdown(self, cell: Callable[[Rational], str] = str) -> str:
        """The table in Markdown, each cell formatted by `cell` (exact fractions by default)."""
        labels = (self.row_label.replace("_", " "), self.column_label.replace("_", " "))
        header = f"| {labels[0]} ↓, {labels[1]} → | " + " | ".join(map(str, self.columns))
        lines = [header + " |", "|---" * (len(self.columns) + 1) + "|"]
        for row, cells in zip(self.rows, self.cells, strict=True):
            lines.append(f"| **{row}** | " + " | ".join(cell(p) for p in cells) + " |")
        return "\n".join(lines)


def _heat_cell(p: Rational) -> str:
    """A cell, one element: its percentage to one decimal as its text (the caption says
    "in %"), shaded by its chance; the whole percentage a phone shows and the exact
    fraction in attributes, drawn from them by the stylesheet (docs/stylesheets/extra.css)."""
    whole = escape(percent(p, 0).removesuffix("%"))
    return (
        f'<td style="--p:{float(p):.3f}" data-whole="{whole}" data-num="{p.numerator}"'
        f' data-den="{p.denominator}">{escape(percent(p, 1).removesuffix("%"))}</td>'
    )


def tabbed(name: str, tabs: list[tuple[str, str, str]], open_tab: int = 0) -> str:
    """Material's content tabs around HTML blocks: one (label, anchor, html) per tab, the
    one at `open_tab` open. Each tab's radio button carries its anchor, so a link to the anchor
    opens that tab (docs/javascripts/site.js)."""
    inputs = "".join(
        f'<input id="{anchor}" name="{name}" type="radio"{" checked" * (n == open_tab)}>'
        for n, (_, anchor, _) in enumerate(tabs)
    )
    labels = "".join(f'<label for="{anchor}">{escape(label)}</label>' for label, anchor, _ in tabs)
    blocks = "".join(f'<div class="tabbed-block">{html}</div>' for *_, html in tabs)
    return (
        f'<div class="tabbed-set tabbed-alternate" data-tabs="{name}:{len(tabs)}">{inputs}'
        f'<div class="tabbed-labels">{labels}</div><div class="tabbed-content">{blocks}</div></div>'
    )


def _grid(name: str, title: str, probability: Callable[..., Rational], **options: bool) -> Table:
    by_target = _by_modified_leadership(probability, tuple(options.items()))
    lowest = LEADERSHIP[0] - LOST_BY[-1]
    return Table(
        name=name,
        title=title,
        row_label="leadership",
        column_label="lost_by",
        rows=tuple(LEADERSHIP),
        columns=tuple(LOST_BY),
        cells=tuple(tuple(by_target[ld - by - lowest] for by in LOST_BY) for ld in LEADERSHIP),
    )


@cache
def _by_modified_leadership(
    probability: Callable[..., Rational], options: tuple[tuple[str, bool], ...]
) -> tuple[Rational, ...]:
    """A grid's cells by their modified Leadership, from the lowest: the cells of a
    diagonal (Leadership less lost by, BR-2) are one probability, each computed once, by
    the function for its first cell (19 calls for the 99 cells), and kept for the next
    table drawn with the same options."""
    found: dict[int, Rational] = {}
    for ld, by in product(LEADERSHIP, LOST_BY):
        if ld - by not in found:
            found[ld - by] = probability(ld, by, **dict(options))
    return tuple(found[target] for target in sorted(found))


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


TARGETS = range(2, 7)
REROLLS = range(0, CALCULATOR_REROLLS + 1)


def leadership_test_table() -> Table:
    """Chance that a d6 Leadership test holds (LD-1), by target and Doctrine re-rolls (LD-7)."""
    return Table(
        name="leadership-test",
        title="d6 Leadership test: chance to hold",
        row_label="target",
        column_label="rerolls",
        rows=tuple(TARGETS),
        columns=tuple(REROLLS),
        cells=tuple(
            tuple(leadership_test_probability(t, rerolls=n) for n in REROLLS) for t in TARGETS
        ),
        row_suffix="+",
        row_heading="target",
        column_heading="re-rolls",
    )


def tables() -> tuple[Table, ...]:
    """Every table the site publishes, each with a CSV download."""
    return (
        break_test_table(),
        break_test_table(insane_courage=False),
        break_test_table(reroll=True),
        reform_test_table(),
        leadership_test_table(),
    )


# The headline numbers of a campaign battle: chances, then expected hits.
MEASURES = (
    "attacker wins",
    "defender wins",
    "no victor",
    "defender leaves",
    "attacker leaves",
    "E[hits on defender]",
    "E[hits on attacker]",
)


@dataclass(frozen=True)
class BattleTable:
    """Named campaign battles (rows) against the MEASURES (columns), exactly."""

    name: str  # the file name of its download, without .csv
    title: str
    rows: tuple[str, ...]
    cells: tuple[tuple[Rational, ...], ...]

    def spreadsheet_csv(self) -> str:
        """One line per battle and measure: its value as a decimal (percent for a chance,
        hits for an expected number of hits) and exactly, as numerator and denominator."""
        lines = ["battle,measure,value,unit,numerator,denominator"]
        for row, cells in zip(self.rows, self.cells, strict=True):
            for measure, value in zip(MEASURES, cells, strict=True):
                hits = measure.startswith("E[")
                decimal = rounded(value, 4) if hits else percent(value, 4).removesuffix("%")
                unit = "hits" if hits else "percent"
                lines.append(
                    f'"{row}",{measure},{decimal},{unit},{value.numerator},{value.denominator}'
                )
        return "\n".join(lines) + "\n"

    def markdown(self, download: str = "") -> str:
        """The table in Markdown, chances in percent, then a link to its CSV."""
        lines = ["| battle | " + " | ".join(MEASURES) + " |", "|---" * (len(MEASURES) + 1) + "|"]
        for row, cells in zip(self.rows, self.cells, strict=True):
            shown = [
                rounded(v) if m.startswith("E[") else percent(v)
                for m, v in zip(MEASURES, cells, strict=True)
            ]
            lines.append(f"| {row} | " + " | ".join(shown) + " |")
        link = f"\n\n[Download this table as CSV]({download})" if download else ""
        return "\n".join(lines) + link


def _measures(battle: Battle, policy: Policy = fewest_withdrawals) -> tuple[Rational, ...]:
    odds = battle_odds(battle, policy=policy)
    values = (
        odds.victor["attacker"],
        odds.victor["defender"],
        odds.victor[None],
        1 - odds.fate["defender"]["holds"],
        1 - odds.fate["attacker"]["holds"],
        odds.expected_hits("defender"),
        odds.expected_hits("attacker"),
    )
    return tuple(map(Rational, values))  # a certain or impossible ending can be a plain 0 or 1


INFANTRY, CAVALRY, ARTILLERY = Platoon(), Platoon(Kind.CAVALRY), Platoon(Kind.ARTILLERY)


def _split(attack: int, platoons: int = 3) -> Side:
    rolls = (Roll.ATTACK,) * attack + (Roll.DEFENCE,) * (platoons - attack)
    return Side((INFANTRY,) * platoons, rolls)


def match_ups() -> dict[str, Battle]:
    """Three infantry platoons a side in the open, split between attack and defence."""
    return {
        "3 attack v 3 defence": Battle(_split(3), _split(0)),
        "2 attack + 1 defence v 3 defence": Battle(_split(2), _split(0)),
        "2 + 1 v 1 + 2": Battle(_split(2), _split(1)),
        "2 + 1 v 2 + 1": Battle(_split(2), _split(2)),
        "3 attack v 3 attack": Battle(_split(3), _split(3)),
    }


def policy_battle() -> Battle:
    """A battle where the hit-assignment policy (CA-15, CA-C9) decides who wins."""
    damaged, fubar = Platoon(state=State.DAMAGED), Platoon(state=State.FUBAR)
    return Battle(
        Side((ARTILLERY,) * 3 + (damaged,), (Roll.ATTACK,) * 3 + (Roll.DEFENCE,)),
        Side(
            (ARTILLERY, ARTILLERY, damaged, fubar),
            (Roll.ATTACK, Roll.ATTACK, Roll.DEFENCE, Roll.DEFENCE),
        ),
    )


ATTACKERS = range(1, 13)  # attacking infantry platoons, "one more platoon"


@cache
def campaign_tables() -> dict[str, BattleTable]:
    """The campaign battle odds page's tables (CA-2 to CA-18), by short name."""
    horse = Side((CAVALRY, CAVALRY, INFANTRY))
    guns = Side((ARTILLERY, ARTILLERY, INFANTRY))
    foot = Side((INFANTRY,) * 3)
    assault = Side((INFANTRY, INFANTRY, INFANTRY, ARTILLERY))
    pair, fortified_pair = Side((INFANTRY,) * 2), Side((INFANTRY,) * 2, fortified=True)
    battles: dict[str, tuple[str, dict[str, tuple[Battle, dict[str, Policy]]]]] = {
        "3-v-3-infantry": ("3 v 3 infantry", {k: (b, {}) for k, b in match_ups().items()}),
        "cavalry-and-artillery": (
            "Cavalry and artillery by terrain",
            {
                "cavalry, open": (Battle(horse, foot), {}),
                "cavalry, woods": (Battle(horse, foot, terrain=Terrain.WOODS), {}),
                "cavalry, mountain": (Battle(horse, foot, terrain=Terrain.MOUNTAIN), {}),
                "artillery, open": (Battle(guns, foot), {}),
                "artillery, forest": (Battle(guns, foot, terrain=Terrain.FOREST), {}),
                "infantry only, open": (Battle(foot, foot), {}),
            },
        ),
        "fortified": (
            "Fortified defenders in a mountain hex",
            {
                "open": (Battle(assault, pair), {}),
                "open, fortified": (Battle(assault, fortified_pair), {}),
                "mountain": (Battle(assault, pair, terrain=Terrain.MOUNTAIN), {}),
                "mountain, fortified": (
                    Battle(assault, fortified_pair, terrain=Terrain.MOUNTAIN),
                    {},
                ),
            },
        ),
        "one-more-platoon": (
            "One more attacking platoon against three defenders",
            {
                f"{n} attacker{'s' * (n != 1)}": (Battle(Side((INFANTRY,) * n), foot), {})
                for n in ATTACKERS
            },
        ),
        "hit-policy": (
            "The hit-assignment policy",
            {
                "fewest withdrawals": (policy_battle(), {"policy": fewest_withdrawals}),
                "most withdrawals": (policy_battle(), {"policy": most_withdrawals}),
            },
        ),
    }
    return {
        short: BattleTable(
            name=f"campaign-{short}",
            title=title,
            rows=tuple(rows),
            cells=tuple(_measures(battle, **options) for battle, options in rows.values()),
        )
        for short, (title, rows) in battles.items()
    }


def downloads() -> dict[str, str]:
    """Every CSV download of the site, by file name, as spreadsheets read it: each table
    of `tables()` and each campaign table, one cell a line."""
    every: tuple[Table | BattleTable, ...] = (*tables(), *campaign_tables().values())
    return {f"{table.name}.csv": table.spreadsheet_csv() for table in every}


def _calculator(
    answer: Callable[..., Rational | dict[str, Rational] | None],
    inputs: dict[str, tuple[int, int]],
    options: tuple[str, ...],
    outcomes: tuple[str, ...] = (),
) -> dict[str, object]:
    """Every answer over whole-number `inputs` (name: lowest, highest), nested in the order
    of `inputs`, then by the yes/no `options` packed into one index (the first option the
    highest bit). An answer is a fraction as text; with `outcomes`, a list of fractions,
    one per outcome; None where the inputs describe no possible case."""

    def as_text(value: Rational | dict[str, Rational] | None) -> str | list[str] | None:
        if isinstance(value, dict):
            return [str(value[outcome]) for outcome in outcomes]
        return None if value is None else str(value)

    def answers(fixed: dict[str, int], names: list[str]) -> list[object]:
        if not names:
            return [
                as_text(answer(**fixed, **dict(zip(options, flags, strict=True))))
                for flags in product((False, True), repeat=len(options))
            ]
        name, *rest = names
        low, high = inputs[name]
        return [answers({**fixed, name: value}, rest) for value in range(low, high + 1)]

    data: dict[str, object] = {
        "inputs": inputs,
        "options": options,
        "answers": answers({}, list(inputs)),
    }
    return {**data, "outcomes": outcomes} if outcomes else data


BATTLE_KINDS = (Kind.INFANTRY, Kind.CAVALRY, Kind.ARTILLERY)
BATTLE_SIZE = 3  # platoons a side, at most, in the battle calculator


def small_battle_victor(
    *, terrain: int, fortified: bool, **platoons: int
) -> dict[str, Rational] | None:
    """Who wins a small campaign battle of fresh, supplied platoons (CA-2 to CA-18), each
    side 1 to 3 platoons given as counts (`attacker_infantry=2, ...`); `terrain` is an
    index into `Terrain`. None when a side has no platoon or more than three.

    ```python
    from rulesref.tables import small_battle_victor

    three_infantry = {"infantry": 3, "cavalry": 0, "artillery": 0}
    roles = ("attacker", "defender")
    sides = {f"{role}_{k}": n for role in roles for k, n in three_infantry.items()}
    print(small_battle_victor(terrain=0, fortified=False, **sides))
    #> {'attacker wins': 2401/11664, 'defender wins': 11207/15552, 'no victor': 3431/46656}
    ```
    """
    whole_number("terrain", terrain, 0, len(Terrain) - 1)
    sides = []
    for role in Role:
        members = tuple(
            Platoon(kind) for kind in BATTLE_KINDS for _ in range(platoons[f"{role}_{kind}"])
        )
        if not 1 <= len(members) <= BATTLE_SIZE:
            return None
        sides.append(Side(members, fortified=fortified and role == "defender"))
    attacker, defender = sides
    victor = battle_odds(Battle(attacker, defender, terrain=list(Terrain)[terrain])).victor
    return {
        "attacker wins": victor["attacker"],
        "defender wins": victor["defender"],
        "no victor": victor[None],
    }


@cache
def calculator_data() -> dict[str, dict[str, object]]:
    """Every answer the site's calculators can show, by calculator.

    Each has `inputs` (whole numbers, each with its lowest and highest value),
    `options` (yes/no) and `answers`: exact fractions as text, nested by input
    (`answers[leadership - lowest][lost_by - lowest][flags]`), where `flags` packs the
    options, the first as the highest bit. The battle calculator's answers list one
    fraction for each of its `outcomes` (None: a side with no platoon, or too many).
    `written` gives, for an input the rules also write as text, the pattern (its one group
    the number) that `rulesref` itself reads it by.
    """
    test = {"leadership": (0, MAX_LEADERSHIP), "lost_by": (0, MAX_LOST_BY)}
    return {
        "break": _calculator(
            break_test_probability, test, ("steadfast", "insane_courage", "reroll")
        ),
        "reform": _calculator(
            reform_test_probability, test, ("steadfast", "unbreakable", "insane_courage")
        ),
        # how the rules write a Leadership ("4+"): the page accepts it by this pattern
        "leadership": {"written": {"target": WRITTEN.pattern}}
        | _calculator(
            leadership_test_probability,
            {"target": (2, 6), "rerolls": (0, CALCULATOR_REROLLS)},
            ("ignore",),
        ),
        "battle": {"impossible": "each side needs 1 to 3 platoons"}
        | _calculator(
            small_battle_victor,
            {
                **{f"{role}_{kind}": (0, BATTLE_SIZE) for role in Role for kind in BATTLE_KINDS},
                "terrain": (0, len(Terrain) - 1),
            },
            ("fortified",),
            ("attacker wins", "defender wins", "no victor"),
        ),
    }
