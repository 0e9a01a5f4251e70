"""The exact cascade of one end of phase of "Leadership Tests" (LD-4 to LD-12): the exact
probability that each unit and command leaves the table and that the force breaks.

The rules are `rulesref.leadership`'s; this module only counts, in whole numbers (rolls out
of all equally likely rolls), turned into `sympy.Rational`s at the end. Never over
combinations of test results; over polynomials whose coefficient k is the weight of losing
k units (`rulesref.counts` holds their algebra: products, windows, all but one).

Two commands, worked by hand:

```python
from rulesref.leadership import Command, Force, Unit
from rulesref.odds.cascade import cascade_probabilities

first = Command("1st", [Unit("A", 10, 4), Unit("B", 10, 4)])
second = Command("2nd", [Unit("C", 10, 5), Unit("D", 10, 4), Unit("E", 10, 4)])
odds = cascade_probabilities(Force([first, second]), {"A": 6, "B": 6, "C": 6})
print(odds.unit_fails["C"], odds.command_removed["1st"])  # 1st is gone if A and B fail
#> 2/3 1/4
print(odds.force_breaks, odds.unit_removed["D"])  # D stays unless the force breaks
#> 1/12 1/12
```

A and B each hold on 1 roll of 2 and fail on the other: 1st loses 0, 1 or 2 units in
1, 2, 1 ways of 4, the coefficients of (1 + x)^2. C holds on 1 roll of 3: 2nd loses 0 or
1 unit in 1, 2 ways, 1 + 2x. The force loses k units with the coefficient k of the
product, 1 + 4x + 5x^2 + 2x^3 over 12 rolls; three lost of five is below half (LD-11), so it
tests with weight 2 of 12 and fails that test half the time: 1/12.

- **In a command**, alike testing units (the same dice, the same claim to be the senior
  figure) are counted together: n of them lose k units in C(n, k) ways, the coefficients of
  (hold + fail x)^n. The weights of units lost with the senior figure at most s are one
  product of those polynomials for each s the command may end with (the units with a
  better claim all failed), multiplied by GMP on packed integers.
- **Across commands**, the force fails on the figures it may test on (thresholds) with the
  weight of a polynomial of what every command loses with a senior no better, up to the
  units that make the force test. A command's polynomial changes only at the thresholds
  of its own figures, so the thresholds are halved: on each run, the commands that stay
  the same over the whole run (and not over the run above) are multiplied in once, with
  the sum over the run's thresholds of what the others make (built bottom-up). Going back
  down, what lies outside each command is found for all of them at once
  (`windows_of_all_but_one`; of alike commands, all but one multiplied into what lies
  outside first, so that one window serves them all), as windows only as wide as needed.
  Only thresholds every command can reach are counted.
- **Back down**, the weight that a unit's command and force stay is a sum over the
  command's states; for the states in which one unit holds, its (hold + fail x) factor is
  divided out of the polynomials (exactly), once for each kind of unit.
"""

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import reduce
from math import prod
from typing import NamedTuple

from rulesref.counts import (
    Counts,
    Window,
    all_but_one,
    binomial,
    correlation,
    divided,
    dot,
    polynomial_product,
    times,
    windows_of_all_but_one,
)
from rulesref.dice import probability_of_rolls
from rulesref.errors import RulesError, instance_of
from rulesref.exact import Rational, divexact, gcd
from rulesref.leadership import (
    MAX_CASCADE_TESTS,
    NOBODY,
    Claim,
    Command,
    Doctrine,
    Force,
    Readings,
    below_half,
    failing_rolls,
    independent_claim,
    losses_to_fall_below_half,
    models_left,
    preferred_figures,
    rolls_of_a_test,
    unit_claim,
    unit_target,
)

__all__ = ["Cascade", "cascade_probabilities"]

Polynomial = Sequence[int]  # coefficient k: the weight of losing k units


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
    return Weights(*failing_rolls.unchecked(target, doctrine))


