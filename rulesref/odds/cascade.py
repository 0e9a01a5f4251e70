"""The exact cascade of one end of phase of "Leadership Tests" (LD-4 to LD-12): the exact
probability that each unit and command leaves the table and that the force breaks.

The rules are `rulesref.leadership`'s; this module only counts. Dynamic programming over
counts, never over combinations of test results: within a command over (units lost, senior
figure); across commands over the units the force has lost (capped where the force must
test), once for each Leadership the force could end up testing on, with each command left
out in turn (prefix and suffix sums) for the odds of what lies above it. Weights are whole
numbers (rolls out of all equally likely rolls), turned into `sympy.Rational`s at the end.

```python
from rulesref.leadership import Command, Force, Unit
from rulesref.odds.cascade import cascade_probabilities

squads = [Unit("A", 10, "4+"), Unit("B", 10, "4+")]
odds = cascade_probabilities(Force([Command("Platoon", squads)]), {"A": 6})
print(odds.unit_removed, odds.force_breaks)  # one of two squads is not below half
#> {'A': 1/2, 'B': 0} 0
```
"""

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from math import gcd
from operator import mul
from typing import NamedTuple

from sympy import Rational

from rulesref.errors import RulesError, instance_of
from rulesref.leadership import (
    MAX_CASCADE_COMMAND_TESTS,
    MAX_CASCADE_TESTS,
    NOBODY,
    READINGS,
    Claim,
    Command,
    Doctrine,
    Force,
    Readings,
    Unit,
    _after,
    _below_half,
    _independent_key,
    _preferred,
    _target,
    _unit_key,
    _unit_target,
)

__all__ = ["Cascade", "cascade_probabilities"]


@dataclass(frozen=True)
class Cascade:
    """The exact odds of one end of phase (LD-4 to LD-12), by unit, command and force.

    `unit_fails` and `command_fails`: the probability of failing its own Break test (0 when
    it does not test). `unit_removed` and `command_removed`: the probability of being off
    the board when the phase is over, for whatever reason: its own test, its command's, the
    force's (LD-12 removes everything), or no model left. `force_breaks`: the probability
    that the force fails its test or has no unit left, and the side loses.
    """

    unit_fails: Mapping[str, Rational]
    unit_removed: Mapping[str, Rational]
    command_fails: Mapping[str, Rational]
    command_removed: Mapping[str, Rational]
    force_breaks: Rational


class Weights(NamedTuple):
    """A test's dice as whole numbers: the rolls on which it fails for good, of all the
    equally likely rolls of a d6 and its re-rolls (LD-7, LD-C6)."""

    fail: int
    out_of: int

    @property
    def hold(self) -> int:
        return self.out_of - self.fail


def _weights(target: int, doctrine: Doctrine) -> Weights:
    fail = 0 if doctrine.ignores else (target - 1) ** (doctrine.rerolls + 1)
    return Weights(fail, 6 ** (doctrine.rerolls + 1))


def _anonymous(claim: Claim) -> Claim:
    """A claim told apart by rank, preference and Leadership alone, as the odds need."""
    return claim._replace(name="")


class State(NamedTuple):
    """A command's state in the cascade: its units lost (or left), and its senior figure."""

    units: int
    senior: Claim


States = dict[State, int]  # the weight of each state


class Tester(NamedTuple):
    """A unit that takes a Break test this phase, on `target`, with its figures' claim."""

    unit: Unit
    target: int
    claim: Claim


class _Staged(NamedTuple):
    """A command's part of the exact cascade, its units' tests and its own done."""

    command: Command
    outcomes: States  # (units left, senior figure), over `den`
    den: int
    holders: dict[str, States]  # a testing unit's weights of holding, over `holders_den`
    holders_den: int
    safe: list[str]  # its units with models left that do not test


class _Command(NamedTuple):
    """A command as this phase's casualties leave it, before any test."""

    command: Command
    before: int  # units in play at the start of the phase
    wiped: int  # of them, units with no model left (LD-C7)
    base: Claim  # the senior figure that no test can remove
    testers: list[Tester]
    untested: list[str]  # units with models left that do not test


