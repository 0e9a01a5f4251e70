"""The questions players ask (rulesref.questions) against brute force: every comparison
is the rules' own two numbers, every "what do I need" answer the least (or greatest)
value found by trying them all, every view a sum over the enumerated dice."""

import io
import json
import re
from collections import Counter
from contextlib import redirect_stdout
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sympy import Rational

from rulesref.break_test import MAX_LEADERSHIP, MAX_LOST_BY, break_test_probability
from rulesref.cli import main
from rulesref.data import calculator_tables
from rulesref.errors import RulesError
from rulesref.leadership import MAX_REROLLS, leadership_test_probability
from rulesref.questions import (
    TABLE_ADDRESSES,
    BreakSetup,
    LeadershipSetup,
    ReformSetup,
    View,
    bar,
    compare,
    fewest_rerolls,
    greatest_margin_odds,
    holding_roll_odds,
    least_leadership,
    most_lost_by,
    totals_odds,
    viewed,
)
from rulesref.tables import (
    break_test_table,
    calculator_data,
    leadership_test_table,
    tables,
)
from rulesref.views import percent, points

ROOT = Path(__file__).resolve().parents[1]

bars = st.fractions(min_value=0, max_value=1, max_denominator=400).map(
    lambda f: Rational(f.numerator, f.denominator)
)
flags = st.booleans()


def test_the_issues_example_a_reroll_against_one_more_leadership():
    """Lost by 3: Leadership 8 with a re-roll holds 155/324 (47.8%), Leadership 9 without
    5/12 (41.7%): the re-roll is worth 6.2 points more."""
    both = compare(BreakSetup(8, 3, reroll=True), BreakSetup(9, 3))
    assert (both.a, both.b) == (Rational(155, 324), Rational(5, 12))
    assert both.difference == Rational(155, 324) - Rational(5, 12) == Rational(5, 81)
    assert both.points() == "+6.2 points"
    assert str(both) == "A: 155/324 (47.8%), B: 5/12 (41.7%), A - B: 5/81 (+6.2 points)"


def test_a_difference_too_small_to_show_is_never_nought():
    """Ten re-rolls against nine on 2+ differ by 5/362797056: under 0.1 points, not 0.0."""
    more, fewer = LeadershipSetup(2, rerolls=10), LeadershipSetup(2, rerolls=9)
    assert compare(more, fewer).difference == Rational(5, 362797056)
    assert compare(more, fewer).points() == "+<0.1 points"
    assert compare(fewer, more).points() == "-<0.1 points"
    assert compare(more, more).points() == "no change"
    assert str(compare(more, fewer)).endswith("A - B: 5/362797056 (+<0.1 points)")


def test_a_difference_short_of_a_hundred_points_never_reads_as_a_hundred():
    assert points(Rational(9999, 10**4)) == "nearly +100 points"
    assert points(Rational(-9999, 10**4)) == "nearly -100 points"
    assert points(Rational(999, 10**3)) == "+99.9 points" and points(1) == "+100.0 points"


@pytest.mark.parametrize(
    "difference, message",
    [
        (Rational(-3, 2), "difference must be a Rational from -1 to 1, got -3/2"),
        (0.5, "difference must be a Rational from -1 to 1, got 0.5"),
        (True, "difference must be a Rational from -1 to 1, got True"),
    ],
)
def test_a_bad_difference_is_refused_by_name(difference, message):
    with pytest.raises(RulesError) as refused:
        points(difference)
    assert str(refused.value) == message


@given(
    st.integers(0, MAX_LEADERSHIP),
    st.integers(0, 12),
    flags,
    flags,
    st.integers(2, 6),
    st.integers(0, 3),
)
def test_a_comparison_is_the_two_functions_answers(ld, by, steadfast, reroll, target, rerolls):
    a = BreakSetup(ld, by, steadfast=steadfast, reroll=reroll)
    b = LeadershipSetup(target, rerolls=rerolls)
    both = compare(a, b)
    assert both.a == break_test_probability(ld, by, steadfast=steadfast, reroll=reroll)
    assert both.b == leadership_test_probability(target, rerolls=rerolls)
    assert compare(b, a).difference == -both.difference  # swapped, the sign flips
    assert compare(a, a).difference == 0


def test_a_reform_setup_is_the_reform_tests_answer():
    assert compare(ReformSetup(8, 3), ReformSetup(8, 3, unbreakable=True)).b == Rational(13, 18)


def _least_by_trying(goal, probability, values):
    meeting = [v for v in values if probability(v) >= goal]
    return meeting[0] if meeting else None


