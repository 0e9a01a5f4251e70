"""Campaign combat (CA-1 to CA-24, clarifications CA-C1 to CA-C17) against an independent
brute-force enumeration of the dice, the resolver roll by roll, a seeded simulation,
and hypothesis properties."""

import random
import time
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sympy import Rational

from rulesref.campaign import (
    KINDS,
    ROLES,
    STATES,
    TERRAINS,
    AfterSurrender,
    Battle,
    Garrison,
    LeadershipCheck,
    Platoon,
    Readings,
    Side,
    after_hq_surrender,
    army_supply,
    assign_hits,
    cavalry_barred,
    explain_roll,
    fates,
    fewest_withdrawals,
    garrison_tests_for_surrender,
    garrison_turn,
    hit_order,
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
from rulesref.odds.battle import _after_each_hit, battle_odds, hits_odds

INFANTRY, CAVALRY, ARTILLERY = Platoon(), Platoon("cavalry"), Platoon("artillery")
FUBAR, DAMAGED = Platoon(state="fubar"), Platoon(state="damaged")


def nonzero(table: dict) -> dict:
    return {key: value for key, value in table.items() if value}


# An independent reading of the rules, written straight from the note, for brute force.


def value(platoon, roll, role, battle, die):
    """CA-3 to CA-11 by hand (default readings: forest = woods, mountain for both)."""
    if platoon.state == "fubar":
        die = 1  # CA-9, and the other modifiers still apply (CA-C2)
    wooded = battle.terrain in ("forest", "woods")
    total = die
    total += (-1 if wooded else 2) if platoon.kind == "artillery" else 0  # CA-3
    total += 1 if platoon.kind == "cavalry" and roll == "attack" else 0  # CA-4
    total += 1 if role == "defender" and roll == "defence" else 0  # CA-5
    total += 1 if battle.side(role).fortified and roll == "defence" else 0  # CA-6
    total += 1 if battle.terrain == "mountain" and roll == "defence" else 0  # CA-7
    total -= 1 if platoon.state == "damaged" else 0  # CA-8
    total -= 0 if platoon.supplied else 1  # CA-11
    return total


def brute_force(battle: Battle, pass_probability: Rational):
    """Enumerate every roll; fewest withdrawals by arithmetic (CA-C9)."""
    rollers = [
        (role, i)
        for role in ROLES
        for i, roll in enumerate(battle.declarations(role))
        if roll and battle.side(role).platoons[i].state != "fubar"
    ]
    victor, fate, hits = Counter(), {r: Counter() for r in ROLES}, {r: Counter() for r in ROLES}
    battle_damage, must_check = {r: Counter() for r in ROLES}, Counter()
    weight = Rational(1, 6 ** len(rollers))
    for faces in product(range(1, 7), repeat=len(rollers)):
        die = dict(zip(rollers, faces, strict=True))
        totals = {(r, roll): 0 for r in ROLES for roll in ("attack", "defence")}
        for role in ROLES:
            for i, roll in enumerate(battle.declarations(role)):
                if roll:
                    platoon = battle.side(role).platoons[i]
                    totals[role, roll] += value(platoon, roll, role, battle, die.get((role, i)))
        sign = -1 if battle.readings.defence_minus_attack else 1  # CA-C18's other reading
        damage = {
            "attacker": sign * (totals["attacker", "attack"] - totals["defender", "defence"]),
            "defender": sign * (totals["defender", "attack"] - totals["attacker", "defence"]),
        }
        state = {}
        for role in ROLES:
            battle_damage[role][damage[role]] += weight
        for role, enemy in (("attacker", "defender"), ("defender", "attacker")):
            taken = max(damage[enemy] // 6, 0)
            hits[role][taken] += weight
            steps = [p.steps_left for p in battle.side(role).platoons if p.steps_left]
            cap, safe = sum(steps), sum(s - 1 for s in steps)
            state[role] = {
                "routed": taken > cap,
                "gone": taken >= cap,
                "withdrawn": max(0, min(taken, cap) - safe),
                "all_fubar": safe <= taken < cap,
            }
        gone = [r for r in ROLES if state[r]["gone"]]
        loser = None
        if len(gone) == 1:
            loser = gone[0]
        elif not gone:
            wa, wd = state["attacker"]["withdrawn"], state["defender"]["withdrawn"]
            if wa != wd:
                loser = "attacker" if wa > wd else "defender"
            elif damage["attacker"] != damage["defender"]:
                loser = "attacker" if damage["attacker"] < damage["defender"] else "defender"
        winner = {"attacker": "defender", "defender": "attacker"}.get(loser)
        victor[winner if len(gone) < 2 else None] += weight
        checks = loser and not gone
        if checks and battle.garrison and loser == "defender":
            checks = state["defender"]["all_fubar"]
        if checks:
            must_check[loser] += weight
        for role in ROLES:
            if state[role]["routed"]:
                fate[role]["routed"] += weight
            elif state[role]["gone"]:
                fate[role]["falls back"] += weight
            elif checks and role == loser:
                fled = "surrenders" if battle.garrison and role == "defender" else "withdraws"
                fate[role]["holds"] += weight * pass_probability
                fate[role][fled] += weight * (1 - pass_probability)
            else:
                fate[role]["holds"] += weight
    return victor, fate, hits, battle_damage, must_check


def agrees_with_brute_force(battle, leadership=None):
    leadership = leadership or LeadershipCheck()
    odds = battle_odds(battle, leadership=leadership)
    victor, fate, hits, battle_damage, must_check = brute_force(battle, leadership.pass_probability)
    assert nonzero(odds.victor) == nonzero(victor)
    assert nonzero(odds.must_check) == nonzero(must_check)
    for role in ROLES:
        assert odds.battle_damage[role] == dict(sorted(battle_damage[role].items()))
        assert odds.routed[role] == fate[role]["routed"]
        assert nonzero(odds.fate[role]) == nonzero(fate[role])
        assert nonzero(odds.hits[role]) == nonzero(hits[role])
    return odds


SMALL_BATTLES = {
    "1 v 1 infantry": Battle(Side([INFANTRY]), Side([INFANTRY])),
    "2 v 2 mixed rolls": Battle(
        Side([INFANTRY, CAVALRY], ["attack", "defence"]),
        Side([INFANTRY, ARTILLERY], ["attack", "defence"]),
    ),
    "fortified mountain, cavalry silent": Battle(
        Side([CAVALRY, ARTILLERY, Platoon("artillery", "damaged")], [None, "attack", "attack"]),
        Side([INFANTRY, DAMAGED], ["defence", "attack"], fortified=True),
        terrain="mountain",
    ),
    "forest, out of supply": Battle(
        Side([ARTILLERY, Platoon(supplied=False)], ["attack", "attack"]),
        Side([Platoon("artillery", supplied=False), INFANTRY], ["defence", "attack"]),
        terrain="forest",
    ),
    "FUBAR garrison": Battle(
        Side([ARTILLERY, ARTILLERY, CAVALRY], ["attack", "attack", "attack"]),
        Side([FUBAR, FUBAR, Platoon(state="withdrawn")], ["attack", "defence", None]),
        garrison=True,
    ),
    "damaged garrison": Battle(
        Side([ARTILLERY, ARTILLERY, ARTILLERY]),
        Side([DAMAGED, FUBAR], ["defence", "attack"]),
        garrison=True,
    ),
    "artillery duel": Battle(
        Side([FUBAR, ARTILLERY, ARTILLERY], ["defence", "attack", "attack"]),
        Side([FUBAR, ARTILLERY, ARTILLERY], ["defence", "attack", "attack"]),
    ),
}


@pytest.mark.parametrize("name", SMALL_BATTLES)
def test_exact_odds_equal_brute_force(name):
    """CA-2 to CA-18 and CA-20: every probability against the enumeration of all rolls."""
    odds = agrees_with_brute_force(SMALL_BATTLES[name])
    assert sum(odds.victor.values()) == 1
    assert sum(odds.outcomes.values()) == 1


@pytest.mark.parametrize("name", SMALL_BATTLES)
def test_hits_odds_are_the_hits_of_battle_odds(name):
    """CA-12, CA-13: the hits alone, as battle_odds (checked against brute force) has them."""
    battle = SMALL_BATTLES[name]
    assert hits_odds(battle) == battle_odds(battle).hits


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: fewest_withdrawals([Platoon()], -1), "hits"),
        (lambda: fewest_withdrawals([Platoon()], 10), "hits"),
        (lambda: most_withdrawals([Platoon(state="damaged")], 3), "hits"),
        (lambda: hits_from_damage(7.5), "battle_damage"),
        (
            lambda: battle_odds(Battle(Side([Platoon()]), Side([Platoon()])), leadership=7),
            "leadership",
        ),
        (lambda: Platoon(name=3), "name"),
    ],
)
def test_public_helpers_refuse_bad_input_by_name(call, name):
    """CA-13, CA-15, CA-C5: no number for nonsense."""
    with pytest.raises(RulesError, match=f"^{name} must be"):
        call()


