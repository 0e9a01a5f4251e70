"""The "Break?" rules (BR-1 to BR-15, clarifications BR-C1 to BR-C9) against brute force,
a seeded simulation, the document's own examples, and hypothesis properties."""

import random
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sympy import Rational

from rulesref.break_test import (
    MAX_LEADERSHIP,
    CombatResult,
    Contact,
    Facing,
    Outcome,
    Readings,
    Reform,
    Unit,
    break_test_probability,
    check_combat_reform,
    is_insane_courage,
    is_steadfast,
    modified_leadership,
    ranks,
    reform_order,
    reform_permission,
    reform_test_probability,
    resolve_break_test,
    takes_break_test,
    usable_ranks,
)
from rulesref.errors import RulesError

TWO_D6 = list(product(range(1, 7), repeat=2))
leadership = st.integers(min_value=0, max_value=MAX_LEADERSHIP)
lost_by = st.integers(min_value=0, max_value=20)


def brute_force_stands(leadership, lost_by, *, steadfast=False, insane_courage=True):
    """Count the 36 rolls that hold, straight from BR-2, BR-3, BR-5 and BR-6."""
    target = leadership if steadfast else leadership - lost_by
    holds = sum(1 for a, b in TWO_D6 if a + b <= target or (insane_courage and (a, b) == (1, 1)))
    return Rational(holds, 36)


# BR-1, BR-C5: who tests


def test_br1_the_loser_tests_and_a_draw_is_no_loss():
    assert takes_break_test(3, 5)
    assert not takes_break_test(5, 3)
    assert not takes_break_test(4, 4)  # BR-C5


# BR-2, BR-3, BR-5, BR-6: the probability, against brute force


@pytest.mark.parametrize("steadfast", [False, True])
@pytest.mark.parametrize("insane_courage", [True, False])
def test_br3_probability_matches_enumeration(steadfast, insane_courage):
    for ld, by in product(range(MAX_LEADERSHIP + 1), range(15)):
        options = {"steadfast": steadfast, "insane_courage": insane_courage}
        assert break_test_probability(ld, by, **options) == brute_force_stands(ld, by, **options)


def test_reroll_variant_matches_enumeration():
    """Not in the document: a failed test is re-rolled once (first roll, then re-roll)."""
    for ld, by in product(range(2, 11), range(8)):
        holds = sum(
            1
            for first, second in product(TWO_D6, repeat=2)
            if sum(first) <= ld - by or sum(second) <= ld - by or (1, 1) in (first, second)
        )
        assert break_test_probability(ld, by, reroll=True) == Rational(holds, 36**2)


def test_resolve_break_test_agrees_with_the_probability():
    """BR-3 and BR-5 decided roll by roll add up to the exact probability."""
    for ld, by, steadfast in product(range(0, 11), range(0, 12), (False, True)):
        stands = sum(
            resolve_break_test(ld, by, dice, steadfast=steadfast).outcome is Outcome.STANDS
            for dice in TWO_D6
        )
        assert Rational(stands, 36) == break_test_probability(ld, by, steadfast=steadfast)


def test_seeded_simulation_agrees():
    rng = random.Random(20261130)
    trials = 40_000
    for ld, by in [(8, 3), (7, 0), (5, 10), (9, 2)]:
        stands = sum(
            resolve_break_test(ld, by, (rng.randint(1, 6), rng.randint(1, 6))).outcome
            is Outcome.STANDS
            for _ in range(trials)
        )
        p = float(break_test_probability(ld, by))
        sigma = (p * (1 - p) / trials) ** 0.5
        assert abs(stands / trials - p) < 5 * sigma + 1e-9


# The document's worked examples


def test_high_elves_br2_br3():
    assert modified_leadership(8, 3) == 5
    result = resolve_break_test(8, 3, dice=(3, 4))
    assert (result.outcome, result.total, result.clause) == (Outcome.FLEES, 7, "BR-3")
    assert break_test_probability(8, 3) == Rational(5, 18)


