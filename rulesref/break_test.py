"""Break tests, Insane Courage, Steadfast and combat reforms: clauses BR-1 to BR-15.

Source: "Break?", a Warhammer-Fantasy-style rules page (2D6 Leadership). The site
restates each clause under its id; the code below implements each in one place.

```python
from rulesref.break_test import break_test_probability

print(break_test_probability(leadership=8, lost_by=3))  # High Elves, lost by 3
#> 5/18
```
"""

from collections.abc import Sequence
from dataclasses import dataclass

from rulesref.dice import probability_of_rolls, ways_at_most, with_rerolls
from rulesref.errors import (
    RulesError,
    checked_by,
    dice_roll,
    instance_of,
    member_of,
    readings_of,
    sequence_of,
    text,
    whole_number,
    word_of,
    yes_or_no,
)
from rulesref.exact import Rational
from rulesref.words import Word

__all__ = [
    "takes_break_test",
    "modified_leadership",
    "is_insane_courage",
    "break_test_probability",
    "Outcome",
    "BreakTestResult",
    "resolve_break_test",
    "ranks",
    "Unit",
    "Readings",
    "usable_ranks",
    "is_steadfast",
    "reform_test_probability",
    "CombatResult",
    "Facing",
    "reform_order",
    "Reform",
    "ReformPermission",
    "reform_permission",
    "Contact",
    "ReformCheck",
    "check_combat_reform",
]

MAX_LEADERSHIP = 10
MAX_LOST_BY = 100
MAX_MODELS = 1000
MAX_UNIT_STRENGTH = 5000
MAX_COMBAT_RESULT = 1000


def takes_break_test(combat_result: int, enemy_combat_result: int) -> bool:
    """BR-1, BR-C5: the side that lost the round (the lower combat result) takes a Break
    test.

    A draw is not a loss, so nobody tests (BR-C5).

    ```python
    from rulesref.break_test import takes_break_test

    print(takes_break_test(4, 7), takes_break_test(5, 5))
    #> True False
    ```
    """
    whole_number("combat_result", combat_result, 0, MAX_COMBAT_RESULT)
    whole_number("enemy_combat_result", enemy_combat_result, 0, MAX_COMBAT_RESULT)
    return combat_result < enemy_combat_result


def modified_leadership(leadership: int, lost_by: int, *, steadfast: bool = False) -> int:
    """BR-2, BR-6, BR-C6: Leadership less the amount the combat was lost by; Steadfast
    ignores it.

    The result is not clamped: it may fall below 2, even below 0 (BR-C6).

    ```python
    from rulesref.break_test import modified_leadership

    print(modified_leadership(8, 3), modified_leadership(7, 7, steadfast=True))
    #> 5 7
    ```
    """
    whole_number("leadership", leadership, 0, MAX_LEADERSHIP)
    whole_number("lost_by", lost_by, 0, MAX_LOST_BY)
    return leadership if yes_or_no("steadfast", steadfast) else leadership - lost_by


def is_insane_courage(dice: Sequence[int]) -> bool:
    """BR-5: a natural double 1 on the two dice of a Break test.

    ```python
    from rulesref.break_test import is_insane_courage

    print(is_insane_courage((1, 1)), is_insane_courage((1, 2)))
    #> True False
    ```
    """
    return tuple(dice_roll("dice", dice, 2)) == (1, 1)


def _stands_probability(target: int, *, insane_courage: bool) -> Rational:
    """Probability that 2D6 roll `target` or less (BR-3), or a double 1 if it counts (BR-5)."""
    ways = ways_at_most(target, dice=2)
    if insane_courage and target < 2:  # above 1 the double 1 already passes on its total
        ways += 1
    return probability_of_rolls.unchecked(ways, 36)  # one small gcd: no Rational re-normalises it