def test_exact_odds_with_a_given_pass_probability():
    """CA-C5: the leadership check as a given probability."""
    check = LeadershipCheck(probability=Rational(1, 3))
    agrees_with_brute_force(SMALL_BATTLES["FUBAR garrison"], check)
    agrees_with_brute_force(SMALL_BATTLES["2 v 2 mixed rolls"], check)


def tally_resolver(battle, policy, pass_probability):
    """The odds rebuilt from the resolver, roll by roll, with both check results."""
    rollers = [
        (role, i)
        for role in ROLES
        for i, roll in enumerate(battle.declarations(role))
        if roll and battle.side(role).platoons[i].state != "fubar"
    ]
    outcomes = Counter()
    weight = Rational(1, 6 ** len(rollers))
    for faces in product(range(1, 7), repeat=len(rollers)):
        dice = {role: [None] * len(battle.side(role).platoons) for role in ROLES}
        for (role, i), face in zip(rollers, faces, strict=True):
            dice[role][i] = face
        result = resolve_battle(battle, dice["attacker"], dice["defender"], policy=policy)
        branches = [(None, weight)]
        if result.verdict.checker:
            branches = [(True, weight * pass_probability), (False, weight * (1 - pass_probability))]
        for passed, part in branches:
            if passed is not None:
                result = resolve_battle(
                    battle,
                    dice["attacker"],
                    dice["defender"],
                    policy=policy,
                    leadership_roll=passed,
                )
            found = result.verdict
            if found.victor:
                fate = result.side(found.loser).fate
                label = f"{found.victor} wins, {found.loser} {fate} ({found.clause})"
            else:
                label = f"no victor ({found.clause})"
            outcomes[label] += part
    return outcomes


