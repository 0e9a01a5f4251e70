"""Campaign combat (CA-1 to CA-24, clarifications CA-C1 to CA-C17), clause by clause, and
bad input; the exact odds of a battle are tested in tests/test_odds_battle.py."""

import pytest
from sympy import Rational
from test_odds_battle import ARTILLERY, CAVALRY, DAMAGED, FUBAR, INFANTRY, SMALL_BATTLES

from rulesref.campaign import (
    AfterSurrender,
    Battle,
    Garrison,
    Kind,
    LeadershipCheck,
    Platoon,
    Readings,
    Role,
    Roll,
    Side,
    State,
    Terrain,
    after_hq_surrender,
    army_supply,
    assign_hits,
    cavalry_barred,
    explain_roll,
    fewest_withdrawals,
    garrison_tests_for_surrender,
    garrison_turn,
    hits_from_damage,
    hq_surrenders,
    may_withdraw_voluntarily,
    mission_hq,
    most_withdrawals,
    out_of_supply,
    resolve_battle,
    verdict,
)
from rulesref.errors import RulesError
from rulesref.odds.battle import battle_odds

# The clauses one by one.


def test_ca1_ca2_one_die_per_platoon_declared_attack_or_defence():
    """CA-1 (the quick resolution), CA-2: declarations default to the side's role."""
    battle = Battle(Side([INFANTRY, CAVALRY]), Side([INFANTRY]))
    assert battle.declarations("attacker") == ("attack", "attack")
    assert battle.declarations("defender") == ("defence",)
    result = resolve_battle(battle, [3, 4], [5])
    assert (result.attacker.attack, result.attacker.defence) == (8, 0)
    assert (result.defender.attack, result.defender.defence) == (0, 6)
    assert str(result.steps[0]).startswith("CA-2")


def test_ca2_only_withdrawn_platoons_and_barred_cavalry_skip_their_die():
    """CA-2 with CA-10 and CA-C1: a platoon that may roll must: no declaration of None."""
    withdrawn = Platoon(state=State.WITHDRAWN)
    allowed = Battle(
        Side([CAVALRY, withdrawn, INFANTRY], [None, None, Roll.ATTACK]),
        Side([INFANTRY]),
        terrain=Terrain.WOODS,
    )
    assert allowed.declarations("attacker") == (None, None, "attack")
    for platoon in (INFANTRY, FUBAR, CAVALRY):  # cavalry in the open may roll
        with pytest.raises(RulesError, match=r"^attacker platoon 1 .* must roll"):
            Battle(Side([INFANTRY, platoon], [Roll.ATTACK, None]), Side([INFANTRY]))
        with pytest.raises(RulesError, match=r"^defender platoon 0 .* must roll"):
            Battle(Side([INFANTRY]), Side([platoon], [None]))


def explained(platoon, roll=Roll.ATTACK, role="attacker", **options):
    side = Side([platoon], [roll], fortified=options.pop("fortified", False))
    other = Side([INFANTRY])
    sides = (side, other) if role == "attacker" else (other, side)
    return explain_roll(Battle(*sides, **options), role, 0)


def test_ca3_artillery():
    """CA-3."""
    assert explained(ARTILLERY).modifier == 2
    assert explained(ARTILLERY, Roll.DEFENCE).modifier == 2
    assert [t.clause for t in explained(ARTILLERY, terrain=Terrain.FOREST).terms] == ["CA-3"]
    assert explained(ARTILLERY, terrain=Terrain.FOREST).modifier == -1


def test_ca4_cavalry_attacks():
    """CA-4."""
    assert explained(CAVALRY).modifier == 1
    assert explained(CAVALRY, Roll.DEFENCE).modifier == 0


def test_ca5_ca6_ca7_defence_bonuses():
    """CA-5, CA-6, CA-7."""
    assert explained(INFANTRY, Roll.DEFENCE, "defender").modifier == 1  # CA-5
    assert explained(INFANTRY, Roll.ATTACK, "defender").modifier == 0
    assert explained(INFANTRY, Roll.DEFENCE, fortified=True).modifier == 1  # CA-6
    assert explained(INFANTRY, Roll.DEFENCE, terrain=Terrain.MOUNTAIN).modifier == 1  # CA-7
    full = explained(INFANTRY, Roll.DEFENCE, "defender", fortified=True, terrain=Terrain.MOUNTAIN)
    assert [t.clause for t in full.terms] == ["CA-5", "CA-6", "CA-7"]
    assert full.modifier == 3