def break_test_probability(
    leadership: int,
    lost_by: int,
    *,
    steadfast: bool = False,
    insane_courage: bool = True,
    reroll: bool = False,
) -> Rational:
    """BR-3, BR-5: exact probability that a unit that lost a combat by `lost_by` stands
    (with BR-1 to BR-6).

    `reroll=True` is a variant that is **not** in "Break?": one re-roll of a failed test,
    as a Battle Standard grants in many army books.

    ```python
    from rulesref.break_test import break_test_probability

    print(break_test_probability(5, 10))  # only a double 1 saves
    #> 1/36
    print(break_test_probability(7, 7, steadfast=True))
    #> 7/12
    ```
    """
    target = modified_leadership(leadership, lost_by, steadfast=steadfast)
    stands = _stands_probability(target, insane_courage=yes_or_no("insane_courage", insane_courage))
    return with_rerolls(stands) if yes_or_no("reroll", reroll) else stands


class Outcome(Word):
    STANDS = "stands"
    FLEES = "flees"


@dataclass(frozen=True)
class BreakTestResult:
    """One Break test as rolled: its outcome, and the clause that decided it."""

    outcome: Outcome
    modified_leadership: int
    total: int
    clause: str
    reason: str


def resolve_break_test(
    leadership: int,
    lost_by: int,
    dice: Sequence[int],
    *,
    steadfast: bool = False,
    insane_courage: bool = True,
) -> BreakTestResult:
    """BR-3, BR-5: resolve one rolled Break test: stands or flees, and which clause decided it.

    ```python
    from rulesref.break_test import resolve_break_test

    result = resolve_break_test(8, 3, dice=(3, 4))  # High Elves
    print(result.outcome.value, result.clause, result.reason)
    #> flees BR-3 rolled 7, more than modified Leadership 5
    ```
    """
    target = modified_leadership(leadership, lost_by, steadfast=steadfast)
    total = sum(dice_roll("dice", dice, 2))
    yes_or_no("insane_courage", insane_courage)
    if total <= target:
        return BreakTestResult(
            Outcome.STANDS,
            target,
            total,
            "BR-3",
            f"rolled {total}, not more than modified Leadership {target}",
        )
    if insane_courage and is_insane_courage(dice):
        return BreakTestResult(
            Outcome.STANDS,
            target,
            total,
            "BR-5",
            f"double 1: Insane Courage passes whatever the modified Leadership ({target})",
        )
    return BreakTestResult(
        Outcome.FLEES,
        target,
        total,
        "BR-3",
        f"rolled {total}, more than modified Leadership {target}",
    )


def _models_and_width(models: int, width: int) -> None:
    whole_number("models", models, 1, MAX_MODELS)
    whole_number("width", width, 1, models)


@checked_by(_models_and_width)
def ranks(models: int, width: int) -> int:
    """BR-7: ranks that count for Steadfast: five or more models each, front rank included.

    The last rank may be incomplete if it still has five models.

    ```python
    from rulesref.break_test import ranks

    print(ranks(30, 6), ranks(12, 5), ranks(19, 5), ranks(12, 4))
    #> 5 2 3 0
    ```
    """
    if width < 5:
        return 0
    full, last = divmod(models, width)
    return full + (1 if last >= 5 else 0)


@dataclass(frozen=True)
class Unit:
    """A rank-and-file unit as Steadfast sees it: models in ranks `width` wide.

    `unit_strength` left out is one per model (`strength` gives it either way); it is
    never fewer than the models: each model counts at least 1.

    ```python
    from rulesref.break_test import Unit

    halberdiers = Unit(models=30, width=6)
    print(halberdiers.ranks, halberdiers.strength, Unit(20, 5, unit_strength=60).strength)
    #> 5 30 60
    ```
    """

    models: int
    width: int
    unit_strength: int | None = None
    disrupted: bool = False
    skirmisher: bool = False

    def __post_init__(self) -> None:
        whole_number("models", self.models, 1, MAX_MODELS)
        whole_number("width", self.width, 1, self.models)
        if self.unit_strength is not None:
            whole_number("unit_strength", self.unit_strength, self.models, MAX_UNIT_STRENGTH)
        yes_or_no("disrupted", self.disrupted)
        yes_or_no("skirmisher", self.skirmisher)

    @property
    def strength(self) -> int:
        """Its Unit Strength: `unit_strength`, or one per model if not given."""
        return self.models if self.unit_strength is None else self.unit_strength

    @property
    def ranks(self) -> int:
        """Ranks of five or more models (BR-7)."""
        return ranks.unchecked(self.models, self.width)