@pytest.mark.parametrize("policy", [fewest_withdrawals, most_withdrawals])
@pytest.mark.parametrize("name", ["FUBAR garrison", "artillery duel", "damaged garrison"])
def test_exact_odds_equal_the_resolver_roll_by_roll(name, policy):
    """CA-15, CA-C9: the odds under either policy, against the resolver on every roll."""
    battle = SMALL_BATTLES[name]
    odds = battle_odds(battle, policy=policy)
    assert nonzero(odds.outcomes) == nonzero(tally_resolver(battle, policy, Rational(7, 12)))


def test_policies_change_the_odds():
    """CA-15: how the hits are assigned matters once withdrawals are possible."""
    battle = Battle(Side([ARTILLERY] * 3), Side([DAMAGED, DAMAGED], ["defence", "defence"]))
    fewest, most = battle_odds(battle), battle_odds(battle, policy=most_withdrawals)
    assert fewest.outcomes != most.outcomes
    assert fewest.hits == most.hits


@pytest.mark.parametrize("readings", [Readings(clamp_rolls=True), Readings(fubar_modified=False)])
def test_optional_readings_against_the_resolver(readings):
    """CA-C2, CA-C4: the other readings, against the resolver on every roll."""
    battle = Battle(
        Side([Platoon("artillery", "damaged", False), FUBAR], ["attack", "defence"]),
        Side([Platoon(state="damaged", supplied=False), ARTILLERY], ["defence", "attack"]),
        terrain="forest",
        readings=readings,
    )
    odds = battle_odds(battle)
    assert nonzero(odds.outcomes) == nonzero(
        tally_resolver(battle, fewest_withdrawals, Rational(7, 12))
    )


def test_seeded_simulation_agrees():
    """A seeded Monte Carlo estimate of the attacker's chance of victory."""
    battle = SMALL_BATTLES["fortified mountain, cavalry silent"]
    rng, runs, wins = random.Random(4), 4000, 0
    for _ in range(runs):
        attack = [None, rng.randint(1, 6), rng.randint(1, 6)]
        defence = [rng.randint(1, 6), rng.randint(1, 6)]
        wins += resolve_battle(battle, attack, defence).victor == "attacker"
    assert abs(wins / runs - float(battle_odds(battle).victor["attacker"])) < 0.03


# Battles at size: the fast path of battle_odds against the straightforward one.