def test_ca8_ca11_damaged_and_out_of_supply():
    """CA-8, CA-11."""
    assert explained(DAMAGED).modifier == -1  # CA-8
    assert explained(Platoon(supplied=False)).modifier == -1  # CA-11
    both = explained(Platoon(Kind.ARTILLERY, State.DAMAGED, supplied=False))
    assert [t.clause for t in both.terms] == ["CA-3", "CA-8", "CA-11"]
    assert "= d6+0" in str(both)


def test_ca9_fubar_rolls_a_one_and_ca_c2_modifiers_apply():
    """CA-9, CA-C2."""
    guns = explained(Platoon(Kind.ARTILLERY, State.FUBAR))
    assert guns.faces == (3,) * 6  # CA-9 with CA-C2: 1 + 2
    assert guns.value(None) == guns.value(6) == 3
    flat = explained(Platoon(Kind.ARTILLERY, State.FUBAR), readings=Readings(fubar_modified=False))
    assert flat.faces == (1,) * 6
    assert explained(FUBAR).modifier == 0  # FUBAR is not Damaged (CA-C1)


def test_ca10_ca_c12_cavalry_barred_in_mountains_and_woods():
    """CA-10, CA-C12."""
    for terrain in (Terrain.MOUNTAIN, Terrain.WOODS, Terrain.FOREST):  # forest is woods (CA-C10)
        battle = Battle(Side([CAVALRY, INFANTRY]), Side([INFANTRY]), terrain=terrain)
        assert cavalry_barred(CAVALRY, battle)
        assert battle.declarations("attacker") == (None, "attack")
        with pytest.raises(RulesError, match="CA-10"):
            Battle(Side([CAVALRY], [Roll.ATTACK]), Side([INFANTRY]), terrain=terrain)
    # CA-C12: the silent cavalry still takes hits
    battle = Battle(Side([ARTILLERY] * 3), Side([CAVALRY]), terrain=Terrain.MOUNTAIN)
    result = resolve_battle(battle, [6, 6, 6], [None])
    assert result.defender.hits_taken == 4 and result.defender.fate == "routed"


def test_ca_c10_ca_c11_other_terrain_readings():
    """CA-C10, CA-C11."""
    literal = Readings(woods_is_forest=False, mountain_both_sides=False)
    assert not cavalry_barred(
        CAVALRY, Battle(Side([CAVALRY]), Side([INFANTRY]), Terrain.FOREST, readings=literal)
    )
    assert explained(ARTILLERY, terrain=Terrain.WOODS, readings=literal).modifier == 2
    assert (
        explained(INFANTRY, Roll.DEFENCE, terrain=Terrain.MOUNTAIN, readings=literal).modifier == 0
    )


def test_ca12_ca13_battle_damage_and_hits():
    """CA-12, CA-13."""
    battle = Battle(
        Side([INFANTRY, INFANTRY], [Roll.ATTACK, Roll.DEFENCE]),
        Side([INFANTRY, INFANTRY], [Roll.ATTACK, Roll.DEFENCE]),
    )
    result = resolve_battle(battle, [6, 2], [4, 1])
    assert result.attacker.battle_damage == 6 - 2  # the defender's defence: 1 + 1 (CA-5)
    assert result.defender.battle_damage == 4 - 2
    # each platoon's modified value, in order: the defender's defence die has CA-5's +1
    assert result.attacker.rolls == (6, 2) and result.defender.rolls == (4, 2)
    assert [hits_from_damage(d) for d in (0, 5, 6, 11, 12, 35)] == [0, 0, 1, 1, 2, 5]


def test_ca_c3_negative_battle_damage_gives_no_hits():
    """CA-C3."""
    assert hits_from_damage(-1) == hits_from_damage(-13) == 0
    battle = Battle(Side([INFANTRY]), Side([INFANTRY]))
    result = resolve_battle(battle, [1], [6])
    assert result.attacker.battle_damage == -6 and result.defender.hits_taken == 0
    assert any(step.clause == "CA-C3" for step in result.steps)


