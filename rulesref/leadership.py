"""Leadership tests, and the Break tests of units, commands and the force: LD-1 to LD-12.

Source: "Leadership Tests", a d6 house-rules page (`000_180018a333809db2.txt`). The site
restates each clause under its id; the code below implements each in one place.
Clarifications LD-C1 to LD-C10 settle what the document leaves open; where one admits
two readings, `Readings` picks one. The exact odds of a whole end of phase are computed by
`rulesref.odds.cascade`.

```python
from rulesref.leadership import leadership_test_probability

print(leadership_test_probability("4+"), leadership_test_probability(4, rerolls=1))
#> 1/2 3/4
```
"""

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from rulesref.dice import probability_of_rolls
from rulesref.errors import (
    RulesError,
    checked_by,
    instance_of,
    readings_of,
    sequence_of,
    settle,
    text,
    whole_number,
    word_of,
    yes_or_no,
)
from rulesref.exact import Rational
from rulesref.words import Word

__all__ = [
    "Level",
    "Readings",
    "leadership_target",
    "leadership_test_probability",
    "best_leadership",
    "below_half",
    "losses_to_fall_below_half",
    "break_test_trigger",
    "must_take_break_test",
    "command_must_test",
    "force_must_test",
    "Doctrine",
    "NO_DOCTRINE",
    "rolls_of_a_test",
    "failing_rolls",
    "Unit",
    "Leader",
    "Command",
    "Force",
    "models_left",
    "preferred_figures",
    "Claim",
    "figure_claim",
    "unit_claim",
    "independent_claim",
    "unit_target",
    "Test",
    "Removal",
    "PhaseResult",
    "Phase",
    "Standing",
    "unit_tests",
    "command_test",
    "force_test",
    "resolve_phase",
]

MAX_REROLLS = 10
MAX_MODELS = 100_000
MAX_RANK = 100
MAX_UNITS = 4000  # in a command, and in the whole force
# The Break tests of units one phase may hold for the exact cascade, in the whole force
# (a command may hold them all): with hundreds of commands each led by a figure of its own
# rank and ten re-rolls everywhere, it answers in about a second; forces built to be slow
# (hundreds of leaders riding in units) take up to about ten (benchmarks/cascade.py).
MAX_CASCADE_TESTS = 1000
WRITTEN = re.compile(r"([2-6])\+")


class Level(Word):
    """LD-4: the three levels of the chain of command that take Break tests, bottom-up."""

    UNIT = "unit"
    COMMAND = "command"
    FORCE = "force"


@dataclass(frozen=True)
class Readings:
    """How the clarifications that admit two readings are read; the defaults are the site's.

    - `removed_figures_survive` (LD-C5): a figure in a unit that left the table still counts
      as a surviving figure for LD-3 (default: no, he left with his unit).

    ```python
    from rulesref.leadership import Readings

    print(Readings().removed_figures_survive, Readings(removed_figures_survive=True))
    #> False Readings(removed_figures_survive=True)
    ```
    """

    removed_figures_survive: bool = False

    def __post_init__(self) -> None:
        readings_of(self)


def leadership_target(value: object, name: str = "target") -> int:
    """LD-1: a Leadership as the number one d6 must equal or beat: 2 to 6, or written "4+".

    ```python
    from rulesref.leadership import leadership_target

    print(leadership_target("5+"), leadership_target(3))
    #> 5 3
    ```
    """
    if isinstance(value, str):
        match = WRITTEN.fullmatch(value.strip(" "))  # spaces only: never a newline
        if match:
            return int(match[1])
    elif isinstance(value, int) and not isinstance(value, bool) and 2 <= value <= 6:
        return value
    allowed = "a Leadership from 2+ to 6+ (2 to 6, or '4+')"
    raise RulesError(parameter=name, value=value, allowed=allowed)