def pairwise_odds(battle, policy, pass_probability):
    """The odds the straightforward way: every pair of the two Battle Damage numbers (their
    counts checked against brute force above), hits assigned by the policy itself for each
    pair, `verdict` and `fates` on the platoons. Fractions, for speed."""
    odds = battle_odds(battle, policy=policy)  # only its Battle Damage counts are used
    p = Fraction(int(pass_probability.p), int(pass_probability.q))
    victor, must_check, outcomes = Counter(), Counter(), Counter()
    fate = {role: Counter() for role in ROLES}
    after = {}

    def hit(role, hits):
        platoons = battle.side(role).platoons
        if (role, hits) not in after:
            room = sum(x.steps_left for x in platoons)
            chosen = policy(platoons, hits) if hits <= room else None
            after[role, hits] = assign_hits(platoons, hits, chosen)
        return after[role, hits]

    for x, px in odds.battle_damage["attacker"].items():
        for y, py in odds.battle_damage["defender"].items():
            weight = Fraction(int(px.p), int(px.q)) * Fraction(int(py.p), int(py.q))
            sides = {
                "attacker": hit("attacker", hits_from_damage(y)),
                "defender": hit("defender", hits_from_damage(x)),
            }
            found = verdict(
                sides["attacker"], sides["defender"], (x > y) - (x < y), garrison=battle.garrison
            )
            victor[found.victor] += weight
            branches = [(None, weight)]
            if found.checker:
                must_check[found.checker] += weight
                branches = [(True, weight * p), (False, weight * (1 - p))]
            for passed, part in branches:
                ends = fates(found, sides, passed, garrison=battle.garrison)
                for role in ROLES:
                    fate[role][ends[role]] += part
                if found.victor:
                    label = (
                        f"{found.victor} wins, {found.loser} {ends[found.loser]} ({found.clause})"
                    )
                else:
                    label = f"no victor ({found.clause})"
                outcomes[label] += part
    return victor, must_check, fate, outcomes


def as_fractions(table):
    return {key: Fraction(int(value.p), int(value.q)) for key, value in table.items() if value}


def brittle(damaged, fubar, rolls=("attack", "attack")):
    """Damaged and FUBAR artillery: heavy hits on platoons with few steps left, so many
    numbers of withdrawals, falling back and routs are possible."""
    guns = [Platoon("artillery", "damaged")] * damaged + [Platoon("artillery", "fubar")] * fubar
    return Side(
        guns + [Platoon(state="withdrawn")], [rolls[0]] * damaged + [rolls[1]] * fubar + [None]
    )


LARGER_BATTLES = {
    "withdrawals 16 v 16": Battle(brittle(8, 8), brittle(8, 8)),
    "routs 16 v 7, garrison": Battle(brittle(8, 8), brittle(3, 4), garrison=True),
    "defence 12 v 12, mountain": Battle(
        brittle(6, 6, ("attack", "defence")), brittle(7, 5), terrain="mountain"
    ),
    # 0 to 3 hits on the defender; under `fickle` its withdrawals go 0, 1, 0, 1
    "three guns v FUBAR and fresh": Battle(Side([ARTILLERY] * 3), Side([FUBAR, INFANTRY])),
}


def fickle(platoons, hits):
    """A policy of the caller's own whose withdrawals do not grow with the hits: an odd
    number of hits sacrifices the weakest platoons, an even number spreads them."""
    return (most_withdrawals if hits % 2 else fewest_withdrawals)(platoons, hits)


@pytest.mark.parametrize(
    "policy",
    [
        fewest_withdrawals,
        most_withdrawals,
        lambda platoons, hits: most_withdrawals(platoons, hits),
        fickle,
    ],
    ids=["fewest", "most", "a policy of the caller's own", "one whose withdrawals go down"],
)
@pytest.mark.parametrize("name", LARGER_BATTLES)
def test_exact_odds_at_size_equal_the_straightforward_path(name, policy):
    """CA-13 to CA-18, CA-20: the summaries hit by hit, the classes of alike pairs and the
    sweep of equal withdrawals give what every pair of Battle Damage numbers gives."""
    battle = LARGER_BATTLES[name]
    odds = battle_odds(battle, policy=policy)
    victor, must_check, fate, outcomes = pairwise_odds(battle, policy, Rational(7, 12))
    assert as_fractions(odds.victor) == {k: v for k, v in victor.items() if v}
    assert as_fractions(odds.must_check) == {k: v for k, v in must_check.items() if v}
    for role in ROLES:
        assert as_fractions(odds.fate[role]) == {k: v for k, v in fate[role].items() if v}
    assert as_fractions(odds.outcomes) == {k: v for k, v in outcomes.items() if v}
    assert len({o for o, p in odds.outcomes.items() if p}) >= 4  # the battle decides things
    chances = list(odds.outcomes.values())
    assert chances == sorted(chances, reverse=True)  # the likeliest ending first


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(STATES), min_size=1, max_size=9).filter(
        lambda states: any(state != "withdrawn" for state in states)
    ),
    st.sampled_from([fewest_withdrawals, most_withdrawals]),
)
def test_the_side_after_each_hit_is_what_assign_hits_gives(states, policy):
    """CA-14 to CA-16, CA-C13: counted hit by hit, as assign_hits has it for every number
    of hits, the rout included; the hit order gives each policy's assignment."""
    platoons = [Platoon(state=state) for state in states]
    room = sum(p.steps_left for p in platoons)
    order = hit_order(policy, platoons)
    after = _after_each_hit(platoons, order)
    assert len(order) == room and len(after) == room + 2
    for hits in range(room + 2):
        chosen = policy(platoons, hits) if hits <= room else None
        expected = assign_hits(platoons, hits, chosen)
        assert after[hits] == replace(expected, platoons=(), assignment=())
        if hits <= room:
            assert chosen == tuple(order[:hits].count(i) for i in range(len(platoons)))