def _testing(command: Command, after: Mapping[str, int], prefer: frozenset[str]) -> _Command:
    """LD-5, LD-6: which of the command's units test, and what stands whatever the dice."""
    in_play = [unit for unit in command.units if unit.in_play]
    base = _anonymous(_independent_key(command.leaders, prefer))
    testers, untested = [], []
    for unit in in_play:
        claim = _anonymous(_unit_key(unit, command.leaders, prefer))
        if _below_half(unit.starting, unit.current, after[unit.name]):
            testers.append(Tester(unit, _unit_target(unit, command.leaders), claim))
        elif after[unit.name]:
            base = max(base, claim)
            untested.append(unit.name)
    wiped = sum(1 for unit in in_play if after[unit.name] == 0)
    return _Command(command, len(in_play), wiped, base, testers, untested)


def _check_size(commands: Sequence[_Command]) -> None:
    """The exact cascade answers up to `MAX_CASCADE_TESTS` tests, and per command
    `MAX_CASCADE_COMMAND_TESTS`."""
    tests = 0
    for part in commands:
        tests += len(part.testers)
        if tests > MAX_CASCADE_TESTS or len(part.testers) > MAX_CASCADE_COMMAND_TESTS:
            raise RulesError(
                f"casualties must make at most {MAX_CASCADE_TESTS} units take a Break test, "
                f"at most {MAX_CASCADE_COMMAND_TESTS} in a command, for the exact cascade, "
                f"got {tests} so far, {len(part.testers)} in command {part.command.name!r}"
            )


def _unit_stage(
    base: Claim, testers: Sequence[Tester], keep: bool, holding: Unit | None = None
) -> tuple[States, int]:
    """Joint weights of (units lost to failed tests, senior surviving figure) of a command,
    one testing unit at a time; `holding` counts only the rolls on which that unit holds."""
    states: States = {State(0, base): 1}
    rolls = 1
    for unit, target, claim in testers:
        weights = _weights(target, unit.doctrine)
        fail = 0 if unit is holding else weights.fail
        new: States = defaultdict(int)
        for (lost, senior), weight in states.items():
            if weights.hold:
                new[State(lost, max(senior, claim))] += weight * weights.hold
            if fail:
                new[State(lost + 1, max(senior, claim) if keep else senior)] += weight * fail
        states, rolls = new, rolls * weights.out_of
    return states, rolls


def _command_stage(states: States, part: _Command, keep: bool) -> tuple[States, int, int]:
    """LD-9, LD-10 on the unit stage's weights: (units left, senior figure) after the
    command's test, with the weight of failing it. Units left 0 means the command is gone."""
    command = part.command
    out_of = 6 ** (command.doctrine.rerolls + 1)
    outcomes: States = defaultdict(int)
    fails = 0
    for (lost, senior), weight in states.items():
        left, gone = part.before - part.wiped - lost, (senior if keep else NOBODY)
        if left and _below_half(len(command.units), part.before, left):
            fail = _weights(_target(senior), command.doctrine).fail
            outcomes[State(left, senior)] += weight * (out_of - fail)
            outcomes[State(0, gone)] += weight * fail
            fails += weight * fail
        else:
            outcomes[State(left, senior) if left else State(0, gone)] += weight * out_of
    return outcomes, fails, out_of


