"""One battle settled by the dice, step by step, each step with its deciding clause (CA-1)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rulesref.campaign.hits import (
    AfterHits,
    Policy,
    assign_hits,
    battle_damage,
    checked_policy,
    fewest_withdrawals,
    hits_from_damage,
    most_withdrawals,
)
from rulesref.campaign.model import Battle, Fate, Platoon, Readings, Role, Roll
from rulesref.campaign.rolls import RollExplanation, explain_roll
from rulesref.campaign.victory import (
    BattleVerdict,
    LeadershipCheck,
    checked_leadership,
    fates,
    verdict,
)
from rulesref.errors import (
    RulesError,
    instance_of,
    word_of,
)

__all__ = [
    "Ruling",
    "SideResult",
    "BattleResult",
    "resolve_battle",
]


@dataclass(frozen=True)
class Ruling:
    """One step of a battle as settled: the clause, and what it did."""

    clause: str
    text: str

    def __str__(self) -> str:
        return f"{self.clause}: {self.text}"


@dataclass(frozen=True)
class SideResult:
    rolls: tuple[int | None, ...]  # each platoon's modified value, None if it rolled nothing
    attack: int
    defence: int
    battle_damage: int  # this side's attack minus the enemy's defence (CA-12)
    hits_taken: int  # hits this side must assign (CA-13)
    after_hits: AfterHits
    fate: Fate


@dataclass(frozen=True)
class BattleResult:
    attacker: SideResult
    defender: SideResult
    verdict: BattleVerdict
    check_passed: bool | None
    steps: tuple[Ruling, ...]

    @property
    def victor(self) -> Role | None:
        return self.verdict.victor

    def side(self, role: Role | str) -> SideResult:
        return self.attacker if word_of("role", role, Role) is Role.ATTACKER else self.defender


class _Rolled(NamedTuple):
    """A side's rolls in a battle: each platoon's value, and its two totals (CA-2)."""

    values: tuple[int | None, ...]
    attack: int
    defence: int


def _totals(battle: Battle, role: Role, dice: Sequence[int | None]) -> _Rolled:
    platoons = battle.sides[role].platoons
    if (
        isinstance(dice, str | bytes)
        or not isinstance(dice, Sequence)
        or len(dice) != len(platoons)
    ):
        raise RulesError(
            f"{role} dice must give one entry per platoon ({len(platoons)}), got {dice!r}"
        )
    values = tuple(
        _value(explain_roll.unchecked(battle, role, i), role, i, die) for i, die in enumerate(dice)
    )
    declared = battle.declared[role]
    totals = {
        roll: sum(v for v, r in zip(values, declared, strict=True) if r == roll and v is not None)
        for roll in Roll
    }
    return _Rolled(values, totals[Roll.ATTACK], totals[Roll.DEFENCE])


def _value(explained: RollExplanation, role: Role, index: int, die: int | None) -> int | None:
    """One platoon's modified value from its die (None or 1 for a FUBAR one), checked."""
    if explained.roll is None or explained.fixed_die:
        allowed = (None,) if explained.roll is None else (None, 1)
        if die not in allowed:
            raise RulesError(
                f"{role} die {index} must be {' or '.join(map(str, allowed))} "
                f"({explained.platoon} rolls no die), got {die!r}"
            )
    return None if explained.roll is None else explained.value(die)


