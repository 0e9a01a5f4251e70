"""The "Leadership Tests" rules (LD-1 to LD-12, clarifications LD-C1 to LD-C10): single
tests against dice enumeration, the exact cascade against a brute-force enumeration
through the rolled resolver, a seeded simulation, and hypothesis properties."""

import random
import re
import time
from itertools import product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sympy import Rational

from rulesref.clauses import CLAUSES, Document
from rulesref.errors import RulesError
from rulesref.leadership import (
    MAX_CASCADE_TESTS,
    Command,
    Doctrine,
    Force,
    Leader,
    Level,
    Readings,
    Unit,
    below_half,
    best_leadership,
    break_test_trigger,
    command_must_test,
    failing_rolls,
    force_must_test,
    leadership_target,
    leadership_test_probability,
    losses_to_fall_below_half,
    must_take_break_test,
    resolve_phase,
    rolls_of_a_test,
)
from rulesref.leadership import Test as Rolled  # not named Test*: pytest would collect it
from rulesref.odds.cascade import Cascade, cascade_probabilities
from rulesref.views.chain_of_command import chain_of_command_svg

OTHER = Readings(removed_figures_survive=True)  # LD-C5's other reading

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def b_company() -> tuple[Force, dict[str, int]]:
    """The page's worked example: two platoons under a company commander."""
    first = Command(
        "1st Platoon",
        [
            Unit("1st HQ", 4, 4),
            Unit("1st Squad", 10, best_leadership(["5+", "4+"])),
            Unit("2nd Squad", 10, best_leadership(["5+", "4+"]), current=7),
            Unit("3rd Squad", 10, 5, current=6, removed=True),
        ],
        [Leader("Lt Ames", 3, rank=2, unit="1st HQ")],
    )
    second = Command(
        "2nd Platoon",
        [
            Unit("4th Squad", 10, 4, current=4),
            Unit("5th Squad", 10, 4),
            Unit("6th Squad", 10, 4, current=0),
            Unit("MG Team", 3, 4, doctrine=Doctrine(rerolls=1, name="Dug In")),
        ],
        [Leader("Lt Brody", 4, rank=2)],
    )
    force = Force([first, second], [Leader("Capt Hale", 3, rank=3)], name="B Company")
    casualties = {"1st HQ": 4, "1st Squad": 7, "2nd Squad": 3, "4th Squad": 1, "MG Team": 2}
    return force, casualties


def doctrines(force: Force) -> dict:
    return (
        {unit.name: unit.doctrine for unit in force.units}
        | {command.name: command.doctrine for command in force.commands}
        | {force.name: force.doctrine}
    )


def brute_force(force: Force, casualties: dict, **options) -> dict:
    """Every combination of held and failed tests, each rolled through `resolve_phase`.

    A held test is rolled as a 6, a failed one as 1s (every re-roll too). Testers that did
    not test must be marked held, so each outcome is counted once. Returns, for each name,
    the chance of being off the board at the end (or of failing its own test), and the
    chance that the force breaks.
    """
    rules = doctrines(force)
    units = [u.name for u in force.units if u.in_play and casualties.get(u.name, 0)]
    testers = units + [c.name for c in force.commands] + [force.name]
    removed = dict.fromkeys(rules, Rational(0))
    fails = dict.fromkeys(rules, Rational(0))
    broken = total = Rational(0)
    for held in product((True, False), repeat=len(testers)):
        dice = {
            name: [6] if ok else [1] * (rules[name].rerolls + 1)
            for name, ok in zip(testers, held, strict=True)
        }
        result = resolve_phase(force, casualties, dice, **options)
        tested = {test.who: test for test in result.tests}
        if not all(ok for name, ok in zip(testers, held, strict=True) if name not in tested):
            continue
        weight = Rational(1)
        for test in result.tests:
            p = leadership_test_probability(test.target, rerolls=rules[test.who].rerolls)
            weight *= p if test.passed else 1 - p
        total += weight
        gone = {removal.who for removal in result.removed}
        for name in rules:
            if name in gone or result.force_broken or not _in_play(force, name):
                removed[name] += weight
            if name in tested and not tested[name].holds:
                fails[name] += weight
        broken += weight if result.force_broken else 0
    assert total == 1
    return {"removed": removed, "fails": fails, "broken": broken}


def _in_play(force: Force, name: str) -> bool:
    for command in force.commands:
        if command.name == name:
            return any(unit.in_play for unit in command.units)
        for unit in command.units:
            if unit.name == name:
                return unit.in_play
    return True


def assert_agrees(force: Force, casualties: dict, **options) -> Cascade:
    odds = cascade_probabilities(force, casualties, **options)
    expected = brute_force(force, casualties, **options)
    assert odds.force_breaks == expected["broken"]
    for unit in force.units:
        assert odds.unit_removed[unit.name] == expected["removed"][unit.name], unit.name
        assert odds.unit_fails[unit.name] == expected["fails"][unit.name], unit.name
    for command in force.commands:
        assert odds.command_removed[command.name] == expected["removed"][command.name]
        assert odds.command_fails[command.name] == expected["fails"][command.name]
    return odds


ROOT = Path(__file__).resolve().parent.parent


def test_every_ld_clause_is_implemented_and_tested():
    """Each clause LD-n names its place in the code and a test here (LD-Cn too)."""
    clauses = [entry.id for entry in CLAUSES.values() if entry.document is Document.LD]
    assert len(clauses) == 22
    code = (ROOT / "rulesref/leadership.py").read_text()
    names = re.findall(r"^def (test_\w+)", Path(__file__).read_text(), re.M)
    tests = {f"LD-{part[2:].upper()}" for name in names for part in name.split("_")}
    for clause in clauses:
        assert re.search(rf"{clause}\b", code), f"{clause} is named nowhere in the code"
        assert clause in tests, f"no test is named after {clause}"


