"""Leadership tests, and the Break tests of units, commands and the force: LD-1 to LD-12.

Source: "Leadership Tests", a d6 house-rules page (`000_180018a333809db2.txt`). The site
restates each clause under its id; the code below implements each in one place.
Clarifications LD-C1 to LD-C10 settle what the document leaves open.

```python
from rulesref.leadership import leadership_test_probability

print(leadership_test_probability("4+"), leadership_test_probability(4, rerolls=1))
#> 1/2 3/4
```
"""

import re
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from math import gcd
from operator import mul
from typing import NamedTuple

from rulesref.dice import probability_at_least, with_rerolls
from rulesref.errors import (
    RulesError,
    instance_of,
    one_of,
    sequence_of,
    text,
    whole_number,
    yes_or_no,
)
from rulesref.exact import Rational
from rulesref.moved import moved_from

__all__ = [
    "LEVELS",
    "leadership_target",
    "leadership_test_probability",
    "best_leadership",
    "break_test_trigger",
    "must_take_break_test",
    "command_must_test",
    "force_must_test",
    "Doctrine",
    "NO_DOCTRINE",
    "Unit",
    "Leader",
    "Command",
    "Force",
    "Test",
    "Removal",
    "PhaseResult",
    "resolve_phase",
    "Cascade",
    "cascade_probabilities",
]

MAX_REROLLS = 10
MAX_MODELS = 100_000
MAX_RANK = 100
MAX_UNITS = 1000  # in a command, and in the whole force
# The Break tests of units one phase may hold for the exact cascade: the sizes it answers
# within a second or two (measured: the cost grows with the cube of a command's tests).
MAX_CASCADE_TESTS = 400
MAX_CASCADE_COMMAND_TESTS = 30
WRITTEN = re.compile(r"([2-6])\+")
LEVELS = ("unit", "command", "force")


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
    raise RulesError(f"{name} must be a Leadership from 2+ to 6+ (2 to 6, or '4+'), got {value!r}")


def leadership_test_probability(
    target: int | str, *, rerolls: int = 0, ignore: bool = False
) -> Rational:
    """LD-1, LD-7: exact chance that a Leadership test holds: one d6 at or above `target`,
    re-rolled up to `rerolls` times while it fails; `ignore=True` is a Doctrine that
    ignores a failure, so the test always holds (LD-C6).

    ```python
    from rulesref.leadership import leadership_test_probability

    print(leadership_test_probability(5), leadership_test_probability(5, rerolls=2))
    #> 1/3 19/27
    ```
    """
    target = leadership_target(target)
    whole_number("rerolls", rerolls, 0, MAX_REROLLS)
    if yes_or_no("ignore", ignore):
        return Rational(1)
    return with_rerolls(probability_at_least(target, dice=1), rerolls)


def _fail_weight(target: int, rerolls: int, ignores: bool) -> tuple[int, int]:
    """The rolls (of 6**(rerolls+1) equally likely ones) on which a test fails for good."""
    rolls = 6 ** (rerolls + 1)
    return (0 if ignores else (target - 1) ** (rerolls + 1)), rolls


def best_leadership(values: Sequence[int | str]) -> int:
    """LD-2 (LD-C1): a unit tests on its best Leadership, the easiest target; 2+ is best.

    ```python
    from rulesref.leadership import best_leadership

    print(best_leadership(["5+", "5+", "4+"]))  # three riflemen and a sergeant on 4+
    #> 4
    ```
    """
    if isinstance(values, str | bytes) or not isinstance(values, Sequence) or not values:
        raise RulesError(f"leadership must be one Leadership or a non-empty list, got {values!r}")
    return min(leadership_target(value, "leadership") for value in values)


def _falls_below_half(start: int, before: int, after: int, names: tuple[str, str, str]) -> bool:
    """Below half of `start` at the end of a phase, having just fallen there or lost more
    (strictly below: LD-C2), with the counts checked first."""
    whole_number(names[0], start, 1, MAX_MODELS)
    whole_number(names[1], before, 0, start)
    whole_number(names[2], after, 0, before)
    return _below_half(start, before, after)


