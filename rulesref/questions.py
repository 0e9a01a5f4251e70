"""The questions players ask of the odds: two set-ups side by side, what it takes to reach
a chance, and a distribution read as "at least", "at most" or "exactly".

Every answer comes from the rules' own probability functions; nothing here re-states a
rule.

```python
from rulesref.questions import BreakSetup, compare, least_leadership

with_reroll = BreakSetup(leadership=8, lost_by=3, reroll=True)
one_better = BreakSetup(leadership=9, lost_by=3)
print(compare(with_reroll, one_better))
#> A: 155/324 (47.8%), B: 5/12 (41.7%), A - B: 5/81 (+6.2 points)
print(least_leadership("1/2", lost_by=3))
#> leadership 10: 7/12 (58.3%), the break-test table's row 10, column 3
```
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from rulesref.break_test import (
    MAX_LEADERSHIP,
    MAX_LOST_BY,
    break_test_probability,
    reform_test_probability,
)
from rulesref.dice import MAX_DICE, probability_of, total_counts
from rulesref.errors import (
    RulesError,
    instance_of,
    probability,
    whole_number,
    word_of,
    yes_or_no,
)
from rulesref.exact import Rational, parse_exact
from rulesref.leadership import MAX_REROLLS, leadership_target, leadership_test_probability
from rulesref.tables import LEADERSHIP, LOST_BY, REROLLS, TARGETS
from rulesref.views import percent, points
from rulesref.words import Word

__all__ = [
    "BreakSetup",
    "ReformSetup",
    "LeadershipSetup",
    "Setup",
    "Comparison",
    "compare",
    "bar",
    "Needed",
    "least_leadership",
    "most_lost_by",
    "fewest_rerolls",
    "break_table",
    "leadership_table",
    "TABLE_ADDRESSES",
    "View",
    "viewed",
    "greatest_margin_odds",
    "holding_roll_odds",
    "totals_odds",
]


@dataclass(frozen=True)
class BreakSetup:
    """A Break test as `break_test_probability` takes it (BR-1 to BR-6)."""

    leadership: int
    lost_by: int
    steadfast: bool = False
    insane_courage: bool = True
    reroll: bool = False

    def probability(self) -> Rational:
        return break_test_probability(
            self.leadership,
            self.lost_by,
            steadfast=self.steadfast,
            insane_courage=self.insane_courage,
            reroll=self.reroll,
        )


@dataclass(frozen=True)
class ReformSetup:
    """A reform test after a defeat as `reform_test_probability` takes it (BR-15)."""

    leadership: int
    lost_by: int
    steadfast: bool = False
    unbreakable: bool = False
    insane_courage: bool = False

    def probability(self) -> Rational:
        return reform_test_probability(
            self.leadership,
            self.lost_by,
            steadfast=self.steadfast,
            unbreakable=self.unbreakable,
            insane_courage=self.insane_courage,
        )


@dataclass(frozen=True)
class LeadershipSetup:
    """A d6 Leadership test as `leadership_test_probability` takes it (LD-1, LD-7)."""

    target: int | str
    rerolls: int = 0
    ignore: bool = False

    def probability(self) -> Rational:
        return leadership_test_probability(self.target, rerolls=self.rerolls, ignore=self.ignore)


Setup = BreakSetup | ReformSetup | LeadershipSetup


@dataclass(frozen=True)
class Comparison:
    """Two set-ups side by side: the chance each passes, and by how much A's beats B's
    (`difference`, negative where B is the better)."""

    a: Rational
    b: Rational

    @property
    def difference(self) -> Rational:
        return self.a - self.b

    def points(self) -> str:
        """The difference in percentage points, to one decimal, with its sign
        (`rulesref.views.points`): a difference that is not nought never reads as nought."""
        return points(self.difference)

    def __str__(self) -> str:
        return (
            f"A: {self.a} ({percent(self.a)}), B: {self.b} ({percent(self.b)}), "
            f"A - B: {self.difference} ({self.points()})"
        )


def compare(a: Setup, b: Setup) -> Comparison:
    """Set-ups `a` and `b` side by side, each answered by its own rule's function.

    ```python
    from rulesref.questions import LeadershipSetup, compare

    print(compare(LeadershipSetup("4+", rerolls=1), LeadershipSetup("3+")).difference)
    #> 1/12
    ```
    """
    for name, setup in (("a", a), ("b", b)):
        if not isinstance(setup, BreakSetup | ReformSetup | LeadershipSetup):
            raise RulesError(
                f"{name} must be a BreakSetup, ReformSetup or LeadershipSetup, got {setup!r}"
            )
    return Comparison(a.probability(), b.probability())


def bar(value: object) -> Rational:
    """A chance to reach, exactly: a Rational, or text written as a percentage (`"90%"`,
    `"47.5%"`), a decimal (`"0.9"`) or a fraction (`"9/10"`), from 0 to 1.

    ```python
    from rulesref.questions import bar

    print(bar("90%"), bar("0.475"), bar("2/3"))
    #> 9/10 19/40 2/3
    ```
    """
    if not isinstance(value, str):
        return probability("at_least", value)
    if len(value) > MAX_BAR_TEXT:
        allowed = f"a chance from 0 to 1 written in at most {MAX_BAR_TEXT} characters"
        raise RulesError(
            parameter="at_least", value=value, allowed=allowed, got=f"{len(value):,} characters"
        )
    written = value.strip(" ")
    percentage = written.endswith("%")  # of a decimal (47.5%), not of a fraction
    exact = None if percentage and "/" in written else parse_exact(written.removesuffix("%"))
    if exact is not None and percentage:
        exact /= 100
    if exact is None or exact > 1:
        allowed = "a chance from 0 to 1, written 90%, 0.9 or 9/10"
        raise RulesError(parameter="at_least", value=value, allowed=allowed)
    return exact


MAX_BAR_TEXT = 20  # "47.5%", "0.123456789": a bar is short; a long one is no bar


@dataclass(frozen=True)
class Needed:
    """What it takes to reach a chance: the `value` of `parameter` and its exact
    `probability`; `table`, `row` and `column` name the cell of the site's table that
    holds it (`table` is None when no table of the site has the cell), and `address`
    where that table is on the site."""

    parameter: str
    value: int
    probability: Rational
    table: str | None
    row: int
    column: int

    @property
    def address(self) -> str | None:
        return None if self.table is None else TABLE_ADDRESSES[self.table]

    def __str__(self) -> str:
        where = f", the {self.table} table's row {self.row}, column {self.column}"
        found = f"{self.parameter.replace('_', ' ')} {self.value}"
        return (
            f"{found}: {self.probability} ({percent(self.probability)}){where * bool(self.table)}"
        )


def _first_meeting(values: range, meets: Callable[[int], bool]) -> int | None:
    """The first of `values` that meets the bar, when every value after one that meets it
    meets it too: a binary search, a handful of exact probabilities at most."""
    low, high = 0, len(values)
    while low < high:
        middle = (low + high) // 2
        if meets(values[middle]):
            high = middle
        else:
            low = middle + 1
    return values[low] if low < len(values) else None


def break_table(
    *, steadfast: bool = False, insane_courage: bool = True, reroll: bool = False
) -> str | None:
    """The name of the site's table of Break tests taken with these options, if one has
    them (no table has Steadfast units, nor re-rolls without Insane Courage).

    ```python
    from rulesref.questions import TABLE_ADDRESSES, break_table

    print(break_table(reroll=True), TABLE_ADDRESSES[break_table(reroll=True)])
    #> break-test-reroll odds/break-test/#the-re-roll-variant-not-in-break
    ```
    """
    if steadfast or (reroll and not insane_courage):
        return None
    return "break-test" + "-no-insane-courage" * (not insane_courage) + "-reroll" * reroll


def leadership_table(*, ignore: bool = False) -> str | None:
    """The name of the site's table of d6 Leadership tests with these options, if one has
    them (a Doctrine that ignores a failure always holds: no table)."""
    return None if ignore else "leadership-test"


TABLE_ADDRESSES = {
    "break-test": "odds/break-test/#percentages",
    "break-test-no-insane-courage": "odds/break-test/#without-insane-courage",
    "break-test-reroll": "odds/break-test/#the-re-roll-variant-not-in-break",
    "leadership-test": "odds/leadership-test/#percentages",
}
"""Where each table that a `Needed` can name is on the site, from its root: its odds page
and the anchor that opens it (a tab's anchor opens that tab)."""


def _break_table(setup: BreakSetup) -> str | None:
    """The site's table that holds the Break test of `setup`, if one does."""
    if setup.leadership not in LEADERSHIP or setup.lost_by not in LOST_BY:
        return None
    return break_table(
        steadfast=setup.steadfast, insane_courage=setup.insane_courage, reroll=setup.reroll
    )


def _needed_break(parameter: str, setup: BreakSetup) -> Needed:
    return Needed(
        parameter,
        getattr(setup, parameter),
        setup.probability(),
        _break_table(setup),
        setup.leadership,
        setup.lost_by,
    )


def least_leadership(
    at_least: object,
    lost_by: int,
    *,
    steadfast: bool = False,
    insane_courage: bool = True,
    reroll: bool = False,
) -> Needed | None:
    """The least Leadership (0 to 10) that stands a Break test lost by `lost_by` with a
    chance of `at_least` or more (BR-3); None if even Leadership 10 falls short.

    ```python
    from rulesref.questions import least_leadership

    print(least_leadership("90%", lost_by=0, reroll=True))
    #> leadership 8: 299/324 (92.3%), the break-test-reroll table's row 8, column 0
    print(least_leadership("90%", lost_by=3))
    #> None
    ```
    """
    goal = bar(at_least)
    whole_number("lost_by", lost_by, 0, MAX_LOST_BY)

    def setup(leadership: int) -> BreakSetup:
        return BreakSetup(leadership, lost_by, steadfast, insane_courage, reroll)

    # the chance grows with the Leadership (BR-3)
    found = _first_meeting(range(MAX_LEADERSHIP + 1), lambda ld: setup(ld).probability() >= goal)
    return None if found is None else _needed_break("leadership", setup(found))


def most_lost_by(
    at_least: object,
    leadership: int,
    *,
    steadfast: bool = False,
    insane_courage: bool = True,
    reroll: bool = False,
) -> Needed | None:
    """The greatest margin of defeat (0 to 100) that a unit of `leadership` still stands
    with a chance of `at_least` or more (BR-2, BR-3); None if even losing by 0 falls
    short. A Steadfast unit (BR-6) and Insane Courage's 1/36 (BR-5) can make every
    margin up to 100 qualify.

    ```python
    from rulesref.questions import most_lost_by

    print(most_lost_by("1/2", leadership=9))
    #> lost by 2: 7/12 (58.3%), the break-test table's row 9, column 2
    ```
    """
    goal = bar(at_least)
    whole_number("leadership", leadership, 0, MAX_LEADERSHIP)

    def setup(lost_by: int) -> BreakSetup:
        return BreakSetup(leadership, lost_by, steadfast, insane_courage, reroll)

    # the chance falls as the margin grows (BR-2): the first margin that falls short,
    # less one, is the answer
    margins = range(MAX_LOST_BY + 1)
    short = _first_meeting(margins, lambda by: setup(by).probability() < goal)
    most = MAX_LOST_BY if short is None else short - 1
    return None if most < 0 else _needed_break("lost_by", setup(most))


def fewest_rerolls(at_least: object, target: int | str, *, ignore: bool = False) -> Needed | None:
    """The fewest re-rolls (0 to 10) with which a d6 Leadership test of `target` holds with
    a chance of `at_least` or more (LD-1, LD-7); None if even ten fall short.

    ```python
    from rulesref.questions import fewest_rerolls

    print(fewest_rerolls("90%", "4+"))
    #> rerolls 3: 15/16 (93.8%), the leadership-test table's row 4, column 3
    ```
    """
    goal = bar(at_least)
    written = leadership_target(target)
    yes_or_no("ignore", ignore)

    def probability(rerolls: int) -> Rational:
        return leadership_test_probability(written, rerolls=rerolls, ignore=ignore)

    # each re-roll only adds to the chance (LD-7)
    found = _first_meeting(range(MAX_REROLLS + 1), lambda n: probability(n) >= goal)
    if found is None:
        return None
    in_table = written in TARGETS and found in REROLLS
    table = leadership_table(ignore=ignore) if in_table else None
    return Needed("rerolls", found, probability(found), table, written, found)


class View(Word):
    """How a distribution over whole numbers is read: each outcome's own chance, or the
    chance of that outcome or more, or of that outcome or less."""

    EXACTLY = "exactly"
    AT_LEAST = "at least"
    AT_MOST = "at most"


def viewed(odds: Mapping[int, Rational], view: View | str) -> dict[int, Rational]:
    """`odds` over whole-number outcomes (hits, a total) read as `view`, in outcome order.

    ```python
    from rulesref.questions import totals_odds, viewed

    two_dice = totals_odds(2)
    print(viewed(two_dice, "at most")[5], viewed(two_dice, "at least")[10])
    #> 5/18 1/6
    ```
    """
    how = word_of("view", view, View)
    allowed = "a mapping of whole-number outcomes to Rationals from 0 to 1, adding up to at most 1"
    instance_of("odds", odds, Mapping, allowed)
    outcomes = sorted(odds) if all(type(k) is int for k in odds) else None
    if outcomes is None:
        raise RulesError(parameter="odds", value=odds, allowed=allowed)
    # the package's Rationals, whatever exact type came; one running sum is every view,
    # and its end is the total the odds must not pass
    exactly = {k: probability(f"odds[{k}]", odds[k]) for k in outcomes}
    running, at_most = Rational(0), {}
    for k in outcomes:
        running += exactly[k]
        at_most[k] = running
    if running > 1:
        raise RulesError(parameter="odds", value=odds, allowed=allowed)
    if how is View.EXACTLY:
        return exactly
    if how is View.AT_MOST:
        return at_most
    return {k: running - at_most[k] + exactly[k] for k in outcomes}


def greatest_margin_odds(setup: BreakSetup | ReformSetup) -> dict[int, Rational]:
    """The greatest margin of defeat that the dice of `setup` stand (its `lost_by` aside):
    -1 when they fail even a draw, `MAX_LOST_BY` for that margin or more. Read "at least",
    it is the chance to stand at each margin (BR-2, BR-3); the calculators' charts by margin
    show each view of it.

    ```python
    from rulesref.questions import BreakSetup, greatest_margin_odds, viewed

    margins = greatest_margin_odds(BreakSetup(leadership=8, lost_by=0))
    print(viewed(margins, "at least")[3], margins[3], viewed(margins, "at most")[3])
    #> 5/18 1/9 5/6
    ```
    """
    instance_of("setup", setup, (BreakSetup, ReformSetup), "a BreakSetup or ReformSetup")
    stands = [replace(setup, lost_by=by).probability() for by in range(MAX_LOST_BY + 1)]
    beyond = [*stands[1:], Rational(0)]  # the greatest margin lumps every one past it
    exactly = (stand - further for stand, further in zip(stands, beyond, strict=True))
    return {-1: 1 - stands[0], **dict(enumerate(exactly))}


def holding_roll_odds(setup: LeadershipSetup) -> dict[int, Rational]:
    """The roll after which a d6 Leadership test of `setup` holds: 0 the first, `n` its
    n-th re-roll (up to `setup.rerolls`), `setup.rerolls + 1` when it never holds. Read
    "at most", it is the chance to hold with each number of re-rolls (LD-1, LD-7, LD-C6).

    ```python
    from rulesref.questions import LeadershipSetup, holding_roll_odds, viewed

    rolls = holding_roll_odds(LeadershipSetup("4+", rerolls=3))
    print(rolls[1], viewed(rolls, "at most")[1], viewed(rolls, "at least")[2])
    #> 1/4 3/4 1/4
    ```
    """
    instance_of("setup", setup, LeadershipSetup, "a LeadershipSetup")
    whole_number("rerolls", setup.rerolls, 0, MAX_REROLLS)
    holds = [replace(setup, rerolls=n).probability() for n in range(setup.rerolls + 1)]
    before = [Rational(0), *holds[:-1]]  # nothing holds before the first roll
    exactly = (hold - earlier for hold, earlier in zip(holds, before, strict=True))
    return {**dict(enumerate(exactly)), setup.rerolls + 1: 1 - holds[-1]}


MAX_TOTAL_DICE = 100  # 501 totals at most: an answer a person can read through


def totals_odds(dice: int) -> dict[int, Rational]:
    """The chance of each total of `dice` d6 (1 to 100 dice).

    ```python
    from rulesref.questions import totals_odds

    print(totals_odds(2)[7], len(totals_odds(3)))
    #> 1/6 16
    ```
    """
    whole_number("dice", dice, 1, min(MAX_TOTAL_DICE, MAX_DICE))
    counts = total_counts(dice)
    return {total: probability_of(counts[total], dice=dice) for total in range(dice, 6 * dice + 1)}