# LD-1: one d6 against a target of 2+ to 6+, with re-rolls (LD-7)


def test_ld1_targets_written_and_plain():
    assert [leadership_target(f"{n}+") for n in range(2, 7)] == [2, 3, 4, 5, 6]
    assert leadership_target(" 3+ ") == 3 and leadership_target(6) == 6


@pytest.mark.parametrize("rerolls", [0, 1, 2, 3])
def test_ld1_ld7_probability_matches_dice_enumeration(rerolls):
    for target in range(2, 7):
        rolls = list(product(range(1, 7), repeat=rerolls + 1))
        holds = sum(1 for roll in rolls if any(face >= target for face in roll))
        expected = Rational(holds, len(rolls))
        assert leadership_test_probability(target, rerolls=rerolls) == expected
        assert leadership_test_probability(f"{target}+", rerolls=rerolls) == expected
        assert Doctrine(rerolls=rerolls).hold_probability(target) == expected


@pytest.mark.parametrize("rerolls", [0, 1, 2])
def test_ld1_ld7_ldc6_failing_rolls_count_the_dice(rerolls):
    """The kernel of LD-1 and LD-7: the failing rolls of a test, counted one by one."""
    rolls = list(product(range(1, 7), repeat=rerolls + 1))
    for target in range(2, 8):  # 7: NOBODY's target, no figure left to test on
        fails = sum(1 for roll in rolls if all(face < target for face in roll))
        assert failing_rolls(target, Doctrine(rerolls=rerolls)) == (fails, len(rolls))
        assert failing_rolls(target, Doctrine(rerolls, ignores=True)) == (0, len(rolls))
        assert rolls_of_a_test(Doctrine(rerolls=rerolls)) == len(rolls)
    for bad in (1, 8, "4+", True):
        with pytest.raises(RulesError, match="^target must be"):
            failing_rolls(bad, Doctrine())
    with pytest.raises(RulesError, match="^doctrine must be a Doctrine"):
        rolls_of_a_test(2)


def test_ld1_known_values():
    assert leadership_test_probability(2) == Rational(5, 6)
    assert leadership_test_probability("6+") == Rational(1, 6)
    assert leadership_test_probability(4, rerolls=1) == Rational(3, 4)
    assert leadership_test_probability(6, ignore=True) == 1


# LD-2, LD-C1: the best Leadership of a unit is the easiest target


def test_ld2_ldc1_best_is_the_lowest_target():
    assert best_leadership(["5+", "4+", "6+"]) == 4
    assert Unit("Squad", 10, best_leadership(["5+", "2+"])).leadership == 2
    assert Unit("Squad", 10, 5).leadership == 5


def test_ld2_a_leader_in_the_unit_lends_his_leadership_to_its_test():
    hq = Unit("HQ", 5, 5)
    force = Force([Command("Platoon", [hq], [Leader("Lt", 3, rank=2, unit="HQ")])])
    result = resolve_phase(force, {"HQ": 3}, {"HQ": [3], "Platoon": [6], "force": [6]})
    assert (result.tests[0].target, result.tests[0].holds) == (3, True)
    assert cascade_probabilities(force, {"HQ": 3}).unit_fails["HQ"] == Rational(1, 3)


# LD-3, LD-C5, LD-C8, LD-C9: whose Leadership a command or the force uses


def platoon_with(leaders, units=None) -> Force:
    units = units or [Unit("A", 10, 5), Unit("B", 10, 5), Unit("C", 10, 6)]
    return Force([Command("Platoon", units, leaders)])


def command_test(force, casualties, dice=None, **options):
    dice = dice or {name: [1] for name in ("A", "B", "C")} | {"Platoon": [6], "force": [6]}
    result = resolve_phase(force, casualties, dice, **options)
    return next(test for test in result.tests if test.level == "command")


def test_ld3_highest_rank_wins_over_better_leadership():
    leaders = [Leader("Lt", 5, rank=2), Leader("Sgt", 3, rank=1)]
    test = command_test(platoon_with(leaders), {"A": 6, "B": 6})
    assert (test.figure, test.target) == ("Lt", 5)


def test_ldc8_equal_ranks_best_leadership_unless_preferred():
    leaders = [Leader("Sgt Kay", 5, rank=1), Leader("Sgt Orr", 3, rank=1)]
    force = platoon_with(leaders)
    assert command_test(force, {"A": 6, "B": 6}).figure == "Sgt Orr"
    assert command_test(force, {"A": 6, "B": 6}, prefer=["Sgt Kay"]).figure == "Sgt Kay"
    # the player's preference is a choice, and the odds follow it
    best = cascade_probabilities(force, {"A": 6, "B": 6})
    chosen = cascade_probabilities(force, {"A": 6, "B": 6}, prefer=["Sgt Kay"])
    assert best.command_fails["Platoon"] < chosen.command_fails["Platoon"]
    assert_agrees(force, {"A": 6, "B": 6}, prefer=["Sgt Kay"])


def test_ldc5_a_figure_in_a_removed_unit_no_longer_counts():
    units = [Unit("A", 10, 5), Unit("B", 10, 5), Unit("C", 10, 6)]
    force = platoon_with([Leader("Lt", 2, rank=2, unit="A")], units)
    dice = {"A": [1], "B": [1], "Platoon": [6], "force": [6]}
    test = command_test(force, {"A": 6, "B": 6}, dice)  # A failed: the Lt is gone with it
    assert (test.figure, test.target) == ("C", 6)  # LD-C9: the best ordinary models left
    test = command_test(force, {"A": 6, "B": 6}, dice, readings=OTHER)
    assert (test.figure, test.target) == ("Lt", 2)
    for option in (False, True):
        assert_agrees(force, {"A": 6, "B": 6}, readings=Readings(removed_figures_survive=option))