@given(st.lists(st.sampled_from(STATES[:3]), min_size=1, max_size=8), st.integers(0, 24))
def test_the_policies_do_what_they_say(states, hits):
    """CA-15, CA-C9: fewest withdrawals gives each hit to the platoon with the most steps
    left (the first listed on a tie); most withdrawals fills the weakest first."""
    platoons = [Platoon(state=state) for state in states]
    hits = min(hits, sum(p.steps_left for p in platoons))
    left, given = [p.steps_left for p in platoons], [0] * len(platoons)
    for _ in range(hits):
        strongest = left.index(max(left))
        left[strongest], given[strongest] = left[strongest] - 1, given[strongest] + 1
    assert fewest_withdrawals(platoons, hits) == tuple(given)
    steps = [p.steps_left for p in platoons]
    given, rest = [0] * len(platoons), hits
    for index in sorted(range(len(platoons)), key=steps.__getitem__):
        given[index] = min(rest, steps[index])
        rest -= given[index]
    assert most_withdrawals(platoons, hits) == tuple(given)
    assert hit_order(lambda platoons, hits: (0,) * len(platoons), platoons) is None


def test_a_thousand_platoons_a_side_in_a_fraction_of_a_second():
    """Issue 13: 1,000 v 1,000 stays exact and quick (the benchmark has the timings)."""
    members = [ARTILLERY, FUBAR, DAMAGED, CAVALRY]
    side = Side([members[i % 4] for i in range(1000)], ["attack", "defence"] * 500)
    start = time.process_time()
    odds = battle_odds(Battle(side, side, garrison=True))
    assert time.process_time() - start < 3  # about 0.1 s; generous for a shared machine
    assert sum(odds.outcomes.values()) == 1 and sum(odds.victor.values()) == 1


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
    withdrawn = Platoon(state="withdrawn")
    allowed = Battle(
        Side([CAVALRY, withdrawn, INFANTRY], [None, None, "attack"]),
        Side([INFANTRY]),
        terrain="woods",
    )
    assert allowed.declarations("attacker") == (None, None, "attack")
    for platoon in (INFANTRY, FUBAR, CAVALRY):  # cavalry in the open may roll
        with pytest.raises(RulesError, match=r"^attacker platoon 1 .* must roll"):
            Battle(Side([INFANTRY, platoon], ["attack", None]), Side([INFANTRY]))
        with pytest.raises(RulesError, match=r"^defender platoon 0 .* must roll"):
            Battle(Side([INFANTRY]), Side([platoon], [None]))


def explained(platoon, roll="attack", role="attacker", **options):
    side = Side([platoon], [roll], fortified=options.pop("fortified", False))
    other = Side([INFANTRY])
    sides = (side, other) if role == "attacker" else (other, side)
    return explain_roll(Battle(*sides, **options), role, 0)


def test_ca3_artillery():
    """CA-3."""
    assert explained(ARTILLERY).modifier == 2
    assert explained(ARTILLERY, "defence").modifier == 2
    assert [t.clause for t in explained(ARTILLERY, terrain="forest").terms] == ["CA-3"]
    assert explained(ARTILLERY, terrain="forest").modifier == -1


def test_ca4_cavalry_attacks():
    """CA-4."""
    assert explained(CAVALRY).modifier == 1
    assert explained(CAVALRY, "defence").modifier == 0


def test_ca5_ca6_ca7_defence_bonuses():
    """CA-5, CA-6, CA-7."""
    assert explained(INFANTRY, "defence", "defender").modifier == 1  # CA-5
    assert explained(INFANTRY, "attack", "defender").modifier == 0
    assert explained(INFANTRY, "defence", fortified=True).modifier == 1  # CA-6
    assert explained(INFANTRY, "defence", terrain="mountain").modifier == 1  # CA-7
    full = explained(INFANTRY, "defence", "defender", fortified=True, terrain="mountain")
    assert [t.clause for t in full.terms] == ["CA-5", "CA-6", "CA-7"]
    assert full.modifier == 3


