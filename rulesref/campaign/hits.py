"""Battle Damage, hits and how they are assigned (CA-12 to CA-16, CA-C3, CA-C8, CA-C9, CA-C13)."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from rulesref.campaign.model import MAX_BATTLE_DAMAGE, MAX_PLATOONS, Platoon, Readings
from rulesref.errors import (
    RulesError,
    checked_by,
    sequence_of,
    whole_number,
    yes_or_no,
)

__all__ = [
    "Policy",
    "checked_policy",
    "fewest_withdrawals",
    "fewest_withdrawals_order",
    "most_withdrawals",
    "most_withdrawals_order",
    "hit_order",
    "battle_damage",
    "hits_from_damage",
    "AfterHits",
    "after_hits",
    "assign_hits",
]


# Hits (CA-13 to CA-15) and the policies that assign them.

Policy = Callable[[Sequence[Platoon], int], tuple[int, ...]]


def checked_policy(policy: object) -> Policy:
    """`policy` if it can assign hits (a function like `fewest_withdrawals`), else raise."""
    if not callable(policy):
        raise RulesError(f"policy must be a function like fewest_withdrawals, got {policy!r}")
    return policy


def _assignable(platoons: Sequence[Platoon], hits: int) -> None:
    """The hits a policy is asked to place: no more than the platoons can take (CA-16)."""
    platoons = sequence_of("platoons", platoons, Platoon, low=1, high=MAX_PLATOONS)
    whole_number("hits", hits, 0, sum(p.steps_left for p in platoons))


@checked_by(_assignable)
def fewest_withdrawals(platoons: Sequence[Platoon], hits: int) -> tuple[int, ...]:
    """CA-15, CA-C9: a policy (the default one): spread the hits so that as few platoons as
    possible withdraw. Each hit goes to the platoon with the most steps left (the first
    listed on a tie), so a platoon withdraws only when every other one is FUBAR.

    ```python
    from rulesref.campaign import Platoon, State, fewest_withdrawals

    print(fewest_withdrawals([Platoon(), Platoon(state=State.DAMAGED), Platoon()], 4))
    #> (2, 1, 1)
    ```
    """
    return _first_hits(fewest_withdrawals_order(platoons), len(platoons), hits)


def fewest_withdrawals_order(platoons: Sequence[Platoon]) -> list[int]:
    """CA-15, CA-C9: the platoon that takes each hit in turn: one hit on each platoon with three
    steps left, then one on each with two, then on each with one, in the order listed."""
    left = [p.steps_left for p in platoons]
    order = []
    for level in (3, 2, 1):
        for index, steps in enumerate(left):
            if steps == level:
                left[index] = steps - 1
                order.append(index)
    return order


@checked_by(_assignable)
def most_withdrawals(platoons: Sequence[Platoon], hits: int) -> tuple[int, ...]:
    """CA-15: a policy: sacrifice the weakest platoons, each taking every hit it can, the one
    with the fewest steps left first (the first listed on a tie).

    ```python
    from rulesref.campaign import Platoon, State, most_withdrawals

    print(most_withdrawals([Platoon(), Platoon(state=State.FUBAR), Platoon()], 3))
    #> (2, 1, 0)
    ```
    """
    return _first_hits(most_withdrawals_order(platoons), len(platoons), hits)


def most_withdrawals_order(platoons: Sequence[Platoon]) -> list[int]:
    """CA-15: the platoon that takes each hit in turn: every hit the weakest can take, then
    the next weakest (fewest steps left first, the first listed on a tie)."""
    order = []
    for index in sorted(range(len(platoons)), key=lambda i: platoons[i].steps_left):
        order += [index] * platoons[index].steps_left
    return order


def _first_hits(order: Sequence[int], platoons: int, hits: int) -> tuple[int, ...]:
    """The hits on each platoon when the first `hits` of `order` are given."""
    given = [0] * platoons
    for index in order[:hits]:
        given[index] += 1
    return tuple(given)


HitOrder = Callable[[Sequence[Platoon]], list[int]]
HIT_ORDERS: dict[Policy, HitOrder] = {
    fewest_withdrawals: fewest_withdrawals_order,
    most_withdrawals: most_withdrawals_order,
}


def _hit_order_arguments(policy: Policy, platoons: Sequence[Platoon]) -> None:
    checked_policy(policy)
    sequence_of("platoons", platoons, Platoon, low=1, high=MAX_PLATOONS)


@checked_by(_hit_order_arguments)
def hit_order(policy: Policy, platoons: Sequence[Platoon]) -> list[int] | None:
    """CA-15: the platoon that takes each hit in turn under `policy`, for a policy that
    gives its hits one at a time in a fixed order (one more hit leaves the others where
    they were), as both of ours do; None for a policy of the caller's own.

    ```python
    from rulesref.campaign import Platoon, State, fewest_withdrawals, hit_order

    print(hit_order(fewest_withdrawals, [Platoon(), Platoon(state=State.FUBAR)]))
    #> [0, 0, 0, 1]
    ```
    """
    order = HIT_ORDERS.get(policy)
    return None if order is None else order(platoons)


def _battle_damage_arguments(attack: int, defence: int, readings: Readings = Readings()) -> None:
    whole_number("attack", attack, -MAX_BATTLE_DAMAGE, MAX_BATTLE_DAMAGE)
    whole_number("defence", defence, -MAX_BATTLE_DAMAGE, MAX_BATTLE_DAMAGE)


@checked_by(_battle_damage_arguments)
def battle_damage(attack: int, defence: int, readings: Readings = Readings()) -> int:
    """CA-12, CA-C3, CA-C18: a side's Battle Damage, its attack total less the enemy's
    defence total (negative when the enemy defends better, and it still counts); the
    reading `defence_minus_attack` takes the note's words in their literal order.

    ```python
    from rulesref.campaign import Readings, battle_damage

    print(battle_damage(12, 5), battle_damage(3, 7))
    #> 7 -4
    print(battle_damage(12, 5, Readings(defence_minus_attack=True)))
    #> -7
    ```
    """
    return defence - attack if readings.defence_minus_attack else attack - defence


def _hits_from_damage_arguments(battle_damage: int) -> None:
    whole_number("battle_damage", battle_damage, -MAX_BATTLE_DAMAGE, MAX_BATTLE_DAMAGE)


@checked_by(_hits_from_damage_arguments)
def hits_from_damage(battle_damage: int) -> int:
    """CA-13, CA-C3: Battle Damage divided by six, rounded down; negative gives no hits.

    ```python
    from rulesref.campaign import hits_from_damage

    print(hits_from_damage(17), hits_from_damage(5), hits_from_damage(-8))
    #> 2 0 0
    ```
    """
    return max(battle_damage // 6, 0)


@dataclass(frozen=True)
class AfterHits:
    """A side after its hits are assigned (CA-14 to CA-16): what the verdict reads."""

    platoons: tuple[Platoon, ...]  # the side's platoons afterwards
    assignment: tuple[int, ...]
    withdrawn: int  # platoons of the battle withdrawn by hits (CA-14, CA-C13)
    routed: bool  # could not assign every hit (CA-16)
    fell_back: bool  # no platoon left in the battle (CA-C8)
    all_fubar: bool  # every platoon left is FUBAR (CA-20)


def _assign_hits_arguments(
    platoons: Sequence[Platoon], hits: int, assignment: Sequence[int] | None = None
) -> None:
    platoons = sequence_of("platoons", platoons, Platoon, low=1, high=MAX_PLATOONS)
    whole_number("hits", hits, 0, 10 * MAX_PLATOONS)
    _check_assignment(platoons, hits, assignment)


@checked_by(_assign_hits_arguments)
def assign_hits(
    platoons: Sequence[Platoon], hits: int, assignment: Sequence[int] | None = None
) -> AfterHits:
    """CA-14 to CA-16: apply `hits` to a side's platoons as `assignment` says (hits per
    platoon, adding up to `hits`). A side that cannot take them all is routed (CA-16):
    every platoon withdraws, and no assignment is needed.

    ```python
    from rulesref.campaign import Platoon, State, assign_hits

    after = assign_hits([Platoon(), Platoon(state=State.FUBAR)], 2, [1, 1])
    print([p.state for p in after.platoons], after.withdrawn, after.routed)
    #> ['damaged', 'withdrawn'] 1 False
    ```
    """
    steps = [p.steps_left for p in platoons]
    routed = hits > sum(steps)
    given = tuple(steps) if routed else tuple(assignment or [0] * len(steps))
    left = [room - taken for room, taken in zip(steps, given, strict=True)]
    after = tuple(_hit(p, n) if n else p for p, n in zip(platoons, given, strict=True))
    withdrawn = sum(1 for room, rest in zip(steps, left, strict=True) if room and not rest)
    remaining = [rest for rest in left if rest]
    above_fubar = sum(1 for rest in remaining if rest > 1)
    summary = after_hits.unchecked(withdrawn, len(remaining), above_fubar, routed=routed)
    return replace(summary, platoons=after, assignment=given)


@lru_cache(maxsize=1024)
def _hit(platoon: Platoon, hits: int) -> Platoon:
    """CA-14: `platoon` after `hits`. A platoon is a value: a battle of many alike platoons
    makes (and checks) each platoon after its hits once, not once per platoon hit."""
    return platoon.hit(hits)


def _check_assignment(
    platoons: Sequence[Platoon], hits: int, assignment: Sequence[int] | None
) -> None:
    """CA-15, CA-16: a player's assignment of `hits` (all a routed side can take), checked."""
    steps = tuple(p.steps_left for p in platoons)
    routed = hits > sum(steps)
    if assignment is None or routed:
        if assignment is not None and tuple(assignment) != steps:
            raise RulesError(
                f"assignment must give every platoon all the hits it can take "
                f"when the side is routed ({hits} hits, room for {sum(steps)}), got {assignment!r}"
            )
        if hits and not routed:
            raise RulesError(f"assignment must share out {hits} hits, got None")
        return
    given = sequence_of("assignment", assignment, int, high=MAX_PLATOONS)
    if len(given) != len(platoons):
        raise RulesError(
            f"assignment must give one number per platoon ({len(platoons)}), got {assignment!r}"
        )
    for index, (taken, room) in enumerate(zip(given, steps, strict=True)):
        whole_number(f"hits on platoon {index} ({platoons[index]})", taken, 0, room)
    if sum(given) != hits:
        raise RulesError(f"assignment must add up to {hits} hits, got {sum(given)}")


