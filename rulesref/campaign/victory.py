"""Who wins a battle, who must check leadership, and what becomes of each side (CA-16 to CA-20,
CA-C5 to CA-C8)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rulesref.campaign.hits import AfterHits
from rulesref.campaign.model import DEFAULT_CHECK_LEADERSHIP, MAX_CHECK_LEADERSHIP, Fate, Role
from rulesref.dice import probability_at_most
from rulesref.errors import (
    RulesError,
    checked_by,
    dice_roll,
    instance_of,
    probability,
    settle,
    whole_number,
    yes_or_no,
)
from rulesref.exact import Rational

__all__ = [
    "LeadershipCheck",
    "checked_leadership",
    "BattleVerdict",
    "verdict",
    "driven_off",
    "fates",
]


@dataclass(frozen=True)
class LeadershipCheck:
    """The leadership check of CA-17 and CA-18, which the note does not define (CA-C5).

    By default 2D6 at or under a Leadership of 7 passes (7/12); `probability` replaces
    the test by a given probability of passing (a check takes one or the other: with a
    probability its `leadership` is None).

    ```python
    from sympy import Rational

    from rulesref.campaign import LeadershipCheck

    print(LeadershipCheck().pass_probability, LeadershipCheck(leadership=9).pass_probability)
    #> 7/12 5/6
    print(LeadershipCheck(probability=Rational(1, 2)).pass_probability)
    #> 1/2
    ```
    """

    leadership: int | None = None
    probability: Rational | None = None

    def __post_init__(self) -> None:
        if self.leadership is not None:
            whole_number("leadership", self.leadership, 0, MAX_CHECK_LEADERSHIP)
        if self.probability is not None:
            settle(self, "probability", probability("probability", self.probability))
            if self.leadership is not None:  # one of them would be ignored
                raise RulesError(
                    "leadership and probability must not both be given (a probability "
                    f"replaces the roll), got {self.leadership} and {self.probability}"
                )
        elif self.leadership is None:
            settle(self, "leadership", DEFAULT_CHECK_LEADERSHIP)

    @property
    def pass_probability(self) -> Rational:
        if self.probability is not None:
            return self.probability
        assert self.leadership is not None  # __post_init__ sets one or the other
        return probability_at_most(self.leadership, dice=2)

    def passes(self, roll: bool | Sequence[int]) -> bool:
        """A rolled check: two dice against the Leadership, or simply passed or not."""
        if isinstance(roll, bool):
            return roll
        if roll is None:
            raise RulesError("roll must be two dice, or True or False, got None")
        if self.leadership is None:  # a given probability
            raise RulesError(f"roll must be True or False with a given probability, got {roll!r}")
        return sum(dice_roll("leadership roll", roll, 2)) <= self.leadership


def checked_leadership(leadership: object) -> LeadershipCheck:
    """`leadership` if it is a LeadershipCheck, the default check (CA-C5) for None."""
    if leadership is None:
        return LeadershipCheck()
    allowed = "a LeadershipCheck, e.g. LeadershipCheck(9), or None"
    return instance_of("leadership", leadership, LeadershipCheck, allowed)


# The verdict (CA-16 to CA-18, CA-20) and the fates, shared by the resolver and the odds.


@dataclass(frozen=True)
class BattleVerdict:
    """Who won a battle, who lost, who must check leadership, and the deciding clause."""

    victor: Role | None
    loser: Role | None
    checker: Role | None  # the side that must check leadership
    clause: str
    reason: str = field(compare=False)


def _verdict_arguments(
    attacker: AfterHits, defender: AfterHits, damage_order: int, *, garrison: bool = False
) -> None:
    _both_after_hits(attacker, defender)
    whole_number("damage_order", damage_order, -1, 1)
    yes_or_no("garrison", garrison)


def _both_after_hits(attacker: AfterHits, defender: AfterHits) -> None:
    for role, side in ((Role.ATTACKER, attacker), (Role.DEFENDER, defender)):
        instance_of(role, side, AfterHits, "an AfterHits, from assign_hits")


@checked_by(_verdict_arguments)
def verdict(
    attacker: AfterHits, defender: AfterHits, damage_order: int, *, garrison: bool = False
) -> BattleVerdict:
    """CA-17, CA-18, CA-20, CA-C6: who won and who must check leadership, from both sides'
    hits: a side driven off loses (`driven_off`); else more withdrawals lose, then less
    Battle Damage; level on both is a draw. A garrison that is not all FUBAR does not test.

    `damage_order` is the sign of the attacker's Battle Damage minus the defender's;
    it matters only when the withdrawals are equal.

    ```python
    from rulesref.campaign import Platoon, assign_hits, verdict

    attacker, defender = assign_hits([Platoon()], 0), assign_hits([Platoon()] * 2, 3, [3, 0])
    print(verdict(attacker, defender, 1).reason)
    #> withdrawals 0 to 1
    ```
    """
    gone = driven_off.unchecked(attacker, defender)
    if gone:
        return gone
    if attacker.withdrawn != defender.withdrawn:
        loser = Role.ATTACKER if attacker.withdrawn > defender.withdrawn else Role.DEFENDER
        clause = "CA-17"
        reason = f"withdrawals {attacker.withdrawn} to {defender.withdrawn}"
    elif damage_order:
        loser = Role.ATTACKER if damage_order < 0 else Role.DEFENDER
        clause = "CA-18"
        reason = f"withdrawals equal ({attacker.withdrawn}), the {loser.enemy} did more damage"
    else:
        return BattleVerdict(None, None, None, "CA-C6", "equal withdrawals and equal Battle Damage")
    checker: Role | None = loser
    if garrison and loser is Role.DEFENDER and not defender.all_fubar:
        checker, reason = None, reason + "; the garrison is not all FUBAR, so no test (CA-20)"
    return BattleVerdict(loser.enemy, loser, checker, clause, reason)


@checked_by(_both_after_hits)
def driven_off(attacker: AfterHits, defender: AfterHits) -> BattleVerdict | None:
    """CA-16, CA-C7, CA-C8: the verdict when a side has no platoon left in the battle: it
    loses, routed or fallen back, with no check; both gone, nobody wins. None otherwise.

    ```python
    from rulesref.campaign import Platoon, assign_hits, driven_off

    print(driven_off(assign_hits([Platoon()], 4), assign_hits([Platoon()], 0)).reason)
    #> the attacker is routed
    ```
    """
    after = {Role.ATTACKER: attacker, Role.DEFENDER: defender}
    gone = [role for role in Role if after[role].fell_back]
    if len(gone) == 2:
        return BattleVerdict(None, None, None, "CA-C7", "both sides have fallen back: no victor")
    if not gone:
        return None
    loser = gone[0]
    how = "is routed" if after[loser].routed else "has no platoon left"
    clause = "CA-16" if after[loser].routed else "CA-C8"
    return BattleVerdict(loser.enemy, loser, None, clause, f"the {loser} {how}")


def _fates_arguments(
    found: BattleVerdict, after: Mapping[Role, AfterHits], passed: bool | None, *, garrison: bool
) -> None:
    instance_of("found", found, BattleVerdict, "a BattleVerdict, from verdict")
    for role in Role:
        instance_of(f"after[{role!r}]", after.get(role), AfterHits, "an AfterHits")
    if passed is not None:
        yes_or_no("passed", passed)
    yes_or_no("garrison", garrison)


@checked_by(_fates_arguments)
def fates(
    found: BattleVerdict, after: Mapping[Role, AfterHits], passed: bool | None, *, garrison: bool
) -> dict[Role, Fate]:
    """CA-20: what becomes of each side, from the verdict and the loser's check: routed
    (CA-16), fallen back (CA-C8), holds, withdraws, or, a garrison that fails its check,
    surrenders; `passed` is None while the check is not rolled.

    ```python
    from rulesref.campaign import Platoon, assign_hits, fates, verdict

    attacker, defender = assign_hits([Platoon()], 0), assign_hits([Platoon()], 1, [1])
    found = verdict(attacker, defender, 1)
    print(fates(found, {"attacker": attacker, "defender": defender}, False, garrison=True))
    #> {'attacker': 'holds', 'defender': 'surrenders'}
    ```
    """
    return {role: _fate(role, found, after[role], passed, garrison) for role in Role}


def _fate(
    role: Role, found: BattleVerdict, after: AfterHits, passed: bool | None, garrison: bool
) -> Fate:
    if after.routed:
        return Fate.ROUTED
    if after.fell_back:
        return Fate.FALLS_BACK
    if found.checker != role or passed:
        return Fate.HOLDS
    if passed is None:
        return Fate.MUST_CHECK
    return Fate.SURRENDERS if garrison and role is Role.DEFENDER else Fate.WITHDRAWS