def _below_half(start: int, before: int, after: int) -> bool:
    """`_falls_below_half` on counts already checked, for the exact cascade's inner loops."""
    return 0 < after < before and 2 * after < start  # LD-C2: strictly below; LD-C7: 0 is gone


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
    if not _falls_below_half(start, before, after, ("start", "before", "after")):
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


def command_must_test(start_units: int, before_units: int, after_units: int) -> bool:
    """LD-9: whether a command takes a Break test, counting its units (never an independent
    single-model leader, who is a `Leader`, not a `Unit`).

    ```python
    from rulesref.leadership import command_must_test

    print(command_must_test(4, 4, 1), command_must_test(4, 2, 2), command_must_test(4, 4, 2))
    #> True False False
    ```
    """
    return _falls_below_half(
        start_units, before_units, after_units, ("start_units", "before_units", "after_units")
    )


def force_must_test(start_units: int, before_units: int, after_units: int) -> bool:
    """LD-11: the same 50% rule over all the units of the force.

    ```python
    from rulesref.leadership import force_must_test

    print(force_must_test(8, 6, 3), force_must_test(8, 6, 4))
    #> True False
    ```
    """
    return _falls_below_half(
        start_units, before_units, after_units, ("start_units", "before_units", "after_units")
    )


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

    def hold_chance(self, target: int | str) -> Rational:
        """The chance that a test on `target` holds with this Doctrine."""
        return leadership_test_probability(target, rerolls=self.rerolls, ignore=self.ignores)


NO_DOCTRINE = Doctrine()


@dataclass(frozen=True, init=False)
class Unit:
    """A unit: `starting` models at the start of the game, `current` at the start of this
    phase, and the Leadership of its models (LD-2 keeps the best).

    ```python
    from rulesref.leadership import Unit

    squad = Unit("1st Squad", starting=10, current=7, leadership=["5+", "4+"])
    print(squad.leadership, squad.in_play)
    #> 4 True
    ```
    """

    name: str
    starting: int
    leadership: int  # the target, 2 to 6
    current: int
    doctrine: Doctrine
    removed: bool  # removed by a failed test in an earlier phase

    # The constructor takes a Leadership as written ("4+"), or one per model, and keeps
    # the target; `current` left out is `starting`.
    def __init__(
        self,
        name: str,
        starting: int,
        leadership: int | str | Sequence[int | str],
        current: int | None = None,
        doctrine: Doctrine = NO_DOCTRINE,
        removed: bool = False,
    ) -> None:
        set_field = partial(object.__setattr__, self)
        set_field("name", text("unit name", name))
        set_field("starting", whole_number("starting", starting, 1, MAX_MODELS))
        current = starting if current is None else current
        set_field("current", whole_number(f"current of {name!r}", current, 0, starting))
        if isinstance(leadership, int | str):
            set_field("leadership", leadership_target(leadership, "leadership"))
        else:
            set_field("leadership", best_leadership(leadership))
        set_field("doctrine", instance_of("doctrine", doctrine, Doctrine, "a Doctrine"))
        set_field("removed", yes_or_no("removed", removed))

    @property
    def in_play(self) -> bool:
        return self.current > 0 and not self.removed


@dataclass(frozen=True, init=False)
class Leader:
    """A ranked figure (LD-3): rank 1 or more; ordinary models count as rank 0 (LD-C9).

    `unit` names the unit he fights in; `None` makes him an independent single-model
    leader, who is never counted as a unit (LD-9, LD-11).
    """

    name: str
    leadership: int  # the target, 2 to 6; the constructor also takes it written, "4+"
    rank: int
    unit: str | None
    alive: bool

    def __init__(
        self,
        name: str,
        leadership: int | str,
        rank: int,
        unit: str | None = None,
        alive: bool = True,
    ) -> None:
        set_field = partial(object.__setattr__, self)
        set_field("name", text("leader name", name))
        set_field("leadership", leadership_target(leadership, "leadership"))
        set_field("rank", whole_number(f"rank of {name!r}", rank, 1, MAX_RANK))
        set_field("unit", None if unit is None else text(f"unit of {name!r}", unit))
        set_field("alive", yes_or_no("alive", alive))