def test_ca14_ca_c1_the_damage_scale():
    """CA-14, CA-C1."""
    assert [Platoon(state=s).steps_left for s in State] == [3, 2, 1, 0]
    assert [INFANTRY.hit(n).state for n in range(4)] == list(State)
    assert FUBAR.hit().state == "withdrawn"  # CA-14: a hit on FUBAR withdraws it
    with pytest.raises(RulesError):
        FUBAR.hit(2)
    # CA-C1: a platoon withdrawn before the battle takes no part and is not counted
    after = assign_hits([Platoon(state=State.WITHDRAWN), FUBAR], 1, [0, 1])
    assert after.withdrawn == 1 and after.fell_back
    # no hits: nothing to share out, every platoon as it was
    after = assign_hits([INFANTRY, DAMAGED, FUBAR], 0)
    assert after.platoons == (INFANTRY, DAMAGED, FUBAR) and after.assignment == (0, 0, 0)
    assert (after.withdrawn, after.routed, after.fell_back) == (0, False, False)


def test_ca15_the_player_assigns_the_hits():
    """CA-15."""
    side = [INFANTRY, DAMAGED, FUBAR]
    assert fewest_withdrawals(side, 3) == (2, 1, 0)
    assert fewest_withdrawals(side, 4) == (3, 1, 0)  # all FUBAR, then the first goes
    assert most_withdrawals(side, 3) == (0, 2, 1)
    after = assign_hits(side, 3, [3, 0, 0])  # the player's own choice
    assert [p.state for p in after.platoons] == ["withdrawn", "damaged", "fubar"]
    assert after.withdrawn == 1


def test_ca16_unassignable_hits_rout_the_side():
    """CA-16."""
    after = assign_hits([DAMAGED], 3)
    assert after.routed and after.fell_back and after.withdrawn == 1
    battle = Battle(Side([ARTILLERY] * 3), Side([DAMAGED], [Roll.ATTACK]))
    result = resolve_battle(battle, [6, 6, 6], [1])  # 24 damage: 4 hits, room for 2
    assert result.verdict.clause == "CA-16" and result.victor == "attacker"
    assert result.defender.fate == "routed" and result.verdict.checker is None


def test_ca_c8_a_side_with_no_platoon_left_loses_without_rout():
    """CA-C8."""
    battle = Battle(Side([ARTILLERY] * 2), Side([FUBAR], [Roll.ATTACK]))
    result = resolve_battle(battle, [3, 2], [None])  # 9 damage: one hit, room for one
    assert result.defender.fate == "falls back" and result.verdict.clause == "CA-C8"
    # three guns do at least 9 damage, so every roll leaves the FUBAR defender no platoon
    odds = battle_odds(Battle(Side([ARTILLERY] * 3), Side([FUBAR])))
    assert odds.victor == {"attacker": 1, "defender": 0, None: 0}
    assert odds.fate["defender"]["falls back"] + odds.fate["defender"]["routed"] == 1
    assert odds.must_check == {"attacker": 0, "defender": 0}  # both roles, even never


def test_ca17_more_withdrawals_lose_and_check():
    """CA-17."""
    battle = Battle(
        Side([ARTILLERY, ARTILLERY, FUBAR], [Roll.ATTACK, Roll.ATTACK, Roll.DEFENCE]),
        Side([FUBAR, DAMAGED], [Roll.ATTACK, Roll.DEFENCE]),
    )
    # 8 + 8 = 16 attack against 1 - 1 + 1 defence: 15 damage, 2 hits on the defender
    result = resolve_battle(battle, [6, 6, None], [None, 1])
    assert result.defender.after_hits.withdrawn == 1
    assert result.verdict.clause == "CA-17" and result.verdict.checker == "defender"
    assert resolve_battle(
        battle, [6, 6, None], [None, 1], leadership_roll=(6, 6)
    ).defender.fate == ("withdraws")
    passed = resolve_battle(battle, [6, 6, None], [None, 1], leadership_roll=(3, 4))
    assert passed.defender.fate == "holds" and passed.victor == "attacker"


