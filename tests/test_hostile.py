"""Hostile input to the public API: every wrong type or nonsense value ends in RulesError.

One table, one row per input; each row names the parameter its message must name, and
has a short name of its own (`id`), the function and what is wrong, which keys its message
in the snapshot `tests/snapshots/rulings/messages.json` (tests/test_rulings.py).
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
CONTACT = br.Contact("1", "1", "Orcs", br.Facing.FRONT)
PLATOON = ca.Platoon()
BATTLE = ca.Battle(ca.Side([PLATOON]), ca.Side([PLATOON]))
OUTCOME = ca.assign_hits([PLATOON], 0)
RESULT = ca.resolve_battle(BATTLE, [3], [3])
WITHDRAWN = ca.Platoon(state=ca.State.WITHDRAWN)
# a platoon that rolls, a FUBAR one (1 or None) and a withdrawn one (None only)
MIXED = ca.Battle(
    ca.Side([PLATOON, ca.Platoon(state=ca.State.FUBAR), WITHDRAWN]), ca.Side([PLATOON])
)
BARRED = ca.Battle(
    ca.Side([ca.Platoon(ca.Kind.CAVALRY)]), ca.Side([PLATOON]), terrain=ca.Terrain.WOODS
)
SQUADS = [ld.Unit("A", 10, 4), ld.Unit("B", 10, 4)]
FORCE = ld.Force([ld.Command("Platoon", SQUADS)])
LEADER = ld.Leader("Lt", 3, rank=1)
GONE_A = ld.Force([ld.Command("Platoon", [ld.Unit("A", 10, 4, removed=True), SQUADS[1]])])
ROUND = st.Round(unit=st.UnitFate.HOLDS)

CASES = [
    # campaign constructors: each field refused by its own name
    pytest.param(
        "defender", lambda: ca.Battle(ca.Side([PLATOON]), [PLATOON]), id="ca.Battle:defender"
    ),
    pytest.param(
        "garrison",
        lambda: ca.Battle(ca.Side([PLATOON]), ca.Side([PLATOON]), garrison="yes"),
        id="ca.Battle:garrison",
    ),
    pytest.param("name", lambda: ca.Side([PLATOON], name=5), id="ca.Side:name"),
    pytest.param("name", lambda: ca.Platoon(name="\n"), id="ca.Platoon:name=newline"),
    pytest.param(
        "banked", lambda: ca.Garrison((PLATOON,), banked=-1), id="ca.Garrison:banked=negative"
    ),
    pytest.param(
        "banked",
        lambda: ca.Garrison((PLATOON,), banked=10**6 + 1),
        id="ca.Garrison:banked=too_many",
    ),
    pytest.param(
        "supply_value",
        lambda: ca.Garrison((PLATOON,), supply_value=101),
        id="ca.Garrison:supply_value=too_high",
    ),
    pytest.param("found", lambda: ca.fates(None, {}, None, garrison=False), id="ca.fates:found"),
    pytest.param(
        "garrison",
        lambda: ca.fates(
            ca.verdict(OUTCOME, OUTCOME, 0),
            {"attacker": OUTCOME, "defender": OUTCOME},
            None,
            garrison="no",
        ),
        id="ca.fates:garrison",
    ),
    pytest.param(
        "after['defender']",
        lambda: ca.fates(
            ca.verdict(OUTCOME, OUTCOME, 0), {"attacker": OUTCOME}, None, garrison=False
        ),
        id="ca.fates:after[defender]",
    ),
    pytest.param(
        "passed",
        lambda: ca.fates(
            ca.verdict(OUTCOME, OUTCOME, 0),
            {"attacker": OUTCOME, "defender": OUTCOME},
            "maybe",
            garrison=False,
        ),
        id="ca.fates:passed",
    ),
    pytest.param(
        "role",
        lambda: ob.battle_odds(BATTLE).expected_hits("winner"),
        id="ob.BattleOdds.expected_hits:role=winner",
    ),
    # break_test
    pytest.param("models", lambda: br.Unit(models="20", width=5), id="br.Unit:models"),
    pytest.param("width", lambda: br.Unit(models=20, width=0), id="br.Unit:width"),
    pytest.param(
        "unit_strength",
        lambda: br.Unit(12, 6, unit_strength=3),
        id="br.Unit:unit_strength=below_models",
    ),
    pytest.param(
        "unit_strength",
        lambda: br.Unit(12, 6, unit_strength=12.0),
        id="br.Unit:unit_strength=float",
    ),
    pytest.param("skirmisher", lambda: br.Unit(12, 6, skirmisher="no"), id="br.Unit:skirmisher"),
    pytest.param("side", lambda: br.is_steadfast(None, UNIT), id="br.is_steadfast:side=None"),
    pytest.param("enemy", lambda: br.is_steadfast(UNIT, None), id="br.is_steadfast:enemy"),
    pytest.param("side", lambda: br.is_steadfast([], UNIT), id="br.is_steadfast:side=empty"),
    pytest.param("side[1]", lambda: br.is_steadfast([UNIT, 5], UNIT), id="br.is_steadfast:side[1]"),
    pytest.param("side", lambda: br.is_steadfast("unit", UNIT), id="br.is_steadfast:side=text"),
    pytest.param(
        "floor_per_unit",
        lambda: br.is_steadfast(UNIT, UNIT, readings=br.Readings(floor_per_unit=1)),
        id="br.is_steadfast:floor_per_unit",
    ),
    pytest.param(
        "readings",
        lambda: br.is_steadfast(UNIT, UNIT, readings={"floor_per_unit": True}),
        id="br.is_steadfast:readings",
    ),
    pytest.param(
        "readings", lambda: br.usable_ranks(UNIT, readings=True), id="br.usable_ranks:readings"
    ),
    pytest.param(
        "facing", lambda: br.Contact("a", "b", "c", "Front"), id="br.Contact:facing=capitalised"
    ),
    pytest.param(
        "result",
        lambda: br.reform_permission(br.Facing.FRONT),
        id="br.reform_permission:result=a_facing",
    ),
    pytest.param("unit", lambda: br.usable_ranks(None), id="br.usable_ranks:unit=None"),
    pytest.param("unit", lambda: br.usable_ranks(UNIT.ranks), id="br.usable_ranks:unit=number"),
    pytest.param(
        "disrupted_uses_ranks",
        lambda: br.usable_ranks(UNIT, readings=br.Readings(disrupted_uses_ranks=None)),
        id="br.usable_ranks:disrupted_uses_ranks",
    ),
    pytest.param(
        "wanting[0]",
        lambda: br.reform_order([[1], [2]], loser=[1]),
        id="br.reform_order:wanting[0]=list",
    ),
    pytest.param(
        "chosen_first",
        lambda: br.reform_order(["a", "b"], chosen_first=5),
        id="br.reform_order:chosen_first=5",
    ),
    pytest.param(
        "chosen_first",
        lambda: br.reform_order(["a", "b"], chosen_first="c"),
        id="br.reform_order:chosen_first=c",
    ),
    pytest.param(
        "loser",
        lambda: br.reform_order(["a", "b"], loser="c"),
        id="br.reform_order:loser=not_wanting",
    ),
    pytest.param(
        "enemy_fled",
        lambda: br.reform_permission("won", enemy_fled="yes"),
        id="br.reform_permission:enemy_fled=yes",
    ),
    pytest.param(
        "enemy_fled",
        lambda: br.reform_permission("lost", enemy_fled=True),
        id="br.reform_permission:enemy_fled=True",
    ),
    pytest.param(
        "after",
        lambda: br.check_combat_reform([], [CONTACT] * (br.MAX_MODELS + 1)),
        id="br.check_combat_reform:after",
    ),
    pytest.param(
        "before",
        lambda: br.check_combat_reform([CONTACT] * (br.MAX_MODELS + 1), []),
        id="br.check_combat_reform:before=too_many",
    ),
    pytest.param(
        "enemy_combat_result",
        lambda: br.takes_break_test(0, -1),
        id="br.takes_break_test:enemy_combat_result",
    ),
    pytest.param(
        "wanting",
        lambda: br.reform_order(["a", "b", "a"], loser="a"),
        id="br.reform_order:wanting=repeated",
    ),
    pytest.param(
        "wanting",
        lambda: br.reform_order(["a", "a"], loser="a"),
        id="br.reform_order:wanting=one_name_twice",
    ),
    pytest.param(
        "wanting", lambda: br.reform_order("ab", loser="a"), id="br.reform_order:wanting=text"
    ),
    pytest.param(
        "loser", lambda: br.reform_order(["a"], loser=1), id="br.reform_order:loser=number"
    ),
    pytest.param(
        "loser and chosen_first",
        lambda: br.reform_order(["a", "b"], loser="a", chosen_first="b"),
        id="br.reform_order:loser_and_chosen_first",
    ),
    pytest.param(
        "wanting[0]",
        lambda: br.reform_order([" ", "b"], loser="b"),
        id="br.reform_order:wanting[0]=blank",
    ),
    pytest.param(
        "result", lambda: br.reform_permission(None), id="br.reform_permission:result=None"
    ),
    pytest.param(
        "result", lambda: br.reform_permission(["won"]), id="br.reform_permission:result=list"
    ),
    pytest.param(
        "engaged_facings",
        lambda: br.reform_permission("won", engaged_facings=1.0),
        id="br.reform_permission:engaged_facings",
    ),
    pytest.param(
        "model", lambda: br.Contact(1, "1", "Orcs", br.Facing.FRONT), id="br.Contact:model"
    ),
    pytest.param(
        "enemy_unit",
        lambda: br.Contact("1", "1", "Orcs\n", br.Facing.FRONT),
        id="br.Contact:enemy_unit",
    ),
    pytest.param(
        "facing", lambda: br.Contact("1", "1", "Orcs", ["front"]), id="br.Contact:facing=list"
    ),
    pytest.param(
        "before",
        lambda: br.check_combat_reform(None, [CONTACT]),
        id="br.check_combat_reform:before=None",
    ),
    pytest.param(
        "after[0]",
        lambda: br.check_combat_reform([CONTACT], ["1"]),
        id="br.check_combat_reform:after[0]",
    ),
    pytest.param(
        "before",
        lambda: br.check_combat_reform("abc", [CONTACT]),
        id="br.check_combat_reform:before=text",
    ),
    pytest.param("dice", lambda: br.is_insane_courage(None), id="br.is_insane_courage:dice"),
    pytest.param(
        "dice", lambda: br.resolve_break_test(8, 3, dice=(1, 1, 1)), id="br.resolve_break_test:dice"
    ),
    pytest.param(
        "leadership",
        lambda: br.break_test_probability(8.0, 3),
        id="br.break_test_probability:leadership",
    ),
    pytest.param(
        "lost_by",
        lambda: br.break_test_probability(8, float("nan")),
        id="br.break_test_probability:lost_by",
    ),
    pytest.param(
        "reroll",
        lambda: br.break_test_probability(8, 3, reroll="yes"),
        id="br.break_test_probability:reroll",
    ),
    pytest.param(
        "combat_result",
        lambda: br.takes_break_test(None, 3),
        id="br.takes_break_test:combat_result",
    ),
    # leadership
    pytest.param("leadership", lambda: ld.Leader("L", "7+", rank=1), id="ld.Leader:leadership"),
    pytest.param(
        "ignore",
        lambda: ld.leadership_test_probability("4+", ignore="yes"),
        id="ld.leadership_test_probability:ignore",
    ),
    pytest.param(
        "leadership", lambda: ld.best_leadership(5), id="ld.best_leadership:leadership=number"
    ),
    pytest.param(
        "after_units", lambda: ld.force_must_test(10, 5, 6), id="ld.force_must_test:after_units"
    ),
    pytest.param(
        "leaders of command 'P'",
        lambda: ld.Command("P", SQUADS, [LEADER] * (ld.MAX_UNITS + 1)),
        id="ld.Command:leaders_of_command_P",
    ),
    pytest.param(
        "doctrine", lambda: ld.Command("P", SQUADS, doctrine="x"), id="ld.Command:doctrine"
    ),
    pytest.param(
        "force name", lambda: ld.Force([ld.Command("P", SQUADS)], name=5), id="ld.Force:force_name"
    ),
    pytest.param(
        "doctrine",
        lambda: ld.Force([ld.Command("P", SQUADS)], doctrine="x"),
        id="ld.Force:doctrine",
    ),
    pytest.param(
        "leaders of the force",
        lambda: ld.Force([ld.Command("P", SQUADS)], leaders=5),
        id="ld.Force:leaders_of_the_force=number",
    ),
    pytest.param(
        "leaders of the force",
        lambda: ld.Force([ld.Command("P", SQUADS)], leaders=[LEADER] * (ld.MAX_UNITS + 1)),
        id="ld.Force:leaders_of_the_force=too_many",
    ),
    pytest.param("target", lambda: ld.leadership_target("X4+"), id="ld.leadership_target:target"),
    pytest.param(
        "target",
        lambda: ld.leadership_test_probability(None),
        id="ld.leadership_test_probability:target=None",
    ),
    pytest.param(
        "target",
        lambda: ld.leadership_test_probability("4+\n"),
        id="ld.leadership_test_probability:target=newline",
    ),
    pytest.param(
        "target",
        lambda: ld.leadership_test_probability("٤+"),
        id="ld.leadership_test_probability:target=arabic_digit",
    ),
    pytest.param(
        "rerolls",
        lambda: ld.leadership_test_probability(4, rerolls=True),
        id="ld.leadership_test_probability:rerolls",
    ),
    pytest.param(
        "leadership", lambda: ld.best_leadership([]), id="ld.best_leadership:leadership=empty"
    ),
    pytest.param(
        "leadership", lambda: ld.best_leadership(None), id="ld.best_leadership:leadership=None"
    ),
    pytest.param(
        "doctrine name", lambda: ld.Doctrine(name=5), id="ld.Doctrine:doctrine_name=number"
    ),
    pytest.param(
        "doctrine name",
        lambda: ld.Doctrine(name="a\x1b[2Jb"),
        id="ld.Doctrine:doctrine_name=escape_code",
    ),
    pytest.param("ignores", lambda: ld.Doctrine(ignores=0), id="ld.Doctrine:ignores"),
    pytest.param("unit name", lambda: ld.Unit(" ", 10, 4), id="ld.Unit:unit_name=blank"),
    pytest.param(
        "unit name", lambda: ld.Unit("A\nforce breaks: 0", 10, 4), id="ld.Unit:unit_name=newline"
    ),
    pytest.param(
        "unit name", lambda: ld.Unit("\ud800", 10, 4), id="ld.Unit:unit_name=lone_surrogate"
    ),
    pytest.param("unit name", lambda: ld.Unit("x" * 101, 10, 4), id="ld.Unit:unit_name=too_long"),
    pytest.param(
        "unit name", lambda: ld.Unit("A\u202eB", 10, 4), id="ld.Unit:unit_name=bidi_override"
    ),
    pytest.param("starting", lambda: ld.Unit("A", 0, 4), id="ld.Unit:starting=0"),
    pytest.param("current", lambda: ld.Unit("A", 10, 4, current=11), id="ld.Unit:current"),
    pytest.param("leadership", lambda: ld.Unit("A", 10, "1+"), id="ld.Unit:leadership"),
    # a record takes the target, not its written form nor one per model (read at the edge)
    pytest.param("leadership", lambda: ld.Unit("A", 10, "4+"), id="ld.Unit:leadership=written"),
    pytest.param("leadership", lambda: ld.Unit("A", 10, [4, 5]), id="ld.Unit:leadership=list"),
    pytest.param("leadership", lambda: ld.Unit("A", 10, 7), id="ld.Unit:leadership=7"),
    pytest.param("leadership", lambda: ld.Leader("L", True, 1), id="ld.Leader:leadership=bool"),
    pytest.param("doctrine", lambda: ld.Unit("A", 10, 4, doctrine=1), id="ld.Unit:doctrine"),
    pytest.param("removed", lambda: ld.Unit("A", 10, 4, removed="no"), id="ld.Unit:removed"),
    pytest.param(
        "leader name", lambda: ld.Leader(None, 2, rank=1), id="ld.Leader:leader_name=None"
    ),
    pytest.param("rank", lambda: ld.Leader("Lt", 2, rank=0), id="ld.Leader:rank"),
    pytest.param("unit of", lambda: ld.Leader("Lt", 2, rank=1, unit=5), id="ld.Leader:unit_of"),
    pytest.param("alive", lambda: ld.Leader("Lt", 2, rank=1, alive=None), id="ld.Leader:alive"),
    pytest.param(
        "units of command", lambda: ld.Command("P", []), id="ld.Command:units_of_command=empty"
    ),
    pytest.param(
        "units of command",
        lambda: ld.Command("P", SQUADS[0]),
        id="ld.Command:units_of_command=one_unit",
    ),
    pytest.param(
        "leaders of command",
        lambda: ld.Command("P", SQUADS, leaders=[5]),
        id="ld.Command:leaders_of_command",
    ),
    pytest.param(
        "leader 'Lt' must fight",
        lambda: ld.Command("P", SQUADS, [ld.Leader("Lt", 2, 1, "Z")]),
        id="ld.Command:leader_Lt_must_fight",
    ),
    pytest.param("command name", lambda: ld.Command(("P",), SQUADS), id="ld.Command:command_name"),
    pytest.param("commands", lambda: ld.Force([]), id="ld.Force:commands=empty"),
    pytest.param(
        "commands", lambda: ld.Force(ld.Command("P", SQUADS)), id="ld.Force:commands=one_command"
    ),
    pytest.param(
        "names must be unique",
        lambda: ld.Force([ld.Command("A", SQUADS)]),
        id="ld.Force:names_must_be_unique",
    ),
    pytest.param(
        "force must have a unit in play",
        lambda: ld.Force([ld.Command("P", [ld.Unit("A", 10, 4, current=0)])]),
        id="ld.Force:force_must_have_a_unit_in_play",
    ),
    pytest.param(
        "units of the force",
        lambda: ld.Force(
            [
                ld.Command(f"C{c}", [ld.Unit(f"U{c}-{u}", 1, 4) for u in range(101)])
                for c in range(ld.MAX_UNITS // 100)
            ]
        ),
        id="ld.Force:units_of_the_force",
    ),
    pytest.param(
        "force", lambda: oc.cascade_probabilities(" ", {}), id="oc.cascade_probabilities:force"
    ),
    pytest.param(
        "level",
        lambda: ld.resolve_phase(FORCE, {}, {}).gone("units"),
        id="ld.resolve_phase.gone:level",
    ),
    pytest.param(
        "force",
        lambda: vc.chain_of_command_svg(None, oc.cascade_probabilities(FORCE, {})),
        id="vc.chain_of_command_svg:force",
    ),
    pytest.param(
        "odds", lambda: vc.chain_of_command_svg(FORCE, None), id="vc.chain_of_command_svg:odds"
    ),
    pytest.param(
        "odds must be the cascade of this force",
        lambda: vc.chain_of_command_svg(
            ld.Force([ld.Command("Q", [ld.Unit("Z", 10, 4)])]), oc.cascade_probabilities(FORCE, {})
        ),
        id="vc.chain_of_command_svg:odds_must_be_the_cascade_of_this_force",
    ),
    pytest.param("force", lambda: ld.resolve_phase(None, {}, {}), id="ld.resolve_phase:force"),
    pytest.param(
        "casualties",
        lambda: oc.cascade_probabilities(FORCE, [("A", 6)]),
        id="oc.cascade_probabilities:casualties=list",
    ),
    pytest.param(
        "casualties must be names",
        lambda: oc.cascade_probabilities(FORCE, {"Z": 1}),
        id="oc.cascade_probabilities:casualties_must_be_names=unknown",
    ),
    pytest.param(
        "casualties['A']",
        lambda: oc.cascade_probabilities(FORCE, {"A": 11}),
        id="oc.cascade_probabilities:casualties[A]=too_many",
    ),
    pytest.param(
        "casualties['A']",
        lambda: oc.cascade_probabilities(FORCE, {"A": -1}),
        id="oc.cascade_probabilities:casualties[A]=negative",
    ),
    pytest.param(
        "prefer",
        lambda: oc.cascade_probabilities(FORCE, {}, prefer="A"),
        id="oc.cascade_probabilities:prefer",
    ),
    pytest.param(
        "prefer must be names",
        lambda: oc.cascade_probabilities(FORCE, {}, prefer=["Z"]),
        id="oc.cascade_probabilities:prefer_must_be_names=unknown",
    ),
    pytest.param(
        "removed_figures_survive",
        lambda: ld.Readings(removed_figures_survive=1),
        id="ld.Readings:removed_figures_survive",
    ),
    pytest.param(
        "readings",
        lambda: oc.cascade_probabilities(FORCE, {}, readings={"x": 1}),
        id="oc.cascade_probabilities:readings",
    ),
    pytest.param(
        "readings",
        lambda: ld.resolve_phase(FORCE, {}, {}, readings=True),
        id="ld.resolve_phase:readings",
    ),
    pytest.param(
        "dice['A']",
        lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": [2, 5, 6]}),
        id="ld.resolve_phase:dice[A]=too_many",
    ),
    pytest.param(
        "dice['A']",
        lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": []}),
        id="ld.resolve_phase:dice[A]=empty",
    ),
    pytest.param(
        "dice['A']",
        lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": [7]}),
        id="ld.resolve_phase:dice[A]=seven",
    ),
    pytest.param(
        "dice['A']",
        lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": "5"}),
        id="ld.resolve_phase:dice[A]=text",
    ),
    pytest.param(
        "dice['A']",
        lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": "56"}),
        id="ld.resolve_phase:dice[A]=text_of_two",
    ),
    pytest.param(
        "dice['A']",
        lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": 5}),
        id="ld.resolve_phase:dice[A]=number",
    ),
    pytest.param(
        "dice['A']",
        lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": [True]}),
        id="ld.resolve_phase:dice[A]=bool",
    ),
    pytest.param(
        "dice['A']",
        lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": [5.0]}),
        id="ld.resolve_phase:dice[A]=float",
    ),
    # a unit removed in an earlier phase has no model left to lose
    pytest.param(
        "casualties['A']",
        lambda: ld.resolve_phase(GONE_A, {"A": 1}, {}),
        id="ld.resolve_phase:casualties[A]",
    ),
    pytest.param(
        "dice must name",
        lambda: ld.resolve_phase(FORCE, {"A": 6}, {"A": [5], "Z": [1]}),
        id="ld.resolve_phase:dice_must_name",
    ),
    pytest.param(
        "dice must map",
        lambda: ld.resolve_phase(FORCE, {"A": 6}, [5]),
        id="ld.resolve_phase:dice_must_map",
    ),
    pytest.param(
        "start", lambda: ld.must_take_break_test(None, 1, 1), id="ld.must_take_break_test:start"
    ),
    pytest.param(
        "after", lambda: ld.must_take_break_test(10, 5, 6), id="ld.must_take_break_test:after"
    ),
    # campaign
    pytest.param("kind", lambda: ca.Platoon("dragons"), id="ca.Platoon:kind"),
    # a record takes the member of a Word, not the word as text (read by `Kind("cavalry")`)
    pytest.param("kind", lambda: ca.Platoon("cavalry"), id="ca.Platoon:kind=text"),
    pytest.param("state", lambda: ca.Platoon(state="fubar"), id="ca.Platoon:state=text"),
    pytest.param(
        "terrain",
        lambda: ca.Battle(ca.Side([PLATOON]), ca.Side([PLATOON]), terrain="woods"),
        id="ca.Battle:terrain=text",
    ),
    pytest.param(
        "declaration", lambda: ca.Side([PLATOON], ["attack"]), id="ca.Side:declaration=text"
    ),
    pytest.param(
        "facing", lambda: br.Contact("1", "1", "Orcs", "front"), id="br.Contact:facing=text"
    ),
    pytest.param("state", lambda: ca.Platoon(state=None), id="ca.Platoon:state"),
    pytest.param("supplied", lambda: ca.Platoon(supplied="yes"), id="ca.Platoon:supplied"),
    pytest.param("name", lambda: ca.Platoon(name=5), id="ca.Platoon:name=number"),
    pytest.param("name", lambda: ca.Platoon(name="HQ\r"), id="ca.Platoon:name=carriage_return"),
    pytest.param("platoons", lambda: ca.Side(None), id="ca.Side:platoons=None"),
    pytest.param("platoons", lambda: ca.Side([]), id="ca.Side:platoons=empty"),
    pytest.param("platoons[0]", lambda: ca.Side(["infantry"]), id="ca.Side:platoons[0]"),
    pytest.param(
        "platoons must include",
        lambda: ca.Side([ca.Platoon(state=ca.State.WITHDRAWN)]),
        id="ca.Side:platoons_must_include",
    ),
    pytest.param(
        "declarations", lambda: ca.Side([PLATOON], declarations=5), id="ca.Side:declarations=number"
    ),
    pytest.param(
        "declarations",
        lambda: ca.Side([PLATOON], declarations="attack"),
        id="ca.Side:declarations=text",
    ),
    pytest.param(
        "declarations must give",
        lambda: ca.Side([PLATOON], declarations=[ca.Roll.ATTACK] * 2),
        id="ca.Side:declarations_must_give",
    ),
    pytest.param(
        "declaration", lambda: ca.Side([PLATOON], declarations=["charge"]), id="ca.Side:declaration"
    ),
    pytest.param("fortified", lambda: ca.Side([PLATOON], fortified=None), id="ca.Side:fortified"),
    pytest.param("attacker", lambda: ca.Battle(None, ca.Side([PLATOON])), id="ca.Battle:attacker"),
    pytest.param(
        "terrain",
        lambda: ca.Battle(ca.Side([PLATOON]), ca.Side([PLATOON]), terrain="swamp"),
        id="ca.Battle:terrain",
    ),
    pytest.param(
        "readings",
        lambda: ca.Battle(ca.Side([PLATOON]), ca.Side([PLATOON]), readings={}),
        id="ca.Battle:readings",
    ),
    pytest.param(
        "clamp_rolls", lambda: ca.Readings(clamp_rolls="no"), id="ca.Readings:clamp_rolls"
    ),
    pytest.param("battle", lambda: ob.battle_odds(0), id="ob.battle_odds:battle"),
    pytest.param("policy", lambda: ob.battle_odds(BATTLE, policy="x"), id="ob.battle_odds:policy"),
    pytest.param(
        "leadership", lambda: ob.battle_odds(BATTLE, leadership=9), id="ob.battle_odds:leadership"
    ),
    pytest.param("battle", lambda: ob.hits_odds(None), id="ob.hits_odds:battle"),
    pytest.param(
        "role",
        lambda: ob.battle_odds(BATTLE).expected_hits("both"),
        id="ob.BattleOdds.expected_hits:role=both",
    ),
    pytest.param(
        "battle", lambda: ca.resolve_battle(None, [3], [3]), id="ca.resolve_battle:battle"
    ),
    pytest.param(
        "policy",
        lambda: ca.resolve_battle(BATTLE, [3], [3], policy=None),
        id="ca.resolve_battle:policy",
    ),
    pytest.param(
        "attacker dice",
        lambda: ca.resolve_battle(BATTLE, [3, 3], [3]),
        id="ca.resolve_battle:attacker_dice=too_many",
    ),
    pytest.param(
        "die", lambda: ca.resolve_battle(BATTLE, [7], [3]), id="ca.resolve_battle:die=seven"
    ),
    pytest.param(
        "die", lambda: ca.resolve_battle(BATTLE, [3.0], [3]), id="ca.resolve_battle:die=float"
    ),
    pytest.param(
        "attacker dice",
        lambda: ca.resolve_battle(BATTLE, 3, [3]),
        id="ca.resolve_battle:attacker_dice=number",
    ),
    pytest.param(
        "attacker dice",
        lambda: ca.resolve_battle(BATTLE, "3", [3]),
        id="ca.resolve_battle:attacker_dice=text",
    ),
    pytest.param(
        "attacker die 1",
        lambda: ca.resolve_battle(MIXED, [3, 3, None], [3]),
        id="ca.resolve_battle:attacker_die_1",
    ),
    pytest.param(
        "attacker die 2",
        lambda: ca.resolve_battle(MIXED, [3, 1, 1], [3]),
        id="ca.resolve_battle:attacker_die_2",
    ),
    pytest.param(
        "cavalry",
        lambda: ca.explain_roll(BARRED, "attacker", 0).value(3),
        id="ca.explain_roll.value:cavalry",
    ),
    pytest.param("role", lambda: BATTLE.declarations("both"), id="BATTLE.declarations:role"),
    pytest.param("role", lambda: BATTLE.side("both"), id="BATTLE.side:role"),
    pytest.param(
        "platoons",
        lambda: ca.hit_order(ca.fewest_withdrawals, []),
        id="ca.hit_order:platoons=empty",
    ),
    pytest.param(
        "platoons",
        lambda: ca.hit_order(ca.most_withdrawals, [PLATOON] * (ca.MAX_PLATOONS + 1)),
        id="ca.hit_order:platoons=too_many",
    ),
    pytest.param("role", lambda: ca.explain_roll(BATTLE, None, 0), id="ca.explain_roll:role"),
    pytest.param(
        "index", lambda: ca.explain_roll(BATTLE, "attacker", 1), id="ca.explain_roll:index"
    ),
    pytest.param(
        "battle", lambda: ca.explain_roll(None, "attacker", 0), id="ca.explain_roll:battle"
    ),
    pytest.param(
        "platoon", lambda: ca.cavalry_barred("cavalry", BATTLE), id="ca.cavalry_barred:platoon"
    ),
    pytest.param("battle", lambda: ca.cavalry_barred(PLATOON, None), id="ca.cavalry_barred:battle"),
    pytest.param(
        "probability",
        lambda: ca.LeadershipCheck(probability=True),
        id="ca.LeadershipCheck:probability=True",
    ),
    pytest.param(
        "probability",
        lambda: ca.LeadershipCheck(probability=0.5),
        id="ca.LeadershipCheck:probability=0.5",
    ),
    pytest.param(
        "probability",
        lambda: ca.LeadershipCheck(probability=Rational(3, 2)),
        id="ca.LeadershipCheck:probability=above_one",
    ),
    pytest.param(
        "probability",
        lambda: ca.LeadershipCheck(probability=float("nan")),
        id="ca.LeadershipCheck:probability=nan",
    ),
    pytest.param(
        "leadership", lambda: ca.LeadershipCheck(leadership=13), id="ca.LeadershipCheck:leadership"
    ),
    pytest.param(
        "roll", lambda: ca.LeadershipCheck().passes(None), id="ca.LeadershipCheck.passes:roll=None"
    ),
    pytest.param(
        "leadership roll",
        lambda: ca.LeadershipCheck().passes([1, 2, 3]),
        id="ca.LeadershipCheck.passes:leadership_roll",
    ),
    pytest.param(
        "roll",
        lambda: ca.LeadershipCheck(probability=Rational(1, 2)).passes([3, 4]),
        id="ca.LeadershipCheck.passes:roll=dice_with_a_probability",
    ),
    pytest.param(
        "damage_order",
        lambda: ca.verdict(OUTCOME, OUTCOME, float("nan")),
        id="ca.verdict:damage_order=nan",
    ),
    pytest.param(
        "damage_order", lambda: ca.verdict(OUTCOME, OUTCOME, 2), id="ca.verdict:damage_order=2"
    ),
    pytest.param("attacker", lambda: ca.verdict(None, OUTCOME, 0), id="ca.verdict:attacker"),
    pytest.param(
        "garrison", lambda: ca.verdict(OUTCOME, OUTCOME, 0, garrison=None), id="ca.verdict:garrison"
    ),
    pytest.param("platoons", lambda: ca.assign_hits([], 1), id="ca.assign_hits:platoons=empty"),
    pytest.param("platoons", lambda: ca.assign_hits(None, 1), id="ca.assign_hits:platoons=None"),
    pytest.param("hits", lambda: ca.assign_hits([PLATOON], -1), id="ca.assign_hits:hits"),
    pytest.param(
        "assignment",
        lambda: ca.assign_hits([PLATOON], 1, [0]),
        id="ca.assign_hits:assignment=short_of_the_hits",
    ),
    pytest.param(
        "assignment", lambda: ca.assign_hits([PLATOON], 3), id="ca.assign_hits:assignment=missing"
    ),  # every hit it can take, not routed
    pytest.param(
        "assignment", lambda: ca.assign_hits([PLATOON], 1, "1"), id="ca.assign_hits:assignment=text"
    ),
    pytest.param(
        "assignment[0]",
        lambda: ca.assign_hits([PLATOON], 1, [True]),
        id="ca.assign_hits:assignment[0]",
    ),
    pytest.param(
        "platoons", lambda: ca.fewest_withdrawals(None, 1), id="ca.fewest_withdrawals:platoons"
    ),
    pytest.param("platoons", lambda: ca.most_withdrawals([], 0), id="ca.most_withdrawals:platoons"),
    pytest.param("hits", lambda: ca.most_withdrawals([PLATOON], 4), id="ca.most_withdrawals:hits"),
    pytest.param(
        "battle_damage", lambda: ca.hits_from_damage(6.0), id="ca.hits_from_damage:battle_damage"
    ),
    pytest.param("platoons", lambda: ca.Garrison(platoons=3), id="ca.Garrison:platoons=number"),
    pytest.param("platoons", lambda: ca.Garrison(platoons=()), id="ca.Garrison:platoons=empty"),
    pytest.param(
        "supply_value",
        lambda: ca.Garrison((PLATOON,), supply_value=-1),
        id="ca.Garrison:supply_value=negative",
    ),
    pytest.param("garrison", lambda: ca.garrison_turn(None), id="ca.garrison_turn:garrison"),
    pytest.param(
        "repairs",
        lambda: ca.garrison_turn(ca.Garrison((PLATOON,)), repairs=0),
        id="ca.garrison_turn:repairs",
    ),
    pytest.param(
        "repair index",
        lambda: ca.garrison_turn(ca.Garrison((PLATOON,)), repairs=[1]),
        id="ca.garrison_turn:repair_index",
    ),
    pytest.param(
        "cost",
        lambda: ca.garrison_turn(ca.Garrison((PLATOON,)), cost=0),
        id="ca.garrison_turn:cost",
    ),
    pytest.param(
        "platoons",
        lambda: ca.garrison_tests_for_surrender(None),
        id="ca.garrison_tests_for_surrender:platoons",
    ),
    pytest.param("activity", lambda: ca.army_supply("quiet"), id="ca.army_supply:activity=text"),
    pytest.param(
        "activity", lambda: ca.army_supply(["resting"]), id="ca.army_supply:activity=unknown"
    ),
    pytest.param("state", lambda: ca.mission_hq(state="shaken"), id="ca.mission_hq:state"),
    pytest.param(
        "result", lambda: ca.hq_surrenders(None, "attacker"), id="ca.hq_surrenders:result"
    ),
    pytest.param("role", lambda: ca.hq_surrenders(RESULT, "neither"), id="ca.hq_surrenders:role"),
    pytest.param(
        "result", lambda: ca.may_withdraw_voluntarily(None), id="ca.may_withdraw_voluntarily:result"
    ),
    pytest.param(
        "choice", lambda: ca.after_hq_surrender("flee"), id="ca.after_hq_surrender:choice"
    ),
    pytest.param("platoons", lambda: ca.out_of_supply(None), id="ca.out_of_supply:platoons"),
    pytest.param("hits", lambda: PLATOON.hit(4), id="PLATOON.hit:hits"),
    # CA-2: only withdrawn platoons and barred cavalry may roll nothing
    pytest.param(
        "attacker platoon 0",
        lambda: ca.Battle(ca.Side([PLATOON], [None]), ca.Side([PLATOON])),
        id="ca.Battle:attacker_platoon_0",
    ),
    # CA-C1: a withdrawn platoon may not roll either (CA-10 is the cavalry's clause)
    pytest.param(
        "attacker platoon 1",
        lambda: ca.Battle(ca.Side([PLATOON, WITHDRAWN], [ca.Roll.ATTACK] * 2), ca.Side([PLATOON])),
        id="ca.Battle:attacker_platoon_1",
    ),
    # standards
    pytest.param("r", lambda: st.standard_fate(None), id="st.standard_fate:r"),
    pytest.param(
        "free_to_pursue_suffices",
        lambda: st.Readings(free_to_pursue_suffices="no"),
        id="st.Readings:free_to_pursue_suffices=no",
    ),
    pytest.param(
        "free_to_pursue_suffices",
        lambda: st.Readings(free_to_pursue_suffices=None),
        id="st.Readings:free_to_pursue_suffices=None",
    ),
    pytest.param(
        "readings",
        lambda: st.standard_fate(ROUND, readings={"free_to_pursue_suffices": True}),
        id="st.standard_fate:readings",
    ),
    pytest.param("troops", lambda: st.Round(troops="normal"), id="st.Round:troops"),
    pytest.param(
        "regimental_standard",
        lambda: st.Round(regimental_standard=False, army_standard=False),
        id="st.Round:regimental_standard=no_standard",
    ),
    pytest.param(
        "regimental_standard",
        lambda: st.Round(regimental_standard="yes"),
        id="st.Round:regimental_standard=yes",
    ),
    pytest.param("alone", lambda: st.Round(alone=1), id="st.Round:alone=1"),
    pytest.param(
        "alone", lambda: st.Round(alone=True, unit=None), id="st.Round:alone=without_army_standard"
    ),
    pytest.param("unit", lambda: st.Round(unit="holds"), id="st.Round:unit=holds"),
    pytest.param("unit", lambda: st.Round(unit=None), id="st.Round:unit=None"),
    pytest.param(
        "unit",
        lambda: st.Round(troops=st.Troops.IMMUNE, unit=st.UnitFate.BREAKS),
        id="st.Round:unit=immune_breaks",
    ),
    pytest.param(
        "character",
        lambda: st.Round(unit=st.UnitFate.HOLDS, character="killed"),
        id="st.Round:character=killed",
    ),
    pytest.param(
        "character",
        lambda: st.Round(army_standard=True, unit=st.UnitFate.HOLDS),
        id="st.Round:character=missing_for_army_standard",
    ),
    pytest.param(
        "character",
        lambda: st.Round(unit=st.UnitFate.HOLDS, character=st.Character.KILLED),
        id="st.Round:character=killed_without_standard",
    ),
    pytest.param(
        "character",
        lambda: st.Round(
            army_standard=True, unit=st.UnitFate.HOLDS, character=st.Character.CRUMBLES
        ),
        id="st.Round:character=crumbles_not_undead",
    ),
    pytest.param(
        "character",
        lambda: st.Round(
            troops=st.Troops.UNDEAD, unit=st.UnitFate.HOLDS, character=st.Character.BREAKS
        ),
        id="st.Round:character=undead_breaks",
    ),
    pytest.param(
        "victor",
        lambda: st.Round(unit=st.UnitFate.HOLDS, victor=st.Victor.PURSUES),
        id="st.Round:victor=pursues_a_holding_unit",
    ),
    pytest.param("victor", lambda: st.Round(victor=None), id="st.Round:victor=None"),
    pytest.param("army_standard", lambda: st.Round(army_standard=1), id="st.Round:army_standard"),
    pytest.param("r", lambda: st.decision_path(None, st.Standard.ARMY), id="st.decision_path:r"),
    pytest.param(
        "standard", lambda: st.decision_path(ROUND, "army"), id="st.decision_path:standard"
    ),
    pytest.param("r", lambda: st.first_step(st.REGIMENTAL_STEPS, None), id="st.first_step:r"),
    pytest.param("steps", lambda: st.first_step([], ROUND), id="st.first_step:steps"),
    pytest.param("steps[0]", lambda: st.first_step([None], ROUND), id="st.first_step:steps[0]"),
    # refusals that were TypeErrors, KeyErrors or StopIterations (issue 19, item 7)
    pytest.param(
        "prefer must be names",
        lambda: oc.cascade_probabilities(FORCE, {}, prefer=[["A"]]),
        id="oc.cascade_probabilities:prefer_must_be_names=list",
    ),
    pytest.param(
        "prefer must be names",
        lambda: ld.resolve_phase(FORCE, {}, {}, prefer=[5]),
        id="ld.resolve_phase:prefer_must_be_names",
    ),
    pytest.param(
        "casualties must be names",
        lambda: oc.cascade_probabilities(FORCE, {("A",): 1}),
        id="oc.cascade_probabilities:casualties_must_be_names=tuple",
    ),
    pytest.param(
        "casualties must be names",
        lambda: oc.cascade_probabilities(FORCE, {5: 1}),
        id="oc.cascade_probabilities:casualties_must_be_names=number",
    ),
    pytest.param(
        "series", lambda: charts.line_chart([], "x", "y"), id="charts.line_chart:series=empty"
    ),
    pytest.param("series", lambda: charts.bar_chart([], "x", "y"), id="charts.bar_chart:series"),
    pytest.param(
        "series",
        lambda: charts.line_chart([charts.Series("a", [])], "x", "y"),
        id="charts.line_chart:series=empty_series",
    ),
    pytest.param(
        "series[0]", lambda: charts.line_chart([None], "x", "y"), id="charts.line_chart:series[0]"
    ),
    pytest.param(
        "terrain",
        lambda: tables.small_battle_victor(terrain=5, fortified=False),
        id="tables.small_battle_victor:terrain=too_high",
    ),
    pytest.param(
        "terrain",
        lambda: tables.small_battle_victor(terrain=-1, fortified=False),
        id="tables.small_battle_victor:terrain=negative",
    ),
    pytest.param(
        "terrain",
        lambda: tables.small_battle_victor(terrain="open", fortified=False),
        id="tables.small_battle_victor:terrain=text",
    ),
    # names that are invisible, or break a drawing, or hide a second name
    pytest.param(
        "unit name", lambda: ld.Unit("A\u200b", 10, 4), id="ld.Unit:unit_name=zero_width_space"
    ),
    pytest.param(
        "unit name", lambda: ld.Unit("\ufeffA", 10, 4), id="ld.Unit:unit_name=byte_order_mark"
    ),
    pytest.param(
        "unit name", lambda: ld.Unit("A\ufffe", 10, 4), id="ld.Unit:unit_name=noncharacter"
    ),
    pytest.param(
        "leader name",
        lambda: ld.Leader("Lt\U0010ffff", 4, 1),
        id="ld.Leader:leader_name=noncharacter",
    ),
    pytest.param("name", lambda: ca.Platoon(name="\u2060"), id="ca.Platoon:name=word_joiner"),
    # a huge value is cut in the message, never quoted whole
    pytest.param(
        "leadership",
        lambda: ld.best_leadership("x" * 99_000),
        id="ld.best_leadership:leadership=huge_text",
    ),
    pytest.param(
        "casualties",
        lambda: oc.cascade_probabilities(FORCE, "x" * 99_000),
        id="oc.cascade_probabilities:casualties=huge_text",
    ),
    pytest.param("starting", lambda: ld.Unit("A", 10**5000, 4), id="ld.Unit:starting=huge"),
]


@pytest.mark.parametrize(("name", "call"), CASES)
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
