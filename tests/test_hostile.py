"""Hostile input to the public API: every wrong type or nonsense value ends in RulesError.

One table, one row per input; each row names the parameter its message must name.
"""

import pytest
from sympy import Rational

from rulesref import break_test as br
from rulesref import campaign as ca
from rulesref import leadership as ld
from rulesref import standards as st
from rulesref import tables
from rulesref.errors import MAX_MESSAGE, RulesError
from rulesref.odds import battle as ob
from rulesref.odds import cascade as oc
from rulesref.views import chain_of_command as vc
from rulesref.views import charts

UNIT = br.Unit(models=20, width=5)
CONTACT = br.Contact("1", "1", "Orcs", "front")
PLATOON = ca.Platoon()
BATTLE = ca.Battle(ca.Side([PLATOON]), ca.Side([PLATOON]))
OUTCOME = ca.assign_hits([PLATOON], 0)
RESULT = ca.resolve_battle(BATTLE, [3], [3])
WITHDRAWN = ca.Platoon(state="withdrawn")
# a platoon that rolls, a FUBAR one (1 or None) and a withdrawn one (None only)
MIXED = ca.Battle(ca.Side([PLATOON, ca.Platoon(state="fubar"), WITHDRAWN]), ca.Side([PLATOON]))
BARRED = ca.Battle(ca.Side([ca.Platoon("cavalry")]), ca.Side([PLATOON]), terrain="woods")
SQUADS = [ld.Unit("A", 10, "4+"), ld.Unit("B", 10, "4+")]
FORCE = ld.Force([ld.Command("Platoon", SQUADS)])
LEADER = ld.Leader("Lt", "3+", rank=1)
GONE_A = ld.Force([ld.Command("Platoon", [ld.Unit("A", 10, "4+", removed=True), SQUADS[1]])])
ROUND = st.Round(unit=st.UnitFate.HOLDS)