def test_ca_c13_only_withdrawals_by_hits_in_this_battle_count():
    """CA-C13."""
    before = assign_hits([Platoon(state=State.WITHDRAWN), INFANTRY], 1, [0, 1])
    assert before.withdrawn == 0  # withdrawn before the battle: not counted
    battle = Battle(Side([INFANTRY]), Side([INFANTRY]))
    lost = resolve_battle(battle, [6], [1], leadership_roll=False)
    assert lost.defender.fate == "withdraws" and lost.defender.after_hits.withdrawn == 0


def test_ca18_equal_withdrawals_greater_damage_wins_and_ca_c6_ties():
    """CA-18, CA-C6."""
    battle = Battle(
        Side([INFANTRY, INFANTRY], [Roll.ATTACK, Roll.DEFENCE]),
        Side([INFANTRY, INFANTRY], [Roll.ATTACK, Roll.DEFENCE]),
    )
    result = resolve_battle(battle, [5, 3], [2, 2])
    assert result.verdict.clause == "CA-18" and result.victor == "attacker"
    assert result.verdict.checker == "defender"
    tie = resolve_battle(battle, [3, 3], [3, 2])
    assert tie.attacker.battle_damage == tie.defender.battle_damage
    assert tie.victor is None and tie.verdict.clause == "CA-C6" and tie.verdict.checker is None
    # verdict on its own: a defender is not a garrison unless the caller says so (CA-20)
    unhurt, hit = assign_hits([INFANTRY], 0), assign_hits([INFANTRY], 1, [1])
    assert verdict(unhurt, hit, 1).checker == "defender"
    assert verdict(unhurt, hit, 1, garrison=True).checker is None


def test_ca_c7_both_sides_fall_back():
    """CA-C7."""
    gone = assign_hits([FUBAR], 1, [1])
    found = verdict(gone, gone, 1)
    assert found.victor is None and found.clause == "CA-C7" and found.checker is None


def test_ca19_voluntary_withdrawal_once_a_victor_is_known():
    """CA-19."""
    battle = Battle(Side([INFANTRY]), Side([INFANTRY]))
    assert may_withdraw_voluntarily(resolve_battle(battle, [6], [1]))  # CA-18
    assert not may_withdraw_voluntarily(resolve_battle(battle, [2], [1]))  # 2 - 2 = 0 - 0


def test_ca20_ca_c14_garrison_tests_only_when_all_fubar():
    """CA-20, CA-C14."""
    assert garrison_tests_for_surrender([FUBAR, Platoon(state=State.WITHDRAWN)])
    assert not garrison_tests_for_surrender([FUBAR, DAMAGED])
    assert not garrison_tests_for_surrender([Platoon(state=State.WITHDRAWN)])
    battle = SMALL_BATTLES["damaged garrison"]
    result = resolve_battle(battle, [4, 4, 4], [1, None])  # 18 - 1 = 17 damage: 2 hits
    assert result.verdict.clause == "CA-17" and result.defender.after_hits.all_fubar
    assert result.verdict.checker == "defender"
    failed = resolve_battle(battle, [4, 4, 4], [1, None], leadership_roll=False)
    assert failed.defender.fate == "surrenders"
    spared = resolve_battle(battle, [1, 1, 1], [6, None])  # 9 - 6 = 3: lost on damage only
    assert spared.victor == "attacker" and spared.verdict.checker is None
    assert spared.defender.fate == "holds"


def test_ca21_ca_c15_garrison_banks_supply_for_repairs():
    """CA-21, CA-C15."""
    fort = Garrison((FUBAR, DAMAGED, Platoon(state=State.WITHDRAWN)), supply_value=2)
    fort = garrison_turn(fort)
    assert fort.banked == 2
    fort = garrison_turn(fort, repairs=[0, 0, 1])
    assert [p.state for p in fort.platoons] == ["fresh", "fresh", "withdrawn"] and fort.banked == 1
    with pytest.raises(RulesError, match="paid"):
        garrison_turn(Garrison((FUBAR,), supply_value=0), repairs=[0])
    with pytest.raises(RulesError, match="damaged or FUBAR"):
        garrison_turn(fort, repairs=[2])
    assert garrison_turn(Garrison((FUBAR,), 1, 1), repairs=[0], cost=2).banked == 0