@dataclass(frozen=True)
class Command:
    """LD-8: the units under one leader at the start of the game, and its ranked figures."""

    name: str
    units: Sequence[Unit]
    leaders: Sequence[Leader] = ()
    doctrine: Doctrine = NO_DOCTRINE

    def __post_init__(self) -> None:
        text("command name", self.name)
        units = sequence_of(
            f"units of command {self.name!r}", self.units, Unit, low=1, high=MAX_UNITS
        )
        leaders = sequence_of(
            f"leaders of command {self.name!r}", self.leaders, Leader, high=MAX_UNITS
        )
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "leaders", leaders)
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

    commands: Sequence[Command]
    leaders: Sequence[Leader] = ()
    doctrine: Doctrine = NO_DOCTRINE
    name: str = "force"

    def __post_init__(self) -> None:
        text("force name", self.name)
        commands = sequence_of("commands", self.commands, Command, low=1, high=MAX_UNITS)
        leaders = sequence_of("leaders of the force", self.leaders, Leader, high=MAX_UNITS)
        object.__setattr__(self, "commands", commands)
        object.__setattr__(self, "leaders", leaders)
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


def _after(force: Force, casualties: Mapping[str, int]) -> dict[str, int]:
    """Models of each unit at the end of the phase; refuses unknown units and overkill."""
    instance_of("force", force, Force, "a Force")
    if not isinstance(casualties, Mapping):
        raise RulesError(f"casualties must map unit names to models lost, got {casualties!r}")
    units = {unit.name: unit for unit in force.units}
    for name in casualties:
        if name not in units:
            raise RulesError(f"casualties must name units of the force, got {name!r}")
    after = {}
    for name, unit in units.items():
        most = unit.current if unit.in_play else 0
        lost = whole_number(f"casualties[{name!r}]", casualties.get(name, 0), 0, most)
        after[name] = unit.current - lost
    return after


def _preferred(force: Force, prefer: Collection[str]) -> frozenset[str]:
    if isinstance(prefer, str) or not isinstance(prefer, Collection):
        raise RulesError(f"prefer must be a collection of figure names, got {prefer!r}")
    figures = force.figures
    for name in prefer:
        if name not in figures:
            raise RulesError(f"prefer must name leaders or units of the force, got {name!r}")
    return frozenset(prefer)


# A figure's claim to be the one a command or the force tests on (LD-3): the highest
# rank first, then a figure the player prefers among equals, then the best Leadership
# (LD-C8). Ordinary models of a unit are rank 0 with the unit's Leadership (LD-C9).
class Claim(NamedTuple):
    """Compared as a tuple: the greatest claim is the figure that tests."""

    rank: int
    preferred: bool
    ease: int  # minus the target: the lower the target, the better
    name: str  # "" in the exact odds, which tell figures apart by the rest alone


NOBODY = Claim(-1, False, -7, "")


def _figure_key(rank: int, target: int, name: str, prefer: frozenset[str]) -> Claim:
    return Claim(rank, name in prefer, -target, name)


def _unit_key(unit: Unit, leaders: Sequence[Leader], prefer: frozenset[str]) -> Claim:
    """The best claim among a unit's figures: its leaders in it, or its ordinary models."""
    keys = [_figure_key(0, unit.leadership, unit.name, prefer)]
    keys += [
        _figure_key(lead.rank, lead.leadership, lead.name, prefer)
        for lead in leaders
        if lead.unit == unit.name and lead.alive
    ]
    return max(keys)


def _independent_key(leaders: Sequence[Leader], prefer: frozenset[str]) -> Claim:
    keys = [
        _figure_key(lead.rank, lead.leadership, lead.name, prefer)
        for lead in leaders
        if lead.unit is None and lead.alive
    ]
    return max(keys, default=NOBODY)