def _anonymous(claim: Claim) -> Claim:
    """A claim told apart by rank, preference and Leadership alone, as the odds need."""
    return claim._replace(name="")


class State(NamedTuple):
    """A command's state after its test: its units left, and its senior figure."""

    units: int
    senior: Claim


States = dict[State, int]  # the weight of each state


class Alike(NamedTuple):
    """Units of a command that test alike: the same dice, the same claim to be senior."""

    weights: Weights
    claim: Claim
    names: tuple[str, ...]


class Level(NamedTuple):
    """The testing units whose claim makes `senior` the command's senior figure (the base
    senior's level also holds the units of no better claim): the weights of their units
    lost, and the weight of every unit of a better claim failing (`weight`, `lost` units),
    without which the senior is no better than `senior`."""

    senior: Claim
    factor: Polynomial
    weight: int
    lost: int


class Rung(NamedTuple):
    """The weights of the units lost to failed tests with the senior figure no better than
    `senior` (cumulative over seniors)."""

    senior: Claim
    at_most: Polynomial


class _Command(NamedTuple):
    """A command as this phase's casualties leave it, before any test."""

    command: Command
    before: int  # units in play at the start of the phase
    wiped: int  # of them, units with no model left (LD-C7)
    base: Claim  # the senior figure that no test can remove
    alike: list[Alike]  # the units that test, by kind
    untested: list[str]  # units with models left that do not test

    @property
    def tests(self) -> int:
        return sum(len(kind.names) for kind in self.alike)


class _Staged(NamedTuple):
    """A command's part of the exact cascade, its units' tests and its own counted."""

    part: _Command
    levels: list[Level]  # its unit stage, over `rolls`
    products: dict[int, Polynomial]  # of the levels up to where a kind of unit holds
    rolls: int
    out_of: int  # the rolls of its own test
    outcomes: States  # (units left, senior figure) after its test, over `den`
    den: int


def _testing(command: Command, after: Mapping[str, int], prefer: frozenset[str]) -> _Command:
    """LD-5, LD-6: which of the command's units test, by kind, and what stands whatever
    the dice."""
    in_play = [unit for unit in command.units if unit.in_play]
    base = _anonymous(independent_claim(command.leaders, prefer))
    kinds: dict[tuple[Weights, Claim], list[str]] = defaultdict(list)
    untested = []
    for unit in in_play:
        claim = _anonymous(unit_claim(unit, command.leaders, prefer))
        if below_half.unchecked(unit.starting, unit.models, after[unit.name]):
            weights = _weights(unit_target(unit, command.leaders), unit.doctrine)
            kinds[weights, claim].append(unit.name)
        elif after[unit.name]:
            base = max(base, claim)
            untested.append(unit.name)
    alike = [Alike(weights, claim, tuple(names)) for (weights, claim), names in kinds.items()]
    wiped = sum(1 for unit in in_play if after[unit.name] == 0)
    return _Command(command, len(in_play), wiped, base, alike, untested)


# The most work the exact cascade takes on, by `_work`'s estimate: about 2 s of CPU and
# 200 MB at the very most (benchmarks/cascade.py --search looks for forces that take more).
MAX_CASCADE_WORK = 4 * 10**9


def _work(commands: Sequence[_Command], keep: bool) -> int:
    """An estimate of the cascade's work, in bits of whole numbers handled. In each
    command: a polynomial of its units lost (tests + 1 coefficients of the bits of its
    rolls) for each senior figure it may end with, made, then read back for each unit.
    Across commands: for each figure a command may end with, windows as long as the tests
    of numbers of the bits of every roll of the force, whose products cost more than their
    length (by the bits over 2**12)."""
    bits, commands_work, seniors = 0, 0, 0
    for part in commands:
        rolls = sum(len(kind.names) * kind.weights.out_of.bit_length() for kind in part.alike)
        claims = 1 if keep else len({kind.claim for kind in part.alike if kind.claim > part.base})
        commands_work += 32 * (claims + 1) * (part.tests + 1) * rolls
        bits, seniors = bits + rolls, seniors + claims + 1
    tests = sum(part.tests for part in commands)
    return commands_work + seniors * tests * bits * bits // 2**12


