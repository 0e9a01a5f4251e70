"""Exact odds of a campaign battle (CA-2 to CA-18, CA-C9), from the rules of `rulesref.campaign`.

Each side's Battle Damage is a sum of independent dice, counted exactly (integer counts
of the rolls, `sympy.Rational` only at the edge). The hits it inflicts follow (CA-13);
the policy assigns them (CA-15, CA-C9); `rulesref.campaign.verdict` decides the battle
(CA-16 to CA-18) and `rulesref.campaign.fates` what becomes of each side.

```python
from rulesref.campaign import Battle, Platoon, Side
from rulesref.odds.battle import battle_odds

battle = Battle(Side([Platoon()] * 3), Side([Platoon()] * 3))  # 3 v 3 infantry, in the open
odds = battle_odds(battle)
print(odds.victor["attacker"], odds.victor["defender"])
#> 2401/11664 11207/15552
```
"""

from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from math import prod
from typing import NamedTuple

from rulesref.campaign import (
    AfterHits,
    Battle,
    BattleVerdict,
    Fate,
    LeadershipCheck,
    Platoon,
    Policy,
    Readings,
    Role,
    Roll,
    RollExplanation,
    Side,
    after_hits,
    assign_hits,
    battle_damage,
    checked_leadership,
    checked_policy,
    explain_roll,
    fates,
    fewest_withdrawals,
    hit_order,
    hits_from_damage,
    verdict,
)
from rulesref.counts import Counts
from rulesref.dice import counts_of, probability_of_rolls
from rulesref.errors import instance_of, word_of
from rulesref.exact import Rational

__all__ = ["hits_odds", "BattleOdds", "battle_odds"]


def _explained(battle: Battle) -> dict[Role, list[RollExplanation]]:
    """Each platoon's roll (CA-3 to CA-11), explained once for alike platoons of a side."""
    explained = {}
    for role in Role:
        declared = list(zip(battle.sides[role].platoons, battle.declared[role], strict=True))
        alike: dict[tuple[Platoon, Roll | None], RollExplanation] = {}
        for index, platoon_roll in enumerate(declared):
            if platoon_roll not in alike:
                alike[platoon_roll] = explain_roll.unchecked(battle, role, index)
        explained[role] = [alike[platoon_roll] for platoon_roll in declared]
    return explained


def _damage_counts(
    rolls: Mapping[Role, Sequence[RollExplanation]], role: Role, readings: Readings
) -> Counts:
    """CA-12, CA-C18: the counts of a side's Battle Damage, its attack less the enemy's
    defence (or the other way round in CA-C18's other reading): `weights[i]` of all the
    rolls (`total`, 6**dice) give `low + i`.
    A FUBAR platoon's roll is fixed (CA-9): it adds its value, and no die to count.

    Battle Damage adds up over the dice (tests/test_odds_battle.py checks it does), so each
    die's share is `battle_damage` of that die alone: its face for an attack die, the face
    taken away for an enemy defence die; the shares are then convolved."""
    faces = [
        tuple(
            battle_damage.unchecked(face, 0, readings)
            if roll is Roll.ATTACK
            else battle_damage.unchecked(0, face, readings)
            for face in explained.faces
        )
        for who, roll in ((role, Roll.ATTACK), (role.enemy, Roll.DEFENCE))
        for explained in rolls[who]
        if explained.roll == roll
    ]
    fixed = sum(values[0] for values in faces if len(set(values)) == 1)
    dice = [values for values in faces if len(set(values)) > 1]
    return counts_of(dice).shifted(fixed)


def _hits_each(enemy: Counts) -> list[int]:
    """CA-13: the hits a side takes, for each Battle Damage of the enemy in its counts."""
    return [hits_from_damage.unchecked(enemy.low + i) for i in range(len(enemy.weights))]