def old_guard() -> tuple[Force, dict]:
    """A command whose only unit was gone before the phase, and whose Major lives on."""
    old = Command("Old", [Unit("X", 10, 6, current=0)], [Leader("Major", 2, rank=5)])
    platoon = Command("P", [Unit(name, 10, 6) for name in "ABC"])
    return Force([old, platoon]), {"A": 6, "B": 6}


def test_ldc5_a_living_leader_of_an_emptied_command_counts_only_in_the_other_reading():
    """LD-C5: the Major, independent and alive, is a surviving figure for the force when
    only killed figures are gone; in our reading he left with his command."""
    force, casualties = old_guard()
    dice = {"A": [1], "B": [1], "P": [6], "force": [1]}
    test = resolve_phase(force, casualties, dice).tests[-1]
    assert (test.level, test.figure, test.target) == ("force", "C", 6)
    test = resolve_phase(force, casualties, dice, readings=OTHER).tests[-1]
    assert (test.level, test.figure, test.target) == ("force", "Major", 2)
    # over all the dice, resolve_phase and the cascade agree in both readings
    assert assert_agrees(force, casualties).force_breaks == Rational(875, 1296)
    keep = assert_agrees(force, casualties, readings=OTHER)
    assert keep.force_breaks == Rational(775, 1296)


def test_ldc9_ordinary_models_are_the_lowest_rank():
    """No ranked figure left: the best Leadership among the units still in play."""
    units = [Unit("A", 10, 5), Unit("B", 10, 3), Unit("C", 10, 6), Unit("D", 10, 4)]
    units.append(Unit("E", 10, 2, removed=True))  # gone in an earlier phase
    dice = {"A": [1], "D": [1], "Platoon": [6], "force": [6]}
    test = command_test(platoon_with([], units), {"A": 6, "D": 6}, dice)
    assert (test.figure, test.target) == ("B", 3)


def test_ld3_the_force_uses_its_highest_surviving_figure():
    force, casualties = b_company()
    dice = {name: [1] * (d.rerolls + 1) for name, d in doctrines(force).items()}
    dice["2nd Platoon"] = [6]
    result = resolve_phase(force, casualties, dice)
    test = result.tests[-1]
    assert (test.level, test.figure, test.target) == ("force", "Capt Hale", 3)
    dead = Force(force.commands, [Leader("Capt Hale", 3, rank=3, alive=False)], name="Co")
    dice["Co"] = dice.pop(force.name)
    test = resolve_phase(dead, casualties, dice).tests[-1]
    assert (test.figure, test.target) == ("Lt Brody", 4)  # Lt Ames died with his HQ


# LD-4: bottom-up


def test_ld4_units_then_commands_then_the_force():
    force, casualties = b_company()
    dice = {name: [1] * (d.rerolls + 1) for name, d in doctrines(force).items()}
    result = resolve_phase(force, casualties, dice)
    levels = [test.level for test in result.tests]
    assert levels == sorted(levels, key=list(Level).index)
    assert [t.who for t in result.tests] == [
        "1st Squad",
        "2nd Squad",
        "4th Squad",
        "MG Team",
        "2nd Platoon",
    ]  # 1st Platoon lost every unit (LD-C7); the force has nothing left to test
    assert result.force_broken and result.removed[-1].clause == "LD-C7"


# LD-5, LD-6, LD-C2: when a unit tests


def test_ld5_ld6_ldc2_triggers():
    assert break_test_trigger(10, 10, 4) == "LD-5"  # falls below half
    assert break_test_trigger(10, 10, 5) is None  # exactly half is not below (LD-C2)
    assert break_test_trigger(9, 9, 4) == "LD-5"  # 4 of 9 is below half
    assert break_test_trigger(10, 4, 3) == "LD-6"  # below already, loses another
    assert break_test_trigger(10, 4, 4) is None  # below, but no casualty this phase
    assert break_test_trigger(10, 4, 0) is None  # LD-C7: destroyed, no test
    assert must_take_break_test(10, 6, 2) and not must_take_break_test(10, 9, 6)


@given(st.integers(1, 60), st.data())
def test_ld5_ld6_match_their_definition(start, data):
    before = data.draw(st.integers(0, start))
    after = data.draw(st.integers(0, before))
    below = after / start < 0.5
    falls = below and before / start >= 0.5
    again = below and before / start < 0.5 and after < before
    expected = "LD-5" if falls and after else "LD-6" if again and after else None
    assert break_test_trigger(start, before, after) == expected


@given(st.integers(1, 60), st.data())
def test_ld6_ldc2_ldc7_below_half_and_the_fewest_losses_to_get_there(start, data):
    """The one test of LD-5, LD-6, LD-9 and LD-11, against its definition in fractions;
    the fewest losses that make it true, against a search over every loss."""
    before = data.draw(st.integers(0, start))
    after = data.draw(st.integers(0, before))
    assert below_half(start, before, after) == (0 < after < before and after / start < 0.5)
    losing = [n for n in range(1, before + 1) if below_half(start, before, before - n)]
    assert losses_to_fall_below_half(start, before) == min(losing, default=before)


def test_the_below_half_tests_name_their_counts():
    for call, name in [
        (lambda: below_half(0, 0, 0), "start"),
        (lambda: below_half(10, 11, 0), "before"),
        (lambda: below_half(10, 5, 6), "after"),
        (lambda: losses_to_fall_below_half(10, "9"), "before"),
        (lambda: command_must_test(4, 5, 1), "before_units"),
    ]:
        with pytest.raises(RulesError, match=f"^{name} must be"):
            call()


# LD-7, LD-C6: the end of the phase, re-rolls, ignoring, removal