def _check_size(commands: Sequence[_Command], keep: bool) -> None:
    """The exact cascade answers up to `MAX_CASCADE_TESTS` tests in the force, and up to
    `MAX_CASCADE_WORK` of work (`_work`), refused before any is done."""
    tests = sum(part.tests for part in commands)
    if tests > MAX_CASCADE_TESTS:
        raise RulesError(
            f"casualties must make at most {MAX_CASCADE_TESTS} units take a Break test "
            f"for the exact cascade, got {tests}"
        )
    work = _work(commands, keep)
    if work > MAX_CASCADE_WORK:
        raise RulesError(
            f"casualties must leave the exact cascade at most {MAX_CASCADE_WORK:,} bits of "
            f"work (senior figures, tests and the bits of their re-rolled dice), got "
            f"{work:,} from {tests} tests"
        )


def _binomial(weights: Weights, count: int) -> Polynomial:
    """(hold + fail x)^count: the weights of k failures among `count` alike tests."""
    return binomial(weights.hold, weights.fail, count)


def _levels(part: _Command, keep: bool) -> list[Level]:
    """LD-5 to LD-7 in a command (LD-C5): its units that test, by the senior figure it may
    end with, from the least. A unit that fails takes its figures with it; in the other
    reading of LD-C5 they stay senior, and the best of them all is the senior."""
    if keep:
        senior = max([part.base, *(kind.claim for kind in part.alike)])
        every = [_binomial(kind.weights, len(kind.names)) for kind in part.alike]
        return [Level(senior, polynomial_product(every), 1, 0)]
    seniors = sorted({part.base, *(kind.claim for kind in part.alike if kind.claim > part.base)})
    level = {senior: index for index, senior in enumerate(seniors)}
    factors: list[list[Polynomial]] = [[] for _ in seniors]
    own = [(1, 0)] * len(seniors)  # the units of each claim: the weight all fail, how many
    for kind in part.alike:
        index = level.get(kind.claim, 0)
        factors[index].append(_binomial(kind.weights, len(kind.names)))
        weight, count = own[index]
        own[index] = weight * kind.weights.fail ** len(kind.names), count + len(kind.names)
    all_fail = [(1, 0)]  # the units of every better claim, from the best claim down
    for weight, count in own[:0:-1]:
        all_fail.append((all_fail[-1][0] * weight, all_fail[-1][1] + count))
    return [
        Level(senior, polynomial_product(products), weight, lost)
        for senior, products, (weight, lost) in zip(seniors, factors, all_fail[::-1], strict=True)
    ]


def _firsts(part: _Command, levels: Sequence[Level]) -> dict[Alike, int]:
    """For each kind of unit, the first level it holds on: if it holds, the senior is its
    claim or better, so no level below its claim counts."""
    seniors = [level.senior for level in levels]
    return {kind: bisect_left(seniors, kind.claim) for kind in part.alike}


def _rungs(levels: Sequence[Level], kept: dict[int, Polynomial]) -> Iterator[Rung]:
    """For each senior figure the command may end with, the weights of its units lost with
    a senior no better, one at a time (a senior no better than one whose `weight` is 0 is
    impossible: those levels come first, and make no rung). The product of the levels up
    to each level `kept` asks for is put in it, for the units' stays."""
    at_most: Polynomial = [1]
    for index, (senior, factor, weight, lost) in enumerate(levels):
        at_most = times(at_most, factor)
        if index in kept:
            kept[index] = at_most
        if weight:
            yield Rung(senior, [0] * lost + [weight * w for w in at_most])


def _unit_states(rungs: Iterable[Rung]) -> Iterator[tuple[int, Claim, int]]:
    """(units lost, senior figure, weight) of each state of the unit stage."""
    below: Polynomial = []
    for senior, at_most in rungs:
        for lost, weight in enumerate(at_most):
            exact = weight - (below[lost] if lost < len(below) else 0)
            if exact:
                yield lost, senior, exact
        below = at_most