def test_ca8_ca11_damaged_and_out_of_supply():
    """CA-8, CA-11."""
    assert explained(DAMAGED).modifier == -1  # CA-8
    assert explained(Platoon(supplied=False)).modifier == -1  # CA-11
    both = explained(Platoon("artillery", "damaged", supplied=False))
    assert [t.clause for t in both.terms] == ["CA-3", "CA-8", "CA-11"]
    assert "= d6+0" in str(both)


def test_ca9_fubar_rolls_a_one_and_ca_c2_modifiers_apply():
    """CA-9, CA-C2."""
    guns = explained(Platoon("artillery", "fubar"))
    assert guns.faces == (3,) * 6  # CA-9 with CA-C2: 1 + 2
    assert guns.value(None) == guns.value(6) == 3
    flat = explained(Platoon("artillery", "fubar"), readings=Readings(fubar_modified=False))
    assert flat.faces == (1,) * 6
    assert explained(FUBAR).modifier == 0  # FUBAR is not Damaged (CA-C1)


def test_ca10_ca_c12_cavalry_barred_in_mountains_and_woods():
    """CA-10, CA-C12."""
    for terrain in ("mountain", "woods", "forest"):  # forest is woods (CA-C10)
        battle = Battle(Side([CAVALRY, INFANTRY]), Side([INFANTRY]), terrain=terrain)
        assert cavalry_barred(CAVALRY, battle)
        assert battle.declarations("attacker") == (None, "attack")
        with pytest.raises(RulesError, match="CA-10"):
            Battle(Side([CAVALRY], ["attack"]), Side([INFANTRY]), terrain=terrain)
    # CA-C12: the silent cavalry still takes hits
    battle = Battle(Side([ARTILLERY] * 3), Side([CAVALRY]), terrain="mountain")
    result = resolve_battle(battle, [6, 6, 6], [None])
    assert result.defender.hits_taken == 4 and result.defender.fate == "routed"


def test_ca_c10_ca_c11_other_terrain_readings():
    """CA-C10, CA-C11."""
    literal = Readings(woods_is_forest=False, mountain_both_sides=False)
    assert not cavalry_barred(
        CAVALRY, Battle(Side([CAVALRY]), Side([INFANTRY]), "forest", readings=literal)
    )
    assert explained(ARTILLERY, terrain="woods", readings=literal).modifier == 2
    assert explained(INFANTRY, "defence", terrain="mountain", readings=literal).modifier == 0


def test_ca12_ca13_battle_damage_and_hits():
    """CA-12, CA-13."""
    battle = Battle(
        Side([INFANTRY, INFANTRY], ["attack", "defence"]),
        Side([INFANTRY, INFANTRY], ["attack", "defence"]),
    )
    result = resolve_battle(battle, [6, 2], [4, 1])
    assert result.attacker.battle_damage == 6 - 2  # the defender's defence: 1 + 1 (CA-5)
    assert result.defender.battle_damage == 4 - 2
    # each platoon's modified value, in order: the defender's defence die has CA-5's +1
    assert result.attacker.rolls == (6, 2) and result.defender.rolls == (4, 2)
    assert [hits_from_damage(d) for d in (0, 5, 6, 11, 12, 35)] == [0, 0, 1, 1, 2, 5]


def test_ca_c18_battle_damage_is_attack_minus_defence_unless_read_literally():
    """CA-C18: our reading (attack minus the enemy's defence) and the literal order of the
    note's words (the enemy's defence minus one's attack), the odds of both against the
    enumeration of every roll."""
    literal = Readings(defence_minus_attack=True)
    sides = Side([INFANTRY, INFANTRY], ["attack", "defence"]), Side([ARTILLERY], ["defence"])
    ours, theirs = Battle(*sides), Battle(*sides, readings=literal)
    assert resolve_battle(ours, [6, 2], [4]).attacker.battle_damage == 6 - (4 + 2 + 1)
    result = resolve_battle(theirs, [6, 2], [4])
    assert result.attacker.battle_damage == (4 + 2 + 1) - 6
    assert any(step.clause == "CA-C18" for step in result.steps)
    for battle in (*SMALL_BATTLES.values(), ours):
        other = Battle(battle.attacker, battle.defender, battle.terrain, battle.garrison, literal)
        assert agrees_with_brute_force(other).battle_damage == {
            role: {-d: p for d, p in sorted(odds.items(), reverse=True)}
            for role, odds in battle_odds(battle).battle_damage.items()
        }
    assert battle_odds(theirs).hits != battle_odds(ours).hits  # the reading changes the odds