Units = Unit | Sequence[Unit]  # one side of a combat: a unit, or several fighting together


def _units(name: str, side: Units) -> tuple[Unit, ...]:
    return (side,) if isinstance(side, Unit) else sequence_of(name, side, Unit, low=1, high=100)


@dataclass(frozen=True)
class Readings:
    """The other readings of the Steadfast clarifications; the defaults are the site's.

    - `disrupted_uses_ranks` (BR-C1): a Disrupted unit still counts its ranks.
    - `floor_per_unit` (BR-C2): each unit of a side needs Unit Strength 10, not the side.
    - `enemy_skirmishers_use_ranks` (BR-C8): an enemy of Skirmishers counts its ranks.
    - `disrupted_side_needs_strength` (BR-C9): a side with a Disrupted unit in it is
      Steadfast only by the greater Unit Strength, never by its other units' ranks.

    ```python
    from rulesref.break_test import Readings

    each_unit = Readings(floor_per_unit=True)  # every other reading stays the site's
    print(each_unit.floor_per_unit, each_unit.disrupted_uses_ranks)
    #> True False
    ```
    """

    disrupted_uses_ranks: bool = False
    floor_per_unit: bool = False
    enemy_skirmishers_use_ranks: bool = False
    disrupted_side_needs_strength: bool = False

    def __post_init__(self) -> None:
        readings_of(self)


def _unit_and_readings(unit: Unit, *, readings: Readings = Readings()) -> None:
    instance_of("unit", unit, Unit, "a Unit")
    instance_of("readings", readings, Readings, "a break_test.Readings")


@checked_by(_unit_and_readings)
def usable_ranks(unit: Unit, *, readings: Readings = Readings()) -> int:
    """BR-9, BR-10, BR-C1: ranks a unit may use to claim Steadfast; Disrupted units and
    Skirmishers use only Unit Strength (BR-C1 offers the other reading for Disrupted).

    ```python
    from rulesref.break_test import Readings, Unit, usable_ranks

    goblins = Unit(models=20, width=5, disrupted=True)
    caption = Readings(disrupted_uses_ranks=True)
    print(goblins.ranks, usable_ranks(goblins), usable_ranks(goblins, readings=caption))
    #> 4 0 4
    ```
    """
    if unit.skirmisher or (unit.disrupted and not readings.disrupted_uses_ranks):
        return 0
    return unit.ranks


def is_steadfast(
    side: Units,
    enemy: Units,
    *,
    readings: Readings = Readings(),
) -> bool:
    """BR-6, BR-8, BR-C2, BR-C4, BR-C7, BR-C8, BR-C9: whether a defeated side (one unit or
    several) is Steadfast, its ranks counted by `usable_ranks`.

    The side needs Unit Strength 10 or more (BR-C2: in total; the reading
    `floor_per_unit` asks it of each unit) and either more ranks or more Unit Strength
    than the enemy (BR-8: all units summed on both sides). The enemy counts its ranks of
    five or more models even when it is Disrupted (BR-C4); an enemy of Skirmishers has no
    ranks, only Unit Strength (BR-C8: `enemy_skirmishers_use_ranks` is the other reading).
    A Disrupted unit shares the side's verdict, so its companions' ranks carry it (BR-C9:
    `disrupted_side_needs_strength` is the other reading).

    ```python
    from rulesref.break_test import Unit, is_steadfast

    halberdiers = Unit(models=30, width=6)
    bloodletters = Unit(models=12, width=5)
    print(is_steadfast(halberdiers, bloodletters))
    #> True
    ```
    """
    ours, theirs = _units("side", side), _units("enemy", enemy)
    instance_of("readings", readings, Readings, "a break_test.Readings")
    strength = sum(unit.strength for unit in ours)
    if readings.floor_per_unit:
        enough = all(unit.strength >= 10 for unit in ours)
    else:
        enough = strength >= 10
    our_ranks = sum(usable_ranks.unchecked(unit, readings=readings) for unit in ours)
    their_ranks = sum(
        unit.ranks for unit in theirs if readings.enemy_skirmishers_use_ranks or not unit.skirmisher
    )
    # BR-C9's other reading: a Disrupted unit denies the whole side the ranks (BR-8: all or none)
    ranks_count = not (
        readings.disrupted_side_needs_strength
        and not readings.disrupted_uses_ranks
        and any(unit.disrupted for unit in ours)
    )
    more_ranks = ranks_count and our_ranks > their_ranks
    more_strength = strength > sum(unit.strength for unit in theirs)
    return enough and (more_ranks or more_strength)