def _command_tests(part: _Command) -> list[bool]:
    """LD-9, by the units its tests lose: whether the command then takes its own test."""
    units, before = len(part.command.units), part.before
    # none left is no test (below_half says so): the command is gone
    return [
        below_half.unchecked(units, before, left)
        for left in range(before - part.wiped, before - part.wiped - part.tests - 1, -1)
    ]


def _command_stage(part: _Command, rungs: Iterable[Rung], keep: bool) -> tuple[States, int]:
    """LD-9, LD-10 on the unit stage's weights: (units left, senior figure) after the
    command's test, with the weight of failing it. Units left 0 means the command is gone."""
    doctrine, tests = part.command.doctrine, _command_tests(part)
    out_of = rolls_of_a_test.unchecked(doctrine)
    outcomes: States = defaultdict(int)
    fails, fail_on = 0, {}
    for lost, senior, weight in _unit_states(rungs):
        left, gone = part.before - part.wiped - lost, (senior if keep else NOBODY)
        if tests[lost]:
            if senior not in fail_on:
                fail_on[senior] = _weights(senior.target, doctrine).fail
            fail = fail_on[senior]
            outcomes[State(left, senior)] += weight * (out_of - fail)
            outcomes[State(0, gone)] += weight * fail
            fails += weight * fail
        else:
            outcomes[State(left, senior) if left else State(0, gone)] += weight * out_of
    return outcomes, fails