def _target(key: Claim) -> int:
    return -key.ease


def _unit_target(unit: Unit, leaders: Sequence[Leader]) -> int:
    """LD-2: a unit tests on the best Leadership in it, a leader fighting in it included."""
    inside = [lead.leadership for lead in leaders if lead.unit == unit.name and lead.alive]
    return min([unit.leadership, *inside])


@dataclass(frozen=True)
class Test:
    """One Break test as rolled (LD-7): who, why, on whose Leadership, the dice, the verdict."""

    who: str
    level: str  # "unit", "command" or "force"
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
    level: str
    clause: str
    reason: str


@dataclass(frozen=True)
class PhaseResult:
    """What an end of phase did: the tests in the order rolled (LD-4), and the removals."""

    tests: tuple[Test, ...]
    removed: tuple[Removal, ...]
    force_broken: bool

    def gone(self, level: str) -> set[str]:
        one_of("level", level, LEVELS)
        return {removal.who for removal in self.removed if removal.level == level}


def _roll(
    who: str, target: int, doctrine: Doctrine, dice: Mapping[str, Sequence[int]]
) -> tuple[tuple[int, ...], bool, bool]:
    """LD-1, LD-7: roll, re-roll while failing and re-rolls remain, then maybe ignore.

    No more dice than a roll and its re-rolls: re-rolls given in advance and not needed
    after a success are left unused (so every sequence of that many dice is a valid,
    equally likely input), but a die that no test could use is refused."""
    rolls = dice.get(who)
    needed = doctrine.rerolls + 1
    allowed = f"1 to {needed} d6 results (a roll and {doctrine.rerolls} re-rolls), each 1 to 6"
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
            return tuple(used), True, False
    if len(used) < needed and not doctrine.ignores:
        raise RulesError(f"dice[{who!r}] must be {allowed}, got {rolls!r}: it needs a re-roll")
    return tuple(used), False, doctrine.ignores