CASES = [
    # campaign constructors: each field refused by its own name
    ("defender", lambda: ca.Battle(ca.Side([PLATOON]), [PLATOON])),
    ("garrison", lambda: ca.Battle(ca.Side([PLATOON]), ca.Side([PLATOON]), garrison="yes")),
    ("name", lambda: ca.Side([PLATOON], name=5)),
    ("name", lambda: ca.Platoon(name="\n")),
    ("banked", lambda: ca.Garrison((PLATOON,), banked=-1)),
    ("banked", lambda: ca.Garrison((PLATOON,), banked=10**6 + 1)),
    ("supply_value", lambda: ca.Garrison((PLATOON,), supply_value=101)),
    ("found", lambda: ca.fates(None, {}, None, garrison=False)),
    (
        "garrison",
        lambda: ca.fates(
            ca.verdict(OUTCOME, OUTCOME, 0),
            {"attacker": OUTCOME, "defender": OUTCOME},
            None,
            garrison="no",
        ),
    ),
    (
        "after['defender']",
        lambda: ca.fates(
            ca.verdict(OUTCOME, OUTCOME, 0), {"attacker": OUTCOME}, None, garrison=False
        ),
    ),
    (
        "passed",
        lambda: ca.fates(
            ca.verdict(OUTCOME, OUTCOME, 0),
            {"attacker": OUTCOME, "defender": OUTCOME},
            "maybe",
            garrison=False,
        ),
    ),
    ("role", lambda: ob.battle_odds(BATTLE).expected_hits("winner")),
    # break_test
    ("models", lambda: br.Unit(models="20", width=5)),
    ("width", lambda: br.Unit(models=20, width=0)),
    ("unit_strength", lambda: br.Unit(12, 6, unit_strength=3)),
    ("unit_strength", lambda: br.Unit(12, 6, unit_strength=12.0)),
    ("skirmisher", lambda: br.Unit(12, 6, skirmisher="no")),
    ("side", lambda: br.is_steadfast(None, UNIT)),
    ("enemy", lambda: br.is_steadfast(UNIT, None)),
    ("side", lambda: br.is_steadfast([], UNIT)),
    ("side[1]", lambda: br.is_steadfast([UNIT, 5], UNIT)),
    ("side", lambda: br.is_steadfast("unit", UNIT)),
    ("floor_per_unit", lambda: br.is_steadfast(UNIT, UNIT, readings=br.Readings(floor_per_unit=1))),
    ("readings", lambda: br.is_steadfast(UNIT, UNIT, readings={"floor_per_unit": True})),
    ("readings", lambda: br.usable_ranks(UNIT, readings=True)),
    ("facing", lambda: br.Contact("a", "b", "c", "Front")),
    ("result", lambda: br.reform_permission(br.Facing.FRONT)),
    ("unit", lambda: br.usable_ranks(None)),
    ("unit", lambda: br.usable_ranks(UNIT.ranks)),
    (
        "disrupted_uses_ranks",
        lambda: br.usable_ranks(UNIT, readings=br.Readings(disrupted_uses_ranks=None)),
    ),
    ("wanting[0]", lambda: br.reform_order([[1], [2]], loser=[1])),
    ("chosen_first", lambda: br.reform_order(["a", "b"], chosen_first=5)),
    ("chosen_first", lambda: br.reform_order(["a", "b"], chosen_first="c")),
    ("loser", lambda: br.reform_order(["a", "b"], loser="c")),
    ("enemy_fled", lambda: br.reform_permission("won", enemy_fled="yes")),
    ("enemy_fled", lambda: br.reform_permission("lost", enemy_fled=True)),
    ("after", lambda: br.check_combat_reform([], [CONTACT] * (br.MAX_MODELS + 1))),
    ("before", lambda: br.check_combat_reform([CONTACT] * (br.MAX_MODELS + 1), [])),
    ("enemy_combat_result", lambda: br.takes_break_test(0, -1)),
    ("wanting", lambda: br.reform_order(["a", "b", "a"], loser="a")),
    ("wanting", lambda: br.reform_order(["a", "a"], loser="a")),
    ("wanting", lambda: br.reform_order("ab", loser="a")),
    ("loser", lambda: br.reform_order(["a", "b"], loser="c")),
    ("loser", lambda: br.reform_order(["a"], loser=1)),
    ("loser and chosen_first", lambda: br.reform_order(["a", "b"], loser="a", chosen_first="b")),
    ("wanting[0]", lambda: br.reform_order([" ", "b"], loser="b")),
    ("result", lambda: br.reform_permission(None)),
    ("result", lambda: br.reform_permission(["won"])),
    ("engaged_facings", lambda: br.reform_permission("won", engaged_facings=1.0)),
    ("model", lambda: br.Contact(1, "1", "Orcs", "front")),
    ("enemy_unit", lambda: br.Contact("1", "1", "Orcs\n", "front")),
    ("facing", lambda: br.Contact("1", "1", "Orcs", ["front"])),
    ("before", lambda: br.check_combat_reform(None, [CONTACT])),
    ("after[0]", lambda: br.check_combat_reform([CONTACT], ["1"])),
    ("before", lambda: br.check_combat_reform("abc", [CONTACT])),
    ("dice", lambda: br.is_insane_courage(None)),
    ("dice", lambda: br.resolve_break_test(8, 3, dice=(1, 1, 1))),
    ("leadership", lambda: br.break_test_probability(8.0, 3)),
    ("lost_by", lambda: br.break_test_probability(8, float("nan"))),
    ("reroll", lambda: br.break_test_probability(8, 3, reroll="yes")),
    ("combat_result", lambda: br.takes_break_test(None, 3)),
    # leadership
    ("leadership", lambda: ld.Leader("L", "7+", rank=1)),
    ("ignore", lambda: ld.leadership_test_probability("4+", ignore="yes")),
    ("leadership", lambda: ld.best_leadership(5)),
    ("after_units", lambda: ld.force_must_test(10, 5, 6)),
    ("leaders of command 'P'", lambda: ld.Command("P", SQUADS, [LEADER] * (ld.MAX_UNITS + 1))),
    ("doctrine", lambda: ld.Command("P", SQUADS, doctrine="x")),
    ("force name", lambda: ld.Force([ld.Command("P", SQUADS)], name=5)),
    ("doctrine", lambda: ld.Force([ld.Command("P", SQUADS)], doctrine="x")),
    ("leaders of the force", lambda: ld.Force([ld.Command("P", SQUADS)], leaders=5)),
    (
        "leaders of the force",
        lambda: ld.Force([ld.Command("P", SQUADS)], leaders=[LEADER] * (ld.MAX_UNITS + 1)),
    ),
    ("target", lambda: ld.leadership_target("X4+")),
    ("target", lambda: ld.leadership_test_probability(None)),
    ("target", lambda: ld.leadership_test_probability("4+\n")),
    ("target", lambda: ld.leadership_test_probability("٤+")),
    ("rerolls", lambda: ld.leadership_test_probability(4, rerolls=True)),
    ("leadership", lambda: ld.best_leadership([])),
    ("leadership", lambda: ld.best_leadership(None)),
    ("doctrine name", lambda: ld.Doctrine(name=5)),
    ("doctrine name", lambda: ld.Doctrine(name="a\x1b[2Jb")),
    ("ignores", lambda: ld.Doctrine(ignores=0)),
    ("unit name", lambda: ld.Unit(" ", 10, "4+")),
    ("unit name", lambda: ld.Unit("A\nforce breaks: 0", 10, "4+")),
    ("unit name", lambda: ld.Unit("\ud800", 10, "4+")),
    ("unit name", lambda: ld.Unit("x" * 101, 10, "4+")),
    ("unit name", lambda: ld.Unit("A\u202eB", 10, "4+")),
    ("starting", lambda: ld.Unit("A", 0, "4+")),
    ("current", lambda: ld.Unit("A", 10, "4+", current=11)),
    ("leadership", lambda: ld.Unit("A", 10, "1+")),
    ("doctrine", lambda: ld.Unit("A", 10, "4+", doctrine=1)),
    ("removed", lambda: ld.Unit("A", 10, "4+", removed="no")),
    ("leader name", lambda: ld.Leader(None, "2+", rank=1)),
    ("rank", lambda: ld.Leader("Lt", "2+", rank=0)),
    ("unit of", lambda: ld.Leader("Lt", "2+", rank=1, unit=5)),
    ("alive", lambda: ld.Leader("Lt", "2+", rank=1, alive=None)),
    ("units of command", lambda: ld.Command("P", [])),
    ("units of command", lambda: ld.Command("P", SQUADS[0])),
    ("leaders of command", lambda: ld.Command("P", SQUADS, leaders=[5])),
    ("leader 'Lt' must fight", lambda: ld.Command("P", SQUADS, [ld.Leader("Lt", 2, 1, "Z")])),
    ("command name", lambda: ld.Command(("P",), SQUADS)),
    ("commands", lambda: ld.Force([])),
    ("commands", lambda: ld.Force(ld.Command("P", SQUADS))),
    ("names must be unique", lambda: ld.Force([ld.Command("A", SQUADS)])),
    (
        "force must have a unit in play",
        lambda: ld.Force([ld.Command("P", [ld.Unit("A", 10, 4, current=0)])]),
    ),
    (
        "units of the force",
        lambda: ld.Force(
            [
                ld.Command(f"C{c}", [ld.Unit(f"U{c}-{u}", 1, 4) for u in range(101)])
                for c in range(ld.MAX_UNITS // 100)
            ]
        ),
    ),
    ("force", lambda: oc.cascade_probabilities(" ", {})),
    ("level", lambda: ld.resolve_phase(FORCE, {}, {}).gone("units")),
    ("force", lambda: vc.chain_of_command_svg(None, oc.cascade_probabilities(FORCE, {}))),
    ("odds", lambda: vc.chain_of_command_svg(FORCE, None)),
    (
        "odds must be the cascade of this force",
        lambda: vc.chain_of_command_svg(
            ld.Force([ld.Command("Q", [ld.Unit("Z", 10, 4)])]), oc.cascade_probabilities(FORCE, {})
        ),
    ),
    ("force", lambda: ld.resolve_phase(None, {}, {})),
    ("casualties", lambda: oc.cascade_probabilities(FORCE, [("A", 6)])),
    ("casualties must be names", lambda: oc.cascade_probabilities(FORCE, {"Z": 1})),
    ("casualties['A']", lambda: oc.cascade_probabilities(FORCE, {"A": 11})),
    ("casualties['A']", lambda: oc.cascade_probabilities(FORCE, {"A": -1})),
    ("prefer", lambda: oc.cascade_probabilities(FORCE, {}, prefer="A")),
    ("prefer must be names", lambda: oc.cascade_probabilities(FORCE, {}, prefer=["Z"])),
    ("removed_figures_survive", lambda: ld.Readings(removed_figures_survive=1)),
    ("readings", lambda: oc.cascade_probabilities(FORCE, {}, readings={"x": 1})),
    ("readings", lambda: ld.resolve_phase(FORCE, {}, {}, readings=True)),
    ("dice['A']", lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": [2, 5, 6]})),
    ("dice['A']", lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": []})),
    ("dice['A']", lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": [7]})),
    ("dice['A']", lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": "5"})),
    ("dice['A']", lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": "56"})),
    ("dice['A']", lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": 5})),
    ("dice['A']", lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": [True]})),
    ("dice['A']", lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": [5.0]})),
    # a unit removed in an earlier phase has no model left to lose
    ("casualties['A']", lambda: ld.resolve_phase(GONE_A, {"A": 1}, {})),
    ("dice must name", lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": [5], "Z": [1]})),
    ("dice must map", lambda: ld.resolve_phase(FORCE, {"A": 6}, [5])),
    ("start", lambda: ld.must_take_break_test(None, 1, 1)),
    ("after", lambda: ld.must_take_break_test(10, 5, 6)),
    # campaign
    ("kind", lambda: ca.Platoon("dragons")),
    ("state", lambda: ca.Platoon(state=None)),
    ("supplied", lambda: ca.Platoon(supplied="yes")),
    ("name", lambda: ca.Platoon(name=5)),
    ("name", lambda: ca.Platoon(name="HQ\r")),
    ("platoons", lambda: ca.Side(None)),
    ("platoons", lambda: ca.Side([])),
    ("platoons[0]", lambda: ca.Side(["infantry"])),
    ("platoons must include", lambda: ca.Side([ca.Platoon(state="withdrawn")])),
    ("declarations", lambda: ca.Side([PLATOON], declarations=5)),
    ("declarations", lambda: ca.Side([PLATOON], declarations="attack")),
    ("declarations must give", lambda: ca.Side([PLATOON], declarations=["attack"] * 2)),
    ("declaration", lambda: ca.Side([PLATOON], declarations=["charge"])),
    ("fortified", lambda: ca.Side([PLATOON], fortified=None)),
    ("attacker", lambda: ca.Battle(None, ca.Side([PLATOON]))),
    ("terrain", lambda: ca.Battle(ca.Side([PLATOON]), ca.Side([PLATOON]), terrain="swamp")),
    ("readings", lambda: ca.Battle(ca.Side([PLATOON]), ca.Side([PLATOON]), readings={})),
    ("clamp_rolls", lambda: ca.Readings(clamp_rolls="no")),
    ("battle", lambda: ob.battle_odds(0)),
    ("policy", lambda: ob.battle_odds(BATTLE, policy="x")),
    ("leadership", lambda: ob.battle_odds(BATTLE, leadership=9)),
    ("battle", lambda: ob.hits_odds(None)),
    ("role", lambda: ob.battle_odds(BATTLE).expected_hits("both")),
    ("battle", lambda: ca.resolve_battle(None, [3], [3])),
    ("policy", lambda: ca.resolve_battle(BATTLE, [3], [3], policy=None)),
    ("attacker dice", lambda: ca.resolve_battle(BATTLE, [3, 3], [3])),
    ("die", lambda: ca.resolve_battle(BATTLE, [7], [3])),
    ("die", lambda: ca.resolve_battle(BATTLE, [3.0], [3])),
    ("attacker dice", lambda: ca.resolve_battle(BATTLE, 3, [3])),
    ("attacker dice", lambda: ca.resolve_battle(BATTLE, "3", [3])),
    ("attacker die 1", lambda: ca.resolve_battle(MIXED, [3, 3, None], [3])),
    ("attacker die 2", lambda: ca.resolve_battle(MIXED, [3, 1, 1], [3])),
    ("cavalry", lambda: ca.explain_roll(BARRED, "attacker", 0).value(3)),
    ("role", lambda: BATTLE.declarations("both")),
    ("role", lambda: BATTLE.side("both")),
    ("platoons", lambda: ca.hit_order(ca.fewest_withdrawals, [])),
    ("platoons", lambda: ca.hit_order(ca.most_withdrawals, [PLATOON] * (ca.MAX_PLATOONS + 1))),
    ("role", lambda: ca.explain_roll(BATTLE, None, 0)),
    ("index", lambda: ca.explain_roll(BATTLE, "attacker", 1)),
    ("battle", lambda: ca.explain_roll(None, "attacker", 0)),
    ("platoon", lambda: ca.cavalry_barred("cavalry", BATTLE)),
    ("battle", lambda: ca.cavalry_barred(PLATOON, None)),
    ("probability", lambda: ca.LeadershipCheck(probability=True)),
    ("probability", lambda: ca.LeadershipCheck(probability=0.5)),
    ("probability", lambda: ca.LeadershipCheck(probability=Rational(3, 2))),
    ("probability", lambda: ca.LeadershipCheck(probability=float("nan"))),
    ("leadership", lambda: ca.LeadershipCheck(leadership=13)),
    ("roll", lambda: ca.LeadershipCheck().passes(None)),
    ("leadership roll", lambda: ca.LeadershipCheck().passes([1, 2, 3])),
    ("roll", lambda: ca.LeadershipCheck(probability=Rational(1, 2)).passes([3, 4])),
    ("damage_order", lambda: ca.verdict(OUTCOME, OUTCOME, float("nan"))),
    ("damage_order", lambda: ca.verdict(OUTCOME, OUTCOME, 2)),
    ("attacker", lambda: ca.verdict(None, OUTCOME, 0)),
    ("garrison", lambda: ca.verdict(OUTCOME, OUTCOME, 0, garrison=None)),
    ("platoons", lambda: ca.assign_hits([], 1)),
    ("platoons", lambda: ca.assign_hits(None, 1)),
    ("hits", lambda: ca.assign_hits([PLATOON], -1)),
    ("assignment", lambda: ca.assign_hits([PLATOON], 1, [0])),
    ("assignment", lambda: ca.assign_hits([PLATOON], 3)),  # every hit it can take, not routed
    ("assignment", lambda: ca.assign_hits([PLATOON], 1, "1")),
    ("assignment[0]", lambda: ca.assign_hits([PLATOON], 1, [True])),
    ("platoons", lambda: ca.fewest_withdrawals(None, 1)),
    ("platoons", lambda: ca.most_withdrawals([], 0)),
    ("hits", lambda: ca.most_withdrawals([PLATOON], 4)),
    ("battle_damage", lambda: ca.hits_from_damage(6.0)),
    ("platoons", lambda: ca.Garrison(platoons=3)),
    ("platoons", lambda: ca.Garrison(platoons=())),
    ("supply_value", lambda: ca.Garrison((PLATOON,), supply_value=-1)),
    ("garrison", lambda: ca.garrison_turn(None)),
    ("repairs", lambda: ca.garrison_turn(ca.Garrison((PLATOON,)), repairs=0)),
    ("repair index", lambda: ca.garrison_turn(ca.Garrison((PLATOON,)), repairs=[1])),
    ("cost", lambda: ca.garrison_turn(ca.Garrison((PLATOON,)), cost=0)),
    ("platoons", lambda: ca.garrison_tests_for_surrender(None)),
    ("activity", lambda: ca.army_supply("quiet")),
    ("activity", lambda: ca.army_supply(["resting"])),
    ("state", lambda: ca.mission_hq(state="shaken")),
    ("result", lambda: ca.hq_surrenders(None, "attacker")),
    ("role", lambda: ca.hq_surrenders(RESULT, "neither")),
    ("result", lambda: ca.may_withdraw_voluntarily(None)),
    ("choice", lambda: ca.after_hq_surrender("flee")),
    ("platoons", lambda: ca.out_of_supply(None)),
    ("hits", lambda: PLATOON.hit(4)),
    # CA-2: only withdrawn platoons and barred cavalry may roll nothing
    ("attacker platoon 0", lambda: ca.Battle(ca.Side([PLATOON], [None]), ca.Side([PLATOON]))),
    # CA-C1: a withdrawn platoon may not roll either (CA-10 is the cavalry's clause)
    (
        "attacker platoon 1",
        lambda: ca.Battle(ca.Side([PLATOON, WITHDRAWN], ["attack"] * 2), ca.Side([PLATOON])),
    ),
    # standards
    ("r", lambda: st.standard_fate(None)),
    ("free_to_pursue_suffices", lambda: st.Readings(free_to_pursue_suffices="no")),
    ("free_to_pursue_suffices", lambda: st.Readings(free_to_pursue_suffices=None)),
    ("readings", lambda: st.standard_fate(ROUND, readings={"free_to_pursue_suffices": True})),
    ("troops", lambda: st.Round(troops="normal")),
    ("regimental_standard", lambda: st.Round(regimental_standard=False, army_standard=False)),
    ("regimental_standard", lambda: st.Round(regimental_standard="yes")),
    ("alone", lambda: st.Round(alone=1)),
    ("alone", lambda: st.Round(alone=True, unit=None)),
    ("unit", lambda: st.Round(unit="holds")),
    ("unit", lambda: st.Round(unit=None)),
    ("unit", lambda: st.Round(troops=st.Troops.IMMUNE, unit=st.UnitFate.BREAKS)),
    ("character", lambda: st.Round(unit=st.UnitFate.HOLDS, character="killed")),
    ("character", lambda: st.Round(army_standard=True, unit=st.UnitFate.HOLDS)),
    ("character", lambda: st.Round(unit=st.UnitFate.HOLDS, character=st.Character.KILLED)),
    (
        "character",
        lambda: st.Round(
            army_standard=True, unit=st.UnitFate.HOLDS, character=st.Character.CRUMBLES
        ),
    ),
    (
        "character",
        lambda: st.Round(
            troops=st.Troops.UNDEAD, unit=st.UnitFate.HOLDS, character=st.Character.BREAKS
        ),
    ),
    ("victor", lambda: st.Round(unit=st.UnitFate.HOLDS, victor=st.Victor.PURSUES)),
    ("victor", lambda: st.Round(victor=None)),
    ("army_standard", lambda: st.Round(army_standard=1)),
    ("r", lambda: st.decision_path(None, st.Standard.ARMY)),
    ("standard", lambda: st.decision_path(ROUND, "army")),
    ("r", lambda: st.first_step(st.REGIMENTAL_STEPS, None)),
    ("steps", lambda: st.first_step([], ROUND)),
    ("steps[0]", lambda: st.first_step([None], ROUND)),
    # refusals that were TypeErrors, KeyErrors or StopIterations (issue 19, item 7)
    ("prefer must be names", lambda: oc.cascade_probabilities(FORCE, {}, prefer=[["A"]])),
    ("prefer must be names", lambda: ld.resolve_phase(FORCE, {}, {}, prefer=[5])),
    ("casualties must be names", lambda: oc.cascade_probabilities(FORCE, {("A",): 1})),
    ("casualties must be names", lambda: oc.cascade_probabilities(FORCE, {5: 1})),
    ("series", lambda: charts.line_chart([], "x", "y")),
    ("series", lambda: charts.bar_chart([], "x", "y")),
    ("series", lambda: charts.line_chart([charts.Series("a", [])], "x", "y")),
    ("series[0]", lambda: charts.line_chart([None], "x", "y")),
    ("terrain", lambda: tables.small_battle_victor(terrain=5, fortified=False)),
    ("terrain", lambda: tables.small_battle_victor(terrain=-1, fortified=False)),
    ("terrain", lambda: tables.small_battle_victor(terrain="open", fortified=False)),
    # names that are invisible, or break a drawing, or hide a second name
    ("unit name", lambda: ld.Unit("A\u200b", 10, 4)),
    ("unit name", lambda: ld.Unit("\ufeffA", 10, 4)),
    ("unit name", lambda: ld.Unit("A\ufffe", 10, 4)),
    ("leader name", lambda: ld.Leader("Lt\U0010ffff", 4, 1)),
    ("name", lambda: ca.Platoon(name="\u2060")),
    # a huge value is cut in the message, never quoted whole
    ("leadership", lambda: ld.best_leadership("x" * 99_000)),
    ("casualties", lambda: oc.cascade_probabilities(FORCE, "x" * 99_000)),
    ("starting", lambda: ld.Unit("A", 10**5000, 4)),
]


@pytest.mark.parametrize(
    ("name", "call"), CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)]
)
def test_hostile_input_is_refused_by_name(name, call):
    with pytest.raises(RulesError) as caught:
        call()
    message = str(caught.value)
    assert message.startswith(name), message  # the parameter first, as every message does
    assert len(message) <= MAX_MESSAGE
    parameter, allowed = caught.value.parameter, caught.value.allowed
    if parameter:  # a check's refusal: the message is built from the parts a caller reads
        assert message.startswith(f"{parameter} must be {allowed}, got "), message
    assert "\n" not in message and message.isprintable()