@given(bars, st.integers(0, 12), flags, flags, flags)
def test_least_leadership_is_the_least_that_meets_the_bar(goal, by, steadfast, courage, reroll):
    options = {"steadfast": steadfast, "insane_courage": courage, "reroll": reroll}
    found = least_leadership(goal, by, **options)
    expected = _least_by_trying(
        goal, lambda ld: break_test_probability(ld, by, **options), range(MAX_LEADERSHIP + 1)
    )
    if expected is None:
        assert found is None
    else:
        assert (found.value, found.parameter) == (expected, "leadership")
        assert found.probability == break_test_probability(expected, by, **options) >= goal


@given(bars, st.integers(0, MAX_LEADERSHIP), flags, flags, flags)
def test_most_lost_by_is_the_greatest_that_meets_the_bar(goal, ld, steadfast, courage, reroll):
    options = {"steadfast": steadfast, "insane_courage": courage, "reroll": reroll}
    found = most_lost_by(goal, ld, **options)
    meeting = [
        by for by in range(MAX_LOST_BY + 1) if break_test_probability(ld, by, **options) >= goal
    ]
    if not meeting:
        assert found is None
    else:
        assert found.value == max(meeting)
        assert meeting == list(range(max(meeting) + 1))  # every smaller margin meets it too


@given(bars, st.integers(2, 6), flags)
def test_fewest_rerolls_is_the_least_that_meets_the_bar(goal, target, ignore):
    found = fewest_rerolls(goal, target, ignore=ignore)
    expected = _least_by_trying(
        goal,
        lambda n: leadership_test_probability(target, rerolls=n, ignore=ignore),
        range(MAX_REROLLS + 1),
    )
    if expected is None:
        assert found is None
    else:
        assert (found.value, found.parameter) == (expected, "rerolls")
        assert found.probability >= goal


@given(bars, bars, st.integers(0, 12), flags)
def test_a_higher_bar_never_needs_less(low, high, by, reroll):
    """Monotone: a higher bar needs at least as much Leadership, allows at most as large
    a margin, and needs at least as many re-rolls."""
    low, high = sorted((low, high))
    easy, hard = least_leadership(low, by, reroll=reroll), least_leadership(high, by, reroll=reroll)
    assert easy is not None or hard is None
    if hard is not None:
        assert easy.value <= hard.value
    far, near = most_lost_by(low, 8, reroll=reroll), most_lost_by(high, 8, reroll=reroll)
    if near is not None:
        assert far.value >= near.value
    few, many = fewest_rerolls(low, 5), fewest_rerolls(high, 5)
    if many is not None:
        assert few.value <= many.value


def test_each_answer_names_the_cell_of_the_sites_table_that_holds_it():
    by_name = {table.name: table for table in tables()}
    for goal, by, reroll in product(("1/36", "1/4", "1/2", "90%"), range(11), (False, True)):
        found = least_leadership(goal, by, reroll=reroll)
        if found is not None and found.table is not None:
            assert by_name[found.table].cell(found.row, found.column) == found.probability
    found = least_leadership("1/2", 3)
    assert (found.table, found.row, found.column) == ("break-test", 10, 3)
    assert found.address == "odds/break-test/#percentages"
    assert least_leadership("1/2", 3, reroll=True).address == TABLE_ADDRESSES["break-test-reroll"]
    assert break_test_table().cell(10, 3) == found.probability == Rational(7, 12)
    rerolls = fewest_rerolls("90%", "4+")
    assert leadership_test_table().cell(4, 3) == rerolls.probability == Rational(15, 16)
    assert least_leadership("1/2", 3, steadfast=True).table is None  # no Steadfast table
    assert least_leadership("1/2", 3, steadfast=True).address is None
    assert least_leadership("1/2", 0).row == 7  # Leadership 7 at a loss by 0: 7/12


def _answer(data: dict, inputs: dict[str, int], flags: int) -> str:
    """The answer of a calculator's data file for `inputs` and the packed `flags`."""
    answer = data["answers"]
    for name, (low, _) in data["inputs"].items():
        answer = answer[inputs[name] - low]
    return answer[flags]