def resolve_phase(
    force: Force,
    casualties: Mapping[str, int],
    dice: Mapping[str, Sequence[int]],
    *,
    prefer: Collection[str] = (),
    removed_figures_survive: bool = False,
) -> PhaseResult:
    """LD-4 to LD-12: the end of a phase, bottom-up: units, then commands, then the force.

    `dice` maps the name of each unit, command or force that tests to its d6 results in
    order (a roll, then re-rolls). `prefer` names figures the player picks among equally
    ranked ones (LD-C8); `removed_figures_survive=True` is the other reading of LD-C5.

    ```python
    from rulesref.leadership import Command, Force, Unit, resolve_phase

    squads = [Unit("A", 10, "4+"), Unit("B", 10, "4+")]
    force = Force([Command("Platoon", squads)])
    result = resolve_phase(force, {"A": 6}, dice={"A": [2], "Platoon": [5], "force": [1]})
    for removal in result.removed:
        print(removal.who, removal.clause, removal.reason)
        #> A LD-7 failed its Break test (LD-5): rolled 2, needed 4+
    ```
    """
    after = _after(force, casualties)
    prefer = _preferred(force, prefer)
    yes_or_no("removed_figures_survive", removed_figures_survive)
    if not isinstance(dice, Mapping):
        raise RulesError(f"dice must map names to d6 results, got {dice!r}")
    testers = {force.name, *(c.name for c in force.commands), *(u.name for u in force.units)}
    for name in dice:
        if name not in testers:
            raise RulesError(f"dice must name units, commands or the force, got {name!r}")
    tests: list[Test] = []
    removed: list[Removal] = []

    def test(who: str, level: str, clause: str, key: Claim, doctrine: Doctrine) -> bool:
        rolls, passed, ignored = _roll(who, _target(key), doctrine, dice)
        tests.append(Test(who, level, clause, key.name, _target(key), rolls, passed, ignored))
        return passed or ignored

    # LD-5 to LD-7: every unit that must test, at the end of the phase
    standing: dict[str, bool] = {}  # in play after the unit tests
    for command, unit in ((c, u) for c in force.commands for u in c.units):
        if not unit.in_play:
            continue
        if after[unit.name] == 0:
            removed.append(Removal(unit.name, "unit", "LD-C7", "no model left: destroyed"))
            standing[unit.name] = False
            continue
        clause = break_test_trigger(unit.starting, unit.current, after[unit.name])
        key = _figure_key(0, _unit_target(unit, command.leaders), unit.name, prefer)
        standing[unit.name] = not clause or test(unit.name, "unit", clause, key, unit.doctrine)
        if not standing[unit.name]:
            last = tests[-1]
            reason = f"failed its Break test ({clause}): rolled {', '.join(map(str, last.rolls))}"
            removed.append(Removal(unit.name, "unit", "LD-7", f"{reason}, needed {last.target}+"))

    # LD-8 to LD-10: then every command, counting this phase's lost units (LD-C3)
    survivors: dict[str, tuple[int, Claim]] = {}  # command: (units left, best figure)
    for command in force.commands:
        before = sum(unit.in_play for unit in command.units)
        left = [unit for unit in command.units if standing.get(unit.name)]
        kept = [u for u in command.units if after[u.name] > 0 and u.in_play]
        figures = kept if removed_figures_survive else left
        key = max(
            [_independent_key(command.leaders, prefer)]
            + [_unit_key(unit, command.leaders, prefer) for unit in figures]
        )
        if before == 0:  # gone in an earlier phase; its living independent leaders may stay
            survivors[command.name] = (0, key if removed_figures_survive else NOBODY)
            continue
        if not left:
            removed.append(Removal(command.name, "command", "LD-C7", "no unit left"))
            survivors[command.name] = (0, key if removed_figures_survive else NOBODY)
            continue
        if command_must_test(len(command.units), before, len(left)) and not test(
            command.name, "command", "LD-9", key, command.doctrine
        ):
            last = tests[-1]
            removed.append(
                Removal(
                    command.name,
                    "command",
                    "LD-10",
                    f"failed its Break test (LD-9) on {last.figure}'s {last.target}+: "
                    f"rolled {', '.join(map(str, last.rolls))}",
                )
            )
            for unit in left:
                reason = f"its command {command.name} failed its Break test"
                removed.append(Removal(unit.name, "unit", "LD-10", reason))
            survivors[command.name] = (0, key if removed_figures_survive else NOBODY)
            continue
        survivors[command.name] = (len(left), key)

    # LD-11, LD-12: last, the force, counting the units of removed commands (LD-C4)
    start = len(force.units)
    before = sum(unit.in_play for unit in force.units)
    units_left = sum(units for units, _ in survivors.values())
    key = max([_independent_key(force.leaders, prefer)] + [k for _, k in survivors.values()])
    if units_left == 0:
        removed.append(Removal(force.name, "force", "LD-C7", "no unit left: the side loses"))
        return PhaseResult(tuple(tests), tuple(removed), True)
    broken = force_must_test(start, before, units_left) and not test(
        force.name, "force", "LD-11", key, force.doctrine
    )
    if broken:
        last = tests[-1]
        reason = f"failed its Break test (LD-11) on {last.figure}'s {last.target}+: the side loses"
        removed.append(Removal(force.name, "force", "LD-12", reason))
    return PhaseResult(tuple(tests), tuple(removed), broken)


@dataclass(frozen=True)
class Cascade:
    """The exact odds of one end of phase (LD-4 to LD-12), by unit, command and force.

    `unit_fails` and `command_fails`: the chance of failing its own Break test (0 when it
    does not test). `unit_removed` and `command_removed`: the chance of being off the
    board when the phase is over, for whatever reason: its own test, its command's, the
    force's (LD-12 removes everything), or no model left. `force_breaks`: the chance that
    the force fails its test or has no unit left, and the side loses.
    """

    unit_fails: Mapping[str, Rational]
    unit_removed: Mapping[str, Rational]
    command_fails: Mapping[str, Rational]
    command_removed: Mapping[str, Rational]
    force_breaks: Rational