def test_night_goblins_br5_insane_courage():
    assert modified_leadership(5, 10) == -5
    assert break_test_probability(5, 10) == Rational(1, 36)
    result = resolve_break_test(5, 10, dice=(1, 1))
    assert (result.outcome, result.clause) == (Outcome.STANDS, "BR-5")
    assert resolve_break_test(5, 10, dice=(1, 2)).outcome is Outcome.FLEES
    assert is_insane_courage((1, 1)) and not is_insane_courage((1, 2))


def test_imperial_halberdiers_br6_br7_steadfast():
    halberdiers, bloodletters = Unit(30, 6), Unit(12, 5)
    assert (halberdiers.ranks, bloodletters.ranks) == (5, 2)
    assert is_steadfast(halberdiers, bloodletters)
    assert break_test_probability(7, 7, steadfast=True) == Rational(7, 12)


def test_br4_the_reform_test_reuses_the_modified_leadership():
    """BR-4: the Break test's modified Leadership is used again by the reform test."""
    for ld, by in product(range(0, 11), range(0, 12)):
        assert reform_test_probability(ld, by) == brute_force_stands(ld, by, insane_courage=False)


# BR-C6: no clamping


def test_brc6_modified_leadership_is_not_clamped():
    assert modified_leadership(2, 9) == -7
    assert break_test_probability(10, 0) == Rational(11, 12)
    assert break_test_probability(3, 2, insane_courage=False) == 0
    assert break_test_probability(3, 2) == Rational(1, 36)


# Hypothesis: invariants


@given(leadership, lost_by, st.booleans(), st.booleans(), st.booleans())
def test_probabilities_are_in_range(ld, by, steadfast, courage, reroll):
    p = break_test_probability(ld, by, steadfast=steadfast, insane_courage=courage, reroll=reroll)
    assert isinstance(p, Rational) and 0 <= p <= 1


@given(st.integers(min_value=0, max_value=MAX_LEADERSHIP - 1), lost_by, st.booleans())
def test_monotone_in_leadership(ld, by, reroll):
    assert break_test_probability(ld, by, reroll=reroll) <= break_test_probability(
        ld + 1, by, reroll=reroll
    )


@given(leadership, lost_by, st.booleans())
def test_monotone_in_lost_by(ld, by, reroll):
    assert break_test_probability(ld, by + 1, reroll=reroll) <= break_test_probability(
        ld, by, reroll=reroll
    )


@given(leadership, lost_by)
def test_insane_courage_steadfast_and_reroll_never_lower_the_odds(ld, by):
    plain = break_test_probability(ld, by, insane_courage=False)
    assert plain <= break_test_probability(ld, by)  # BR-5
    assert break_test_probability(ld, by) <= break_test_probability(ld, by, steadfast=True)
    assert break_test_probability(ld, by) <= break_test_probability(ld, by, reroll=True)


# BR-7: ranks, against a rank-by-rank count