def test_the_table_each_set_of_options_names_holds_the_calculators_answers():
    """rulesref.data.calculator_tables, which the calculators page reads: at every row and
    column of the table named for a set of options, the cell is the answer the page shows
    for those inputs and options, so the row it names holds the number it shows."""
    data = calculator_data()
    by_name = {table.name: table for table in tables()}
    named = set()
    for calculator, held in calculator_tables().items():
        assert list(held["options"]) == list(data[calculator]["options"])  # packed alike
        for flags, entry in enumerate(held["by_options"]):
            if entry is None:
                continue
            named.add(entry["name"])
            table = by_name[entry["name"]]
            assert (entry["rows"], entry["columns"]) == (list(table.rows), list(table.columns))
            assert entry["address"] == TABLE_ADDRESSES[table.name]
            for row, column in product(table.rows, table.columns):
                cell = {entry["row"]: row, entry["column"]: column}
                assert _answer(data[calculator], cell, flags) == str(table.cell(row, column))
    assert named == set(TABLE_ADDRESSES)  # each table once, and no address unused
    assert calculator_tables()["break"]["by_options"][0b100] is None  # Steadfast: no table
    assert calculator_tables()["leadership"]["by_options"][1] is None  # ignore: no table


def test_each_tables_address_is_a_published_anchor_of_its_page():
    """The links the calculators page draws go to anchors that tests/published_anchors.txt
    keeps (the odds pages' old addresses, redirected, carry them)."""
    published = set((ROOT / "tests/published_anchors.txt").read_text().split())
    moved = dict(
        re.findall(
            r"^ +(examples/[\w-]+)\.md: (odds/[\w-]+)\.ipynb$",
            (ROOT / "mkdocs.yml").read_text(),
            re.M,
        )
    )
    for address in TABLE_ADDRESSES.values():
        page, _, anchor = address.partition("#")
        old = {old for old, new in moved.items() if f"{new}/" == page}
        assert {f"/{page}#{anchor}", *(f"/{o}/#{anchor}" for o in old)} & published, address


def test_the_answers_at_the_edges():
    assert least_leadership(0, 100).value == 0  # any chance meets a bar of 0
    assert least_leadership(1, 0) is None  # a double 6 always fails (BR-3)
    assert least_leadership("1/36", 100).value == 0  # Insane Courage (BR-5)
    assert least_leadership("1/36", 100, insane_courage=False) is None
    assert most_lost_by("1/36", 0).value == MAX_LOST_BY  # every margin: a double 1
    assert most_lost_by("1/2", 9, steadfast=True).value == MAX_LOST_BY  # BR-6
    assert most_lost_by("1/2", 5) is None
    assert fewest_rerolls(1, 6) is None and fewest_rerolls(1, 6, ignore=True).value == 0


@pytest.mark.parametrize(
    "written, exact",
    [
        ("90%", Rational(9, 10)),
        ("47.5%", Rational(19, 40)),
        ("0.9", Rational(9, 10)),
        ("9/10", Rational(9, 10)),
        (" 100% ", Rational(1)),
        ("0", Rational(0)),
        (Rational(1, 3), Rational(1, 3)),
    ],
)
def test_a_bar_is_read_exactly(written, exact):
    assert bar(written) == exact


@pytest.mark.parametrize(
    "written, message",
    [
        ("101%", "at_least must be a chance from 0 to 1, written 90%, 0.9 or 9/10, got '101%'"),
        ("-1%", "written 90%, 0.9 or 9/10, got '-1%'"),
        ("ninety", "written 90%, 0.9 or 9/10, got 'ninety'"),
        ("1/0", "written 90%, 0.9 or 9/10, got '1/0'"),
        ("0." + "1" * 30, "written in at most 20 characters, got 32 characters"),
        ("٩٠%", "written 90%, 0.9 or 9/10, got '٩٠%'"),
        ("+0.5", "written 90%, 0.9 or 9/10, got '+0.5'"),
        ("1_0%", "written 90%, 0.9 or 9/10, got '1_0%'"),
        ("1e-5", "written 90%, 0.9 or 9/10, got '1e-5'"),
        ("\t0.5", "written 90%, 0.9 or 9/10, got '\\t0.5'"),
        ("9/10%", "written 90%, 0.9 or 9/10, got '9/10%'"),
        (Rational(3, 2), "at_least must be a Rational from 0 to 1, got 3/2"),
        (0.9, "at_least must be a Rational from 0 to 1, got 0.9"),
        (True, "at_least must be a Rational from 0 to 1, got True"),
    ],
)
def test_a_bad_bar_is_refused_by_name(written, message):
    with pytest.raises(RulesError) as refusal:
        bar(written)
    assert message in str(refusal.value) and str(refusal.value).startswith("at_least must be")


def test_bad_inputs_are_refused_by_the_rules_own_checks():
    with pytest.raises(RulesError, match="lost_by must be a whole number from 0 to 100, got 101"):
        least_leadership("1/2", 101)
    with pytest.raises(RulesError, match="leadership must be a whole number from 0 to 10, got 11"):
        most_lost_by("1/2", 11)
    with pytest.raises(RulesError, match="target must be a Leadership from 2\\+ to 6\\+"):
        fewest_rerolls("1/2", 7)
    with pytest.raises(RulesError, match="b must be a BreakSetup, ReformSetup or LeadershipSetup"):
        compare(BreakSetup(8, 3), (9, 3))
    with pytest.raises(RulesError, match="dice must be a whole number from 1 to 100, got 101"):
        totals_odds(101)
    with pytest.raises(RulesError, match="view must be"):
        viewed(totals_odds(1), "more than")


