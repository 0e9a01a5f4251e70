"""The published tables, CSV downloads and calculator data agree with the rules' functions."""

import csv
import io
import re
from html import unescape
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sympy import Rational

from rulesref.break_test import (
    MAX_LEADERSHIP,
    MAX_LOST_BY,
    break_test_probability,
    reform_test_probability,
)
from rulesref.campaign import Battle, Platoon, Side, Terrain
from rulesref.errors import RulesError
from rulesref.leadership import leadership_test_probability
from rulesref.odds.battle import battle_odds
from rulesref.tables import (
    BATTLE_KINDS,
    MEASURES,
    break_test_table,
    calculator_data,
    campaign_tables,
    downloads,
    leadership_test_table,
    tables,
)
from rulesref.views import percent, rounded


def test_break_test_table_is_the_function():
    """BR-3, BR-5: each cell of each variant is break_test_probability."""
    for courage, reroll in product((True, False), repeat=2):
        table = break_test_table(insane_courage=courage, reroll=reroll)
        for ld, by in product(table.rows, table.columns):
            expected = break_test_probability(ld, by, insane_courage=courage, reroll=reroll)
            assert table.cell(ld, by) == expected


def test_csv_round_trips_to_the_exact_cells():
    for table in tables():
        rows = list(csv.reader(io.StringIO(table.csv())))
        assert rows[0][0] == table.row_label
        prefix = f"{table.column_label}="
        assert [int(h.removeprefix(prefix)) for h in rows[0][1:]] == list(table.columns)
        for row, cells in zip(rows[1:], table.cells, strict=True):
            assert [Rational(text) for text in row[1:]] == list(cells)


def test_table_names_are_unique():
    names = [table.name for table in tables()]
    assert len(names) == len(set(names))


def test_markdown_shows_every_cell():
    table = break_test_table()
    text = table.markdown(percent)
    assert "| **8** |" in text and "27.8%" in text
    assert len(text.splitlines()) == len(table.rows) + 2


def test_calculator_data_covers_every_valid_input():
    """Every input the calculators accept has its exact answer, and nothing else."""
    data = calculator_data()
    assert data["break"]["inputs"] == {
        "leadership": (0, MAX_LEADERSHIP),
        "lost_by": (0, MAX_LOST_BY),
    }
    stands, passes = data["break"]["answers"], data["reform"]["answers"]
    assert len(stands) == MAX_LEADERSHIP + 1 and len(stands[0]) == MAX_LOST_BY + 1
    for ld, by in product(range(MAX_LEADERSHIP + 1), range(0, MAX_LOST_BY + 1, 7)):
        for flags, (steadfast, courage, reroll) in enumerate(product((False, True), repeat=3)):
            expected = break_test_probability(
                ld, by, steadfast=steadfast, insane_courage=courage, reroll=reroll
            )
            assert Rational(stands[ld][by][flags]) == expected
        for flags, (steadfast, unbreakable, courage) in enumerate(product((False, True), repeat=3)):
            expected = reform_test_probability(
                ld, by, steadfast=steadfast, unbreakable=unbreakable, insane_courage=courage
            )
            assert Rational(passes[ld][by][flags]) == expected


def test_leadership_calculator_data():
    """LD-1, LD-7: every d6 Leadership test the calculator offers."""
    data = calculator_data()["leadership"]
    assert data["inputs"] == {"target": (2, 6), "rerolls": (0, 3)}
    for target, rerolls, ignore in product(range(2, 7), range(4), (False, True)):
        expected = leadership_test_probability(target, rerolls=rerolls, ignore=ignore)
        assert Rational(data["answers"][target - 2][rerolls][ignore]) == expected