def reform_test_probability(
    leadership: int,
    lost_by: int,
    *,
    steadfast: bool = False,
    unbreakable: bool = False,
    insane_courage: bool = False,
) -> Rational:
    """BR-4, BR-15, BR-C3: probability that a defeated unit that stood passes its
    combat-reform test.

    The test takes the Break test's modifier (BR-4) unless the unit is Steadfast or
    Unbreakable. Insane Courage is off by default: the source grants it to Break tests
    only (BR-C3).

    ```python
    from rulesref.break_test import reform_test_probability

    print(reform_test_probability(8, 3), reform_test_probability(8, 3, unbreakable=True))
    #> 5/18 13/18
    ```
    """
    yes_or_no("unbreakable", unbreakable)
    target = modified_leadership(leadership, lost_by, steadfast=steadfast or unbreakable)
    return _stands_probability(target, insane_courage=yes_or_no("insane_courage", insane_courage))


# Combat reforms (BR-11 to BR-14) on a small abstract model: sides are named by
# strings, facings by name, and base contacts by the models that touch.


class CombatResult(Word):
    """How a round of combat ended for one side."""

    WON = "won"
    LOST = "lost"
    DRAW = "draw"


class Facing(Word):
    """The four facings of a unit, where an enemy may touch it."""

    FRONT = "front"
    LEFT_FLANK = "left flank"
    RIGHT_FLANK = "right flank"
    REAR = "rear"


def reform_order(
    wanting: Sequence[str], *, loser: str | None = None, chosen_first: str | None = None
) -> tuple[str, ...]:
    """BR-11: the order in which the sides that want to combat reform do so.

    After a decided combat the `loser` reforms first. After a draw the sides roll off
    and the winner of the roll-off chooses who goes first: `chosen_first`.

    ```python
    from rulesref.break_test import reform_order

    print(reform_order(["Elves", "Orcs"], loser="Orcs"))
    #> ('Orcs', 'Elves')
    print(reform_order(["Elves", "Orcs"], chosen_first="Elves"))
    #> ('Elves', 'Orcs')
    ```
    """
    sides = sequence_of("wanting", wanting, str, high=2)
    for index, side in enumerate(sides):
        text(f"wanting[{index}]", side)
    if len(set(sides)) != len(sides):
        raise RulesError(f"wanting must name each side once, got {sides!r}")
    if loser is not None and chosen_first is not None:
        raise RulesError(
            "loser and chosen_first must not both be given (a combat is lost or drawn), "
            f"got {loser!r} and {chosen_first!r}"
        )
    name = "loser" if loser is not None else "chosen_first"
    first = loser if loser is not None else chosen_first
    if first is not None:
        text(name, first)
    if len(sides) < 2:  # nobody to order; the loser may be a side that does not reform
        return sides
    if first not in sides:
        allowed = "one of the two sides" + ("" if loser is not None else " (after a draw)")
        raise RulesError(f"{name} must be {allowed} {sides!r}, got {first!r}")
    return (first, *(side for side in sides if side != first))


class Reform(Word):
    AT_ONCE = "may combat reform at once"
    AFTER_TEST = "may combat reform after passing a Leadership test"
    NOT_ALLOWED = "may not combat reform"


@dataclass(frozen=True)
class ReformPermission:
    """Whether a unit may combat reform, and the clause that says so."""

    outcome: Reform
    clause: str
    reason: str