@pytest.mark.parametrize(
    "odds, message",
    [
        (
            {1: Rational(1, 2), 2: Rational(1)},
            "odds must be a mapping of whole-number outcomes to Rationals from 0 to 1, "
            "adding up to at most 1, got {1: 1/2, 2: 1}",
        ),
        ({1: 0.5}, "odds[1] must be a Rational from 0 to 1, got 0.5"),
        ({1: Rational(3, 2)}, "odds[1] must be a Rational from 0 to 1, got 3/2"),
        ("abc", "odds must be a mapping of whole-number outcomes"),
        ({True: Rational(1, 2)}, "odds must be a mapping of whole-number outcomes"),
        ({"a": Rational(1)}, "odds must be a mapping of whole-number outcomes"),
    ],
)
def test_odds_that_are_no_distribution_have_no_view(odds, message):
    for view in View:
        with pytest.raises(RulesError) as refusal:
            viewed(odds, view)
        assert str(refusal.value).startswith(message)


@pytest.mark.parametrize("dice", [1, 2, 3])
def test_totals_and_their_views_are_the_enumerated_dice(dice):
    rolls = list(product(range(1, 7), repeat=dice))
    counts = Counter(sum(roll) for roll in rolls)
    odds = totals_odds(dice)
    assert odds == {t: Rational(n, len(rolls)) for t, n in sorted(counts.items())}
    at_least, at_most = viewed(odds, View.AT_LEAST), viewed(odds, "at most")
    for total in odds:
        assert at_least[total] == Rational(sum(sum(r) >= total for r in rolls), len(rolls))
        assert at_most[total] == Rational(sum(sum(r) <= total for r in rolls), len(rolls))
    assert viewed(odds, "exactly") == odds and list(at_least) == list(odds)


def test_every_view_is_in_the_packages_rationals_whatever_came():
    odds = {1: Fraction(1, 3), 2: Fraction(1, 3)}
    for view in View:
        assert all(type(p) is not Fraction for p in viewed(odds, view).values()), view
    assert viewed(odds, "exactly") == {1: Rational(1, 3), 2: Rational(1, 3)}


@given(
    st.dictionaries(st.integers(-5, 20), st.integers(0, 10), min_size=1, max_size=8),
    st.integers(0, 10),
)
def test_views_of_any_distribution(weights, missing):
    """At least k and at most k - 1 are the whole; each view is monotone. The outcomes
    may leave out some of the whole (`missing`)."""
    whole = max(sum(weights.values()) + missing, 1)
    odds = {k: Rational(w, whole) for k, w in weights.items()}
    at_least, at_most = viewed(odds, "at least"), viewed(odds, "at most")
    total = sum(odds.values())
    outcomes = sorted(odds)
    assert at_least[outcomes[0]] == at_most[outcomes[-1]] == total
    for below, k in zip(outcomes, outcomes[1:], strict=False):
        assert at_least[k] + at_most[below] == total
        assert at_least[k] <= at_least[below] and at_most[below] <= at_most[k]


@given(st.integers(0, MAX_LEADERSHIP), flags, flags, flags)
def test_the_greatest_margin_read_at_least_is_each_margins_break_test(ld, steadfast, ic, reroll):
    """BR-2, BR-3: the chart by margin, read "at least", is the chance to stand there."""
    setup = BreakSetup(ld, 0, steadfast, ic, reroll)
    odds = greatest_margin_odds(setup)
    assert sum(odds.values()) == 1 and min(odds.values()) >= 0
    at_least = viewed(odds, "at least")
    for by in range(MAX_LOST_BY + 1):
        assert at_least[by] == BreakSetup(ld, by, steadfast, ic, reroll).probability()
    assert at_least[-1] == 1


@pytest.mark.parametrize("ld", [0, 2, 7, 10])
@pytest.mark.parametrize("courage", [False, True])
def test_the_greatest_margin_is_the_enumerated_roll(ld, courage):
    """One roll of 2D6 stands every margin up to Leadership less the roll (BR-3); a double
    1 stands all of them (BR-5)."""
    greatest = Counter()
    for a, b in product(range(1, 7), repeat=2):
        if courage and a == b == 1:
            greatest[MAX_LOST_BY] += 1
        else:
            greatest[max(-1, min(MAX_LOST_BY, ld - a - b))] += 1
    odds = greatest_margin_odds(BreakSetup(ld, 5, insane_courage=courage))
    assert odds == {by: Rational(greatest[by], 36) for by in range(-1, MAX_LOST_BY + 1)}
    reform = greatest_margin_odds(ReformSetup(ld, 5, insane_courage=courage))
    assert viewed(reform, "at least")[2] == ReformSetup(ld, 2, insane_courage=courage).probability()