def test_battle_calculator_data():
    """CA-2 to CA-18: each small battle the calculator offers is battle_odds' victor."""
    data = calculator_data()["battle"]
    assert data["outcomes"] == ("attacker wins", "defender wins", "no victor")
    names = list(data["inputs"])
    samples = [(3, 0, 0, 3, 0, 0, 0, 0), (1, 1, 1, 0, 0, 2, 3, 1), (0, 2, 0, 1, 0, 0, 2, 0)]
    for *counts, terrain, fortified in samples:
        node = data["answers"]
        for value in (*counts, terrain):
            node = node[value]
        sides = []
        for role, side_counts in (("attacker", counts[:3]), ("defender", counts[3:])):
            kinds = zip(BATTLE_KINDS, side_counts, strict=True)
            platoons = [Platoon(kind) for kind, n in kinds for _ in range(n)]
            sides.append(Side(platoons, fortified=bool(fortified) and role == "defender"))
        victor = battle_odds(Battle(*sides, terrain=list(Terrain)[terrain])).victor
        assert [Rational(p) for p in node[fortified]] == [
            victor["attacker"],
            victor["defender"],
            victor[None],
        ]
    assert names[-1] == "terrain"
    # a side with no platoon, or more than three, is no battle
    assert data["answers"][0][0][0][1][0][0][0][0] is None
    assert data["answers"][3][1][0][1][0][0][0][0] is None


def test_spreadsheet_csv_has_no_date_like_cells_and_is_exact():
    """Each download: one line per cell, a percentage and the exact fraction as two
    whole numbers (a spreadsheet reads "1/12" as a date)."""
    for table in tables():
        rows = list(csv.DictReader(io.StringIO(table.spreadsheet_csv())))
        assert len(rows) == len(table.rows) * len(table.columns)
        for row in rows:
            assert "/" not in "".join(row.values())
            exact = Rational(int(row["numerator"]), int(row["denominator"]))
            cell = table.cell(int(row[table.row_label]), int(row[table.column_label]))
            assert exact == cell
            assert row["percent"] == percent(cell, 4).removesuffix("%")


def test_html_heat_table_shows_percent_first_and_the_fraction():
    html = break_test_table().html(download="../x.csv")
    assert html.count("<tr>") == 1 + 9 and html.count("<td") == 9 * 11
    assert '<td style="--p:0.278" data-whole="28" data-num="5" data-den="18">27.8</td>' in html
    assert '<td style="--p:0.995" data-whole="&gt;99" data-num="215" data-den="216">99.5</td>' in (
        leadership_test_table().html()
    )  # the percentage a phone shows, escaped in its attribute
    cells = re.findall(r"<td[ >].*?</td>", html)
    assert len(cells) == 9 * 11 and not any("<" in cell[3:-5] for cell in cells)  # one element
    assert 'href="../x.csv"' in html


def test_percentages_round_half_up():
    assert percent(Rational(1, 8), 0) == "13%"  # 12.5
    assert percent(Rational(1, 16)) == "6.3%"  # 6.25
    assert percent(Rational(1, 8)) == "12.5%" and percent(Rational(1, 36)) == "2.8%"
    assert percent(Rational(0)) == "0.0%" and percent(Rational(1), 0) == "100%"
    assert percent(Rational(1, 3), 4) == "33.3333%" and percent(Rational(2, 3), 4) == "66.6667%"


def test_a_percentage_never_rounds_to_certainty():
    """215/216 is not 100%, 1/46656 is not 0%: the bound it is beyond, at that precision."""
    assert percent(Rational(215, 216), 0) == ">99%" and percent(Rational(215, 216)) == "99.5%"
    assert percent(Rational(7775, 7776)) == ">99.9%"
    assert percent(Rational(7775, 7776), 2) == "99.99%"
    assert percent(Rational(1, 46656)) == "<0.1%" and percent(Rational(1, 46656), 4) == "0.0021%"
    assert percent(Rational(1, 10**9), 4) == "<0.0001%"
    assert percent(Rational(1, 201), 0) == "<1%" and percent(Rational(1, 200), 0) == "1%"


@given(st.integers(0, 10**6), st.integers(1, 10**9), st.integers(0, 6))
def test_an_expected_number_is_within_half_a_step_and_nought_only_when_true(n, d, digits):
    value = Rational(n, d)
    shown = rounded(value, digits)
    number = Rational(shown.lstrip("<"))
    step = Rational(1, 10**digits)
    if shown.startswith("<"):
        assert 0 < value < step / 2 and number == step
    else:
        assert abs(number - value) <= step / 2 and (number == 0) == (value == 0)
        assert number - value != -step / 2  # half rounds up
    assert re.fullmatch(r"<?\d+" + (rf"\.\d{{{digits}}}" if digits else ""), shown), shown