def _hits_taken(hits: Sequence[int], enemy: Counts) -> Counter[int]:
    """CA-13: the ways of each number of hits a side takes, over the enemy's rolls."""
    taken: Counter[int] = Counter()
    for h, ways in zip(hits, enemy.weights, strict=True):
        taken[h] += ways
    return taken


def _probabilities(ways: Mapping[int, int], rolls: int) -> dict[int, Rational]:
    return {
        value: probability_of_rolls.unchecked(ways[value], rolls)
        for value in sorted(ways)
        if ways[value]
    }


def hits_odds(battle: Battle) -> dict[str, dict[int, Rational]]:
    """CA-12, CA-13: the exact probability of each number of hits each side takes, and
    nothing more (`battle_odds` goes on to who wins).

    ```python
    from rulesref.campaign import Battle, Kind, Platoon, Side
    from rulesref.odds.battle import hits_odds

    battle = Battle(Side([Platoon(Kind.ARTILLERY)] * 2), Side([Platoon()]))
    print(hits_odds(battle)["defender"])
    #> {0: 3/8, 1: 125/216, 2: 5/108}
    ```
    """
    rolls = _explained(instance_of("battle", battle, Battle, "a Battle"))
    odds: dict[str, dict[int, Rational]] = {}
    for role in Role:
        enemy = _damage_counts(rolls, role.enemy, battle.readings)
        odds[role] = _probabilities(_hits_taken(_hits_each(enemy), enemy), enemy.total)
    return odds


@dataclass(frozen=True)
class BattleOdds:
    """The exact odds of one battle, before any die is rolled (for each role)."""

    # keyed by role (a `Role`, which equals its word: `odds.victor["attacker"]`)
    battle_damage: dict[str, dict[int, Rational]]  # a side's Battle Damage (CA-12)
    hits: dict[str, dict[int, Rational]]  # hits a side takes (CA-13)
    routed: dict[str, Rational]  # CA-16
    victor: dict[str | None, Rational]
    must_check: dict[str, Rational]  # CA-17, CA-18, CA-20
    fate: dict[str, dict[str, Rational]]  # by `Fate`: holds, withdraws, ... routed
    outcomes: dict[str, Rational]  # each way the battle can end, by deciding clause

    def expected_hits(self, role: Role | str) -> Rational:
        hits = self.hits[word_of("role", role, Role)]
        return sum((h * p for h, p in hits.items()), Rational(0))


def battle_odds(
    battle: Battle,
    *,
    policy: Policy = fewest_withdrawals,
    leadership: LeadershipCheck | None = None,
) -> BattleOdds:
    """Exact odds of every outcome of a battle, by convolution of the dice counts.

    Each side's Battle Damage is a sum of independent dice, counted exactly; hits follow
    (CA-13), then `policy` assigns them (CA-15, CA-C9), hit by hit for a policy with a
    `hit_order`, and `verdict` decides the battle (CA-16 to CA-18), once for each class
    of alike pairs of sides. Equal withdrawals are split by comparing the two Battle
    Damage numbers in one sweep. `leadership` is the loser's check (CA-C5).

    ```python
    from rulesref.campaign import Battle, Kind, Platoon, Side
    from rulesref.odds.battle import battle_odds

    battle = Battle(Side([Platoon(Kind.ARTILLERY)]), Side([Platoon()]))
    odds = battle_odds(battle)
    print(odds.hits["defender"], odds.victor)
    #> {0: 35/36, 1: 1/36} {'attacker': 7/12, 'defender': 5/18, None: 5/36}
    ```
    """
    instance_of("battle", battle, Battle, "a Battle")
    policy = checked_policy(policy)
    leadership = checked_leadership(leadership)
    rolls = _explained(battle)
    damage = {role: _damage_counts(rolls, role, battle.readings) for role in Role}
    # the Battle Damage of a side decides the hits on the other one
    struck = {role: _struck(battle.sides[role], damage[role.enemy], policy) for role in Role}
    decided = _decided(damage, struck, battle.garrison)
    return _odds(damage, struck, decided, leadership.pass_probability, battle.garrison)