def test_ld7_rerolls_then_removal():
    units = [Unit("A", 10, 4, doctrine=Doctrine(rerolls=2)), Unit("B", 10, 4)]
    force = Force([Command("Platoon", units)])
    held = resolve_phase(force, {"A": 6}, {"A": [1, 3, 5]})
    assert held.tests[0].rolls == (1, 3, 5) and held.tests[0].passed and not held.removed
    failed = resolve_phase(force, {"A": 6}, {"A": [1, 3, 2]})
    assert [(r.who, r.clause) for r in failed.removed] == [("A", "LD-7")]
    assert "needed 4+" in failed.removed[0].reason


def test_ldc6_rerolls_first_then_the_doctrine_ignores():
    doctrine = Doctrine(rerolls=1, ignores=True, name="Fanatics")
    force = Force([Command("Platoon", [Unit("A", 10, 6, doctrine=doctrine), Unit("B", 1, 2)])])
    result = resolve_phase(force, {"A": 6}, {"A": [1, 2]})
    test = result.tests[0]
    assert (test.rolls, test.passed, test.ignored, test.holds) == ((1, 2), False, True, True)
    assert not result.removed
    assert cascade_probabilities(force, {"A": 6}).unit_fails["A"] == 0


def test_ld7_a_test_per_phase_not_per_casualty():
    force = Force([Command("Platoon", [Unit("A", 10, 4), Unit("B", 10, 4)])])
    result = resolve_phase(force, {"A": 8}, {"A": [4]})
    assert len(result.tests) == 1


# LD-8, LD-9, LD-10: commands


def test_ld8_a_command_is_its_units_from_the_start():
    force, _ = b_company()
    first = force.commands[0]
    assert [unit.name for unit in first.units][-1] == "3rd Squad"  # gone, still counted
    assert command_must_test(4, 3, 1) and not command_must_test(4, 3, 2)


def test_ld9_command_triggers_without_independent_leaders():
    assert command_must_test(4, 4, 1)  # falls below half
    assert not command_must_test(4, 4, 2)  # exactly half
    assert command_must_test(5, 2, 1)  # below already, loses another unit
    assert not command_must_test(5, 2, 2)
    # an independent leader is a Leader, not a Unit: three units, not four
    platoon = Command("Platoon", [Unit(n, 5, 4) for n in "ABC"], [Leader("Lt", 4, rank=2)])
    assert len(platoon.units) == 3


def test_ld10_a_failed_command_takes_all_its_units():
    units = [Unit(n, 10, 4) for n in "ABC"]
    force = Force([Command("Platoon", units), Command("Other", [Unit("D", 10, 4)])])
    dice = {"A": [1], "B": [1], "Platoon": [2], "force": [6]}
    result = resolve_phase(force, {"A": 6, "B": 6}, dice)
    assert {(r.who, r.clause) for r in result.removed} == {
        ("A", "LD-7"),
        ("B", "LD-7"),
        ("Platoon", "LD-10"),
        ("C", "LD-10"),
    }


# LD-11, LD-12, LD-C3, LD-C4: the force


def test_ld11_ld12_the_force_breaks():
    assert force_must_test(8, 6, 3) and not force_must_test(8, 6, 4)
    units = [Unit(n, 10, 4) for n in "ABC"]
    force = Force([Command("Platoon", units), Command("Other", [Unit("D", 10, 4)])])
    dice = {"A": [1], "B": [1], "Platoon": [2], "force": [1]}
    result = resolve_phase(force, {"A": 6, "B": 6}, dice)
    assert result.force_broken and result.removed[-1].clause == "LD-12"
    assert result.tests[-1].clause == "LD-11"


def test_ldc3_ldc4_removals_count_upward_in_the_same_phase():
    """A and B fail (LD-C3: the platoon is below half at once); the platoon fails (LD-C4:
    its units count for the force at once), so the force tests in this very phase."""
    units = [Unit(n, 10, 4) for n in "ABC"]
    force = Force([Command("Platoon", units), Command("Other", [Unit("D", 10, 4)])])
    dice = {"A": [1], "B": [1], "Platoon": [1], "force": [6]}
    result = resolve_phase(force, {"A": 6, "B": 6}, dice)
    assert [t.clause for t in result.tests] == ["LD-5", "LD-5", "LD-9", "LD-11"]


def test_ldc7_nothing_left_nothing_to_test():
    force = Force([Command("Platoon", [Unit("A", 5, 4), Unit("B", 5, 4)])])
    result = resolve_phase(force, {"A": 5, "B": 5}, {})
    assert result.tests == () and result.force_broken
    assert [r.clause for r in result.removed] == ["LD-C7", "LD-C7", "LD-C7", "LD-C7"]
    assert cascade_probabilities(force, {"A": 5, "B": 5}).force_breaks == 1


def test_ldc10_commands_do_not_nest_and_force_leaders_are_independent():
    with pytest.raises(RulesError, match="must be independent"):
        Force([Command("P", [Unit("A", 5, 4)])], [Leader("Capt", 3, rank=3, unit="A")])


# The worked example of the page


def test_the_worked_example_b_company():
    force, casualties = b_company()
    odds = assert_agrees(force, casualties)
    assert odds.force_breaks == Rational(1, 4)
    assert odds.command_fails == {"1st Platoon": Rational(1, 4), "2nd Platoon": Rational(1, 16)}
    assert odds.unit_fails["MG Team"] == Rational(1, 4)  # 4+ with a re-roll
    assert odds.unit_removed["1st HQ"] == 1  # wiped out
    svg = chain_of_command_svg(force, odds)
    assert svg.startswith("<svg") and "B Company" in svg and "breaks 25%" in svg