def test_the_campaign_tables_show_a_rare_hit_as_under_a_hundredth():
    """Two attackers' expected hits on the defender are 1/7776: "<0.01", not 0.00."""
    rare = 0
    for table in campaign_tables().values():
        shown = [line.split(" | ")[1:] for line in table.markdown().splitlines()[2:]]
        for cells, written in zip(table.cells, shown, strict=True):
            for measure, value, text in zip(MEASURES, cells, written, strict=True):
                if measure.startswith("E["):
                    assert text.strip(" |") == rounded(value)
                    assert (text.strip(" |") == "0.00") == (value == 0), (table.name, text)
                    rare += bool(0 < value < Rational(1, 200))
    assert rare  # the tables hold such a number


@given(
    st.integers(1, 10**12).flatmap(lambda d: st.tuples(st.integers(0, d), st.just(d))),
    st.integers(0, 6),
)
def test_a_percentage_is_within_half_a_step_and_certain_only_when_true(fraction, digits):
    p = Rational(*fraction)
    shown = percent(p, digits)
    number = shown.removesuffix("%").lstrip("<>")
    assert re.fullmatch(r"\d+" + (rf"\.\d{{{digits}}}" if digits else ""), number), shown
    step = Rational(1, 10**digits)
    if shown.startswith("<"):
        assert 0 < p * 100 < step / 2 and Rational(number) == step
    elif shown.startswith(">"):
        assert 100 - step / 2 <= p * 100 < 100 and Rational(number) == 100 - step
    else:
        assert abs(Rational(number) - p * 100) <= step / 2
    assert (Rational(number) in (0, 100) and shown[0].isdigit()) == (p in (0, 1))


def test_percent_refuses_what_is_not_a_probability():
    for bad in (Rational(3, 2), -1, 0.5, "1/2"):
        with pytest.raises(RulesError, match="probability must be"):
            percent(bad)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="digits must be a whole number from 0 to 12, got 13"):
        percent(Rational(1, 2), 13)


def _shown_percentages(html: str) -> list[tuple[Rational, str, int]]:
    """Each percentage a page shows beside its exact fraction: (fraction, shown, digits).
    Heat cells (a percentage per screen width), "5/18 (27.8%)" and "27.8% (5/18)"."""
    found = []
    for attributes, wide in HEAT_CELL.findall(html):
        cell = {name: unescape(value) for name, value in ATTRIBUTE.findall(attributes)}
        n, d, narrow, wide = cell["data-num"], cell["data-den"], cell["data-whole"], unescape(wide)
        found += [
            (Rational(int(n), int(d)), wide + "%", 1),
            (Rational(int(n), int(d)), narrow + "%", 0),
        ]
    words = unescape(re.sub(r"<[^>]+>", " ", html))
    for n, d, shown in FRACTION_THEN_PERCENT.findall(words):
        found.append((Rational(int(n), int(d)), shown, _digits(shown)))
    for shown, n, d in PERCENT_THEN_FRACTION.findall(words):
        found.append((Rational(int(n), int(d)), shown, _digits(shown)))
    return found


def _digits(shown: str) -> int:
    return len(shown.removesuffix("%").partition(".")[2])


HEAT_CELL = re.compile(r"<td ([^>]*\bdata-whole=[^>]*)>([^<]*)</td>")  # attributes in any order
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
NUMBER = r"[<>]?\d+(?:\.\d+)?%"
FRACTION_THEN_PERCENT = re.compile(rf"\b(\d+)/(\d+)\s*\(({NUMBER})\)")
PERCENT_THEN_FRACTION = re.compile(rf"({NUMBER})\s*\((\d+)/(\d+)\)")