def reform_permission(
    result: CombatResult | str,
    *,
    fled: bool = False,
    enemy_fled: bool = False,
    engaged_facings: int = 1,
) -> ReformPermission:
    """BR-12, BR-13, BR-15: may a unit combat reform after a round of combat it `won`,
    `lost` or drew (`draw`)?

    ```python
    from rulesref.break_test import reform_permission

    print(reform_permission("lost").outcome)
    #> may combat reform after passing a Leadership test
    print(reform_permission("won", engaged_facings=2).clause)
    #> BR-12
    ```
    """
    result = word_of("result", result, CombatResult)
    whole_number("engaged_facings", engaged_facings, 1, len(Facing))
    if yes_or_no("fled", fled) and result is not CombatResult.LOST:
        raise RulesError(f"fled must be False for a unit that {result} (only a loser flees)")
    if yes_or_no("enemy_fled", enemy_fled) and result is not CombatResult.WON:
        raise RulesError(f"enemy_fled must be False for a unit that {result} (only a loser flees)")
    if fled:  # only a loser flees (refused above)
        return ReformPermission(Reform.NOT_ALLOWED, "BR-15", "a unit that fled cannot reform")
    if engaged_facings > 1:
        return ReformPermission(
            Reform.NOT_ALLOWED, "BR-12", f"engaged on {engaged_facings} facings, not one"
        )
    if result is CombatResult.LOST:
        return ReformPermission(
            Reform.AFTER_TEST, "BR-15", "lost but stood: a Leadership test first"
        )
    if result is CombatResult.WON and enemy_fled:
        return ReformPermission(Reform.NOT_ALLOWED, "BR-13", "won, but the enemy fled")
    return ReformPermission(Reform.AT_ONCE, "BR-13", f"{result} and the enemy still fights")


@dataclass(frozen=True)
class Contact:
    """One base contact: our `model` touches `enemy_model`, on a facing of `enemy_unit`
    (a facing written as text is read by `Facing("front")`)."""

    model: str
    enemy_model: str
    enemy_unit: str
    facing: Facing

    def __post_init__(self) -> None:
        text("model", self.model)
        text("enemy_model", self.enemy_model)
        text("enemy_unit", self.enemy_unit)
        member_of("facing", self.facing, Facing)


@dataclass(frozen=True)
class ReformCheck:
    legal: bool
    clause: str
    reason: str


def check_combat_reform(before: Sequence[Contact], after: Sequence[Contact]) -> ReformCheck:
    """BR-14: whether a proposed combat reform keeps to its two restrictions.

    Every model, ours or the enemy's, in base contact before must still be in contact
    after; no enemy unit already touched may be touched on a new facing. Touching a
    new enemy unit on any facing is allowed. (The reform's centre may move: positions
    are not modelled, only the contacts they produce.)

    ```python
    from rulesref.break_test import Contact, Facing, check_combat_reform

    before = [Contact("champion", "knight 1", "Knights", Facing.LEFT_FLANK)]
    turned = [Contact("champion", "knight 1", "Knights", Facing.FRONT)]
    print(check_combat_reform(before, turned).reason)
    #> would touch Knights on a new facing: front
    ```
    """
    before = sequence_of("before", before, Contact, high=MAX_MODELS)
    after = sequence_of("after", after, Contact, high=MAX_MODELS)

    def in_contact(contacts: Sequence[Contact]) -> set[tuple[str, ...]]:
        # ours by name, theirs by unit and name: a name may recur on the other side
        return {("ours", c.model) for c in contacts} | {
            ("theirs", c.enemy_unit, c.enemy_model) for c in contacts
        }

    lost = sorted({model[-1] for model in in_contact(before) - in_contact(after)})
    if lost:
        return ReformCheck(False, "BR-14", f"would take out of base contact: {', '.join(lost)}")
    for unit in sorted({c.enemy_unit for c in before}):
        old = {c.facing for c in before if c.enemy_unit == unit}
        new = {c.facing for c in after if c.enemy_unit == unit} - old
        if new:
            return ReformCheck(
                False, "BR-14", f"would touch {unit} on a new facing: {', '.join(sorted(new))}"
            )
    return ReformCheck(True, "BR-14", "every contact kept, no new facing on a touched enemy")