# The exact cascade's weights of a command's states: (units lost or left, best figure).
States = dict[tuple[int, Claim], int]
Testing = tuple[Unit, int, Claim]  # a unit that tests, its target, its claim


class _Staged(NamedTuple):
    """A command's part of the exact cascade, its units' tests and its own done."""

    command: Command
    outcomes: States  # (units left, best figure), over `den`
    den: int
    holders: dict[str, States]  # a testing unit's weights of holding, over `holders_den`
    holders_den: int
    safe: list[str]  # its units with models left that do not test


def _unit_stage(
    base: Claim, testing: Sequence[Testing], keep: bool, holding: Unit | None = None
) -> tuple[States, int]:
    """Joint weights of (units lost to failed tests, best surviving figure) of a command,
    one testing unit at a time; `holding` counts only the rolls on which that unit holds."""
    states: States = {(0, base): 1}
    rolls = 1
    for unit, target, key in testing:
        fail, out_of = _fail_weight(target, unit.doctrine.rerolls, unit.doctrine.ignores)
        hold, fail = out_of - fail, (0 if unit is holding else fail)
        new: States = defaultdict(int)
        for (lost, best), weight in states.items():
            if hold:
                new[lost, max(best, key)] += weight * hold
            if fail:
                new[lost + 1, max(best, key) if keep else best] += weight * fail
        states, rolls = new, rolls * out_of
    return states, rolls


def _command_stage(
    states: States, command: Command, before: int, wiped: int, keep: bool
) -> tuple[States, int, int]:
    """LD-9, LD-10 on the unit stage's weights: (units left, best figure) after the command's
    test, with the weight of failing it. Units left 0 means the command is gone."""
    doctrine = command.doctrine
    out_of = 6 ** (doctrine.rerolls + 1)
    outcomes: States = defaultdict(int)
    fails = 0
    for (lost, best), weight in states.items():
        left, gone = before - wiped - lost, (best if keep else NOBODY)
        if left and _below_half(len(command.units), before, left):
            fail = _fail_weight(_target(best), doctrine.rerolls, doctrine.ignores)[0]
            outcomes[left, best] += weight * (out_of - fail)
            outcomes[0, gone] += weight * fail
            fails += weight * fail
        else:
            outcomes[(left, best) if left else (0, gone)] += weight * out_of
    return outcomes, fails, out_of


def _convolve(acc: list[int], arr: list[int], top: int) -> list[int]:
    """Distribution of a sum of unit counts, the last index standing for `top` or more."""
    out = [0] * (top + 1)
    for shift, weight in enumerate(arr):
        if weight:
            below = top - shift  # acc[a] with a < below lands below the top bucket
            if below > 0:
                out[shift:top] = [o + a * weight for o, a in zip(out[shift:top], acc, strict=False)]
            out[top] += weight * sum(acc[max(below, 0) :])
    return out


def _at_most(pre: list[int], suf_cdf: list[int], x: int) -> int:
    """Weight of (prefix + suffix) <= x, from the prefix and the suffix's cumulative sums."""
    return sum(map(mul, pre[: x + 1], reversed(suf_cdf[: x + 1]))) if x >= 0 else 0


def _products(values: list[int]) -> tuple[list[int], list[int]]:
    """Products of the first i values, and of the values from i on, for every i."""
    before, after = [1], [1]
    for value in values:
        before.append(before[-1] * value)
    for value in reversed(values):
        after.append(after[-1] * value)
    return before, after[::-1]


def _cumulative(values: list[int]) -> list[int]:
    total, out = 0, []
    for value in values:
        total += value
        out.append(total)
    return out