@given(st.integers(min_value=1, max_value=200), st.data())
def test_br7_ranks_match_a_rank_by_rank_count(models, data):
    width = data.draw(st.integers(min_value=1, max_value=models))
    sizes = [width] * (models // width) + ([models % width] if models % width else [])
    assert ranks(models, width) == sum(1 for size in sizes if size >= 5)


def test_br7_examples():
    assert ranks(30, 6) == 5
    assert ranks(12, 5) == 2
    assert ranks(23, 6) == 4
    assert ranks(16, 4) == 0
    assert ranks(4, 4) == 0


# BR-6, BR-8 to BR-10 and their clarifications: Steadfast


def test_br6_needs_unit_strength_ten():
    assert not is_steadfast(Unit(9, 9), Unit(1, 1))
    assert is_steadfast(Unit(10, 10), Unit(1, 1))
    # more Unit Strength without more ranks
    assert is_steadfast(Unit(12, 4), Unit(11, 11))
    assert is_steadfast(Unit(11, 11), Unit(12, 4))  # 1 rank against none
    assert not is_steadfast(Unit(11, 11), Unit(12, 6))  # 1 rank against 2, 11 against 12
    assert not is_steadfast(Unit(12, 6), Unit(12, 6))  # BR-C7: equal is not more


def test_br8_several_units_compare_their_totals():
    spearmen, archers = Unit(15, 5), Unit(10, 5)  # 3 + 2 ranks, 25 strength
    warriors = Unit(20, 5)  # 4 ranks, 20 strength
    assert not is_steadfast(spearmen, warriors)  # 3 ranks < 4, 15 < 20
    assert is_steadfast([spearmen, archers], warriors)  # 5 ranks > 4
    assert not is_steadfast([spearmen, archers], [warriors, Unit(10, 5)])  # 5 < 6, 25 < 30


def test_br9_disrupted_units_use_unit_strength_only():
    goblins = Unit(20, 5, disrupted=True)
    assert not is_steadfast(goblins, Unit(8, 4, unit_strength=24))
    assert is_steadfast(goblins, Unit(8, 4, unit_strength=16))
    # a Disrupted unit adds no ranks to its side either (BR-8 with BR-9)
    assert not is_steadfast([goblins, Unit(10, 5)], Unit(15, 5, unit_strength=40))
    assert is_steadfast([Unit(20, 5), Unit(10, 5)], Unit(15, 5, unit_strength=40))


def test_br10_skirmishers_use_unit_strength_only():
    scouts = Unit(15, 5, skirmisher=True)
    assert is_steadfast(scouts, Unit(12, 6))
    assert not is_steadfast(scouts, Unit(16, 8))
    assert is_steadfast(Unit(15, 5), Unit(16, 8))  # the same models in formation


def test_brc1_the_caption_reading_is_an_option():
    goblins, knights = Unit(20, 5, disrupted=True), Unit(8, 4, unit_strength=24)
    assert not is_steadfast(goblins, knights)
    assert is_steadfast(goblins, knights, readings=Readings(disrupted_uses_ranks=True))


def test_brc2_unit_strength_floor_for_the_side_or_each_unit():
    """BR-C2: the Unit Strength 10 floor counts the side in total; the other reading, each unit."""
    side, trolls = [Unit(6, 6), Unit(8, 8)], Unit(3, 3, unit_strength=9)
    assert is_steadfast(side, trolls)
    assert not is_steadfast(side, trolls, readings=Readings(floor_per_unit=True))
    assert is_steadfast([Unit(10, 10), Unit(12, 6)], trolls, readings=Readings(floor_per_unit=True))


def test_brc4_enemy_ranks_count_even_when_disrupted():
    """BR-C4: a Disrupted enemy still counts its ranks against a Steadfast claim."""
    militia = Unit(20, 10)  # 2 ranks, strength 20
    assert not is_steadfast(militia, Unit(25, 5, disrupted=True))
    assert is_steadfast(militia, Unit(15, 5, disrupted=True))  # 3 ranks, but 20 > 15


def test_brc8_enemy_skirmishers_have_no_ranks_unless_the_other_reading():
    """BR-C8."""
    militia = Unit(20, 10)  # 2 ranks, strength 20
    rangers = Unit(25, 5, skirmisher=True)  # 5 ranks on paper, strength 25
    assert is_steadfast(militia, rangers)  # 2 ranks against none
    assert not is_steadfast(militia, rangers, readings=Readings(enemy_skirmishers_use_ranks=True))
    # in either reading the skirmishers' Unit Strength counts in full
    for option in (False, True):
        assert not is_steadfast(
            Unit(20, 4), rangers, readings=Readings(enemy_skirmishers_use_ranks=option)
        )
        assert is_steadfast(
            militia,
            Unit(15, 5, skirmisher=True),
            readings=Readings(enemy_skirmishers_use_ranks=option),
        )
    # a side with enemy skirmishers and enemy ranks: only the ranks in formation count
    assert not is_steadfast(Unit(12, 6), [Unit(20, 5), rangers])
    assert is_steadfast(Unit(30, 6), [Unit(10, 5), rangers])  # 5 ranks against 2
    with pytest.raises(RulesError, match="enemy_skirmishers_use_ranks"):
        is_steadfast(militia, rangers, readings=Readings(enemy_skirmishers_use_ranks="no"))


def test_brc9_a_disrupted_unit_shares_its_companions_ranks_unless_the_other_reading():
    spearmen, flanked = Unit(20, 5), Unit(10, 5, disrupted=True)  # 4 ranks; none usable
    knights = Unit(8, 4, unit_strength=40)  # no rank, the greater Unit Strength
    assert is_steadfast([spearmen, flanked], knights)  # 4 ranks against 0, for both units
    strength_only = Readings(disrupted_side_needs_strength=True)
    assert not is_steadfast([spearmen, flanked], knights, readings=strength_only)
    assert is_steadfast([spearmen, flanked], Unit(8, 4), readings=strength_only)  # 30 > 8
    assert is_steadfast(spearmen, knights, readings=strength_only)  # no Disrupted unit
    # with BR-C1's other reading the Disrupted unit counts its own ranks: nothing to deny
    both = Readings(disrupted_uses_ranks=True, disrupted_side_needs_strength=True)
    assert is_steadfast([spearmen, flanked], knights, readings=both)


units = st.integers(min_value=1, max_value=40).flatmap(
    lambda models: st.builds(
        Unit,
        st.just(models),
        st.integers(min_value=1, max_value=min(models, 10)),
        disrupted=st.booleans(),
    )
)
sides = st.lists(units, min_size=1, max_size=3)


@given(sides, sides)
def test_brc9_the_other_reading_denies_only_ranks_to_a_side_with_a_disrupted_unit(ours, theirs):
    """Against the sums of BR-6 to BR-9 written out: the other reading of BR-C9 changes a
    verdict only for a side with a Disrupted unit that is Steadfast by ranks alone."""
    strength = sum(u.strength for u in ours)
    by_ranks = sum(u.ranks for u in ours if not u.disrupted) > sum(u.ranks for u in theirs)
    by_strength = strength > sum(u.strength for u in theirs)
    disrupted = any(u.disrupted for u in ours)
    assert is_steadfast(ours, theirs) == (strength >= 10 and (by_ranks or by_strength))
    other = is_steadfast(ours, theirs, readings=Readings(disrupted_side_needs_strength=True))
    assert other == (strength >= 10 and ((by_ranks and not disrupted) or by_strength))


@given(
    st.integers(min_value=1, max_value=60),
    st.integers(min_value=1, max_value=60),
    st.data(),
)
def test_steadfast_by_its_definition(ours, theirs, data):
    """BR-6: Unit Strength 10 and more ranks or more strength, for random formations."""
    unit = Unit(ours, data.draw(st.integers(1, ours)))
    enemy = Unit(theirs, data.draw(st.integers(1, theirs)))
    expected = ours >= 10 and (unit.ranks > enemy.ranks or ours > theirs)
    assert is_steadfast(unit, enemy) == expected
    assert is_steadfast([unit], [enemy]) == expected


# BR-11 to BR-15: combat reforms


def test_br11_reform_order():
    assert reform_order(["A", "B"], loser="B") == ("B", "A")
    assert reform_order(["A", "B"], loser="A") == ("A", "B")
    assert reform_order(["A", "B"], chosen_first="B") == ("B", "A")  # after a draw
    assert reform_order(["A"], loser="B") == ("A",)  # only one side wants to
    with pytest.raises(RulesError, match="chosen_first"):
        reform_order(["A", "B"])
    with pytest.raises(RulesError, match="loser"):
        reform_order(["A", "B"], loser="C")


def test_br12_br13_br15_reform_permission():
    """BR-12 (two facings), BR-13 (winners and draws), BR-15 (losers test first)."""
    assert reform_permission("won").outcome is Reform.AT_ONCE
    assert reform_permission("draw").outcome is Reform.AT_ONCE
    assert reform_permission("won", enemy_fled=True).outcome is Reform.NOT_ALLOWED
    assert reform_permission("lost") == reform_permission("lost", engaged_facings=1)
    assert reform_permission("lost").outcome is Reform.AFTER_TEST
    assert reform_permission("lost").clause == "BR-15"
    assert reform_permission("lost", fled=True).outcome is Reform.NOT_ALLOWED
    for result in ("won", "lost", "draw"):
        permission = reform_permission(result, engaged_facings=2)
        assert (permission.outcome, permission.clause) == (Reform.NOT_ALLOWED, "BR-12")
    with pytest.raises(RulesError, match="result"):
        reform_permission("lose")


def test_br14_combat_reform_restrictions():
    """BR-14: no model leaves base contact; no new facing on an enemy already touched."""
    front = [Contact("a", "x", "Orcs", Facing.FRONT), Contact("b", "y", "Orcs", Facing.FRONT)]
    assert check_combat_reform(front, front).legal
    assert check_combat_reform(front, front + [Contact("c", "z", "Orcs", Facing.FRONT)]).legal
    # the same enemy models, touched by other models of ours
    swapped = [Contact("b", "x", "Orcs", Facing.FRONT), Contact("a", "y", "Orcs", Facing.FRONT)]
    assert check_combat_reform(front, swapped).legal
    # a model of ours or of theirs leaves base contact
    assert not check_combat_reform(front, front[:1]).legal
    assert "y" in check_combat_reform(front, [Contact("b", "x", "Orcs", Facing.FRONT)]).reason
    # a new facing on an enemy already touched
    flank = front + [Contact("c", "z", "Orcs", Facing.RIGHT_FLANK)]
    assert not check_combat_reform(front, flank).legal
    # a new enemy on any facing is fine
    wolves = front + [Contact("c", "w", "Wolves", Facing.REAR)]
    assert check_combat_reform(front, wolves).legal
    with pytest.raises(RulesError, match="facing"):
        Contact("a", "x", "Orcs", "side")


def test_br14_our_models_and_the_enemy_models_are_kept_apart():
    """BR-14: an enemy model named like one of ours does not hide our model's lost contact,
    nor does a model of another enemy unit with the same name."""
    before = [Contact("1", "1", "Orcs", Facing.FRONT), Contact("2", "2", "Orcs", Facing.FRONT)]
    after = [Contact("2", "1", "Orcs", Facing.FRONT), Contact("2", "2", "Orcs", Facing.FRONT)]
    check = check_combat_reform(before, after)  # our model 1 is out of contact
    assert not check.legal and check.reason == "would take out of base contact: 1"
    goblins = [Contact("a", "x", "Orcs", Facing.FRONT), Contact("b", "x", "Goblins", Facing.FRONT)]
    check = check_combat_reform(goblins, [goblins[1], Contact("a", "y", "Orcs", Facing.FRONT)])
    assert not check.legal and check.reason == "would take out of base contact: x"


def test_br15_reform_test_probability():
    assert reform_test_probability(8, 3) == Rational(5, 18)
    assert reform_test_probability(7, 7, steadfast=True) == Rational(7, 12)
    assert reform_test_probability(8, 3, unbreakable=True) == brute_force_stands(8, 0)
    # BR-C3: Insane Courage is not part of the reform test unless asked for
    assert reform_test_probability(5, 10) == 0
    assert reform_test_probability(5, 10, insane_courage=True) == Rational(1, 36)


# Bad input: a clear error naming the parameter, never a number


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: break_test_probability(11, 0), "leadership"),
        (lambda: break_test_probability(-1, 0), "leadership"),
        (lambda: break_test_probability(7.5, 0), "leadership"),
        (lambda: break_test_probability(True, 0), "leadership"),
        (lambda: break_test_probability("8", 0), "leadership"),
        (lambda: break_test_probability(8, -1), "lost_by"),
        (lambda: break_test_probability(8, 10**6), "lost_by"),
        (lambda: break_test_probability(8, None), "lost_by"),
        (lambda: resolve_break_test(8, 3, dice=(0, 4)), "dice"),
        (lambda: resolve_break_test(8, 3, dice=(7, 4)), "dice"),
        (lambda: resolve_break_test(8, 3, dice=(3,)), "dice"),
        (lambda: resolve_break_test(8, 3, dice="34"), "dice"),
        (lambda: is_insane_courage((1, 1, 1)), "dice"),
        (lambda: takes_break_test(-1, 3), "combat_result"),
        (lambda: takes_break_test(3, "4"), "enemy_combat_result"),
        (lambda: ranks(0, 1), "models"),
        (lambda: ranks(10, 11), "width"),
        (lambda: ranks(10, 0), "width"),
        (lambda: Unit(10**5, 5), "models"),
        (lambda: Unit(10, 5, unit_strength=0), "unit_strength"),
        (lambda: Unit(10, 5.0), "width"),
        (lambda: is_steadfast([], Unit(10, 5)), "side"),
        (lambda: is_steadfast(Unit(10, 5), ["ten orcs"]), r"enemy\[0\]"),
        (lambda: reform_permission("won", engaged_facings=0), "engaged_facings"),
        (lambda: reform_permission("won", fled=True), "fled"),
        (lambda: reform_permission("draw", enemy_fled=True), "enemy_fled"),
        (lambda: reform_permission("lost", fled="no"), "fled"),
        (lambda: break_test_probability(8, 3, steadfast="no"), "steadfast"),
        (lambda: break_test_probability(8, 3, insane_courage=None), "insane_courage"),
        (lambda: break_test_probability(8, 3, reroll="no"), "reroll"),
        (lambda: resolve_break_test(8, 3, (1, 1), insane_courage=1), "insane_courage"),
        (lambda: reform_test_probability(8, 3, unbreakable="no"), "unbreakable"),
        (lambda: reform_test_probability(8, 3, insane_courage="yes"), "insane_courage"),
        (lambda: Unit(30, 6, disrupted="no"), "disrupted"),
        (lambda: Unit(30, 6, skirmisher=2), "skirmisher"),
        (
            lambda: is_steadfast(Unit(10, 5), Unit(10, 5), readings=Readings(floor_per_unit="no")),
            "floor_per_unit",
        ),
        (lambda: check_combat_reform("ab", "ab"), "before"),
        (lambda: check_combat_reform([], [("a", "x", "Orcs", "front")]), r"after\[0\]"),
    ],
)
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(RulesError, match=f"^{name} must be") as error:
        call()
    assert isinstance(error.value, ValueError)


def test_fixed_words_are_stored_as_their_enum_members():
    contact = Contact("champion", "knight 1", "Knights", Facing.LEFT_FLANK)
    assert contact.facing is Facing.LEFT_FLANK and contact.facing == "left flank"
    assert reform_permission(CombatResult.LOST) == reform_permission("lost")
    assert tuple(CombatResult) == ("won", "lost", "draw") and Facing("rear") is Facing.REAR


def test_readings_default_to_the_published_reading():
    assert Readings() == Readings(False, False, False)
    goblins = Unit(models=20, width=5, disrupted=True)
    assert usable_ranks(goblins) == 0
    assert usable_ranks(goblins, readings=Readings(disrupted_uses_ranks=True)) == 4


def test_a_combat_result_may_be_zero_on_either_side():
    assert not takes_break_test(0, 0) and takes_break_test(0, 1) and not takes_break_test(1, 0)