def resolve_battle(
    battle: Battle,
    attacker_dice: Sequence[int | None],
    defender_dice: Sequence[int | None],
    *,
    attacker_hits: Sequence[int] | None = None,
    defender_hits: Sequence[int] | None = None,
    policy: Policy = fewest_withdrawals,
    leadership: LeadershipCheck | None = None,
    leadership_roll: bool | Sequence[int] | None = None,
) -> BattleResult:
    """CA-1: settle one battle by the dice (the rules of CA-2 to CA-20), with the deciding
    clause of each step.

    The dice give one entry per platoon: a d6 for a platoon that rolls, None for one that
    does not (a FUBAR platoon may give None or 1). `attacker_hits` and `defender_hits`
    are each player's assignment of the hits they take; left out, `policy` assigns them.
    `leadership_roll` (two dice, or True/False) settles the loser's check, if any.

    ```python
    from rulesref.campaign import Battle, Platoon, Side, resolve_battle

    battle = Battle(Side([Platoon()] * 2), Side([Platoon()] * 2))
    result = resolve_battle(battle, [6, 6], [1, 2])
    print(result.attacker.battle_damage, result.defender.hits_taken, result.victor)
    #> 7 1 attacker
    ```
    """
    instance_of("battle", battle, Battle, "a Battle")
    policy = checked_policy(policy)
    leadership = checked_leadership(leadership)
    dice = {Role.ATTACKER: attacker_dice, Role.DEFENDER: defender_dice}
    rolled = {role: _totals(battle, role, dice[role]) for role in Role}
    attack = {role: rolled[role].attack for role in Role}  # against the enemy's defence
    damage = {
        role: battle_damage.unchecked(attack[role], rolled[role.enemy].defence, battle.readings)
        for role in Role
    }
    steps = _damage_steps(rolled, damage, battle.readings)
    assignments = {Role.ATTACKER: attacker_hits, Role.DEFENDER: defender_hits}
    hits = {role: hits_from_damage.unchecked(damage[role.enemy]) for role in Role}
    after = {}
    for role in Role:
        after[role] = _take_hits(battle.sides[role].platoons, hits[role], assignments[role], policy)
        steps += _hit_steps(role, damage[role.enemy], hits[role], after[role])
    by_attacker, by_defender = damage[Role.ATTACKER], damage[Role.DEFENDER]
    order = (by_attacker > by_defender) - (by_attacker < by_defender)
    found = verdict.unchecked(
        after[Role.ATTACKER], after[Role.DEFENDER], order, garrison=battle.garrison
    )
    steps.append(Ruling(found.clause, f"victor: {found.victor or 'none'} ({found.reason})"))
    passed = _check(found, leadership, leadership_roll, steps)
    fate = fates.unchecked(found, after, passed, garrison=battle.garrison)
    if found.victor:
        steps.append(Ruling("CA-19", "either side may now withdraw voluntarily"))
    results = {
        role: SideResult(*rolled[role], damage[role], hits[role], after[role], fate[role])
        for role in Role
    }
    return BattleResult(results[Role.ATTACKER], results[Role.DEFENDER], found, passed, tuple(steps))


def _damage_steps(
    rolled: Mapping[Role, _Rolled], damage: Mapping[Role, int], readings: Readings
) -> list[Ruling]:
    """The steps of the totals (CA-2) and the Battle Damage (CA-12, CA-C18) of both sides."""
    steps = [
        Ruling("CA-2", f"{r} attack {rolled[r].attack}, defence {rolled[r].defence}") for r in Role
    ]
    for r in Role:
        attack, defence = rolled[r].attack, rolled[r.enemy].defence
        if readings.defence_minus_attack:
            steps.append(Ruling("CA-C18", f"{r} Battle Damage {defence} - {attack} = {damage[r]}"))
        else:
            steps.append(Ruling("CA-12", f"{r} Battle Damage {attack} - {defence} = {damage[r]}"))
    return steps


# The package's own policies, unchecked: the resolver asks them only what fits (CA-16).
OWN_POLICIES: dict[Policy, Policy] = {
    policy: policy.unchecked for policy in (fewest_withdrawals, most_withdrawals)
}


def _take_hits(
    platoons: Sequence[Platoon], hits: int, chosen: Sequence[int] | None, policy: Policy
) -> AfterHits:
    """CA-14 to CA-16: the player's assignment, or the policy's if they gave none."""
    if chosen is None and hits <= sum(p.steps_left for p in platoons):
        if policy in OWN_POLICIES:  # ours: asked for what fits, it gives an assignment that fits
            return assign_hits.unchecked(platoons, hits, OWN_POLICIES[policy](platoons, hits))
        chosen = policy(platoons, hits)
    return assign_hits(platoons, hits, chosen)  # the player's, or a policy of their own


def _hit_steps(role: Role, damage: int, hits: int, after: AfterHits) -> list[Ruling]:
    """The steps of a side's hits: how many (CA-13), and what they did (CA-14, CA-16)."""
    plural = "" if hits == 1 else "s"
    steps = [Ruling("CA-13" if damage >= 0 else "CA-C3", f"{role} takes {hits} hit{plural}")]
    if after.routed:
        steps.append(Ruling("CA-16", f"{role} cannot assign {hits} hits: routed"))
    elif hits:
        states = ", ".join(f"{p}" for p in after.platoons)
        steps.append(Ruling("CA-14", f"{role} platoons now: {states}"))
    return steps


def _check(
    found: BattleVerdict,
    leadership: LeadershipCheck,
    roll: bool | Sequence[int] | None,
    steps: list[Ruling],
) -> bool | None:
    """CA-17, CA-18, CA-C5: the loser's check, if it must take one and it was rolled."""
    if not found.checker:
        return None
    if roll is None:
        steps.append(Ruling(found.clause, f"{found.checker} must check leadership or withdraw"))
        return None
    passed = leadership.passes(roll)
    rolled = "" if isinstance(roll, bool) else f"rolled {sum(roll)}, "
    said = "passed" if passed else "failed"
    steps.append(Ruling("CA-C5", f"{found.checker} leadership check: {rolled}{said}"))
    return passed
