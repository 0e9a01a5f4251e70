"""Sieges and the Mission HQ: garrisons, repairs, supply and surrender (CA-19 to CA-24, CA-C14
to CA-C17)."""

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rulesref.campaign.model import MAX_PLATOONS, Fate, HQActivity, Kind, Platoon, Role, State
from rulesref.campaign.resolve import BattleResult
from rulesref.errors import (
    RulesError,
    instance_of,
    sequence_of,
    settle,
    whole_number,
    word_of,
)
from rulesref.words import Word

__all__ = [
    "garrison_tests_for_surrender",
    "Garrison",
    "garrison_turn",
    "mission_hq",
    "army_supply",
    "hq_surrenders",
    "AfterSurrender",
    "SurrenderChoice",
    "after_hq_surrender",
    "out_of_supply",
    "may_withdraw_voluntarily",
]


# Siege (CA-20, CA-21) and Mission HQ (CA-22 to CA-24): campaign state.


def garrison_tests_for_surrender(platoons: Sequence[Platoon]) -> bool:
    """CA-20, CA-C14: a defeated garrison tests leadership for surrender only if every platoon it
    still has is FUBAR (CA-C14: withdrawn ones are gone and do not count).

    ```python
    from rulesref.campaign import Platoon, State, garrison_tests_for_surrender

    fubar, damaged = Platoon(state=State.FUBAR), Platoon(state=State.DAMAGED)
    print(garrison_tests_for_surrender([fubar, Platoon(state=State.WITHDRAWN)]))
    #> True
    print(garrison_tests_for_surrender([fubar, damaged]))
    #> False
    ```
    """
    left = [p for p in sequence_of("platoons", platoons, Platoon) if p.in_combat]
    return bool(left) and all(p.state == State.FUBAR for p in left)


@dataclass(frozen=True)
class Garrison:
    """A garrisoned location: its platoons, its supply value, and the points banked."""

    platoons: tuple[Platoon, ...]
    supply_value: int = 0
    banked: int = 0

    def __post_init__(self) -> None:
        platoons = sequence_of("platoons", self.platoons, Platoon, low=1, high=MAX_PLATOONS)
        settle(self, "platoons", platoons)
        whole_number("supply_value", self.supply_value, 0, 100)
        whole_number("banked", self.banked, 0, 10**6)


def garrison_turn(garrison: Garrison, repairs: Sequence[int] = (), *, cost: int = 1) -> Garrison:
    """CA-21, CA-C15: a turn of a garrison: bank the location's supply points, then spend `cost`
    points (CA-C15: one) per step repaired; `repairs` lists the platoon repaired by each
    step. Withdrawn platoons have left and cannot be repaired; unspent points carry over.

    ```python
    from rulesref.campaign import Garrison, Platoon, State, garrison_turn

    fort = Garrison((Platoon(state=State.FUBAR), Platoon(state=State.DAMAGED)), supply_value=1)
    fort = garrison_turn(fort)  # bank 1
    fort = garrison_turn(fort, repairs=[0, 1])  # bank 1 more, spend 2
    print([p.state for p in fort.platoons], fort.banked)
    #> ['damaged', 'fresh'] 0
    ```
    """
    whole_number("cost", cost, 1, 100)
    platoons = list(instance_of("garrison", garrison, Garrison, "a Garrison").platoons)
    banked = garrison.banked + garrison.supply_value
    for index in sequence_of("repairs", repairs, int, high=3 * len(platoons)):
        whole_number("repair index", index, 0, len(platoons) - 1)
        platoon = platoons[index]
        if platoon.state in (State.FRESH, State.WITHDRAWN):
            raise RulesError(
                f"repair of platoon {index} must be of a damaged or FUBAR one, got {platoon.state}"
            )
        if banked < cost:
            raise RulesError(f"repairs must be paid for: {cost} points needed, {banked} banked")
        banked -= cost
        platoons[index] = replace(platoon, state=list(State)[list(State).index(platoon.state) - 1])
    return Garrison(tuple(platoons), garrison.supply_value, banked)


def mission_hq(
    *, state: State | str = State.FRESH, supplied: bool = True
) -> tuple[Platoon, Platoon]:
    """CA-22: a Mission HQ caught in combat fights as two Command platoons.

    ```python
    from rulesref.campaign import mission_hq

    print(", ".join(str(p) for p in mission_hq()))
    #> HQ 1, HQ 2
    ```
    """
    state = word_of("state", state, State)
    first, second = (Platoon(Kind.COMMAND, state, supplied, f"HQ {n}") for n in (1, 2))
    return first, second


def army_supply(activity: Sequence[HQActivity | str]) -> tuple[bool, ...]:
    """CA-23, CA-24, CA-C16: whether the army is in supply at the end of each turn, from what its
    Mission HQ did that turn. Moving or fighting cuts supply until the HQ has spent a
    whole turn quiet (CA-C16); once it has surrendered, supply never returns (CA-24).

    ```python
    from rulesref.campaign import army_supply

    print(army_supply(["quiet", "moved", "quiet", "fought", "quiet"]))
    #> (True, False, True, False, True)
    ```
    """
    result, lost = [], False
    for turn in sequence_of("activity", activity, str):
        done = word_of("activity", turn, HQActivity)
        lost = lost or done is HQActivity.SURRENDERED
        result.append(not lost and done is HQActivity.QUIET)
    return tuple(result)


def hq_surrenders(result: BattleResult, role: Role | str) -> bool:
    """CA-C17: a Mission HQ is forced to surrender when its side loses a battle and must
    leave the hex: routed, fallen back, or failed its check.
    """
    instance_of("result", result, BattleResult, "a BattleResult")
    return result.side(role).fate not in (Fate.HOLDS, Fate.MUST_CHECK)


@dataclass(frozen=True)
class AfterSurrender:
    game_over: bool
    army_supplied: bool
    clause: str = "CA-24"


class SurrenderChoice(Word):
    """What a player may do once their Mission HQ has surrendered (CA-24)."""

    CONCEDE = "concede"
    FIGHT_ON = "fight on"


def after_hq_surrender(choice: SurrenderChoice | str) -> AfterSurrender:
    """CA-24: after its HQ surrenders, a side may concede, or fight on without supply.

    ```python
    from rulesref.campaign import after_hq_surrender

    print(after_hq_surrender("fight on"))
    #> AfterSurrender(game_over=False, army_supplied=False, clause='CA-24')
    ```
    """
    chosen = word_of("choice", choice, SurrenderChoice)
    return AfterSurrender(game_over=chosen is SurrenderChoice.CONCEDE, army_supplied=False)


def out_of_supply(platoons: Sequence[Platoon]) -> tuple[Platoon, ...]:
    """CA-23: the platoons of an army cut off from supply (CA-24 too), for CA-11.

    ```python
    from rulesref.campaign import Kind, Platoon, out_of_supply

    print([p.supplied for p in out_of_supply([Platoon(), Platoon(Kind.ARTILLERY)])])
    #> [False, False]
    ```
    """
    return tuple(replace(p, supplied=False) for p in sequence_of("platoons", platoons, Platoon))


def may_withdraw_voluntarily(result: BattleResult) -> bool:
    """CA-19: once a victor is known, either side may withdraw of its own accord."""
    return instance_of("result", result, BattleResult, "a BattleResult").victor is not None