# What each Battle Damage does to the enemy: one summary per number of hits.


class Struck(NamedTuple):
    """What the enemy's Battle Damage does to a side (CA-13 to CA-16)."""

    hits: Counter[int]  # ways of each number of hits, over the enemy's rolls
    after: list[AfterHits]  # the side after its hits, for each of the enemy's Battle Damage
    tally: Counter[AfterHits]  # ways of each summary in `after`


def _struck(side: Side, enemy: Counts, policy: Policy) -> Struck:
    """CA-13 to CA-16: the side after its hits, for each Battle Damage of the enemy."""
    each = _hits_each(enemy)
    hits = _hits_taken(each, enemy)
    routed = sum(p.steps_left for p in side.platoons) + 1  # any more hits rout it as well
    after = _after_by_hits(side.platoons, policy, {min(h, routed) for h in hits})
    tally: Counter[AfterHits] = Counter()
    for h, ways in hits.items():
        tally[after[min(h, routed)]] += ways
    return Struck(hits, [after[min(h, routed)] for h in each], tally)


def _summary(after: AfterHits) -> AfterHits:
    """What the verdict and the fates read of a side after its hits (not its platoons)."""
    return AfterHits((), (), after.withdrawn, after.routed, after.fell_back, after.all_fubar)


def _after_by_hits(
    platoons: Sequence[Platoon], policy: Policy, hits: Collection[int]
) -> dict[int, AfterHits]:
    """CA-14 to CA-16: the side after each number of `hits`, assigned by `policy`."""
    order = hit_order.unchecked(policy, platoons)
    if order is None:  # a policy of the caller's own: asked once for each number of hits
        capacity = sum(p.steps_left for p in platoons)
        return {
            h: _summary(assign_hits(platoons, h, policy(platoons, h) if h <= capacity else None))
            for h in hits
        }
    after = _after_each_hit(platoons, order)
    return {h: after[h] for h in hits}


def _after_each_hit(platoons: Sequence[Platoon], order: Sequence[int]) -> list[AfterHits]:
    """CA-14 to CA-16, CA-C13: the side after 0, 1, 2, ... hits given in `order` (one
    platoon per hit), counted as the hits come: a hit that leaves a platoon one step makes
    it FUBAR, one that leaves none withdraws it; the last entry, one hit more than the side
    can take, is the rout (CA-16: every platoon withdraws). The same summaries as
    `assign_hits`, in time linear in the hits, one record for each distinct summary.
    """
    left = [p.steps_left for p in platoons]
    remaining = sum(1 for steps in left if steps)  # platoons still in the battle
    above_fubar = sum(1 for steps in left if steps > 1)
    withdrawn = 0
    alike: dict[AfterHits, AfterHits] = {}

    def summary() -> AfterHits:
        found = after_hits.unchecked(withdrawn, remaining, above_fubar)
        return alike.setdefault(found, found)

    after = [summary()]
    for index in order:
        left[index] -= 1
        above_fubar -= left[index] == 1
        if not left[index]:
            remaining, withdrawn = remaining - 1, withdrawn + 1
        after.append(summary())
    after.append(after_hits.unchecked(withdrawn, remaining, above_fubar, routed=True))
    return after


# The verdict of every pair of summaries, counted: ways over all the dice of the battle.


class Decided(NamedTuple):
    """A verdict with the summaries it was reached from (one pair of a class of alike pairs)."""

    verdict: BattleVerdict
    attacker: AfterHits
    defender: AfterHits


Decide = Callable[[AfterHits, AfterHits, int, int], None]