def calculator_fractions() -> set[Rational]:
    """Every answer of every calculator's data file, and its complement (shown beside it)."""
    found: set[Rational] = set()

    def walk(answers: object) -> None:
        if isinstance(answers, list):
            for answer in answers:
                walk(answer)
        elif isinstance(answers, str):
            found.update((Rational(answers), 1 - Rational(answers)))

    for data in calculator_data().values():
        walk(data["answers"])
    return found


def test_every_published_percentage_is_its_fraction_never_rounded_to_certainty(site):
    """Every number the site publishes: each table cell, CSV line and calculator answer
    through `percent`, and on every built page each percentage shown beside its exact
    fraction is `percent` of it; none is 0 or 100 for a chance strictly between."""
    fractions = {cell for table in tables() for row in table.cells for cell in row}
    chances = [not measure.startswith("E[") for measure in MEASURES]  # not expected hits
    for table in campaign_tables().values():
        fractions |= {v for row in table.cells for v, c in zip(row, chances, strict=True) if c}
    fractions |= calculator_fractions()
    for p, digits in product(sorted(fractions), range(5)):
        shown = percent(p, digits)
        if 0 < p < 1:
            assert shown.lstrip("<>").removesuffix("%") not in ("0", "100", "0.0", "100.0"), p
            assert Rational(shown.lstrip("<>").removesuffix("%")) not in (0, 100), (p, shown)
    for name, text in downloads().items():
        for line in csv.DictReader(io.StringIO(text)):
            if line.get("unit") != "hits":  # a chance, in percent
                p = Rational(int(line["numerator"]), int(line["denominator"]))
                shown = line.get("percent") or line["value"]
                assert shown == percent(p, 4).removesuffix("%"), (name, line)
    checked = 0
    for html_file in site.rglob("*.html"):
        for p, shown, digits in _shown_percentages(html_file.read_text()):
            assert shown == percent(p, digits), (html_file.relative_to(site), p, shown)
            checked += 1
    assert checked > 1000, checked


def test_leadership_table_is_the_function():
    """LD-1, LD-7: each cell of the d6 table."""
    table = next(t for t in tables() if t.name == "leadership-test")
    for target, rerolls in product(table.rows, table.columns):
        assert table.cell(target, rerolls) == leadership_test_probability(target, rerolls=rerolls)


def test_charts_plot_percent_axes_from_the_rules():
    """BR-3, BR-6: one chart per Leadership, each a line per variant, percent labels."""
    from rulesref.views.charts import break_test_charts

    charts = dict(break_test_charts())
    assert list(charts) == list(range(2, 11))
    svg = charts[8]
    assert svg.count("<polyline") == 3 and "100%" in svg and "0%" in svg
    assert "Break test, lost the combat by 3: 27.8% (5/18)" in svg


def test_campaign_tables_are_battle_odds():
    """CA-2 to CA-18: each cell of the campaign page's tables is battle_odds; its CSV is
    exact and has no date-like cell."""
    from rulesref.campaign import most_withdrawals
    from rulesref.tables import MEASURES, campaign_tables, match_ups, policy_battle

    tables = campaign_tables()
    first = tables["3-v-3-infantry"]
    odds = battle_odds(match_ups()["2 + 1 v 1 + 2"])
    row = first.cells[first.rows.index("2 + 1 v 1 + 2")]
    assert row[MEASURES.index("attacker wins")] == odds.victor["attacker"]
    assert row[MEASURES.index("E[hits on defender]")] == odds.expected_hits("defender")
    policy = tables["hit-policy"].cells[1]
    most = battle_odds(policy_battle(), policy=most_withdrawals)
    assert policy[MEASURES.index("defender leaves")] == 1 - most.fate["defender"]["holds"]
    for table in tables.values():
        lines = list(csv.DictReader(io.StringIO(table.spreadsheet_csv())))
        assert len(lines) == len(table.rows) * len(MEASURES)
        cells = [value for cells in table.cells for value in cells]
        for line, value in zip(lines, cells, strict=True):
            assert Rational(int(line["numerator"]), int(line["denominator"])) == value
            assert "/" not in line["value"] + line["numerator"] + line["denominator"]