def cascade_probabilities(
    force: Force,
    casualties: Mapping[str, int],
    *,
    prefer: Collection[str] = (),
    removed_figures_survive: bool = False,
) -> Cascade:
    """Exact chances that each unit and command is removed and that the force breaks, after
    this phase's `casualties` (LD-4 to LD-12, bottom-up; LD-C3, LD-C4: removals count for
    the level above in the same phase).

    Dynamic programming over counts, never over combinations of test results: within a
    command over (units lost, best surviving figure); across commands over the units the
    force has lost (capped where the force must test), once for each Leadership the force
    could end up testing on, with each command left out in turn (prefix and suffix sums)
    for the odds of what lies above it. Polynomial in the size of the force; the units that
    test are limited to `MAX_CASCADE_TESTS`, and `MAX_CASCADE_COMMAND_TESTS` in a command.

    ```python
    from rulesref.leadership import Command, Force, Unit, cascade_probabilities

    squads = [Unit("A", 10, "4+"), Unit("B", 10, "4+"), Unit("C", 10, "5+")]
    odds = cascade_probabilities(Force([Command("Platoon", squads)]), {"A": 6, "B": 6})
    print(odds.unit_fails["A"], odds.command_fails["Platoon"], odds.force_breaks)
    #> 1/2 1/6 2/9
    ```
    """
    after = _after(force, casualties)
    prefer = _preferred(force, prefer)
    keep = yes_or_no("removed_figures_survive", removed_figures_survive)
    tests = 0
    unit_fails: dict[str, Rational] = {}
    command_fails: dict[str, Rational] = {}
    staged: list[_Staged] = []
    for command in force.commands:
        in_play = [unit for unit in command.units if unit.in_play]
        wiped = [unit for unit in in_play if after[unit.name] == 0]
        testing: list[Testing] = []
        base = _independent_key(command.leaders, prefer)._replace(name="")
        for unit in in_play:
            key = _unit_key(unit, command.leaders, prefer)._replace(name="")
            if _below_half(unit.starting, unit.current, after[unit.name]):
                testing.append((unit, _unit_target(unit, command.leaders), key))
            elif after[unit.name]:
                base = max(base, key)
        tests += len(testing)
        if tests > MAX_CASCADE_TESTS or len(testing) > MAX_CASCADE_COMMAND_TESTS:
            raise RulesError(
                f"casualties must make at most {MAX_CASCADE_TESTS} units take a Break test, "
                f"at most {MAX_CASCADE_COMMAND_TESTS} in a command, for the exact cascade, "
                f"got {tests} so far, {len(testing)} in command {command.name!r}"
            )
        for unit in command.units:
            unit_fails[unit.name] = Rational(0)
        for unit, target, _ in testing:
            unit_fails[unit.name] = Rational(
                *_fail_weight(target, unit.doctrine.rerolls, unit.doctrine.ignores)
            )
        states, rolls = _unit_stage(base, testing, keep)
        outcomes, fails, out_of = _command_stage(states, command, len(in_play), len(wiped), keep)
        holders = {  # a testing unit's weights of holding its test, state by state
            unit.name: _command_stage(
                _unit_stage(base, testing, keep, holding=unit)[0],
                command,
                len(in_play),
                len(wiped),
                keep,
            )[0]
            for unit, _, _ in testing
        }
        safe = [u.name for u in in_play if after[u.name] and u.name not in holders]
        den = rolls * out_of
        common = gcd(den, *outcomes.values())  # smaller numbers for the force stage
        outcomes = {state: weight // common for state, weight in outcomes.items()}
        command_fails[command.name] = Rational(fails, den)
        staged.append(_Staged(command, outcomes, den // common, holders, den, safe))
    return _force_stage(force, staged, unit_fails, command_fails, prefer)


def _force_stage(
    force: Force,
    staged: list[_Staged],
    unit_fails: dict[str, Rational],
    command_fails: dict[str, Rational],
    prefer: frozenset[str],
) -> Cascade:
    """LD-11, LD-12 across commands, with each command left out in turn."""
    doctrine = force.doctrine
    out_of = 6 ** (doctrine.rerolls + 1)
    floor = _independent_key(force.leaders, prefer)._replace(name="")
    start, before = len(force.units), sum(unit.in_play for unit in force.units)
    # LD-11: losing `bar` units or more this phase makes the force test (if any is left)
    bar = before - min((start - 1) // 2, before - 1)
    befores = [sum(unit.in_play for unit in command.units) for command, *_ in staged]
    count = len(staged)
    total_den = _products([den for _, _, den, *_ in staged])[0][-1]

    def clamp(key: Claim) -> Claim:
        return max(key, floor)

    fail_at: dict[Claim, int] = {}
    for _, outcomes, *_ in staged:
        for _, key in outcomes:
            if clamp(key) != NOBODY:
                fail_at[clamp(key)] = _fail_weight(
                    _target(clamp(key)), doctrine.rerolls, doctrine.ignores
                )[0]
    keys = sorted(fail_at)
    # fail(K) = sum of steps[i] over the thresholds keys[i] >= K
    steps = [
        fail_at[k] - (fail_at[keys[i + 1]] if i + 1 < len(keys) else 0) for i, k in enumerate(keys)
    ]

    # no unit left anywhere: gone, whatever the dice (LD-C7)
    zeros = [sum(w for (left, _), w in outcomes.items() if not left) for _, outcomes, *_ in staged]
    zero_pre, zero_suf = _products(zeros)
    broken = out_of * zero_pre[-1]
    # fail weight of each command's states, over (total_den / den) * out_of
    fail_given: list[States] = [defaultdict(int) for _ in staged]
    for index in range(count):
        for left, key in staged[index].outcomes:
            if not left:  # this command gone too: the force is gone if every other one is
                fail_given[index][left, key] += out_of * zero_pre[index] * zero_suf[index + 1]
    for threshold, step in zip(keys, steps, strict=True):
        if not step:
            continue
        # each command's weights by units lost (`bar` standing for `bar` or more), with
        # its senior figure no higher than the threshold
        arrays, nobody = [], []
        for (_, outcomes, *_), units in zip(staged, befores, strict=True):
            arr, gone = [0] * (bar + 1), 0
            for (left, key), weight in outcomes.items():
                if clamp(key) <= threshold:
                    arr[min(units - left, bar)] += weight
                    gone += 0 if left else weight
            arrays.append(arr)
            nobody.append(gone)
        mass_pre, mass_suf = _products([sum(arr) for arr in arrays])
        nobody_pre, nobody_suf = _products(nobody)
        pre = [[1] + [0] * bar]
        for arr in arrays:
            pre.append(_convolve(pre[-1], arr, bar))
        broken += step * (mass_pre[-1] - sum(pre[-1][:bar]) - nobody_pre[-1])
        suf = [1] + [0] * bar  # the commands after `index`, built backward as we go
        for index in reversed(range(count)):
            cdf = _cumulative(suf)
            others = mass_pre[index] * mass_suf[index + 1]
            nobody_else = nobody_pre[index] * nobody_suf[index + 1]
            for left, key in staged[index].outcomes:
                if clamp(key) > threshold:
                    continue
                lost = befores[index] - left
                weight = others - _at_most(pre[index], cdf, bar - lost - 1)
                fail_given[index][left, key] += step * (weight - (0 if left else nobody_else))
            suf, pre[index] = _convolve(suf, arrays[index], bar), []

    unit_removed, command_removed = {}, {}
    for index, (command, outcomes, den, holders, holders_den, safe) in enumerate(staged):
        whole = total_den // den * out_of  # the weight of everything but this command
        fail = fail_given[index]

        def stays(weights: States, den: int, whole: int = whole, fail: States = fail) -> Rational:
            kept = sum(w * (whole - fail[state]) for state, w in weights.items() if state[0])
            return Rational(kept, den * whole)

        command_removed[command.name] = 1 - stays(outcomes, den)
        for unit in command.units:
            unit_removed[unit.name] = Rational(1)
        for name in safe:
            unit_removed[name] = command_removed[command.name]
        for name, weights in holders.items():
            unit_removed[name] = 1 - stays(weights, holders_den)
    return Cascade(
        unit_fails,
        unit_removed,
        command_fails,
        command_removed,
        Rational(broken, total_den * out_of),
    )


__getattr__ = moved_from(__name__)