def _decided(
    damage: Mapping[Role, Counts], struck: Mapping[Role, Struck], garrison: bool
) -> Counter[Decided]:
    """CA-16 to CA-18, CA-20: the ways of each verdict, from one pair of each class."""
    tally = {role: struck[role].tally for role in Role}
    decided: Counter[Decided] = Counter()

    def decide(attacker: AfterHits, defender: AfterHits, order: int, ways: int) -> None:
        if ways:
            found = verdict.unchecked(attacker, defender, order, garrison=garrison)
            decided[Decided(found, attacker, defender)] += ways

    _one_gone(tally, decide)
    _unequal_withdrawals(tally, decide)
    _equal_withdrawals(damage, struck, decide)
    return decided


def _one_gone(tally: Mapping[Role, Counter[AfterHits]], decide: Decide) -> None:
    """CA-16, CA-C7, CA-C8: a side with no platoon left loses, whatever the other's hits."""
    pooled = {}
    for role in Role:
        staying = [(s, n) for s, n in tally[role].items() if not s.fell_back]
        gone = [(s, n) for s, n in tally[role].items() if s.fell_back]
        pooled[role] = gone + ([(staying[0][0], sum(n for _, n in staying))] if staying else [])
    for attacker, ways_a in pooled[Role.ATTACKER]:
        for defender, ways_d in pooled[Role.DEFENDER]:
            if attacker.fell_back or defender.fell_back:
                decide(attacker, defender, 0, ways_a * ways_d)


def _unequal_withdrawals(tally: Mapping[Role, Counter[AfterHits]], decide: Decide) -> None:
    """CA-17: more withdrawals lose. Counted by prefix sums over the defender's
    withdrawals, once for a defender all FUBAR and once not (CA-20)."""
    staying = {role: [s for s in tally[role] if not s.fell_back] for role in Role}
    for all_fubar in (False, True):
        column = sorted(
            (s for s in staying[Role.DEFENDER] if s.all_fubar == all_fubar),
            key=lambda s: s.withdrawn,
        )
        if not column:
            continue
        levels = [s.withdrawn for s in column]
        prefix = [0, *accumulate(tally[Role.DEFENDER][s] for s in column)]
        for attacker in staying[Role.ATTACKER]:
            ways = tally[Role.ATTACKER][attacker]
            fewer = prefix[bisect_left(levels, attacker.withdrawn)]
            more = prefix[-1] - prefix[bisect_right(levels, attacker.withdrawn)]
            decide(attacker, column[0], 0, ways * fewer)
            decide(attacker, column[-1], 0, ways * more)


def _equal_withdrawals(
    damage: Mapping[Role, Counts], struck: Mapping[Role, Struck], decide: Decide
) -> None:
    """CA-18, CA-C6: equal withdrawals, split by comparing the two Battle Damage numbers
    in one sweep over the attacker's (which decides the defender's hits)."""
    greater, equal = _damage_comparison(damage, struck)
    tally = {role: struck[role].tally for role in Role}
    alike: defaultdict[int, list[AfterHits]] = defaultdict(list)  # attackers by withdrawals
    for attacker in tally[Role.ATTACKER]:
        if not attacker.fell_back:
            alike[attacker.withdrawn].append(attacker)
    for defender, ways_d in tally[Role.DEFENDER].items():
        if defender.fell_back or defender.withdrawn not in alike:
            continue
        attackers = alike[defender.withdrawn]
        both = ways_d * sum(tally[Role.ATTACKER][a] for a in attackers)
        more, same = greater[defender], equal[defender]
        decide(attackers[0], defender, 1, more)
        decide(attackers[0], defender, 0, same)
        decide(attackers[0], defender, -1, both - more - same)