def test_ca_c3_negative_battle_damage_gives_no_hits():
    """CA-C3."""
    assert hits_from_damage(-1) == hits_from_damage(-13) == 0
    battle = Battle(Side([INFANTRY]), Side([INFANTRY]))
    result = resolve_battle(battle, [1], [6])
    assert result.attacker.battle_damage == -6 and result.defender.hits_taken == 0
    assert any(step.clause == "CA-C3" for step in result.steps)


def test_ca14_ca_c1_the_damage_scale():
    """CA-14, CA-C1."""
    assert [Platoon(state=s).steps_left for s in STATES] == [3, 2, 1, 0]
    assert [INFANTRY.hit(n).state for n in range(4)] == list(STATES)
    assert FUBAR.hit().state == "withdrawn"  # CA-14: a hit on FUBAR withdraws it
    with pytest.raises(RulesError):
        FUBAR.hit(2)
    # CA-C1: a platoon withdrawn before the battle takes no part and is not counted
    after = assign_hits([Platoon(state="withdrawn"), FUBAR], 1, [0, 1])
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
    battle = Battle(Side([ARTILLERY] * 3), Side([DAMAGED], ["attack"]))
    result = resolve_battle(battle, [6, 6, 6], [1])  # 24 damage: 4 hits, room for 2
    assert result.verdict.clause == "CA-16" and result.victor == "attacker"
    assert result.defender.fate == "routed" and result.verdict.checker is None


def test_ca_c8_a_side_with_no_platoon_left_loses_without_rout():
    """CA-C8."""
    battle = Battle(Side([ARTILLERY] * 2), Side([FUBAR], ["attack"]))
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
        Side([ARTILLERY, ARTILLERY, FUBAR], ["attack", "attack", "defence"]),
        Side([FUBAR, DAMAGED], ["attack", "defence"]),
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
    before = assign_hits([Platoon(state="withdrawn"), INFANTRY], 1, [0, 1])
    assert before.withdrawn == 0  # withdrawn before the battle: not counted
    battle = Battle(Side([INFANTRY]), Side([INFANTRY]))
    lost = resolve_battle(battle, [6], [1], leadership_roll=False)
    assert lost.defender.fate == "withdraws" and lost.defender.after_hits.withdrawn == 0