def test_ca22_mission_hq_fights_as_two_command_platoons():
    """CA-22, CA-C17."""
    hq = mission_hq()
    assert [p.kind for p in hq] == ["command", "command"]
    assert [p.name for p in hq] == ["HQ 1", "HQ 2"]
    battle = Battle(Side([INFANTRY] * 3), Side(hq))
    assert explain_roll(battle, "defender", 0).modifier == 1  # only CA-5
    result = resolve_battle(battle, [6, 6, 6], [1, 1])  # 18 - 4 = 14: 2 hits
    assert [p.state for p in result.defender.after_hits.platoons] == ["damaged", "damaged"]
    assert not hq_surrenders(result, "defender")
    failed = resolve_battle(battle, [6, 6, 6], [1, 1], leadership_roll=False)
    assert hq_surrenders(failed, "defender")  # CA-C17


def test_ca23_ca_c16_army_supply_follows_the_hq():
    """CA-23, CA-C16."""
    assert army_supply(["quiet", "moved", "quiet"]) == (True, False, True)
    assert army_supply(["fought", "fought", "quiet", "quiet"]) == (False, False, True, True)
    assert all(not p.supplied for p in out_of_supply([INFANTRY, ARTILLERY]))


def test_ca24_after_the_hq_surrenders():
    """CA-24."""
    assert after_hq_surrender("concede").game_over
    fight_on = after_hq_surrender("fight on")
    assert fight_on == AfterSurrender(game_over=False, army_supplied=False)
    assert after_hq_surrender("concede") == AfterSurrender(game_over=True, army_supplied=False)
    assert army_supply(["quiet", "surrendered", "quiet", "quiet"]) == (True, False, False, False)


def test_ca_c5_default_leadership_check():
    """CA-C5."""
    assert LeadershipCheck().pass_probability == Rational(7, 12)
    assert LeadershipCheck().passes((3, 4)) and not LeadershipCheck().passes((4, 4))
    assert LeadershipCheck(probability=1).pass_probability == 1
    assert isinstance(LeadershipCheck(probability=1).pass_probability, Rational)  # sympy's
    assert LeadershipCheck().leadership == 7 and LeadershipCheck(probability=1).leadership is None
    # a check of the caller's own decides the resolver's rolled check: 7 fails Leadership 6
    battle = Battle(Side([INFANTRY]), Side([INFANTRY]))
    for leadership, passed in ((None, True), (LeadershipCheck(leadership=6), False)):
        result = resolve_battle(battle, [1], [6], leadership=leadership, leadership_roll=(3, 4))
        assert result.verdict.checker == "attacker" and result.check_passed is passed


def test_constructors_keep_what_they_are_given():
    assert Garrison([INFANTRY, FUBAR]).platoons == (INFANTRY, FUBAR)  # stored as a tuple
    assert Side([INFANTRY]).name == "" and Side([INFANTRY], name="Blue").name == "Blue"


# Bad input.


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: Platoon("dragoons"), "kind must be a Kind"),
        (lambda: Platoon(state="broken"), "state must be a State"),
        (lambda: Platoon(supplied="yes"), "supplied must be True or False"),
        (lambda: Side([]), "platoons"),
        (lambda: Side([Platoon(state=State.WITHDRAWN)]), "not withdrawn"),
        (lambda: Side([INFANTRY], [Roll.ATTACK, Roll.DEFENCE]), "one entry per platoon"),
        (lambda: Side([INFANTRY], ["charge"]), "declaration must be a Roll"),
        (lambda: Battle(Side([INFANTRY]), Side([INFANTRY]), "swamp"), "terrain must be a Terrain"),
        (
            lambda: Battle(Side([CAVALRY], [Roll.ATTACK]), Side([INFANTRY]), Terrain.MOUNTAIN),
            "CA-10",
        ),
        (lambda: Battle(Side([CAVALRY], [Roll.DEFENCE]), Side([INFANTRY]), Terrain.WOODS), "CA-10"),
        (
            lambda: Battle(
                Side([INFANTRY, Platoon(state=State.WITHDRAWN)], [Roll.ATTACK] * 2),
                Side([INFANTRY]),
            ),
            "withdrawn and may not roll",
        ),
        (lambda: assign_hits([INFANTRY, INFANTRY], 3, [1, 1]), "add up to 3"),
        (lambda: assign_hits([INFANTRY, INFANTRY], 3, None), "share out 3"),
        (lambda: assign_hits([FUBAR, INFANTRY], 2, [2, 0]), "hits on platoon 0"),
        (lambda: assign_hits([INFANTRY], 2, [1, 1]), "one number per platoon"),
        (lambda: assign_hits([FUBAR], 5, [0]), "all the hits it can take"),
        (lambda: LeadershipCheck(leadership=13), "leadership must be"),
        (lambda: LeadershipCheck(probability=Rational(3, 2)), "probability must be"),
        (
            lambda: LeadershipCheck(leadership=9, probability=Rational(1, 2)),
            r"must not both be given .*, got 9 and 1/2",
        ),
        (lambda: LeadershipCheck().passes((0, 7)), "leadership roll must be"),
        (lambda: army_supply(["marched"]), "activity must be one of"),
        (lambda: after_hq_surrender("flee"), "choice must be one of"),
        (lambda: Garrison((INFANTRY,), supply_value=-1), "supply_value"),
    ],
)
def test_bad_input_is_named(make, match):
    with pytest.raises(RulesError, match=match):
        make()