@pytest.mark.parametrize(("target", "rerolls"), list(product(range(2, 7), range(4))))
def test_the_holding_roll_is_the_enumerated_dice(target, rerolls):
    """LD-1, LD-7: the first die of a run that reaches the target; none, it never holds."""
    runs = list(product(range(1, 7), repeat=rerolls + 1))
    first = Counter(next((n for n, die in enumerate(run) if die >= target), None) for run in runs)
    odds = holding_roll_odds(LeadershipSetup(target, rerolls))
    never = rerolls + 1
    assert odds == {n: Rational(first[None if n == never else n], len(runs)) for n in odds}
    assert list(odds) == list(range(never + 1))
    at_most = viewed(odds, "at most")
    for n in range(rerolls + 1):
        assert at_most[n] == leadership_test_probability(target, rerolls=n)


def test_a_doctrine_that_ignores_a_failure_holds_at_once():
    """LD-C6: an ignored failure holds the test after its first roll."""
    assert holding_roll_odds(LeadershipSetup("5+", 2, ignore=True)) == {0: 1, 1: 0, 2: 0, 3: 0}


def test_the_views_refuse_a_setup_of_the_other_kind():
    with pytest.raises(RulesError, match="setup must be a BreakSetup or ReformSetup"):
        greatest_margin_odds(LeadershipSetup(4))
    with pytest.raises(RulesError, match="setup must be a LeadershipSetup"):
        holding_roll_odds(BreakSetup(8, 3))
    with pytest.raises(RulesError, match="rerolls must be a whole number from 0 to 10"):
        holding_roll_odds(LeadershipSetup(4, rerolls=11))


def _command(capsys, *args: str) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as usage_error:
        status = usage_error.code
    printed = capsys.readouterr()
    return status, printed.out, printed.err


@given(st.integers(0, MAX_LEADERSHIP), st.integers(0, 12), flags, st.integers(0, MAX_LEADERSHIP))
def test_the_command_compares_as_the_api_does(ld, by, reroll, other):
    a = f"--leadership {ld} --lost-by {by}" + " --reroll" * reroll
    b = f"--leadership {other} --lost-by {by}"
    with redirect_stdout(io.StringIO()) as out:
        assert main(["compare", "break", a, b, "--json"]) == 0
    shown = json.loads(out.getvalue())
    both = compare(BreakSetup(ld, by, reroll=reroll), BreakSetup(other, by))
    assert (shown["a"], shown["b"], shown["difference"]) == tuple(
        str(p) for p in (both.a, both.b, both.difference)
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (("need", "break", "--at-least", "50%"), "give one of leadership and lost_by"),
        (("need", "break", "--at-least", "50%", "--lost-by", "3", "--leadership", "8"), "give one"),
        (("need", "leadership", "--at-least", "50%"), "target must be given"),
        (("need", "break", "--at-least", "x", "--lost-by", "3"), "at_least must be a chance"),
        (("need", "break", "--at-least", "50%", "--lost-by", "-1"), "lost_by must be a whole"),
        (
            ("compare", "break", "--leadership 8", "--leadership 9"),
            "rulesref compare: set-up A must be options of rulesref break, got '--leadership 8' "
            "(the following arguments are required: --lost-by)",
        ),
        (
            ("compare", "reform", "--leadership 8 --lost-by 3", "--leadership 8 --reroll"),
            "set-up B must be options of rulesref reform, got '--leadership 8 --reroll' "
            "(the following arguments are required: --lost-by)",
        ),
        (
            ("compare", "reform", "--leadership 8 --lost-by 3 --reroll", "--leadership 8"),
            "set-up A must be options of rulesref reform, got '--leadership 8 --lost-by 3 "
            "--reroll' (unrecognized arguments: --reroll)",
        ),
        (
            ("compare", "leadership", "--target 4 --json", "--target 3"),
            "set-up A must be options of rulesref leadership (--json and --exact are compare's "
            "own), got '--target 4 --json'",
        ),
        (
            ("compare", "leadership", "--target 3", "--target 7"),
            "rulesref compare: set-up B: target must be a Leadership from 2+ to 6+",
        ),
        (("compare", "reform", '--leadership "8', "x"), "set-up A must be options of rulesref"),
        (
            ("battle", "--attacker", "infantry, tank", "--defender", "infantry"),
            "rulesref battle: attacker platoon 1: kind must be one of infantry, cavalry",
        ),
        (
            ("need", "break", "--at-least", "0.12345678901234567890", "--lost-by", "3"),
            "at_least must be a chance from 0 to 1 written in at most 20 characters, "
            "got 22 characters",
        ),
        (("need", "break", "--at-least", "+50%", "--lost-by", "3"), "got '+50%'"),
        (("compare", "dice", "a", "b"), "invalid choice: 'dice'"),
        (("totals", "--dice", "101"), "dice must be a whole number from 1 to 100, got 101"),
        (("totals", "--dice", "2", "--view", "over"), "invalid choice: 'over'"),
    ],
)
def test_bad_questions_on_the_command_line_are_one_line_and_status_2(capsys, args, message):
    status, out, err = _command(capsys, *args)
    assert (status, out) == (2, "")
    assert message in err and err.count("\n") == 1