def test_ca18_equal_withdrawals_greater_damage_wins_and_ca_c6_ties():
    """CA-18, CA-C6."""
    battle = Battle(
        Side([INFANTRY, INFANTRY], ["attack", "defence"]),
        Side([INFANTRY, INFANTRY], ["attack", "defence"]),
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
    assert garrison_tests_for_surrender([FUBAR, Platoon(state="withdrawn")])
    assert not garrison_tests_for_surrender([FUBAR, DAMAGED])
    assert not garrison_tests_for_surrender([Platoon(state="withdrawn")])
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
    fort = Garrison((FUBAR, DAMAGED, Platoon(state="withdrawn")), supply_value=2)
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
    # a check of the caller's own decides the resolver's rolled check: 7 fails Leadership 6
    battle = Battle(Side([INFANTRY]), Side([INFANTRY]))
    for leadership, passed in ((None, True), (LeadershipCheck(leadership=6), False)):
        result = resolve_battle(battle, [1], [6], leadership=leadership, leadership_roll=(3, 4))
        assert result.verdict.checker == "attacker" and result.check_passed is passed


def test_constructors_keep_what_they_are_given():
    assert Garrison([INFANTRY, FUBAR]).platoons == (INFANTRY, FUBAR)  # stored as a tuple
    assert Side([INFANTRY]).name == "" and Side([INFANTRY], name="Blue").name == "Blue"


# Hypothesis: invariants of the exact odds.

platoons = st.builds(
    Platoon,
    kind=st.sampled_from(KINDS),
    state=st.sampled_from(STATES[:3]),
    supplied=st.booleans(),
)


@st.composite
def battles(draw, max_platoons=3):
    terrain = draw(st.sampled_from(TERRAINS))
    sides = []
    for _ in ROLES:
        members = draw(st.lists(platoons, min_size=1, max_size=max_platoons))
        rolls = []
        for p in members:
            barred = p.kind == "cavalry" and terrain != "open"
            rolls.append(None if barred else draw(st.sampled_from(["attack", "defence"])))
        sides.append(Side(members, rolls, fortified=draw(st.booleans())))
    return Battle(*sides, terrain=terrain, garrison=draw(st.booleans()))


@settings(max_examples=40, deadline=None)
@given(battles())
def test_probabilities_sum_to_one(battle):
    odds = battle_odds(battle)
    assert sum(odds.victor.values()) == 1
    assert sum(odds.outcomes.values()) == 1
    for role in ROLES:
        assert sum(odds.hits[role].values()) == 1
        assert sum(odds.battle_damage[role].values()) == 1
        assert sum(odds.fate[role].values()) == 1
        assert odds.routed[role] == odds.fate[role]["routed"]


@settings(max_examples=40, deadline=None)
@given(battles(max_platoons=4), platoons)
def test_one_more_attacking_platoon_never_lowers_expected_hits(battle, extra):
    side = battle.attacker
    assume(extra.kind != "cavalry" or battle.terrain == "open")
    bigger = Side([*side.platoons, extra], [*side.declarations, "attack"], side.fortified)
    more = Battle(bigger, battle.defender, battle.terrain, battle.garrison)
    assume(min(explain_roll(more, "attacker", len(bigger.platoons) - 1).faces) >= 0)
    assert battle_odds(more).expected_hits("defender") >= battle_odds(battle).expected_hits(
        "defender"
    )


@settings(max_examples=25, deadline=None)
@given(battles(max_platoons=2))
def test_small_random_battles_equal_brute_force(battle):
    agrees_with_brute_force(battle)


# Bad input.


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: Platoon("dragoons"), "kind must be one of"),
        (lambda: Platoon(state="broken"), "state must be one of"),
        (lambda: Platoon(supplied="yes"), "supplied must be True or False"),
        (lambda: Side([]), "platoons"),
        (lambda: Side([Platoon(state="withdrawn")]), "not withdrawn"),
        (lambda: Side([INFANTRY], ["attack", "defence"]), "one entry per platoon"),
        (lambda: Side([INFANTRY], ["charge"]), "declaration must be one of"),
        (lambda: Battle(Side([INFANTRY]), Side([INFANTRY]), "swamp"), "terrain must be one of"),
        (lambda: Battle(Side([CAVALRY], ["attack"]), Side([INFANTRY]), "mountain"), "CA-10"),
        (lambda: Battle(Side([CAVALRY], ["defence"]), Side([INFANTRY]), "woods"), "CA-10"),
        (
            lambda: Battle(
                Side([INFANTRY, Platoon(state="withdrawn")], ["attack"] * 2), Side([INFANTRY])
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
    battle = Battle(Side([INFANTRY, FUBAR]), Side([CAVALRY]), terrain="woods")
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
    """CA-2, CA-14: string inputs keep working; a record stores the member, which prints
    and shows as the word, so published outputs are unchanged."""
    from rulesref.campaign import ROLES, Fate, Kind, Role, Roll, State, SurrenderChoice, Terrain

    guns = Platoon("artillery", "damaged")
    assert type(guns.kind) is Kind and guns.kind is Kind.ARTILLERY and guns.kind == "artillery"
    assert type(guns.state) is State and guns.hit().state is State.FUBAR
    battle = Battle(Side([guns], ["defence"]), Side([INFANTRY]), terrain="forest")
    assert battle.terrain is Terrain.FOREST and battle.declarations("attacker") == (Roll.DEFENCE,)
    assert type(battle.declarations("attacker")[0]) is Roll
    assert (
        str(Kind.CAVALRY) == f"{Kind.CAVALRY}" == "cavalry" and repr(Role.ATTACKER) == "'attacker'"
    )
    assert ROLES == ("attacker", "defender") and KINDS == tuple(Kind) and STATES == tuple(State)
    assert [role.enemy for role in Role] == [Role.DEFENDER, Role.ATTACKER]
    assert after_hq_surrender(SurrenderChoice.CONCEDE) == after_hq_surrender("concede")
    result = resolve_battle(Battle(Side([INFANTRY]), Side([INFANTRY])), [6], [1])
    assert type(result.victor) is Role and type(result.defender.fate) is Fate
    odds = battle_odds(Battle(Side([INFANTRY]), Side([INFANTRY])))
    assert all(type(fate) is Fate for fate in odds.fate["defender"])
    assert str(odds.victor) == "{'attacker': 5/18, 'defender': 7/12, None: 5/36}"


def test_moved_names_still_import_from_campaign():
    """The exact odds moved to rulesref.odds.battle; the old imports keep working."""
    import rulesref.campaign as campaign
    import rulesref.odds.battle as odds
    from rulesref.campaign import AfterHits, HitOutcome

    for name in ("battle_odds", "hits_odds", "BattleOdds"):
        assert getattr(campaign, name) is getattr(odds, name)
        assert name not in campaign.__all__ and name in odds.__all__
    assert HitOutcome is AfterHits
    with pytest.raises(AttributeError):
        campaign.no_such_name  # noqa: B018