def test_brute_force_on_every_dice_roll():
    """No shortcut at all: every face of every die of every possible tester."""
    units = [Unit("A", 4, 4), Unit("B", 4, 3, current=2), Unit("C", 4, 5)]
    force = Force([Command("P", units, [Leader("Lt", 4, rank=2, unit="C")])])
    casualties = {"A": 3, "B": 1}
    names = ["A", "B", "P", "force"]
    broken = Rational(0)
    removed = dict.fromkeys("ABC", Rational(0))
    for faces in product(range(1, 7), repeat=len(names)):
        result = resolve_phase(
            force, casualties, dict(zip(names, ([f] for f in faces), strict=True))
        )
        gone = {r.who for r in result.removed}
        broken += Rational(1, 6 ** len(names)) if result.force_broken else 0
        for name in removed:
            if name in gone or result.force_broken:
                removed[name] += Rational(1, 6 ** len(names))
    odds = cascade_probabilities(force, casualties)
    assert odds.force_breaks == broken
    assert odds.unit_removed == removed


def test_the_cascade_is_consistent_with_itself():
    force, casualties = b_company()
    odds = cascade_probabilities(force, casualties)
    for command in force.commands:
        for unit in command.units:  # a unit goes when its command goes, if not before
            assert odds.unit_removed[unit.name] >= odds.command_removed[command.name]
        assert odds.command_removed[command.name] >= odds.force_breaks


# Small forces, drawn by hypothesis, against the brute force


@st.composite
def small_forces(draw, *, consistent=False):
    """One or two commands of one to three units, leaders, Doctrines and casualties.

    `consistent=True`: a higher rank never has a worse Leadership (ordinary models are
    rank 0), the condition under which more casualties can never help.
    """
    commands, casualties, count = [], {}, 0
    targets = st.integers(2, 6)
    for c in range(draw(st.integers(1, 2))):
        units, leaders = [], []
        for _ in range(draw(st.integers(1, 3))):
            count += 1
            start = draw(st.integers(1, 6))
            current = draw(st.integers(0, start))
            doctrine = Doctrine(draw(st.integers(0, 1)), draw(st.booleans()) and count == 2)
            units.append(Unit(f"u{count}", start, draw(targets), current, doctrine))
            if current:
                casualties[f"u{count}"] = draw(st.integers(0, current))
        if c == 0 and not any(unit.in_play for unit in units):  # a later one may be empty
            units[0] = Unit(units[0].name, units[0].starting, units[0].leadership)
        if draw(st.booleans()):
            unit = draw(st.sampled_from([None, units[0].name]))
            rank = draw(st.integers(1, 2))
            leaders.append(Leader(f"l{c}", draw(targets), rank, unit, draw(st.booleans())))
        doctrine = Doctrine(draw(st.integers(0, 1)))
        commands.append(Command(f"c{c}", units, leaders, doctrine))
    force_leaders = [Leader("boss", draw(targets), 3)] if draw(st.booleans()) else []
    force = Force(commands, force_leaders, Doctrine(draw(st.integers(0, 1))))
    if consistent:
        force = _consistent(force)
    return force, casualties


def _consistent(force: Force) -> Force:
    """The same force with every Leadership 4+, so rank never costs Leadership."""

    def unit(u):
        return Unit(u.name, u.starting, 4, u.models, u.doctrine, u.removed)

    def leader(lead):
        return Leader(lead.name, 4, lead.rank, lead.unit, lead.alive)

    commands = [
        Command(c.name, [unit(u) for u in c.units], [leader(x) for x in c.leaders], c.doctrine)
        for c in force.commands
    ]
    return Force(commands, [leader(x) for x in force.leaders], force.doctrine, force.name)


@FAST
@given(small_forces(), st.booleans())
@example(old_guard(), True)  # a command emptied in an earlier phase, its leader alive
def test_cascade_matches_brute_force_on_small_forces(drawn, keep):
    force, casualties = drawn
    odds = assert_agrees(force, casualties, readings=Readings(removed_figures_survive=keep))
    values = [*odds.unit_removed.values(), *odds.command_removed.values(), odds.force_breaks]
    values += [*odds.unit_fails.values(), *odds.command_fails.values()]
    assert all(isinstance(p, Rational) and 0 <= p <= 1 for p in values)


@st.composite
def alike_forces(draw):
    """Two to four commands of one or two units drawn from two kinds (Leadership, re-rolls)
    and two strengths, so that alike units and alike commands are common (the cascade
    counts them together); independent leaders of ranks 1 to 4, or a leader in a unit, so
    that the force may test on many figures; units wiped out, so that some losses are sure.
    At most six units, so the brute force stays small."""
    kinds = [(draw(st.integers(2, 6)), draw(st.integers(0, 2))) for _ in range(2)]
    commands, casualties, count = [], {}, 0
    for c in range(draw(st.integers(2, 4))):
        units = []
        for _ in range(draw(st.integers(1, 2 if c < 2 else 1))):
            count += 1
            target, rerolls = draw(st.sampled_from(kinds))
            current = draw(st.sampled_from([4, 3, 1]))
            units.append(Unit(f"u{count}", 4, target, current, Doctrine(rerolls)))
            casualties[f"u{count}"] = draw(st.sampled_from([0, 1, 3, current]))
        leaders = []
        if draw(st.booleans()):
            where = draw(st.sampled_from([None, units[0].name]))
            leaders.append(Leader(f"l{c}", draw(st.integers(2, 6)), draw(st.integers(1, 4)), where))
        commands.append(Command(f"c{c}", units, leaders, Doctrine(draw(st.integers(0, 1)))))
    boss = [Leader("boss", draw(st.integers(2, 6)), draw(st.integers(1, 5)))]
    force = Force(commands, boss if draw(st.booleans()) else [], Doctrine(draw(st.integers(0, 1))))
    return force, {name: lost for name, lost in casualties.items() if lost <= after(force, name)}