@pytest.fixture
def questions_page(view):
    def open_at(query: str = ""):
        page = view(f"/tools/calculators/{query}#compare", 390, "light")
        page.wait_for_selector("#rr-questions[data-ready=true]")
        return page

    return open_at


def _shown(page, part: str) -> str:
    return page.inner_text(f"#rr-questions .rr-compare-{part}")


def test_the_page_compares_two_setups_as_the_api_does(questions_page):
    page = questions_page()
    assert _shown(page, "a") == "155/324 (47.8%)"
    assert _shown(page, "b") == "5/12 (41.7%)"
    assert _shown(page, "difference") == "5/81 (+6.2 points)"
    a_form = '#rr-questions form[data-setup="A"]'
    page.set_checked(f"{a_form} input[name=reroll]", False)
    page.fill(f"{a_form} input[name=leadership]", "7")
    both = compare(BreakSetup(7, 3), BreakSetup(9, 3))
    assert _shown(page, "a") == f"{both.a} ({percent(both.a)})"
    assert _shown(page, "difference") == f"{both.difference} ({both.points()})"
    # two series on one chart: each point is the Python answer at its margin
    series = page.locator("#rr-questions .rr-compare-chart polyline")
    assert series.count() == 2
    titles = page.locator("#rr-questions .rr-compare-chart circle title").all_text_contents()
    for by in range(11):
        p = break_test_probability(7, by)
        assert f"A, lost by {by}: {p} ({percent(p)})" in titles
        q = break_test_probability(9, by)
        assert f"B, lost by {by}: {q} ({percent(q)})" in titles
    page.screenshot(path="test-artifacts/compare-390.png", full_page=False)


@pytest.mark.parametrize("goal", ["50%", "90%", "1/36", "0.3", "75%"])
def test_the_page_answers_what_leadership_is_needed_as_the_api_does(questions_page, goal):
    page = questions_page()
    for reroll in (False, True):
        page.fill("#rr-questions form.rr-need input[name=at_least]", goal)
        page.set_checked("#rr-questions form.rr-need input[name=reroll]", reroll)
        found = least_leadership(goal, 3, reroll=reroll)
        shown = page.inner_text("#rr-questions .rr-need-answer")
        if found is None:
            assert shown.startswith("With Leadership from 0 to 10, none stands at least")
        else:
            p = found.probability
            assert shown.startswith(f"Leadership {found.value}: stands {p} ({percent(p)})")


BAR_TEXTS = [
    " 50% ",
    "0." + "1" * 18,  # 20 characters: the most
    "0." + "1" * 19,
    "1234567/12345678",
    "0/0001",
    "1/000",
    "9/10%",
    "\t0.5",
    "1234%",
    "100.000000%",
    "\U0001d7d7" * 11,  # 11 characters, 22 in JavaScript's count
]


def test_the_page_reads_a_bar_as_rulesref_does(questions_page):
    """The calculators' reader of a chance (questions.js) takes the texts
    rulesref.questions.bar takes, and refuses the others."""
    page = questions_page()
    for text in BAR_TEXTS:
        page.fill("#rr-questions form.rr-need input[name=at_least]", text)
        shown = page.inner_text("#rr-questions .rr-need-answer")
        try:
            goal = bar(text)
        except RulesError as refusal:
            assert shown.startswith("at least must be a chance"), (text, shown)
            assert ("20 characters" in shown) == ("20 characters" in str(refusal)), text
        else:
            assert re.search(rf"at least {goal}\b", shown), (text, shown)