def _damage_comparison(
    damage: Mapping[Role, Counts], struck: Mapping[Role, Struck]
) -> tuple[Counter[AfterHits], Counter[AfterHits]]:
    """For each defender summary, the ways with equal withdrawals where the attacker's
    Battle Damage is greater than the defender's, and where they are equal."""
    attack, defence = damage[Role.ATTACKER], damage[Role.DEFENDER]
    attacker_after, defender_after = struck[Role.ATTACKER].after, struck[Role.DEFENDER].after
    greater: Counter[AfterHits] = Counter()
    equal: Counter[AfterHits] = Counter()
    below: Counter[int] = Counter()  # defender Battle Damage below x, by attacker withdrawals
    j = 0
    for i, ways in enumerate(attack.weights):
        x = attack.low + i
        while j < len(defence.weights) and defence.low + j < x:
            if not attacker_after[j].fell_back:
                below[attacker_after[j].withdrawn] += defence.weights[j]
            j += 1
        defender = defender_after[i]
        if defender.fell_back or not ways:
            continue
        greater[defender] += ways * below[defender.withdrawn]
        if j < len(defence.weights) and defence.low + j == x:
            attacker = attacker_after[j]
            if not attacker.fell_back and attacker.withdrawn == defender.withdrawn:
                equal[defender] += ways * defence.weights[j]
    return greater, equal


# The odds: integer ways summed by what a reader asks, then exact fractions.


def _odds(
    damage: Mapping[Role, Counts],
    struck: Mapping[Role, Struck],
    decided: Counter[Decided],
    pass_probability: Rational,
    garrison: bool,
) -> BattleOdds:
    rolls = prod(d.total for d in damage.values())
    passes, out_of = int(pass_probability.numerator), int(pass_probability.denominator)
    victor: Counter[Role | None] = Counter(dict.fromkeys((*Role, None), 0))
    must_check: Counter[Role] = Counter(dict.fromkeys(Role, 0))
    rolled = [fate for fate in Fate if fate is not Fate.MUST_CHECK]  # every die is rolled
    fate: dict[Role, Counter[Fate]] = {role: Counter(dict.fromkeys(rolled, 0)) for role in Role}
    outcomes: Counter[str] = Counter()  # these three in ways over rolls * out_of
    for found, ways in decided.items():
        victor[found.verdict.victor] += ways
        branches: list[tuple[bool | None, int]] = [(None, ways * out_of)]
        if found.verdict.checker:
            must_check[found.verdict.checker] += ways
            branches = [(True, ways * passes), (False, ways * (out_of - passes))]
        for passed, part in branches:
            sides = {Role.ATTACKER: found.attacker, Role.DEFENDER: found.defender}
            fate_of = fates.unchecked(found.verdict, sides, passed, garrison=garrison)
            for role in Role:
                fate[role][fate_of[role]] += part
            outcomes[_ending(found.verdict, fate_of)] += part
    return BattleOdds(
        {role: _exact_counts(damage[role]) for role in Role},
        {role: _probabilities(struck[role].hits, damage[role.enemy].total) for role in Role},
        {role: _routed(struck[role].tally, damage[role.enemy]) for role in Role},
        {who: Rational(w, rolls) for who, w in victor.items()},
        {role: Rational(w, rolls) for role, w in must_check.items()},
        {role: {f: Rational(w, rolls * out_of) for f, w in fate[role].items()} for role in Role},
        {
            ending: Rational(w, rolls * out_of)
            for ending, w in sorted(outcomes.items(), key=lambda item: -item[1])
        },
    )


def _ending(found: BattleVerdict, fate_of: Mapping[Role, Fate]) -> str:
    """How the battle ends, in words, with the deciding clause."""
    if found.victor and found.loser:  # a verdict names both or neither
        return f"{found.victor} wins, {found.loser} {fate_of[found.loser]} ({found.clause})"
    return f"no victor ({found.clause})"


def _exact_counts(damage: Counts) -> dict[int, Rational]:
    return _probabilities(dict(enumerate(damage.weights, damage.low)), damage.total)


def _routed(tally: Counter[AfterHits], enemy: Counts) -> Rational:
    """CA-16: the probability that the side cannot take all its hits."""
    ways = sum(w for summary, w in tally.items() if summary.routed)
    return probability_of_rolls.unchecked(ways, enemy.total)