def _target(name: str, value: object) -> int:
    """A record's Leadership: the target, a whole number 2 to 6 (text is read where it
    comes in, by `leadership_target`)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 6:
        allowed = 'a target from 2 to 6 (read "4+" by leadership_target, a list by best_leadership)'
        raise RulesError(parameter=name, value=value, allowed=allowed)
    return value


def leadership_test_probability(
    target: int | str, *, rerolls: int = 0, ignore: bool = False
) -> Rational:
    """LD-1, LD-7, LD-C6: exact probability that a Leadership test holds: one d6 at or
    above `target`, re-rolled up to `rerolls` times while it fails; `ignore=True` is a
    Doctrine that ignores a failure, so the test always holds (after any re-rolls).

    ```python
    from rulesref.leadership import leadership_test_probability

    print(leadership_test_probability(5), leadership_test_probability(5, rerolls=2))
    #> 1/3 19/27
    ```
    """
    target = leadership_target(target)
    doctrine = Doctrine(
        whole_number("rerolls", rerolls, 0, MAX_REROLLS), yes_or_no("ignore", ignore)
    )
    fail, out_of = failing_rolls.unchecked(target, doctrine)
    # d6 rolls: no Rational re-normalises it
    return probability_of_rolls.unchecked(out_of - fail, out_of)


def best_leadership(values: Sequence[int | str]) -> int:
    """LD-2 (LD-C1): a unit tests on its best Leadership, the easiest target; 2+ is best.

    ```python
    from rulesref.leadership import best_leadership

    print(best_leadership(["5+", "5+", "4+"]))  # three riflemen and a sergeant on 4+
    #> 4
    ```
    """
    if isinstance(values, str | bytes) or not isinstance(values, Sequence) or not values:
        allowed = "one Leadership or a non-empty list"
        raise RulesError(parameter="leadership", value=values, allowed=allowed)
    return min(leadership_target(value, "leadership") for value in values)


def _counts(start: int, before: int, after: int) -> None:
    """Counts of models (or units) at the start, before this phase and after it."""
    whole_number("start", start, 1, MAX_MODELS)
    whole_number("before", before, 0, start)
    whole_number("after", after, 0, before)


@checked_by(_counts)
def below_half(start: int, before: int, after: int) -> bool:
    """LD-6, LD-C2, LD-C7: below half of `start` at the end of a phase, having lost some
    of `before` this phase (strictly below half; none left is gone, not tested). Counts
    of models for a unit, of units for a command or the force: the test of LD-5, LD-6,
    LD-9 and LD-11.

    ```python
    from rulesref.leadership import below_half

    print(below_half(10, 6, 4), below_half(10, 6, 5), below_half(10, 4, 4), below_half(10, 4, 0))
    #> True False False False
    ```
    """
    return 0 < after < before and 2 * after < start


def _start_and_before(start: int, before: int) -> None:
    whole_number("start", start, 1, MAX_MODELS)
    whole_number("before", before, 0, start)


@checked_by(_start_and_before)
def losses_to_fall_below_half(start: int, before: int) -> int:
    """LD-11, LD-C2: the fewest of `before` that must be lost this phase for `below_half`
    (one at least: a phase with no loss calls no test), if one is left; all of them if
    no smaller loss will do.

    ```python
    from rulesref.leadership import losses_to_fall_below_half

    print(losses_to_fall_below_half(8, 8), losses_to_fall_below_half(8, 3))
    #> 5 1
    ```
    """
    # asked once for a whole force, so a search keeps the rule in `below_half` alone
    fall = (n for n in range(1, before) if below_half.unchecked(start, before, before - n))
    return next(fall, before)


def _unit_counts(start_units: int, before_units: int, after_units: int) -> None:
    """Counts of units, checked under their own names."""
    whole_number("start_units", start_units, 1, MAX_MODELS)
    whole_number("before_units", before_units, 0, start_units)
    whole_number("after_units", after_units, 0, before_units)


@checked_by(_counts)
def break_test_trigger(start: int, before: int, after: int) -> str | None:
    """LD-5, LD-6: the clause that makes a unit of `start` models test this phase, if any.

    `before` and `after` are its models before and after this phase's casualties.
    A unit with no model left is destroyed, not tested (LD-C7).

    ```python
    from rulesref.leadership import break_test_trigger

    print(break_test_trigger(10, 10, 4), break_test_trigger(10, 4, 3), break_test_trigger(10, 8, 5))
    #> LD-5 LD-6 None
    ```
    """
    if not below_half.unchecked(start, before, after):
        return None
    return "LD-5" if 2 * before >= start else "LD-6"


def must_take_break_test(start: int, before: int, after: int) -> bool:
    """LD-5, LD-6: whether a unit of `start` models that went from `before` to `after`
    models this phase takes a Break test at its end.

    ```python
    from rulesref.leadership import must_take_break_test

    print(must_take_break_test(10, 7, 4), must_take_break_test(10, 4, 3))  # LD-5, LD-6
    #> True True
    print(must_take_break_test(10, 10, 5), must_take_break_test(10, 4, 4))
    #> False False
    ```
    """
    return break_test_trigger(start, before, after) is not None


@checked_by(_unit_counts)
def command_must_test(start_units: int, before_units: int, after_units: int) -> bool:
    """LD-9: whether a command takes a Break test, counting its units (never an independent
    single-model leader, who is a `Leader`, not a `Unit`).

    ```python
    from rulesref.leadership import command_must_test

    print(command_must_test(4, 4, 1), command_must_test(4, 2, 2), command_must_test(4, 4, 2))
    #> True False False
    ```
    """
    return below_half.unchecked(start_units, before_units, after_units)


@checked_by(_unit_counts)
def force_must_test(start_units: int, before_units: int, after_units: int) -> bool:
    """LD-11: the same 50% rule over all the units of the force.

    ```python
    from rulesref.leadership import force_must_test

    print(force_must_test(8, 6, 3), force_must_test(8, 6, 4))
    #> True False
    ```
    """
    return below_half.unchecked(start_units, before_units, after_units)


@dataclass(frozen=True)
class Doctrine:
    """LD-7: a Doctrine may re-roll a failed test `rerolls` times, or ignore a failure."""

    rerolls: int = 0
    ignores: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        whole_number("rerolls", self.rerolls, 0, MAX_REROLLS)
        yes_or_no("ignores", self.ignores)
        text("doctrine name", self.name, empty=True)

    def hold_probability(self, target: int | str) -> Rational:
        """The probability that a test on `target` holds with this Doctrine."""
        return leadership_test_probability(target, rerolls=self.rerolls, ignore=self.ignores)


NO_DOCTRINE = Doctrine()


def _a_doctrine(doctrine: Doctrine) -> None:
    instance_of("doctrine", doctrine, Doctrine, "a Doctrine")


@checked_by(_a_doctrine)
def rolls_of_a_test(doctrine: Doctrine) -> int:
    """LD-7: the equally likely rolls of one test: its d6, and one more d6 for each re-roll
    the Doctrine allows (a die not needed after a pass is counted as rolled all the same).

    ```python
    from rulesref.leadership import Doctrine, rolls_of_a_test

    print(rolls_of_a_test(Doctrine()), rolls_of_a_test(Doctrine(rerolls=2)))
    #> 6 216
    ```
    """
    rolls: int = 6 ** (doctrine.rerolls + 1)
    return rolls


def _target_and_doctrine(target: int, doctrine: Doctrine) -> None:
    whole_number("target", target, 2, 7)
    _a_doctrine(doctrine)


@checked_by(_target_and_doctrine)
def failing_rolls(target: int, doctrine: Doctrine) -> tuple[int, int]:
    """LD-1, LD-7, LD-C6: how many of a test's equally likely rolls fail, out of how many:
    every die below `target` (each of its `target - 1` low faces, on the d6 and each
    re-roll), none if the Doctrine ignores a failure. A target of 7, `NOBODY`'s (no figure
    left to test on), fails on every roll.

    ```python
    from rulesref.leadership import Doctrine, failing_rolls

    print(failing_rolls(4, Doctrine()), failing_rolls(4, Doctrine(rerolls=1)))
    #> (3, 6) (9, 36)
    print(failing_rolls(4, Doctrine(ignores=True)))
    #> (0, 6)
    ```
    """
    out_of = rolls_of_a_test.unchecked(doctrine)
    return (0 if doctrine.ignores else (target - 1) ** (doctrine.rerolls + 1)), out_of


@dataclass(frozen=True)
class Unit:
    """A unit: `starting` models at the start of the game, `current` at the start of this
    phase (left out: none lost yet, `starting`), and the Leadership its test is taken on,
    the target 2 to 6. A Leadership as written ("4+") is read by `leadership_target`, one
    per model by `best_leadership` (LD-2 keeps the best).

    ```python
    from rulesref.leadership import Unit, best_leadership

    squad = Unit("1st Squad", starting=10, leadership=best_leadership(["5+", "4+"]), current=7)
    print(squad.leadership, squad.models, squad.in_play, Unit("2nd Squad", 10, 4).models)
    #> 4 7 True 10
    ```
    """

    name: str
    starting: int
    leadership: int  # the target, 2 to 6
    current: int | None = None
    doctrine: Doctrine = NO_DOCTRINE
    removed: bool = False  # removed by a failed test in an earlier phase

    def __post_init__(self) -> None:
        text("unit name", self.name)
        whole_number("starting", self.starting, 1, MAX_MODELS)
        if self.current is not None:
            whole_number(f"current of {self.name!r}", self.current, 0, self.starting)
        _target("leadership", self.leadership)
        instance_of("doctrine", self.doctrine, Doctrine, "a Doctrine")
        yes_or_no("removed", self.removed)

    @property
    def models(self) -> int:
        """The models at the start of this phase: `current`, or `starting` if not given."""
        return self.starting if self.current is None else self.current

    @property
    def in_play(self) -> bool:
        return self.models > 0 and not self.removed


@dataclass(frozen=True)
class Leader:
    """A ranked figure (LD-3): rank 1 or more; ordinary models count as rank 0 (LD-C9).

    `leadership` is the target, 2 to 6 (written "4+": `leadership_target("4+")`). `unit`
    names the unit he fights in; `None` makes him an independent single-model leader, who
    is never counted as a unit (LD-9, LD-11).
    """

    name: str
    leadership: int
    rank: int
    unit: str | None = None
    alive: bool = True

    def __post_init__(self) -> None:
        text("leader name", self.name)
        _target("leadership", self.leadership)
        whole_number(f"rank of {self.name!r}", self.rank, 1, MAX_RANK)
        if self.unit is not None:
            text(f"unit of {self.name!r}", self.unit)
        yes_or_no("alive", self.alive)


@dataclass(frozen=True)
class Command:
    """LD-8: the units under one leader at the start of the game, and its ranked figures."""

    name: str
    units: tuple[Unit, ...]
    leaders: tuple[Leader, ...] = ()
    doctrine: Doctrine = NO_DOCTRINE

    def __post_init__(self) -> None:
        text("command name", self.name)
        units = sequence_of(
            f"units of command {self.name!r}", self.units, Unit, low=1, high=MAX_UNITS
        )
        leaders = sequence_of(
            f"leaders of command {self.name!r}", self.leaders, Leader, high=MAX_UNITS
        )
        settle(self, "units", units)
        settle(self, "leaders", leaders)
        names = {unit.name for unit in units}
        for leader in leaders:
            if leader.unit is not None and leader.unit not in names:
                raise RulesError(
                    f"leader {leader.name!r} must fight in a unit of command {self.name!r} "
                    f"({', '.join(sorted(names))}) or be independent (unit=None), "
                    f"got {leader.unit!r}"
                )
        instance_of("doctrine", self.doctrine, Doctrine, "a Doctrine")


@dataclass(frozen=True)
class Force:
    """LD-11: a force of commands, and its own independent leaders (a company commander)."""

    commands: tuple[Command, ...]
    leaders: tuple[Leader, ...] = ()
    doctrine: Doctrine = NO_DOCTRINE
    name: str = "force"

    def __post_init__(self) -> None:
        text("force name", self.name)
        commands = sequence_of("commands", self.commands, Command, low=1, high=MAX_UNITS)
        leaders = sequence_of("leaders of the force", self.leaders, Leader, high=MAX_UNITS)
        settle(self, "commands", commands)
        settle(self, "leaders", leaders)
        whole_number("units of the force", sum(len(c.units) for c in commands), 1, MAX_UNITS)
        for leader in leaders:
            if leader.unit is not None:
                raise RulesError(
                    f"leader {leader.name!r} of the force must be independent (unit=None), "
                    f"got {leader.unit!r}: a leader in a unit belongs to that unit's command"
                )
        seen: set[str] = set()
        every = [self.name, *(c.name for c in commands), *(lead.name for lead in leaders)]
        every += [u.name for c in commands for u in c.units]
        every += [lead.name for c in commands for lead in c.leaders]
        for name in every:
            if name in seen:
                raise RulesError(f"names must be unique in the force, got {name!r} twice")
            seen.add(name)
        if not any(u.in_play for c in commands for u in c.units):
            raise RulesError("force must have a unit in play, got none (the side has lost)")
        instance_of("doctrine", self.doctrine, Doctrine, "a Doctrine")

    @property
    def units(self) -> tuple[Unit, ...]:
        return tuple(unit for command in self.commands for unit in command.units)

    @property
    def figures(self) -> set[str]:
        """The names a player may prefer among equals (LD-C8): leaders and units."""
        leaders = [*self.leaders, *(lead for c in self.commands for lead in c.leaders)]
        return {lead.name for lead in leaders} | {unit.name for unit in self.units}


def models_left(force: Force, casualties: Mapping[str, int]) -> dict[str, int]:
    """LD-5: the models of each unit at the end of the phase, after its `casualties` (a unit
    out of play has none to lose).

    ```python
    from rulesref.leadership import Command, Force, Unit, models_left

    force = Force([Command("Platoon", [Unit("A", 10, 4, current=8), Unit("B", 10, 4)])])
    print(models_left(force, {"A": 3}))
    #> {'A': 5, 'B': 10}
    ```
    """
    instance_of("force", force, Force, "a Force")
    if not isinstance(casualties, Mapping):
        raise RulesError(f"casualties must map unit names to models lost, got {casualties!r}")
    units = {unit.name: unit for unit in force.units}
    for name in casualties:
        if not isinstance(name, str) or name not in units:
            allowed = "names of units of the force"
            raise RulesError(parameter="casualties", value=name, allowed=allowed)
    after = {}
    for name, unit in units.items():
        most = unit.models if unit.in_play else 0
        lost = whole_number(f"casualties[{name!r}]", casualties.get(name, 0), 0, most)
        after[name] = unit.models - lost
    return after


def preferred_figures(force: Force, prefer: Collection[str]) -> frozenset[str]:
    """LD-C8: the figures of `force` its player prefers among equally ranked ones."""
    if isinstance(prefer, str) or not isinstance(prefer, Collection):
        raise RulesError(f"prefer must be a collection of figure names, got {prefer!r}")
    figures = force.figures
    for name in prefer:
        if not isinstance(name, str) or name not in figures:
            allowed = "names of leaders or units of the force"
            raise RulesError(parameter="prefer", value=name, allowed=allowed)
    return frozenset(prefer)


# A figure's claim to be the one a command or the force tests on (LD-3): the highest
# rank first, then a figure the player prefers among equals, then the best Leadership
# (LD-C8). Ordinary models of a unit are rank 0 with the unit's Leadership (LD-C9).
class Claim(NamedTuple):
    """LD-3, LD-C8: a figure's claim to be the one that tests, compared as a tuple: the
    greatest claim is the figure that tests."""

    rank: int
    preferred: bool
    ease: int  # minus the target: the lower the target, the better
    name: str  # "" in the exact odds, which tell figures apart by the rest alone

    @property
    def target(self) -> int:
        """The Leadership the figure tests on (LD-1)."""
        return -self.ease


NOBODY = Claim(-1, False, -7, "")


def figure_claim(rank: int, target: int, name: str, prefer: frozenset[str]) -> Claim:
    """LD-3, LD-C8: the claim of a figure of `rank` (ordinary models are rank 0, LD-C9) who
    tests on `target`; `prefer` names the figures the player picks among equals.

    ```python
    from rulesref.leadership import figure_claim

    nobody = frozenset[str]()
    sergeant, corporal = figure_claim(1, 5, "Sgt", nobody), figure_claim(1, 4, "Cpl", nobody)
    print(max(sergeant, corporal).name)  # equal ranks: the better Leadership
    #> Cpl
    print(max(sergeant, figure_claim(1, 5, "Cpl", frozenset({"Cpl"}))).name)  # or the player's pick
    #> Cpl
    ```
    """
    return Claim(rank, name in prefer, -target, name)


def unit_claim(unit: Unit, leaders: Sequence[Leader], prefer: frozenset[str]) -> Claim:
    """LD-3, LD-C9: the best claim among a unit's figures: its living leaders in it, or
    its ordinary models (rank 0)."""
    keys = [figure_claim(0, unit.leadership, unit.name, prefer)]
    keys += [
        figure_claim(lead.rank, lead.leadership, lead.name, prefer)
        for lead in leaders
        if lead.unit == unit.name and lead.alive
    ]
    return max(keys)


def independent_claim(leaders: Sequence[Leader], prefer: frozenset[str]) -> Claim:
    """LD-3: the best claim among the living independent leaders, `NOBODY` if none."""
    keys = [
        figure_claim(lead.rank, lead.leadership, lead.name, prefer)
        for lead in leaders
        if lead.unit is None and lead.alive
    ]
    return max(keys, default=NOBODY)


def unit_target(unit: Unit, leaders: Sequence[Leader]) -> int:
    """LD-2: a unit tests on the best Leadership in it, a leader fighting in it included.

    ```python
    from rulesref.leadership import Leader, Unit, unit_target

    squad = Unit("A", 10, 5)
    print(unit_target(squad, []), unit_target(squad, [Leader("Sgt", 4, rank=1, unit="A")]))
    #> 5 4
    ```
    """
    inside = [lead.leadership for lead in leaders if lead.unit == unit.name and lead.alive]
    return min([unit.leadership, *inside])


@dataclass(frozen=True)
class Test:
    """One Break test as rolled (LD-7): who, why, on whose Leadership, the dice, the outcome."""

    who: str
    level: Level
    clause: str  # the trigger: LD-5, LD-6, LD-9 or LD-11
    figure: str  # whose Leadership (LD-2, LD-3)
    target: int
    rolls: tuple[int, ...]
    passed: bool
    ignored: bool  # failed, but a Doctrine ignored it

    @property
    def holds(self) -> bool:
        return self.passed or self.ignored


@dataclass(frozen=True)
class Removal:
    """Something taken off the board this phase, and the clause that took it."""

    who: str
    level: Level
    clause: str
    reason: str


@dataclass(frozen=True)
class PhaseResult:
    """What an end of phase did: the tests in the order rolled (LD-4), and the removals."""

    tests: tuple[Test, ...]
    removed: tuple[Removal, ...]
    force_broken: bool

    def gone(self, level: Level | str) -> set[str]:
        level = word_of("level", level, Level)
        return {removal.who for removal in self.removed if removal.level is level}


class RolledDice(NamedTuple):
    """The d6 results one test used, and how it ended (LD-7, LD-C6)."""

    rolls: tuple[int, ...]
    passed: bool
    ignored: bool


def _roll(
    who: str, target: int, doctrine: Doctrine, dice: Mapping[str, Sequence[int]]
) -> RolledDice:
    """LD-1, LD-7: roll, re-roll while failing and re-rolls remain, then maybe ignore.

    No more dice than a roll and its re-rolls: re-rolls given in advance and not needed
    after a success are left unused (so every sequence of that many dice is a valid,
    equally likely input), but a die that no test could use is refused."""
    rolls = dice.get(who)
    needed = doctrine.rerolls + 1
    results = f"1 to {needed} d6 results" if needed > 1 else "1 d6 result"
    allowed = f"{results} (a roll and {doctrine.rerolls} re-rolls), each 1 to 6"
    if isinstance(rolls, str | bytes) or not isinstance(rolls, Sequence) or not rolls:
        raise RulesError(f"dice[{who!r}] must be {allowed}, got {rolls!r}")
    if len(rolls) > needed:
        raise RulesError(f"dice[{who!r}] must be {allowed}, got {len(rolls)} results")
    used: list[int] = []
    for face in rolls:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise RulesError(f"dice[{who!r}] must be {allowed}, got {rolls!r}")
        used.append(face)
        if face >= target:
            return RolledDice(tuple(used), True, False)
    if len(used) < needed and not doctrine.ignores:
        raise RulesError(f"dice[{who!r}] must be {allowed}, got {rolls!r}: it needs a re-roll")
    return RolledDice(tuple(used), False, doctrine.ignores)


def _checked_dice(force: Force, dice: Mapping[str, Sequence[int]]) -> Mapping[str, Sequence[int]]:
    """The dice, if they are keyed by names of testers of the force (each is checked as rolled)."""
    if not isinstance(dice, Mapping):
        raise RulesError(f"dice must map names to d6 results, got {dice!r}")
    testers = {force.name, *(c.name for c in force.commands), *(u.name for u in force.units)}
    for name in dice:
        if name not in testers:
            raise RulesError(f"dice must name units, commands or the force, got {name!r}")
    return dice


@dataclass
class Phase:
    """LD-4: one end of phase as it is played, bottom-up: the dice, and the tests and
    removals so far (the one record `resolve_phase` fills in as it goes)."""

    dice: Mapping[str, Sequence[int]]
    prefer: frozenset[str]
    readings: Readings
    tests: list[Test] = field(default_factory=list)
    removed: list[Removal] = field(default_factory=list)

    def holds(self, who: str, level: Level, clause: str, claim: Claim, doctrine: Doctrine) -> bool:
        """LD-7: roll `who`'s test on `claim`'s Leadership and record it; whether it holds."""
        roll = _roll(who, claim.target, doctrine, self.dice)
        self.tests.append(Test(who, level, clause, claim.name, claim.target, *roll))
        return roll.passed or roll.ignored

    def failed(self, who: str, level: Level, clause: str, trigger: str) -> None:
        """Remove `who` for the test just failed, which `trigger` called for."""
        last = self.tests[-1]
        rolled = ", ".join(map(str, last.rolls))
        if level is Level.UNIT:
            reason = f"failed its Break test ({trigger}): rolled {rolled}, needed {last.target}+"
        else:
            reason = f"failed its Break test ({trigger}) on {last.figure}'s {last.target}+"
            reason += ": the side loses" if level is Level.FORCE else f": rolled {rolled}"
        self.removed.append(Removal(who, level, clause, reason))

    def remove(self, who: str, level: Level, clause: str, reason: str) -> None:
        self.removed.append(Removal(who, level, clause, reason))


class Standing(NamedTuple):
    """A command after its test (LD-9, LD-10): its units left, and its senior figure."""

    units_left: int
    senior: Claim


def unit_tests(force: Force, after: Mapping[str, int], phase: Phase) -> dict[str, bool]:
    """LD-7, LD-C7: every unit that must test (LD-5, LD-6) does, at the end of the phase,
    and leaves the table if it fails; one with no model left is destroyed, untested.
    Whether each unit in play is still in play after its test."""
    standing: dict[str, bool] = {}
    for command, unit in ((c, u) for c in force.commands for u in c.units):
        if not unit.in_play:
            continue
        if after[unit.name] == 0:
            phase.remove(unit.name, Level.UNIT, "LD-C7", "no model left: destroyed")
            standing[unit.name] = False
            continue
        clause = break_test_trigger.unchecked(unit.starting, unit.models, after[unit.name])
        claim = figure_claim(0, unit_target(unit, command.leaders), unit.name, phase.prefer)
        standing[unit.name] = not clause or phase.holds(
            unit.name, Level.UNIT, clause, claim, unit.doctrine
        )
        if clause and not standing[unit.name]:
            phase.failed(unit.name, Level.UNIT, "LD-7", clause)
    return standing


def command_test(
    command: Command, after: Mapping[str, int], standing: Mapping[str, bool], phase: Phase
) -> Standing:
    """LD-9, LD-10, LD-C3, LD-C5, LD-C7: a command tests after its units, counting this
    phase's lost ones, on its senior figure among those left (or, in LD-C5's other
    reading, among those not wiped out); one with no unit left is removed, untested; a
    failed command leaves the table with its units."""
    before = sum(unit.in_play for unit in command.units)
    left = [unit for unit in command.units if standing.get(unit.name)]
    kept = [u for u in command.units if after[u.name] > 0 and u.in_play]
    figures = kept if phase.readings.removed_figures_survive else left  # LD-C5
    senior = max(
        [independent_claim(command.leaders, phase.prefer)]
        + [unit_claim(unit, command.leaders, phase.prefer) for unit in figures]
    )
    gone = Standing(0, senior if phase.readings.removed_figures_survive else NOBODY)
    if before == 0:  # gone in an earlier phase; its living independent leaders may stay
        return gone
    if not left:
        phase.remove(command.name, Level.COMMAND, "LD-C7", "no unit left")
        return gone
    if command_must_test.unchecked(len(command.units), before, len(left)) and not phase.holds(
        command.name, Level.COMMAND, "LD-9", senior, command.doctrine
    ):
        phase.failed(command.name, Level.COMMAND, "LD-10", "LD-9")
        for unit in left:
            reason = f"its command {command.name} failed its Break test"
            phase.remove(unit.name, Level.UNIT, "LD-10", reason)
        return gone
    return Standing(len(left), senior)


def force_test(force: Force, commands: Sequence[Standing], phase: Phase) -> bool:
    """LD-11, LD-12, LD-C4, LD-C7: last, the force, counting the units of removed commands
    as lost; whether it breaks (with no unit left it has lost, untested)."""
    start = len(force.units)
    before = sum(unit.in_play for unit in force.units)
    units_left = sum(command.units_left for command in commands)
    senior = max([independent_claim(force.leaders, phase.prefer)] + [c.senior for c in commands])
    if units_left == 0:
        phase.remove(force.name, Level.FORCE, "LD-C7", "no unit left: the side loses")
        return True
    broken = force_must_test.unchecked(start, before, units_left) and not phase.holds(
        force.name, Level.FORCE, "LD-11", senior, force.doctrine
    )
    if broken:
        phase.failed(force.name, Level.FORCE, "LD-12", "LD-11")
    return broken


def resolve_phase(
    force: Force,
    casualties: Mapping[str, int],
    dice: Mapping[str, Sequence[int]],
    *,
    prefer: Collection[str] = (),
    readings: Readings = Readings(),
) -> PhaseResult:
    """LD-4: the end of a phase, bottom-up: units, then commands, then the force (LD-5 to
    LD-12).

    `dice` maps the name of each unit, command or force that tests to its d6 results in
    order (a roll, then re-rolls). `prefer` names figures the player picks among equally
    ranked ones (LD-C8); `readings` picks the reading of LD-C5.

    ```python
    from rulesref.leadership import Command, Force, Unit, resolve_phase

    squads = [Unit("A", 10, 4), Unit("B", 10, 4)]
    force = Force([Command("Platoon", squads)])
    result = resolve_phase(force, {"A": 6}, dice={"A": [2], "Platoon": [5], "force": [1]})
    for removal in result.removed:
        print(removal.who, removal.clause, removal.reason)
        #> A LD-7 failed its Break test (LD-5): rolled 2, needed 4+
    ```
    """
    after = models_left(force, casualties)
    phase = Phase(
        _checked_dice(force, dice),
        preferred_figures(force, prefer),
        instance_of("readings", readings, Readings, "a Readings"),
    )
    standing = unit_tests(force, after, phase)
    commands = [command_test(command, after, standing, phase) for command in force.commands]
    broken = force_test(force, commands, phase)
    return PhaseResult(tuple(phase.tests), tuple(phase.removed), broken)