def _stage_command(part: _Command, keep: bool, command_fails: dict[str, Rational]) -> _Staged:
    """A command's units' tests and its own (LD-5 to LD-10, LD-C3), as weights of its
    states, and for each testing unit the weights of the states in which it holds."""
    states, rolls = _unit_stage(part.base, part.testers, keep)
    outcomes, fails, out_of = _command_stage(states, part, keep)
    holders = {
        tester.unit.name: _command_stage(
            _unit_stage(part.base, part.testers, keep, holding=tester.unit)[0], part, keep
        )[0]
        for tester in part.testers
    }
    den = rolls * out_of
    common = gcd(den, *outcomes.values())  # smaller numbers for the force stage
    outcomes = {state: weight // common for state, weight in outcomes.items()}
    command_fails[part.command.name] = Rational(fails, den)
    return _Staged(part.command, outcomes, den // common, holders, den, part.untested)


def cascade_probabilities(
    force: Force,
    casualties: Mapping[str, int],
    *,
    prefer: Collection[str] = (),
    readings: Readings = READINGS,
) -> Cascade:
    """Exact probabilities that each unit and command is removed and that the force breaks,
    after this phase's `casualties` (LD-4 to LD-12, bottom-up; LD-C3, LD-C4: removals count
    for the level above in the same phase). `prefer` and `readings` as in `resolve_phase`.

    Polynomial in the size of the force; the units that test are limited to
    `MAX_CASCADE_TESTS`, and `MAX_CASCADE_COMMAND_TESTS` in a command.

    ```python
    from rulesref.leadership import Command, Force, Unit
    from rulesref.odds.cascade import cascade_probabilities

    squads = [Unit("A", 10, "4+"), Unit("B", 10, "4+"), Unit("C", 10, "5+")]
    odds = cascade_probabilities(Force([Command("Platoon", squads)]), {"A": 6, "B": 6})
    print(odds.unit_fails["A"], odds.command_fails["Platoon"], odds.force_breaks)
    #> 1/2 1/6 2/9
    ```
    """
    after = _after(force, casualties)
    prefer = _preferred(force, prefer)
    keep = instance_of("readings", readings, Readings, "a Readings").removed_figures_survive
    commands = [_testing(command, after, prefer) for command in force.commands]
    _check_size(commands)
    unit_fails = {unit.name: Rational(0) for unit in force.units}
    for tester in (tester for part in commands for tester in part.testers):
        weights = _weights(tester.target, tester.unit.doctrine)
        unit_fails[tester.unit.name] = Rational(weights.fail, weights.out_of)
    command_fails: dict[str, Rational] = {}
    staged = [_stage_command(part, keep, command_fails) for part in commands]
    return _force_stage(force, staged, unit_fails, command_fails, prefer)


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


class _ForceTest(NamedTuple):
    """The force's test as the cascade sees it (LD-11)."""

    out_of: int  # all the rolls of its d6 and re-rolls
    floor: Claim  # its own independent leaders: the senior figure at the least
    bar: int  # losing this many units or more this phase makes it test
    befores: list[int]  # each command's units in play at the start of the phase


class Threshold(NamedTuple):
    """A senior figure the force may test on, and the rolls by which failing is likelier
    on it than on the next better one: the force fails on a senior `s` with the weight of
    the steps of every threshold at or above `s`."""

    senior: Claim
    step: int


def _force_test(force: Force, staged: Sequence[_Staged], prefer: frozenset[str]) -> _ForceTest:
    start, before = len(force.units), sum(unit.in_play for unit in force.units)
    bar = before - min((start - 1) // 2, before - 1)  # LD-11, if any unit is left
    befores = [sum(unit.in_play for unit in part.command.units) for part in staged]
    floor = _anonymous(_independent_key(force.leaders, prefer))
    return _ForceTest(6 ** (force.doctrine.rerolls + 1), floor, bar, befores)


def _thresholds(force: Force, test: _ForceTest, staged: Sequence[_Staged]) -> list[Threshold]:
    fail_at: dict[Claim, int] = {}
    for part in staged:
        for state in part.outcomes:
            senior = max(state.senior, test.floor)
            if senior != NOBODY:
                fail_at[senior] = _weights(_target(senior), force.doctrine).fail
    seniors = sorted(fail_at)
    steps = [fail_at[s] - fail_at[t] for s, t in zip(seniors, seniors[1:], strict=False)]
    steps += [fail_at[seniors[-1]]] if seniors else []
    return [Threshold(s, step) for s, step in zip(seniors, steps, strict=True) if step]


def _nothing_left(test: _ForceTest, staged: Sequence[_Staged]) -> tuple[int, list[States]]:
    """LD-C7: no unit left anywhere, the force is gone whatever the dice. The weight of
    that, and for each command's emptied states the weight that every other one is empty
    too (over the weight of everything but that command)."""
    zeros = [sum(w for state, w in part.outcomes.items() if not state.units) for part in staged]
    zero_pre, zero_suf = _products(zeros)
    fail_given: list[States] = [defaultdict(int) for _ in staged]
    for index, part in enumerate(staged):
        for state in part.outcomes:
            if not state.units:
                fail_given[index][state] += test.out_of * zero_pre[index] * zero_suf[index + 1]
    return test.out_of * zero_pre[-1], fail_given


def _lost_up_to(
    test: _ForceTest, staged: Sequence[_Staged], threshold: Threshold
) -> tuple[list[list[int]], list[int]]:
    """Each command's weights by units lost (`bar` standing for `bar` or more) with its
    senior figure no higher than the threshold, and the weight of its emptied states."""
    arrays, nobody = [], []
    for part, units in zip(staged, test.befores, strict=True):
        arr, gone = [0] * (test.bar + 1), 0
        for (left, senior), weight in part.outcomes.items():
            if max(senior, test.floor) <= threshold.senior:
                arr[min(units - left, test.bar)] += weight
                gone += 0 if left else weight
        arrays.append(arr)
        nobody.append(gone)
    return arrays, nobody


def _at_threshold(
    test: _ForceTest, staged: Sequence[_Staged], threshold: Threshold, fail_given: list[States]
) -> int:
    """LD-11, LD-12 for one threshold: the weight with which the force breaks on it, and
    the same for each command's states, added to `fail_given`."""
    bar = test.bar
    arrays, nobody = _lost_up_to(test, staged, threshold)
    mass_pre, mass_suf = _products([sum(arr) for arr in arrays])
    nobody_pre, nobody_suf = _products(nobody)
    pre = [[1] + [0] * bar]
    for arr in arrays:
        pre.append(_convolve(pre[-1], arr, bar))
    suf = [1] + [0] * bar  # the commands after `index`, built backward as we go
    for index in reversed(range(len(staged))):
        cdf = _cumulative(suf)
        others = mass_pre[index] * mass_suf[index + 1]
        nobody_else = nobody_pre[index] * nobody_suf[index + 1]
        for left, senior in staged[index].outcomes:
            if max(senior, test.floor) > threshold.senior:
                continue
            lost = test.befores[index] - left
            weight = others - _at_most(pre[index], cdf, bar - lost - 1)
            weight -= 0 if left else nobody_else
            fail_given[index][State(left, senior)] += threshold.step * weight
        suf, pre[index] = _convolve(suf, arrays[index], bar), []
    return threshold.step * (mass_pre[-1] - sum(pre[-1][:bar]) - nobody_pre[-1])


def _removals(
    staged: Sequence[_Staged], fail_given: list[States], total_den: int, out_of: int
) -> tuple[dict[str, Rational], dict[str, Rational]]:
    """The probability that each unit and each command is off the table at the end."""
    unit_removed: dict[str, Rational] = {}
    command_removed: dict[str, Rational] = {}
    for part, fail in zip(staged, fail_given, strict=True):
        whole = total_den // part.den * out_of  # the weight of everything but this command

        def stays(weights: States, den: int, whole: int = whole, fail: States = fail) -> Rational:
            kept = sum(w * (whole - fail[state]) for state, w in weights.items() if state.units)
            return Rational(kept, den * whole)

        name = part.command.name
        command_removed[name] = 1 - stays(part.outcomes, part.den)
        unit_removed |= {unit.name: Rational(1) for unit in part.command.units}
        unit_removed |= dict.fromkeys(part.safe, command_removed[name])
        for unit, weights in part.holders.items():
            unit_removed[unit] = 1 - stays(weights, part.holders_den)
    return unit_removed, command_removed


def _force_stage(
    force: Force,
    staged: list[_Staged],
    unit_fails: dict[str, Rational],
    command_fails: dict[str, Rational],
    prefer: frozenset[str],
) -> Cascade:
    """LD-11, LD-12 across commands, with each command left out in turn."""
    test = _force_test(force, staged, prefer)
    broken, fail_given = _nothing_left(test, staged)
    for threshold in _thresholds(force, test, staged):
        broken += _at_threshold(test, staged, threshold, fail_given)
    total_den = _products([part.den for part in staged])[0][-1]
    unit_removed, command_removed = _removals(staged, fail_given, total_den, test.out_of)
    return Cascade(
        unit_fails,
        unit_removed,
        command_fails,
        command_removed,
        Rational(broken, total_den * test.out_of),
    )