def _stage_command(part: _Command, keep: bool, command_fails: dict[str, Rational]) -> _Staged:
    """A command's units' tests and its own (LD-5 to LD-10, LD-C3), as weights of its
    states after its test."""
    levels = _levels(part, keep)
    rolls = prod(kind.weights.out_of ** len(kind.names) for kind in part.alike)
    products: dict[int, Polynomial] = dict.fromkeys(_firsts(part, levels).values(), [])
    outcomes, fails = _command_stage(part, _rungs(levels, products), keep)
    out_of = rolls_of_a_test.unchecked(part.command.doctrine)
    den = rolls * out_of
    common = int(gcd(den, *outcomes.values()))  # smaller numbers for the force stage
    outcomes = {state: int(divexact(weight, common)) for state, weight in outcomes.items()}
    command_fails[part.command.name] = probability_of_rolls.unchecked(fails, den)
    return _Staged(part, levels, products, rolls, out_of, outcomes, den // common)


def cascade_probabilities(
    force: Force,
    casualties: Mapping[str, int],
    *,
    prefer: Collection[str] = (),
    readings: Readings = Readings(),
) -> Cascade:
    """Exact probabilities that each unit and command is removed and that the force breaks,
    after this phase's `casualties` (LD-4 to LD-12, bottom-up; LD-C3, LD-C4: removals count
    for the level above in the same phase). `prefer` and `readings` as in `resolve_phase`.

    The units that test are limited to `MAX_CASCADE_TESTS` (1000), in any commands.

    ```python
    from rulesref.leadership import Command, Force, Unit
    from rulesref.odds.cascade import cascade_probabilities

    squads = [Unit("A", 10, 4), Unit("B", 10, 4), Unit("C", 10, 5)]
    odds = cascade_probabilities(Force([Command("Platoon", squads)]), {"A": 6, "B": 6})
    print(odds.unit_fails["A"], odds.command_fails["Platoon"], odds.force_breaks)
    #> 1/2 1/6 2/9
    ```
    """
    after = models_left(force, casualties)
    prefer = preferred_figures(force, prefer)
    keep = instance_of("readings", readings, Readings, "a Readings").removed_figures_survive
    commands = [_testing(command, after, prefer) for command in force.commands]
    _check_size(commands, keep)
    unit_fails = {unit.name: Rational(0) for unit in force.units}
    for kind in (kind for part in commands for kind in part.alike):
        unit_fails |= dict.fromkeys(kind.names, Rational(*kind.weights))
    command_fails: dict[str, Rational] = {}
    staged = [_stage_command(part, keep, command_fails) for part in commands]
    return _force_stage(force, staged, unit_fails, command_fails, prefer)


class _ForceTest(NamedTuple):
    """The force's test as the cascade sees it (LD-11)."""

    out_of: int  # all the rolls of its d6 and re-rolls
    floor: Claim  # its own independent leaders: the senior figure at the least
    bar: int  # losing this many units or more this phase makes it test


class Threshold(NamedTuple):
    """A senior figure the force may test on, and the rolls by which failing is likelier
    on it than on the next better one: the force fails on a senior `s` with the weight of
    the steps of every threshold at or above `s`."""

    senior: Claim
    step: int


def _force_test(force: Force, prefer: frozenset[str]) -> _ForceTest:
    start, before = len(force.units), sum(unit.in_play for unit in force.units)
    bar = losses_to_fall_below_half.unchecked(start, before)  # LD-11, if any unit is left
    floor = _anonymous(independent_claim(force.leaders, prefer))
    out_of = rolls_of_a_test.unchecked(force.doctrine)
    return _ForceTest(out_of, floor, bar)


def _thresholds(force: Force, test: _ForceTest, staged: Sequence[_Staged]) -> list[Threshold]:
    """The seniors the force may test on, each with its step; none below the least senior
    that every command can end with (below it, some command is always above the threshold)."""
    fail_at: dict[Claim, int] = {}
    for part in staged:
        for state in part.outcomes:
            senior = max(state.senior, test.floor)
            if senior != NOBODY:
                fail_at[senior] = _weights(senior.target, force.doctrine).fail
    seniors = sorted(fail_at)
    steps = [fail_at[s] - fail_at[t] for s, t in zip(seniors, seniors[1:], strict=False)]
    steps += [fail_at[seniors[-1]]] if seniors else []
    reached = max(min(max(s.senior, test.floor) for s in part.outcomes) for part in staged)
    return [
        Threshold(senior, step)
        for senior, step in zip(seniors, steps, strict=True)
        if step and senior >= reached
    ]


def _nothing_left(test: _ForceTest, staged: Sequence[_Staged]) -> int:
    """LD-C7: no unit left anywhere, the force is gone whatever the dice: the weight of
    that."""
    zeros = [sum(w for state, w in part.outcomes.items() if not state.units) for part in staged]
    return test.out_of * prod(zeros)


class Piece(NamedTuple):
    """A command's states that count on a run of thresholds (their senior no better than
    `upto`, the run's first): their weights by units lost below the bar, all their weight,
    and the weight of the emptied ones among them."""

    upto: Claim
    below_bar: Counts
    mass: int
    gone: int


Span = list[tuple[int, Piece]]  # a command's pieces on a run: (first threshold, piece)


def _pieces(test: _ForceTest, part: _Staged, thresholds: Sequence[Threshold]) -> Span:
    """The command's states with a senior no better than each threshold: a new piece only
    at the thresholds where some state joins."""
    by_level = sorted(
        (max(state.senior, test.floor), part.part.before - state.units, state.units, weight)
        for state, weight in part.outcomes.items()
    )
    span: Span = []
    below_bar, mass, gone, most, joined = [0] * test.bar, 0, 0, 0, 0
    for index, threshold in enumerate(thresholds):
        first = joined
        while joined < len(by_level) and by_level[joined][0] <= threshold.senior:
            _, lost, left, weight = by_level[joined]
            if lost < test.bar:
                below_bar[lost], most = below_bar[lost] + weight, max(most, lost)
            mass, gone, joined = mass + weight, gone + (0 if left else weight), joined + 1
        if joined > first or not span:
            piece = Piece(
                threshold.senior, Counts(0, tuple(below_bar[: most + 1])).stripped(), mass, gone
            )
            span.append((index, piece))
    return span


class Node(NamedTuple):
    """A run of thresholds in the halving. `merged`: the pieces (command index, piece) of
    the commands that change in the run above but not in this one (at the top: that never
    change). `inner`: the sum over
    the run's thresholds of the step times the product of the pieces of the commands that
    change in this run (below the bar), with the same for their masses and emptied weights."""

    merged: list[tuple[int, Piece]]
    halves: list["Node"]
    inner: Counts
    inner_mass: int
    inner_gone: int


def _inner(halves: Sequence[Node], top: int) -> Counts:
    """The sum over the halves of the product of their merged pieces and their `inner`,
    below the bar `top`."""
    terms = []
    for half in halves:
        factors = [piece.below_bar for _, piece in half.merged] + [half.inner]
        shift = sum(factor.low for factor in factors)
        if shift < top:
            weights = polynomial_product([f.weights for f in factors], top - shift)
            terms.append(Counts(shift, tuple(weights)))
    return reduce(Counts.plus, terms) if terms else Counts(top, (0,))  # none: nothing below the bar


def _node(low: int, high: int, spans: list[tuple[int, Span]], steps: list[int], top: int) -> Node:
    """The halving of the thresholds from `low` to `high` (excluded), for the commands that
    change in the run above (all of them at the top), each with its pieces on this run."""
    merged = [(index, span[0][1]) for index, span in spans if len(span) == 1]
    changing = [(index, span) for index, span in spans if len(span) > 1]
    if high - low == 1:  # one threshold: nothing changes
        return Node(merged, [], Counts(0, (steps[low],)), steps[low], steps[low])
    middle = (low + high) // 2
    left = [(index, [p for p in span if p[0] < middle]) for index, span in changing]
    right = [
        (index, [p for p in span if p[0] <= middle][-1:] + [p for p in span if p[0] > middle])
        for index, span in changing
    ]
    halves = [_node(low, middle, left, steps, top), _node(middle, high, right, steps, top)]
    mass = sum(prod(p.mass for _, p in half.merged) * half.inner_mass for half in halves)
    gone = sum(prod(p.gone for _, p in half.merged) * half.inner_gone for half in halves)
    return Node(merged, halves, _inner(halves, top), mass, gone)


class Outer(NamedTuple):
    """What lies outside a run's commands: the pieces merged above it, multiplied."""

    window: Window  # cumulative weights by units lost, as far below the bar as matters
    mass: int
    gone: int


def _others_of_kind(
    kinds: Sequence[Sequence[tuple[int, Piece]]], top: int
) -> tuple[Counts, int, int]:
    """For alike pieces (the same weights) merged at a run, the product of all of them but
    one of each kind (below the bar, its mass, its emptied weight): a factor of the outside
    of every piece of the run, made once."""
    powers = [(members[0][1], len(members) - 1) for members in kinds]
    shift = sum(piece.below_bar.low * count for piece, count in powers)
    polynomials = [piece.below_bar.weights for piece, count in powers for _ in range(count)]
    return (
        Counts(shift, tuple(polynomial_product(polynomials, max(top - shift, 1)))),
        prod(piece.mass**count for piece, count in powers),
        prod(piece.gone**count for piece, count in powers),
    )


def _kinds(merged: Sequence[tuple[int, Piece]]) -> list[list[tuple[int, Piece]]]:
    """The merged pieces, alike ones (the same weights) together."""
    kinds: dict[tuple[object, ...], list[tuple[int, Piece]]] = defaultdict(list)
    for index, piece in merged:
        kinds[piece.below_bar, piece.mass, piece.gone].append((index, piece))
    return list(kinds.values())


class Outside(NamedTuple):
    """What lies outside one of a command's pieces on a run of thresholds: the other
    commands' cumulative weights by units lost, and all their weight."""

    upto: Claim  # the piece's senior
    window: Window
    mass: int


Outsides = list[Outside]  # a command's pieces, each with what lies outside it


def _add_breaks(part: _Staged, outsides: Outsides, test: _ForceTest, fail: States) -> None:
    """Adds to each of the command's states with units left the weight with which the
    force breaks with it: over each piece the state is in (its senior no better than the
    piece's), what the other commands lose then brings the force to the bar. Summed by
    units lost first, then over pieces from the best senior down, so that a state takes
    one sum. (An emptied command is off the table whatever the force does.)"""
    before = part.part.before
    states = sorted(
        (max(state.senior, test.floor), before - state.units, state)
        for state in part.outcomes
        if state.units
    )
    every_loss = sorted({lost for _, lost, _ in states})
    column_of = {lost: column for column, lost in enumerate(every_loss)}
    seniors = sorted({outside.upto for outside in outsides})
    in_piece: dict[Claim, list[int]] = {}  # the units lost of the states in each piece
    losses: set[int] = set()
    joined = 0
    for upto in seniors:
        while joined < len(states) and states[joined][0] <= upto:
            losses.add(states[joined][1])
            joined += 1
        in_piece[upto] = sorted(losses)
    rows = {upto: [0] * len(column_of) for upto in seniors}  # by units lost
    for upto, window, mass in outsides:
        row = rows[upto]
        for lost in in_piece[upto]:
            row[column_of[lost]] += mass - window.fewer(test.bar - lost)
    for better, worse in zip(seniors[::-1], seniors[-2::-1], strict=False):  # and above
        rows[worse] = [w + b for w, b in zip(rows[worse], rows[better], strict=True)]
    for level, lost, state in states:
        first = bisect_left(seniors, level)
        if first < len(seniors):
            fail[state] += rows[seniors[first]][column_of[lost]]


def _down(node: Node, outer: Outer, test: _ForceTest, outsides: list[Outsides]) -> int:
    """LD-11, LD-12 on a run of thresholds: note for each merged command's piece what lies
    outside it on the run's thresholds, then go down the halves. Returns the weight with
    which the force breaks on the run."""
    kinds = _kinds(node.merged)
    rest, rest_mass, rest_gone = _others_of_kind(kinds, test.bar)
    pieces = [members[0][1] for members in kinds]
    leaves = [piece.below_bar for piece in pieces] + [node.inner]
    windows = windows_of_all_but_one(leaves, test.bar, outer.window, rest)
    masses = all_but_one([piece.mass for piece in pieces] + [node.inner_mass])
    mass = outer.mass * rest_mass
    for members, window, others in zip(kinds, windows[:-1], masses[:-1], strict=True):
        for index, piece in members:
            outsides[index].append(Outside(piece.upto, window, mass * others))
    gone = outer.gone * rest_gone * prod(piece.gone for piece in pieces)
    inside = Outer(windows[-1], mass * masses[-1], gone)
    for half in node.halves:
        _down(half, inside, test, outsides)
    lost = range(node.inner.low, node.inner.low + len(node.inner.weights))
    fewer = dot(node.inner.weights, [inside.window.fewer(test.bar - k) for k in lost])
    return inside.mass * node.inner_mass - inside.gone * node.inner_gone - fewer


def _stay_values(
    part: _Staged, level: Level, tests: Sequence[bool], fail: States, whole: int
) -> list[int]:
    """By units lost, with the senior figure at the level: the weight that the command then
    stays on the table and the force holds (over `whole` for the force, and the rolls of
    the command's test); `tests`: whether it takes its own test, by units lost."""
    command, row = part.part, []
    holds_its_test = part.out_of - _weights(level.senior.target, command.command.doctrine).fail
    for lost, its_test in enumerate(tests):
        left = command.before - command.wiped - lost
        holds = holds_its_test if its_test else part.out_of
        row.append(holds * (whole - fail.get(State(left, level.senior), 0)) if left else 0)
    return row


def _from_each_level(
    part: _Staged, fail: States, whole: int, wanted: set[int]
) -> dict[int, list[int]]:
    """At each wanted level j: what a polynomial p of the units lost at that level (as the
    product of the levels up to j) meets in the states of the levels from j up, so that
    `dot(p, ...)` is the sum over those states of their weights (p times the levels above,
    with a rung's weight and shift) by their stay values, less the same a level up."""
    levels, found, tests = part.levels, {}, _command_tests(part.part)
    above: list[int] = [0] * (part.part.tests + 1)
    summed: list[int] = []  # over the levels above, in the units lost of the one below
    for index in reversed(range(len(levels))):
        level = levels[index]
        length = part.part.tests + 1 - level.lost
        if index + 1 < len(levels):
            summed = correlation(levels[index + 1].factor, summed, length)
        else:
            summed = [0] * length
        if level.weight:
            row = _stay_values(part, level, tests, fail, whole)
            rises = [
                level.weight * (v - w)
                for v, w in zip(row[level.lost :], above[level.lost :], strict=True)
            ]
            summed = [s + r for s, r in zip(summed, rises, strict=True)]
            above = row
        if index in wanted:
            found[index] = summed
    return found


def _stays(part: _Staged, fail: States, whole: int) -> tuple[int, dict[str, int]]:
    """The weight that the command stays (over its rolls, its test's and `whole`), and the
    same for each of its testing units, which must also hold its own test: summed from the
    best senior down (`correlation`), never rung by rung over every state."""
    first = _firsts(part.part, part.levels)
    sums = _from_each_level(part, fail, whole, {0, *first.values()})
    command = dot(part.levels[0].factor, sums[0])
    units: dict[str, int] = {}
    for kind, index in first.items():
        quotient = divided(part.products[index], kind.weights.hold, kind.weights.fail)
        units |= dict.fromkeys(kind.names, kind.weights.hold * dot(quotient, sums[index]))
    return command, units


def _removals(
    test: _ForceTest, staged: Sequence[_Staged], fail_given: list[States]
) -> tuple[dict[str, Rational], dict[str, Rational]]:
    """The probability that each unit and each command is off the table at the end."""
    total_den = prod(part.den for part in staged)
    unit_removed: dict[str, Rational] = {}
    command_removed: dict[str, Rational] = {}
    for part, fail in zip(staged, fail_given, strict=True):
        whole = total_den // part.den * test.out_of  # the weight of everything but this command
        stays, units = _stays(part, fail, whole)
        den = part.rolls * part.out_of * whole
        name = part.part.command.name
        command_removed[name] = probability_of_rolls.unchecked(den - stays, den)
        unit_removed |= {unit.name: Rational(1) for unit in part.part.command.units}
        unit_removed |= dict.fromkeys(part.part.untested, command_removed[name])
        unit_removed |= {
            unit: probability_of_rolls.unchecked(den - weight, den)
            for unit, weight in units.items()
        }
    return unit_removed, command_removed


def _force_stage(
    force: Force,
    staged: list[_Staged],
    unit_fails: dict[str, Rational],
    command_fails: dict[str, Rational],
    prefer: frozenset[str],
) -> Cascade:
    """LD-11, LD-12 across commands, then back down to each command and unit."""
    test = _force_test(force, prefer)
    broken = _nothing_left(test, staged)
    fail_given: list[States] = [defaultdict(int) for _ in staged]
    thresholds = _thresholds(force, test, staged)
    if thresholds:
        spans = [(index, _pieces(test, part, thresholds)) for index, part in enumerate(staged)]
        root = _node(0, len(thresholds), spans, [t.step for t in thresholds], test.bar)
        leaves = [piece.below_bar for _, piece in root.merged] + [root.inner]
        nothing = Outer(Window.of_one(leaves, test.bar), 1, 1)
        outsides: list[Outsides] = [[] for _ in staged]
        broken += _down(root, nothing, test, outsides)
        for part, part_outsides, fail in zip(staged, outsides, fail_given, strict=True):
            _add_breaks(part, part_outsides, test, fail)
    unit_removed, command_removed = _removals(test, staged, fail_given)
    total = prod(part.den for part in staged) * test.out_of
    return Cascade(
        unit_fails,
        unit_removed,
        command_fails,
        command_removed,
        probability_of_rolls.unchecked(broken, total),
    )