def test_the_questions_live_in_the_address_and_bad_input_is_named(questions_page):
    page = questions_page("?questions.A.leadership=6&questions.need.at_least=0.9")
    assert page.input_value('#rr-questions form[data-setup="A"] input[name=leadership]') == "6"
    assert (
        _shown(page, "a")
        == f"{break_test_probability(6, 3, reroll=True)} ("
        + percent(break_test_probability(6, 3, reroll=True))
        + ")"
    )
    page.fill('#rr-questions form[data-setup="B"] input[name=lost_by]', "4")
    page.wait_for_function("location.search.includes('questions.B.lost_by=4')")
    page.fill('#rr-questions form[data-setup="B"] input[name=lost_by]', "101")
    error = page.locator("#rr-questions .rr-error")
    assert error.inner_text() == 'B: lost_by must be a whole number from 0 to 100, got "101"'
    page.fill("#rr-questions form.rr-need input[name=at_least]", "120%")
    assert page.inner_text("#rr-questions .rr-need-answer").startswith(
        'at least must be a chance from 0 to 1, written 90%, 0.9 or 9/10, got "120%"'
    )


def _d6(page, part: str) -> str:
    return page.inner_text(f"#rr-questions-d6 .rr-compare-{part}")


D6 = "#rr-questions-d6"


def test_the_page_compares_two_d6_tests_as_the_api_does(questions_page):
    """LD-1, LD-7: the d6 comparison is the Break test's, on data/leadership.json."""
    page = questions_page()
    page.wait_for_selector(f"{D6}[data-ready=true]")
    both = compare(LeadershipSetup("4+", rerolls=1), LeadershipSetup("3+"))
    assert _d6(page, "a") == f"{both.a} ({percent(both.a)})" == "3/4 (75.0%)"
    assert _d6(page, "difference") == f"{both.difference} ({both.points()})"
    for target, rerolls, ignore in product(("2+", "5", "6+"), range(4), (False, True)):
        page.fill(f'{D6} form[data-setup="B"] input[name=target]', target)
        page.fill(f'{D6} form[data-setup="B"] input[name=rerolls]', str(rerolls))
        page.set_checked(f'{D6} form[data-setup="B"] input[name=ignore]', ignore)
        setup = LeadershipSetup(int(target.rstrip("+")), rerolls, ignore)
        both = compare(LeadershipSetup("4+", rerolls=1), setup)
        assert _d6(page, "b") == f"{both.b} ({percent(both.b)})"
        assert _d6(page, "difference") == f"{both.difference} ({both.points()})"
    titles = page.locator(f"{D6} .rr-compare-chart circle title").all_text_contents()
    for n in range(4):
        p = leadership_test_probability(4, rerolls=n)
        q = leadership_test_probability(6, rerolls=n, ignore=True)
        assert f"A, re-rolls {n}: {p} ({percent(p)})" in titles
        assert f"B, re-rolls {n}: {q} ({percent(q)})" in titles
    assert page.locator(f"{D6} .rr-compare-chart polyline").count() == 2
    page.fill(f'{D6} form[data-setup="B"] input[name=target]', "4+")
    page.fill(f'{D6} form[data-setup="B"] input[name=rerolls]', "1")
    page.set_checked(f'{D6} form[data-setup="B"] input[name=ignore]', False)
    assert _d6(page, "difference") == "0 (no change)"  # as rulesref.views.points says it
    page.fill(f'{D6} form[data-setup="B"] input[name=target]', "7+")
    assert (
        page.inner_text(f"{D6} .rr-error")
        == "B: target must be a Leadership from 2+ to 6+ (2 to 6, or '4+'), got \"7+\""
    )


@pytest.mark.parametrize("goal", ["50%", "90%", "95%", "99%", "1/36", "1"])
def test_the_page_answers_how_many_rerolls_are_needed_as_the_api_does(questions_page, goal):
    page = questions_page()
    page.wait_for_selector(f"{D6}[data-ready=true]")
    for target, ignore in product(("2+", "4+", "6+"), (False, True)):
        page.fill(f"{D6} form.rr-need input[name=target]", target)
        page.fill(f"{D6} form.rr-need input[name=at_least]", goal)
        page.set_checked(f"{D6} form.rr-need input[name=ignore]", ignore)
        found = fewest_rerolls(goal, target, ignore=ignore)
        shown = page.inner_text(f"{D6} .rr-need-answer")
        if found is None or found.value > 3:  # the page's data stops at three
            assert shown.startswith("With Re-rolls from 0 to 3, none passes at least"), shown
        else:
            p = found.probability
            assert shown.startswith(f"Re-rolls {found.value}: passes {p} ({percent(p)})")