def after(force: Force, name: str) -> int:
    return next(unit.models for unit in force.units if unit.name == name)


@FAST
@given(alike_forces(), st.booleans())
def test_cascade_matches_brute_force_on_alike_units_and_commands(drawn, keep):
    """The grouped counting (alike units, alike commands, sure losses, many figures the
    force may test on) against the brute force."""
    force, casualties = drawn
    assert_agrees(force, casualties, readings=Readings(removed_figures_survive=keep))


@st.composite
def ranked_forces(draw):
    """Three to five commands of one unit (two in the first), each led by an independent
    leader of its own rank and Leadership, or by one in its unit, with up to three re-rolls
    for every unit, command and the force: the force may test on many figures, in any
    order of Leadership, and each command changes them at a different one."""
    ranks = draw(st.lists(st.integers(1, 100), min_size=5, max_size=5, unique=True))
    commands, casualties = [], {}
    for c in range(draw(st.integers(3, 5))):
        units = []
        for u in range(2 if c == 0 else 1):
            doctrine = Doctrine(draw(st.integers(0, 3)))
            units.append(Unit(f"u{c}{u}", 4, draw(st.integers(2, 6)), doctrine=doctrine))
            casualties[f"u{c}{u}"] = draw(st.sampled_from([0, 3, 3, 4]))
        where = draw(st.sampled_from([None, None, units[0].name]))
        leader = Leader(f"l{c}", draw(st.integers(2, 6)), ranks[c], where)
        commands.append(Command(f"c{c}", units, [leader], Doctrine(draw(st.integers(0, 3)))))
    return Force(commands, doctrine=Doctrine(draw(st.integers(0, 3)))), casualties


@settings(FAST, max_examples=15)
@given(ranked_forces(), st.booleans())
def test_cascade_matches_brute_force_on_distinct_ranks_and_rerolls(drawn, keep):
    """The halving over the figures the force may test on, against the brute force."""
    force, casualties = drawn
    assert_agrees(force, casualties, readings=Readings(removed_figures_survive=keep))


@pytest.mark.parametrize("keep", [False, True])
def test_commands_whose_sure_losses_alone_make_the_force_test(keep):
    """Two commands each lose two wiped-out units whatever the dice, which together make
    the force test (4 of 7): on the figures where both are merged, nothing is left below
    the bar, and the force tests on every roll there."""
    a = Command("A", [Unit("a1", 4, 4)], [Leader("La", 4, rank=1)])
    b1 = Command("B1", [Unit(f"b1{i}", 4, 3) for i in range(3)], [Leader("Lb1", 3, rank=2)])
    b2 = Command("B2", [Unit(f"b2{i}", 4, 5) for i in range(3)], [Leader("Lb2", 2, rank=3)])
    casualties = {"a1": 3, "b10": 4, "b11": 4, "b12": 3, "b20": 4, "b21": 4, "b22": 3}
    odds = assert_agrees(Force([a, b1, b2]), casualties, readings=Readings(keep))
    assert odds.force_breaks == (Rational(649, 1944) if keep else Rational(883, 1944))


def test_ld9_a_command_tests_after_different_numbers_of_losses():
    """Five units all testing: the platoon is below half with one unit left or with two,
    and takes its test in both cases (its sergeant alive or not)."""
    units = [Unit(f"s{i}", 4, 3 + i % 3) for i in range(5)]
    force = Force([Command("Platoon", units, [Leader("Sgt", 4, rank=1, unit="s0")])])
    odds = assert_agrees(force, {f"s{i}": 3 for i in range(5)})
    assert odds.command_fails["Platoon"] == Rational(61, 324)


@pytest.mark.parametrize("keep", [False, True])
def test_ld6_two_alike_units_carrying_leaders(keep):
    """Two units each carrying a sergeant of the same rank and Leadership test alike; the
    platoon falls back on a plain unit's Leadership only when both fail."""
    units = [Unit("a", 4, 4), Unit("b", 4, 4), Unit("c", 4, 5), Unit("d", 4, 3)]
    sergeants = [Leader("Sgt A", 4, rank=2, unit="a"), Leader("Sgt B", 4, rank=2, unit="b")]
    other = Command("Other", [Unit("e", 4, 4)], [Leader("Lt", 4, rank=1)])
    force = Force([Command("Platoon", units, sergeants), other])
    odds = assert_agrees(force, {"a": 3, "b": 3, "c": 3, "e": 3}, readings=Readings(keep))
    assert odds.force_breaks == (Rational(5, 24) if keep else Rational(5, 27))


def test_ld7_a_force_whose_doctrine_ignores_its_failures_never_breaks_on_its_test():
    """Commands still test and fall, units still go with them, but the force's own test
    always holds (no figure it may test on counts): only losing every unit breaks it."""
    platoon = Command("P", [Unit("a", 4, 4), Unit("b", 4, 5), Unit("c", 4, 3)], [])
    squad = Command("S", [Unit("d", 4, 4)], [Leader("Lt", 4, rank=1)])
    force = Force([platoon, squad], doctrine=Doctrine(ignores=True))
    odds = assert_agrees(force, {"a": 3, "b": 3, "c": 3, "d": 3})
    assert odds.force_breaks == odds.command_removed["P"] * odds.command_removed["S"]


def test_identical_commands_match_brute_force():
    """Four identical platoons whose every unit tests: one kind of command, as a power."""
    commands = [
        Command(f"P{c}", [Unit(f"A{c}", 4, 4), Unit(f"B{c}", 4, 5)], [Leader(f"L{c}", 4, 2)])
        for c in range(4)
    ]
    casualties = {f"{x}{c}": 3 for c in range(4) for x in "AB"}
    odds = assert_agrees(Force(commands), casualties)
    assert len(set(odds.unit_removed.values())) == 2  # alike units, alike answers