def _after_hits_arguments(
    withdrawn: int, in_battle: int, above_fubar: int, *, routed: bool = False
) -> None:
    whole_number("withdrawn", withdrawn, 0, MAX_PLATOONS)
    whole_number("in_battle", in_battle, 0, MAX_PLATOONS)
    whole_number("above_fubar", above_fubar, 0, in_battle)
    yes_or_no("routed", routed)


@checked_by(_after_hits_arguments)
def after_hits(
    withdrawn: int, in_battle: int, above_fubar: int, *, routed: bool = False
) -> AfterHits:
    """CA-14, CA-16, CA-C8, CA-C13, CA-20: what the verdict reads of a side after its hits,
    from counts of its platoons: `withdrawn` by these hits (a platoon withdrawn before the
    battle is not counted: CA-C13), `in_battle` still in it, and `above_fubar` of those,
    with more than one step left. A side with none left has fallen back (CA-C8); one whose
    every platoon left is FUBAR is all FUBAR (CA-20); `routed`: it could not take every
    hit (CA-16). Its `platoons` and `assignment` are left empty.

    ```python
    from rulesref.campaign import after_hits

    after = after_hits(1, 2, 0)
    print(after.withdrawn, after.fell_back, after.all_fubar)
    #> 1 False True
    ```
    """
    return AfterHits((), (), withdrawn, routed, not in_battle, bool(in_battle) and not above_fubar)