@pytest.mark.parametrize("width", [390, 1280])
def test_the_d6_comparison_by_keyboard_and_address(browser, base_url, width):
    """Keyboard only: Tab to B's Leadership, type, and the answer and the address follow;
    the address opens the same comparison; axe-core's checks run in tests/test_a11y.py."""
    context = browser.new_context(viewport={"width": width, "height": 900}, service_workers="block")
    page = context.new_page()
    page.goto(f"{base_url}/tools/calculators/#compare-d6")
    page.wait_for_selector(f"{D6}[data-ready=true]")
    page.focus(f'{D6} form[data-setup="A"] input[name=ignore]')
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('form').dataset.setup") == "B"
    page.keyboard.press("Control+A")
    page.keyboard.type("5+")
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("2")
    page.wait_for_function("location.search.includes('questions-d6.B.rerolls=2')")
    expected = compare(LeadershipSetup(4, 1), LeadershipSetup(5, 2))
    assert _d6(page, "b") == f"{expected.b} ({percent(expected.b)})"
    page.locator(D6).screenshot(path=f"test-artifacts/compare-d6-{width}.png")
    friend = context.new_page()
    friend.goto(page.url)
    friend.wait_for_selector(f"{D6}[data-ready=true]")
    assert _d6(friend, "difference") == f"{expected.difference} ({expected.points()})"
    context.close()


def _cell_shown(page, found) -> list[str]:
    """The exact fraction the open table on an odds page shows at `found`'s row and column."""
    table = {table.name: table for table in tables()}[found.table]
    block = page.locator(".tabbed-block:visible table.rr-heat, table.rr-heat:visible").first
    row = block.locator("tr").nth(table.rows.index(found.row) + 1)  # after the heading row
    cell = row.locator("td").nth(table.columns.index(found.column))
    return [cell.get_attribute("data-num"), cell.get_attribute("data-den")]


@pytest.mark.parametrize("width", [390, 1280])
def test_the_inverse_answers_name_their_tables_row_by_keyboard(browser, base_url, width):
    """Keyboard only: ask for the least Leadership (and the fewest re-rolls), Tab to the
    row the answer names, Enter: the odds page opens that table, whose cell there holds
    the exact fraction the answer shows."""
    context = browser.new_context(viewport={"width": width, "height": 900}, service_workers="block")
    page = context.new_page()
    page.goto(f"{base_url}/tools/calculators/#compare")
    page.wait_for_selector("#rr-questions[data-ready=true]")
    page.focus("#rr-questions form.rr-need input[name=at_least]")
    page.keyboard.press("Control+A")
    page.keyboard.type("1/2")
    for _ in range(3):  # Steadfast, Insane Courage, then Re-roll: tick it
        page.keyboard.press("Tab")
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    found = least_leadership("1/2", 3, reroll=True)
    link = f"the {found.table} table's row {found.row}, column {found.column}"
    assert page.evaluate("document.activeElement.textContent") == link
    shown = page.inner_text("#rr-questions .rr-need-answer")
    p = found.probability
    assert shown == f"Leadership {found.value}: stands {p} ({percent(p)}), at least 1/2, {link}"
    page.locator("#rr-questions .rr-need-answer").scroll_into_view_if_needed()
    top = page.locator("#rr-questions form.rr-need").bounding_box()
    bottom = page.locator("#rr-questions .rr-need-answer").bounding_box()
    height = bottom["y"] + bottom["height"] - top["y"]
    page.screenshot(
        path=f"test-artifacts/need-row-{width}.png",
        clip={"x": 0, "y": top["y"], "width": width, "height": height},
    )
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/{found.address}")
    anchor = found.address.partition("#")[2]
    assert page.locator(f"#{anchor}").is_checked()  # its tab is open
    assert _cell_shown(page, found) == [str(p.numerator), str(p.denominator)]

    page.goto(f"{base_url}/tools/calculators/#compare-d6")
    page.wait_for_selector(f"{D6}[data-ready=true]")
    page.focus(f"{D6} form.rr-need input[name=at_least]")
    page.keyboard.press("Control+A")
    page.keyboard.type("90%")
    page.keyboard.press("Tab")  # the Doctrine that ignores a failure: no table has it
    page.keyboard.press("Space")
    assert page.locator(f"{D6} .rr-need-answer a").count() == 0
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    found = fewest_rerolls("90%", "4+")
    link = f"the {found.table} table's row {found.row}, column {found.column}"
    assert page.evaluate("document.activeElement.textContent") == link
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/{found.address}")
    p = found.probability
    assert _cell_shown(page, found) == [str(p.numerator), str(p.denominator)] == ["15", "16"]
    context.close()