def test_the_order_of_commands_does_not_matter():
    """The products across commands are split in halves: any order, the same answers."""
    force, casualties = b_company()
    more = [*force.commands, Command("Reserve", [Unit("R1", 5, 3, current=3), Unit("R2", 5, 6)])]
    casualties = casualties | {"R1": 2}
    first = cascade_probabilities(Force(more, force.leaders, name="Co"), casualties)
    again = cascade_probabilities(Force(more[::-1], force.leaders, name="Co"), casualties)
    assert first == again


@FAST
@given(small_forces(consistent=True), st.data())
def test_more_casualties_never_make_a_break_less_likely(drawn, data):
    force, casualties = drawn
    hit = [u for u in force.units if u.in_play and casualties.get(u.name, 0) < u.models]
    if not hit:
        return
    unit = data.draw(st.sampled_from(hit))
    more = casualties | {unit.name: casualties.get(unit.name, 0) + 1}
    fewer, worse = cascade_probabilities(force, casualties), cascade_probabilities(force, more)
    assert fewer.force_breaks <= worse.force_breaks
    for name in fewer.unit_removed:
        assert fewer.unit_removed[name] <= worse.unit_removed[name]
    for name in fewer.command_removed:
        assert fewer.command_removed[name] <= worse.command_removed[name]


def test_a_poor_leader_is_why_consistency_is_needed():
    """A counterexample without it: the Lieutenant (6+) outranks his men (3+). The platoon,
    below half already, loses B either way; losing the HQ as well (the Lieutenant with it)
    makes its test, and the force's, easier."""
    units = [Unit("HQ", 10, 3), Unit("A", 10, 3), Unit("B", 10, 3)]
    units += [Unit(f"gone {n}", 10, 3, removed=True) for n in range(3)]
    force = Force([Command("P", units, [Leader("Lt", 6, rank=2, unit="HQ")])])
    one = cascade_probabilities(force, {"B": 10})
    two = cascade_probabilities(force, {"B": 10, "HQ": 10})
    assert (one.command_fails["P"], two.command_fails["P"]) == (Rational(5, 6), Rational(1, 3))
    assert (one.force_breaks, two.force_breaks) == (Rational(35, 36), Rational(5, 9))


@given(st.integers(2, 6), st.integers(0, 5))
def test_a_reroll_never_lowers_a_pass_probability(target, rerolls):
    p = leadership_test_probability(target, rerolls=rerolls)
    assert 0 < p <= 1
    assert p <= leadership_test_probability(target, rerolls=rerolls + 1)
    assert p <= leadership_test_probability(target, rerolls=rerolls, ignore=True)
    if target > 2:
        assert p <= leadership_test_probability(target - 1, rerolls=rerolls)


@FAST
@given(small_forces(consistent=True), st.data())
def test_a_reroll_never_makes_the_force_more_likely_to_break(drawn, data):
    force, casualties = drawn
    better = Force(force.commands, force.leaders, Doctrine(force.doctrine.rerolls + 1))
    assert (
        cascade_probabilities(better, casualties).force_breaks
        <= cascade_probabilities(force, casualties).force_breaks
    )


def battalion() -> tuple[Force, dict[str, int]]:
    """Six platoons of eight squads led by lieutenants of three ranks (some fighting in a
    squad), seven squads of each testing or wiped out: alike units and alike commands, sure
    losses, several figures the force may test on, at a size no brute force reaches."""
    commands, casualties = [], {}
    for c in range(6):
        drilled = [Doctrine(int(u % 3 == 0)) for u in range(8)]
        targets = [4 + c % 2 + (u % 2 if u > 3 else 0) for u in range(8)]
        units = [Unit(f"S{c}-{u}", 6, targets[u], doctrine=drilled[u]) for u in range(8)]
        where = units[0].name if c % 3 == 0 else None
        leaders = [Leader(f"Lt{c}", 3 + c % 4, rank=1 + c % 3, unit=where)]
        commands.append(Command(f"P{c}", units, leaders, Doctrine(c % 2)))
        casualties |= {f"S{c}-{u}": 6 if u == 4 else 4 for u in range(7)}
    return Force(commands), casualties


@pytest.mark.parametrize("drawn, trials", [(b_company(), 6000), (battalion(), 3000)])
def test_seeded_simulation_agrees(drawn, trials):
    force, casualties = drawn
    odds = cascade_probabilities(force, casualties)
    rng = random.Random(20261130)
    rules = doctrines(force)
    off = dict.fromkeys(rules, 0)
    for _ in range(trials):
        dice = {n: [rng.randint(1, 6) for _ in range(d.rerolls + 1)] for n, d in rules.items()}
        result = resolve_phase(force, casualties, dice)
        gone = {removal.who for removal in result.removed}
        for name in rules:
            off[name] += name in gone or result.force_broken or not _in_play(force, name)
    expected = odds.unit_removed | odds.command_removed | {force.name: odds.force_breaks}
    for name, p in expected.items():
        sigma = (float(p) * (1 - float(p)) / trials) ** 0.5
        assert abs(off[name] / trials - float(p)) <= 5 * sigma, name