def test_bad_dice_are_named():
    battle = Battle(Side([INFANTRY, FUBAR]), Side([CAVALRY]), terrain=Terrain.WOODS)
    assert isinstance(RulesError("x"), ValueError)
    with pytest.raises(RulesError, match="die must be 1 d6"):
        resolve_battle(battle, [7, None], [None])
    with pytest.raises(RulesError, match="die must be 1 d6"):
        resolve_battle(battle, [None, None], [None])
    with pytest.raises(RulesError, match="rolls no die"):
        resolve_battle(battle, [3, 4], [None])  # a FUBAR platoon may give None or 1 only
    with pytest.raises(RulesError, match="rolls no die"):
        resolve_battle(battle, [3, None], [5])  # the cavalry in woods
    with pytest.raises(RulesError, match="one entry per platoon"):
        resolve_battle(battle, [3], [None])
    with pytest.raises(RulesError, match="add up"):
        resolve_battle(
            Battle(Side([ARTILLERY] * 2), Side([INFANTRY])), [6, 6], [1], defender_hits=[1]
        )
    with pytest.raises(RulesError, match="role must be one of"):
        explain_roll(battle, "ally", 0)
    with pytest.raises(RulesError, match="index"):
        explain_roll(battle, "attacker", 5)


def test_the_words_of_the_rules_are_enums_that_equal_their_words():
    """CA-2, CA-14: a record stores the member, which prints and shows as the word, so
    published outputs are unchanged; a function still reads the word as text."""
    from rulesref.campaign import Fate, SurrenderChoice

    guns = Platoon(Kind.ARTILLERY, State.DAMAGED)
    assert type(guns.kind) is Kind and guns.kind is Kind.ARTILLERY and guns.kind == "artillery"
    assert type(guns.state) is State and guns.hit().state is State.FUBAR
    battle = Battle(Side([guns], [Roll.DEFENCE]), Side([INFANTRY]), terrain=Terrain.FOREST)
    assert battle.terrain is Terrain.FOREST and battle.declarations("attacker") == (Roll.DEFENCE,)
    assert type(battle.declarations("attacker")[0]) is Roll
    assert (
        str(Kind.CAVALRY) == f"{Kind.CAVALRY}" == "cavalry" and repr(Role.ATTACKER) == "'attacker'"
    )
    assert tuple(Role) == ("attacker", "defender") and State("fubar") is State.FUBAR
    assert [role.enemy for role in Role] == [Role.DEFENDER, Role.ATTACKER]
    assert after_hq_surrender(SurrenderChoice.CONCEDE) == after_hq_surrender("concede")
    result = resolve_battle(Battle(Side([INFANTRY]), Side([INFANTRY])), [6], [1])
    assert type(result.victor) is Role and type(result.defender.fate) is Fate
    odds = battle_odds(Battle(Side([INFANTRY]), Side([INFANTRY])))
    assert all(type(fate) is Fate for fate in odds.fate["defender"])
    assert str(odds.victor) == "{'attacker': 5/18, 'defender': 7/12, None: 5/36}"