def test_the_cascade_is_quick_at_its_limits():
    """Not a benchmark (see benchmarks/cascade.py): the most Break tests the cascade takes
    answer in seconds, all in one command, or spread over a hundred commands each of which
    may leave the force testing on a leader of its own rank; one test more is refused."""

    def force(commands, size, rerolls=2):
        made, casualties = [], {}
        for c in range(commands):
            doctrine = Doctrine(rerolls)
            units = [Unit(f"U{c}-{u}", 10, 2 + (c + u) % 5, doctrine=doctrine) for u in range(size)]
            leader = Leader(f"Lt{c}", 2 + c % 5, rank=1 + c % 100)
            made.append(Command(f"P{c}", units, [leader], doctrine))
            casualties |= {unit.name: 6 for unit in units}
        return Force(made, doctrine=Doctrine(rerolls)), casualties

    limit = MAX_CASCADE_TESTS
    start = time.process_time()
    for shape in ((limit // 4, 4), (1, limit)):
        odds = cascade_probabilities(*force(*shape))
        assert 0 < odds.force_breaks < 1
    assert time.process_time() - start < 60  # about a second on a quiet machine
    with pytest.raises(
        RulesError, match=f"^casualties must make at most {limit} .*got {limit + 1}$"
    ):
        cascade_probabilities(*force(1, limit + 1, 0))


# Bad input: a clear error naming the problem


def _platoon(**changes):
    return Force([Command("P", [Unit("A", 10, 4), Unit("B", 10, 4)], **changes)])


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: leadership_test_probability(1), "target"),
        (lambda: leadership_test_probability(7), "target"),
        (lambda: leadership_test_probability("7+"), "target"),
        (lambda: leadership_test_probability("four"), "target"),
        (lambda: leadership_test_probability(True), "target"),
        (lambda: leadership_test_probability(4.0), "target"),
        (lambda: leadership_test_probability(4, rerolls=-1), "rerolls"),
        (lambda: leadership_test_probability(4, rerolls=1.5), "rerolls"),
        (lambda: best_leadership([]), "leadership"),
        (lambda: best_leadership(["4+", 9]), "leadership"),
        (lambda: must_take_break_test(10, 11, 3), "before"),  # strength that grows
        (lambda: must_take_break_test(10, 5, 6), "after"),
        (lambda: must_take_break_test(0, 0, 0), "start"),
        (lambda: command_must_test(4, 2, 3), "after_units"),
        (lambda: Unit("A", 10, 4, current=11), "current of 'A'"),
        (lambda: Unit("A", 0, 4), "starting"),
        (lambda: Unit("", 5, 4), "unit name"),
        (lambda: Unit("A", 5, 8), "leadership"),
        (lambda: Leader("Lt", 4, rank=0), "rank of 'Lt'"),
        (lambda: Doctrine(rerolls=-2), "rerolls"),
        (lambda: Doctrine(ignores="yes"), "ignores"),
        (lambda: Command("P", []), "units of command 'P'"),
        (lambda: Command("P", [Unit("A", 5, 4)], [Leader("Lt", 4, 2, unit="Z")]), "leader 'Lt'"),
        (lambda: Force([]), "commands"),
        (lambda: Force([Command("P", [Unit("A", 5, 4, current=0)])]), "force"),
        (
            lambda: Force([Command("P", [Unit("A", 5, 4)]), Command("P", [Unit("B", 5, 4)])]),
            "names",
        ),
        (lambda: cascade_probabilities(_platoon(), {"A": 11}), r"casualties\['A'\]"),
        (lambda: cascade_probabilities(_platoon(), {"Z": 1}), "casualties"),
        (lambda: cascade_probabilities(_platoon(), [("A", 1)]), "casualties"),
        (lambda: cascade_probabilities(_platoon(), {}, prefer=["Capt"]), "prefer"),
        (lambda: cascade_probabilities(_platoon(), {}, prefer="A"), "prefer"),
        (lambda: resolve_phase(_platoon(), {"A": 6}, {}), r"dice\['A'\]"),
        (lambda: resolve_phase(_platoon(), {"A": 6}, {"A": [7]}), r"dice\['A'\]"),
        (lambda: resolve_phase(_platoon(), {"A": 6}, {"A": "3"}), r"dice\['A'\]"),
        (
            lambda: resolve_phase(
                Force([Command("P", [Unit("A", 10, 4, doctrine=Doctrine(1)), Unit("B", 1, 4)])]),
                {"A": 6},
                {"A": [1]},
            ),
            r"dice\['A'\]",
        ),
    ],
)
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(RulesError, match=f"^{name} must") as error:
        call()
    assert isinstance(error.value, ValueError)


def test_a_doctrine_that_ignores_a_failure_always_holds():
    assert Doctrine(ignores=True).hold_probability(6) == 1
    assert Doctrine(rerolls=1).hold_probability(4) == Rational(3, 4)


def test_a_test_and_a_removal_as_recorded():
    """A passed test was not ignored (False, not merely falsy); `gone` picks one level."""
    squads = [Unit("A", 10, 4), Unit("B", 10, 4), Unit("C", 10, 4)]
    force = Force([Command("Platoon", squads)])
    held = resolve_phase(force, {"A": 6}, {"A": [5]}).tests
    assert held == (Rolled("A", Level.UNIT, "LD-5", "A", 4, (5,), True, False),)
    dice = {"A": [1], "B": [1], "Platoon": [1]}
    result = resolve_phase(force, {"A": 6, "B": 6}, dice)
    assert result.gone("unit") == {"A", "B", "C"}
    assert result.gone(Level.COMMAND) == {"Platoon"} and result.gone("force") == {"force"}


def test_a_unit_at_exactly_half_before_the_phase_falls_below_this_phase():
    """LD-5 when the unit was not yet below half (5 of 10 is half, not below), LD-6 after."""
    assert break_test_trigger(10, 5, 4) == "LD-5"
    assert break_test_trigger(10, 4, 3) == "LD-6"


def test_constructors_store_tuples():
    command = Command("P", [Unit("A", 10, 4)], [Leader("Lt", 3, rank=1)])
    force = Force([command], [Leader("Capt", 2, rank=2)])
    assert type(force.commands) is type(command.leaders) is type(force.leaders) is tuple
