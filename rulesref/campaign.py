"""Campaign combat settled with one d6 per platoon: clauses CA-1 to CA-24.

Source: a campaign-combat note "by Dylan, October 2001" (our copy:
`001_a56d7721d8c2cbcd.txt`). The site restates each clause under its id; the code
below implements each in one place. Readings where the note is silent are the
clarifications CA-C1 and on; the optional ones are fields of `Readings`.

```python
from rulesref.campaign import Battle, Platoon, Side, battle_odds

battle = Battle(Side([Platoon()] * 3), Side([Platoon()] * 3))  # 3 v 3 infantry, in the open
odds = battle_odds(battle)
print(odds.victor["attacker"], odds.victor["defender"])
#> 2401/11664 11207/15552
```
"""

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from rulesref.dice import D6, probability_at_most, sum_counts
from rulesref.errors import (
    RulesError,
    chance,
    dice_roll,
    instance_of,
    one_of,
    sequence_of,
    text,
    whole_number,
    yes_or_no,
)
from rulesref.exact import Rational

__all__ = [
    "KINDS",
    "STATES",
    "TERRAINS",
    "ROLLS",
    "ROLES",
    "Platoon",
    "Side",
    "Readings",
    "Battle",
    "cavalry_barred",
    "Term",
    "RollExplanation",
    "explain_roll",
    "fewest_withdrawals",
    "most_withdrawals",
    "hits_from_damage",
    "HitOutcome",
    "assign_hits",
    "LeadershipCheck",
    "Verdict",
    "verdict",
    "FATES",
    "Step",
    "SideResult",
    "BattleResult",
    "resolve_battle",
    "hits_odds",
    "BattleOdds",
    "battle_odds",
    "garrison_tests_for_surrender",
    "Garrison",
    "garrison_turn",
    "mission_hq",
    "HQ_ACTIVITY",
    "army_supply",
    "hq_surrenders",
    "AfterSurrender",
    "after_hq_surrender",
    "out_of_supply",
    "may_withdraw_voluntarily",
]

KINDS = ("infantry", "cavalry", "artillery", "command")
STATES = ("fresh", "damaged", "fubar", "withdrawn")  # the damage scale, best first (CA-C1)
STEPS_LEFT = {state: len(STATES) - 1 - n for n, state in enumerate(STATES)}
TERRAINS = ("open", "forest", "woods", "mountain")
ROLLS = ("attack", "defence")
ROLES = ("attacker", "defender")
MAX_PLATOONS = 1000
MAX_BATTLE_DAMAGE = 2 * MAX_PLATOONS * 10  # beyond any sum of modified d6 rolls
MAX_LEADERSHIP = 12


@dataclass(frozen=True)
class Platoon:
    """One platoon: its kind, its place on the damage scale (CA-14, CA-C1), its supply.

    `steps_left` is the number of hits it can still take; the last one withdraws it.

    ```python
    from rulesref.campaign import Platoon

    guns = Platoon("artillery", "damaged")
    print(guns.steps_left, guns.hit().state, guns.hit(2).state)
    #> 2 fubar withdrawn
    ```
    """

    kind: str = "infantry"
    state: str = "fresh"
    supplied: bool = True
    name: str = ""

    def __post_init__(self) -> None:
        one_of("kind", self.kind, KINDS)
        one_of("state", self.state, STATES)
        yes_or_no("supplied", self.supplied)
        text("name", self.name, empty=True)

    @property
    def steps_left(self) -> int:
        return STEPS_LEFT[self.state]

    @property
    def in_combat(self) -> bool:
        """A platoon withdrawn before the battle takes no part in it (CA-C1)."""
        return self.state != "withdrawn"

    def hit(self, hits: int = 1) -> "Platoon":
        """CA-14: each hit moves the platoon one step down the damage scale."""
        whole_number("hits", hits, 0, self.steps_left)
        return replace(self, state=STATES[STATES.index(self.state) + hits])

    def __str__(self) -> str:
        label = self.name or self.kind
        notes = [] if self.state == "fresh" else [self.state]
        notes += [] if self.supplied else ["out of supply"]
        return f"{label} ({', '.join(notes)})" if notes else label


@dataclass(frozen=True)
class Side:
    """The platoons one player brings to a battle and what each rolls for (CA-2).

    `declarations` holds "attack" or "defence" for each platoon, or None (no die) for a
    platoon that may not roll: a withdrawn one (CA-C1) or barred cavalry (CA-10). Left
    out, every platoon rolls for its side's role: attack for the attacker, defence for
    the defender, and those that may not roll roll nothing.
    """

    platoons: Sequence[Platoon]
    declarations: Sequence[str | None] | None = None
    fortified: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        platoons = sequence_of("platoons", self.platoons, Platoon, low=1, high=MAX_PLATOONS)
        if not any(p.in_combat for p in platoons):
            raise RulesError("platoons must include one that is not withdrawn, got none")
        object.__setattr__(self, "platoons", platoons)
        if self.declarations is not None:
            declarations = sequence_of(
                "declarations",
                self.declarations,
                (str, type(None)),
                noun="'attack', 'defence' or None",
            )
            if len(declarations) != len(platoons):
                raise RulesError(
                    f"declarations must give one entry per platoon ({len(platoons)}), "
                    f"got {len(declarations)}"
                )
            for entry in declarations:
                if entry is not None:
                    one_of("declaration", entry, ROLLS)
            object.__setattr__(self, "declarations", declarations)
        yes_or_no("fortified", self.fortified)
        text("name", self.name, empty=True)


@dataclass(frozen=True)
class Readings:
    """The optional readings of the clarifications; the defaults are the site's.

    - `fubar_modified` (CA-C2): the other modifiers apply to a FUBAR platoon's 1.
    - `clamp_rolls` (CA-C4): a modified roll below 0 counts as 0 (default: not clamped).
    - `woods_is_forest` (CA-C10): forest and woods are one terrain.
    - `mountain_both_sides` (CA-C11): both armies are in the mountain hex.
    """

    fubar_modified: bool = True
    clamp_rolls: bool = False
    woods_is_forest: bool = True
    mountain_both_sides: bool = True

    def __post_init__(self) -> None:
        for name in ("fubar_modified", "clamp_rolls", "woods_is_forest", "mountain_both_sides"):
            yes_or_no(name, getattr(self, name))


@dataclass(frozen=True)
class Battle:
    """A battle between an attacking and a defending side in one hex.

    `garrison=True` makes the defender a garrison (CA-20).

    ```python
    from rulesref.campaign import Battle, Platoon, Side

    battle = Battle(Side([Platoon("cavalry")]), Side([Platoon()]), terrain="woods")
    print(battle.declarations("attacker"))  # cavalry may not roll in woods (CA-10)
    #> (None,)
    ```
    """

    attacker: Side
    defender: Side
    terrain: str = "open"
    garrison: bool = False
    readings: Readings = field(default_factory=Readings)
    # what each platoon rolls for, by role: worked out and checked once, on creation
    _declared: dict[str, tuple[str | None, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for role in ROLES:
            instance_of(role, getattr(self, role), Side, "a Side")
        one_of("terrain", self.terrain, TERRAINS)
        yes_or_no("garrison", self.garrison)
        instance_of("readings", self.readings, Readings, "a Readings")
        declared = {role: self._declare(role) for role in ROLES}
        object.__setattr__(self, "_declared", declared)

    def side(self, role: str) -> Side:
        return self.attacker if one_of("role", role, ROLES) == "attacker" else self.defender

    def in_terrain(self, *terrains: str) -> bool:
        """Whether the battle is in one of `terrains`, forest and woods alike (CA-C10)."""
        alike = {"forest", "woods"} if self.readings.woods_is_forest else set()
        here = {self.terrain} | (alike if self.terrain in alike else set())
        return bool(here & set(terrains))

    def declarations(self, role: str) -> tuple[str | None, ...]:
        """CA-2: what each platoon of a side rolls for, checked against CA-10 and CA-C1."""
        return self._declared[one_of("role", role, ROLES)]

    def _declare(self, role: str) -> tuple[str | None, ...]:
        side = self.side(role)
        default = "attack" if role == "attacker" else "defence"
        explicit = side.declarations is not None
        entries = side.declarations or (default,) * len(side.platoons)
        result = []
        for index, (platoon, entry) in enumerate(zip(side.platoons, entries, strict=True)):
            if not platoon.in_combat:
                if explicit and entry is not None:
                    raise RulesError(
                        f"{role} platoon {index} ({platoon}) is withdrawn and may not roll, "
                        f"got {entry!r}"
                    )
                entry = None
            elif cavalry_barred(platoon, self):
                if explicit and entry is not None:
                    raise RulesError(
                        f"{role} platoon {index} ({platoon}) is cavalry in {self.terrain} "
                        f"and may not roll (CA-10), got {entry!r}"
                    )
                entry = None
            elif entry is None:  # CA-2: every other platoon rolls its die
                raise RulesError(
                    f"{role} platoon {index} ({platoon}) must roll for attack or defence "
                    "(only withdrawn platoons and barred cavalry roll nothing), got None"
                )
            result.append(entry)
        return tuple(result)


def cavalry_barred(platoon: Platoon, battle: Battle) -> bool:
    """CA-10: cavalry rolls no combat die in mountains or woods (CA-C12: it still takes hits).

    ```python
    from rulesref.campaign import Battle, Platoon, Side, cavalry_barred

    horse = Platoon("cavalry")
    battle = Battle(Side([horse]), Side([Platoon()]), terrain="mountain")
    print(cavalry_barred(horse, battle))
    #> True
    ```
    """
    instance_of("platoon", platoon, Platoon, "a Platoon")
    instance_of("battle", battle, Battle, "a Battle")
    return platoon.kind == "cavalry" and battle.in_terrain("mountain", "woods")


@dataclass(frozen=True)
class Term:
    """One modifier of a roll: its value and the clause that gives it."""

    clause: str
    reason: str
    value: int

    def __str__(self) -> str:
        return f"{self.value:+d} {self.reason} ({self.clause})"


# One function per modifier clause: (platoon, what it rolls for, its role, the battle).


def _ca3_artillery(platoon: Platoon, roll: str, role: str, battle: Battle) -> Term | None:
    """CA-3: artillery +2 on every combat roll, but -1 instead in forest."""
    if platoon.kind != "artillery":
        return None
    if battle.in_terrain("forest"):
        return Term("CA-3", "artillery, forest", -1)
    return Term("CA-3", "artillery", +2)


def _ca4_cavalry(platoon: Platoon, roll: str, role: str, battle: Battle) -> Term | None:
    """CA-4: cavalry +1 when it rolls for attack."""
    return Term("CA-4", "cavalry", +1) if platoon.kind == "cavalry" and roll == "attack" else None


def _ca5_defending(platoon: Platoon, roll: str, role: str, battle: Battle) -> Term | None:
    """CA-5: the defending army +1 on its defence rolls."""
    return Term("CA-5", "defender", +1) if role == "defender" and roll == "defence" else None


def _ca6_fortified(platoon: Platoon, roll: str, role: str, battle: Battle) -> Term | None:
    """CA-6: a fortified army +1 on its defence rolls."""
    fortified = battle.side(role).fortified
    return Term("CA-6", "fortified", +1) if fortified and roll == "defence" else None


def _ca7_mountain(platoon: Platoon, roll: str, role: str, battle: Battle) -> Term | None:
    """CA-7: an army in a mountain hex +1 on its defence rolls (CA-C11: both armies)."""
    in_hex = battle.readings.mountain_both_sides or role == "defender"
    if battle.terrain == "mountain" and in_hex and roll == "defence":
        return Term("CA-7", "mountain", +1)
    return None


def _ca8_damaged(platoon: Platoon, roll: str, role: str, battle: Battle) -> Term | None:
    """CA-8: a Damaged platoon -1 on its rolls (not a FUBAR one: CA-C1)."""
    return Term("CA-8", "Damaged", -1) if platoon.state == "damaged" else None


def _ca11_supply(platoon: Platoon, roll: str, role: str, battle: Battle) -> Term | None:
    """CA-11: a platoon out of supply -1 on all its rolls."""
    return None if platoon.supplied else Term("CA-11", "no supply", -1)


MODIFIERS: tuple[Callable[[Platoon, str, str, Battle], Term | None], ...] = (
    _ca3_artillery,
    _ca4_cavalry,
    _ca5_defending,
    _ca6_fortified,
    _ca7_mountain,
    _ca8_damaged,
    _ca11_supply,
)


@dataclass(frozen=True)
class RollExplanation:
    """A platoon's roll, term by term: what it rolls for, its modifiers, its six values."""

    platoon: Platoon
    roll: str | None
    terms: tuple[Term, ...]
    fixed_die: int | None  # 1 for a FUBAR platoon (CA-9), else None
    clamp: bool

    @property
    def modifier(self) -> int:
        return sum(term.value for term in self.terms)

    def value(self, die: int | None) -> int:
        """The modified value of one roll (the die is ignored for a FUBAR platoon, CA-9)."""
        if self.roll is None:
            raise RulesError(f"{self.platoon} rolls no die in this battle")
        face = self.fixed_die if self.fixed_die is not None else dice_roll("die", [die], 1)[0]
        return self._modified(face, self.modifier)

    def _modified(self, face: int, modifier: int) -> int:
        total = face + modifier
        return max(total, 0) if self.clamp else total

    @property
    def faces(self) -> tuple[int, ...]:
        """The six equally likely values of the roll."""
        if self.roll is None:
            raise RulesError(f"{self.platoon} rolls no die in this battle")
        modifier = self.modifier
        return tuple(self._modified(self.fixed_die or face, modifier) for face in D6)

    def __str__(self) -> str:
        if self.roll is None:
            return f"{self.platoon}: no roll"
        die = "1 (CA-9)" if self.fixed_die else "d6"
        terms = "".join(f" {term}" for term in self.terms)
        return f"{self.platoon}, {self.roll}: {die}{terms} = {die.split()[0]}{self.modifier:+d}"


def explain_roll(battle: Battle, role: str, index: int) -> RollExplanation:
    """The final modifier of one platoon's roll, term by term (CA-3 to CA-11).

    A FUBAR platoon rolls no die: it scores 1 (CA-9), and by default the other
    modifiers still apply to that 1 (CA-C2).

    ```python
    from rulesref.campaign import Battle, Platoon, Side, explain_roll

    battle = Battle(Side([Platoon("artillery", "damaged")]), Side([Platoon()]))
    print(explain_roll(battle, "attacker", 0))
    #> artillery (damaged), attack: d6 +2 artillery (CA-3) -1 Damaged (CA-8) = d6+1
    ```
    """
    side = instance_of("battle", battle, Battle, "a Battle").side(role)
    whole_number("index", index, 0, len(side.platoons) - 1)
    platoon, roll = side.platoons[index], battle.declarations(role)[index]
    fubar = platoon.state == "fubar"
    terms: tuple[Term, ...] = ()
    if roll is not None and (not fubar or battle.readings.fubar_modified):
        terms = tuple(t for rule in MODIFIERS if (t := rule(platoon, roll, role, battle)))
    fixed = 1 if fubar else None
    return RollExplanation(platoon, roll, terms, fixed, battle.readings.clamp_rolls)


# Hits (CA-13 to CA-15) and the policies that assign them.

Policy = Callable[[Sequence[Platoon], int], tuple[int, ...]]


def _leadership_check(leadership: object) -> "LeadershipCheck":
    if leadership is None:
        return LeadershipCheck()
    allowed = "a LeadershipCheck, e.g. LeadershipCheck(9), or None"
    return instance_of("leadership", leadership, LeadershipCheck, allowed)


def _policy(policy: object) -> "Policy":
    if not callable(policy):
        raise RulesError(f"policy must be a function like fewest_withdrawals, got {policy!r}")
    return policy


def fewest_withdrawals(platoons: Sequence[Platoon], hits: int) -> tuple[int, ...]:
    """CA-15 policy (CA-C9, the default): spread the hits so that as few platoons as
    possible withdraw. Each hit goes to the platoon with the most steps left (the first
    listed on a tie), so a platoon withdraws only when every other one is FUBAR.

    ```python
    from rulesref.campaign import Platoon, fewest_withdrawals

    print(fewest_withdrawals([Platoon(), Platoon(state="damaged"), Platoon()], 4))
    #> (2, 1, 1)
    ```
    """
    hits = _assignable(platoons, hits)
    left = [p.steps_left for p in platoons]
    given = [0] * len(left)
    for level in (3, 2, 1):
        for index, steps in enumerate(left):
            if hits and steps == level:
                left[index], given[index], hits = steps - 1, given[index] + 1, hits - 1
    return tuple(given)


def most_withdrawals(platoons: Sequence[Platoon], hits: int) -> tuple[int, ...]:
    """CA-15 policy: sacrifice the weakest platoons, each taking every hit it can, the one
    with the fewest steps left first (the first listed on a tie).

    ```python
    from rulesref.campaign import Platoon, most_withdrawals

    print(most_withdrawals([Platoon(), Platoon(state="fubar"), Platoon()], 3))
    #> (2, 1, 0)
    ```
    """
    hits = _assignable(platoons, hits)
    given = [0] * len(platoons)
    for index in sorted(range(len(platoons)), key=lambda i: platoons[i].steps_left):
        given[index] = min(hits, platoons[index].steps_left)
        hits -= given[index]
    return tuple(given)


def _assignable(platoons: Sequence[Platoon], hits: int) -> int:
    """The hits a policy is asked to place: no more than the platoons can take (CA-16)."""
    platoons = sequence_of("platoons", platoons, Platoon, low=1, high=MAX_PLATOONS)
    return whole_number("hits", hits, 0, sum(p.steps_left for p in platoons))


def hits_from_damage(battle_damage: int) -> int:
    """CA-13: Battle Damage divided by six, rounded down; negative gives no hits (CA-C3).

    ```python
    from rulesref.campaign import hits_from_damage

    print(hits_from_damage(17), hits_from_damage(5), hits_from_damage(-8))
    #> 2 0 0
    ```
    """
    whole_number("battle_damage", battle_damage, -MAX_BATTLE_DAMAGE, MAX_BATTLE_DAMAGE)
    return max(battle_damage // 6, 0)


HitKey = tuple[bool, bool, int, bool]  # routed, fell back, withdrawn, all FUBAR
Flags = tuple[bool, bool]  # routed, fell back


@dataclass(frozen=True)
class HitOutcome:
    """What a number of hits does to one side, once assigned."""

    platoons: tuple[Platoon, ...]  # the side's platoons afterwards
    assignment: tuple[int, ...]
    withdrawn: int  # platoons of the battle withdrawn by hits (CA-14, CA-C13)
    routed: bool  # could not assign every hit (CA-16)
    fell_back: bool  # no platoon left in the battle (CA-C8)
    all_fubar: bool  # every platoon left is FUBAR (CA-20)

    @property
    def key(self) -> HitKey:
        return (self.routed, self.fell_back, self.withdrawn, self.all_fubar)


def assign_hits(
    platoons: Sequence[Platoon], hits: int, assignment: Sequence[int] | None = None
) -> HitOutcome:
    """CA-14 to CA-16: apply `hits` to a side's platoons as `assignment` says (hits per
    platoon, adding up to `hits`). A side that cannot take them all is routed (CA-16):
    every platoon withdraws, and no assignment is needed.

    ```python
    from rulesref.campaign import Platoon, assign_hits

    outcome = assign_hits([Platoon(), Platoon(state="fubar")], 2, [1, 1])
    print([p.state for p in outcome.platoons], outcome.withdrawn, outcome.routed)
    #> ['damaged', 'withdrawn'] 1 False
    ```
    """
    platoons = sequence_of("platoons", platoons, Platoon, low=1, high=MAX_PLATOONS)
    return _assign(platoons, hits, assignment, build=True)


def _assign(
    platoons: Sequence[Platoon], hits: int, assignment: Sequence[int] | None, *, build: bool
) -> HitOutcome:
    whole_number("hits", hits, 0, 10 * MAX_PLATOONS)
    steps = [p.steps_left for p in platoons]
    routed = hits > sum(steps)
    if assignment is None or routed:
        if assignment is not None and tuple(assignment) != tuple(steps):
            raise RulesError(
                f"assignment must give every platoon all the hits it can take "
                f"when the side is routed ({hits} hits, room for {sum(steps)}), got {assignment!r}"
            )
        if hits and not routed:
            raise RulesError(f"assignment must share out {hits} hits, got None")
        assignment = steps if routed else [0] * len(steps)
    assignment = sequence_of("assignment", assignment, int, high=MAX_PLATOONS)
    if len(assignment) != len(platoons):
        raise RulesError(
            f"assignment must give one number per platoon ({len(platoons)}), got {assignment!r}"
        )
    for index, (given, room) in enumerate(zip(assignment, steps, strict=True)):
        if isinstance(given, bool) or not isinstance(given, int) or not 0 <= given <= room:
            whole_number(f"hits on platoon {index} ({platoons[index]})", given, 0, room)
    if not routed and sum(assignment) != hits:
        raise RulesError(f"assignment must add up to {hits} hits, got {sum(assignment)}")
    left = [room - given for room, given in zip(steps, assignment, strict=True)]
    withdrawn = sum(1 for room, rest in zip(steps, left, strict=True) if room and not rest)
    remaining = [rest for rest in left if rest]
    after = tuple(p.hit(n) for p, n in zip(platoons, assignment, strict=True)) if build else ()
    return HitOutcome(
        after,
        assignment,
        withdrawn,
        routed,
        not remaining,
        bool(remaining) and all(rest == 1 for rest in remaining),
    )


@dataclass(frozen=True)
class LeadershipCheck:
    """The leadership check of CA-17 and CA-18, which the note does not define (CA-C5).

    By default 2D6 at or under a Leadership of 7 passes (7/12); `chance` replaces the
    test by a given probability of passing.

    ```python
    from sympy import Rational

    from rulesref.campaign import LeadershipCheck

    print(LeadershipCheck().pass_chance, LeadershipCheck(leadership=9).pass_chance)
    #> 7/12 5/6
    print(LeadershipCheck(chance=Rational(1, 2)).pass_chance)
    #> 1/2
    ```
    """

    leadership: int = 7
    chance: Rational | None = None

    def __post_init__(self) -> None:
        whole_number("leadership", self.leadership, 0, MAX_LEADERSHIP)
        if self.chance is not None:
            object.__setattr__(self, "chance", chance("chance", self.chance))

    @property
    def pass_chance(self) -> Rational:
        if self.chance is not None:
            return self.chance
        return probability_at_most(self.leadership, dice=2)

    def passes(self, roll: bool | Sequence[int]) -> bool:
        """A rolled check: two dice against the Leadership, or simply passed or not."""
        if isinstance(roll, bool):
            return roll
        if roll is None:
            raise RulesError("roll must be two dice, or True or False, got None")
        if self.chance is not None:
            raise RulesError(f"roll must be True or False with a given chance, got {roll!r}")
        return sum(dice_roll("leadership roll", roll, 2)) <= self.leadership


# The verdict (CA-16 to CA-18, CA-20), shared by the resolver and the exact odds.


@dataclass(frozen=True)
class Verdict:
    victor: str | None
    loser: str | None
    checker: str | None  # the side that must check leadership
    clause: str
    reason: str = field(compare=False)


def _other(role: str) -> str:
    return ROLES[1 - ROLES.index(role)]


def verdict(
    attacker: HitOutcome, defender: HitOutcome, damage_order: int, *, garrison: bool = False
) -> Verdict:
    """Who won and who must check leadership, from both sides' hits (CA-16 to CA-18).

    `damage_order` is the sign of the attacker's Battle Damage minus the defender's;
    it matters only when the withdrawals are equal (CA-18).
    """
    outcomes = {"attacker": attacker, "defender": defender}
    for role, outcome in outcomes.items():
        instance_of(role, outcome, HitOutcome, "a HitOutcome, from assign_hits")
    whole_number("damage_order", damage_order, -1, 1)
    yes_or_no("garrison", garrison)
    gone = [role for role in ROLES if outcomes[role].fell_back]
    if len(gone) == 2:
        return Verdict(None, None, None, "CA-C7", "both sides have fallen back: no victor")
    if gone:
        loser = gone[0]
        how = "is routed" if outcomes[loser].routed else "has no platoon left"
        clause = "CA-16" if outcomes[loser].routed else "CA-C8"
        return Verdict(_other(loser), loser, None, clause, f"the {loser} {how}")
    if attacker.withdrawn != defender.withdrawn:
        loser = "attacker" if attacker.withdrawn > defender.withdrawn else "defender"
        clause = "CA-17"
        reason = f"withdrawals {attacker.withdrawn} to {defender.withdrawn}"
    elif damage_order:
        loser = "attacker" if damage_order < 0 else "defender"
        clause = "CA-18"
        reason = f"withdrawals equal ({attacker.withdrawn}), the {_other(loser)} did more damage"
    else:
        return Verdict(None, None, None, "CA-C6", "equal withdrawals and equal Battle Damage")
    checker: str | None = loser
    if garrison and loser == "defender" and not defender.all_fubar:
        checker, reason = None, reason + "; the garrison is not all FUBAR, so no test (CA-20)"
    return Verdict(_other(loser), loser, checker, clause, reason)


# The fate of each side once the verdict and any check are known.
HOLDS, CHECKS = "holds", "must check"
FATES = ("holds", "withdraws", "surrenders", "falls back", "routed")


def _fates(
    v: Verdict, outcomes: dict[str, HitOutcome], passed: bool | None, garrison: bool
) -> dict[str, str]:
    fates = {}
    for role in ROLES:
        if outcomes[role].routed:
            fates[role] = "routed"
        elif outcomes[role].fell_back:
            fates[role] = "falls back"
        elif v.checker != role:
            fates[role] = HOLDS
        elif passed is None:
            fates[role] = CHECKS
        elif passed:
            fates[role] = HOLDS
        else:
            fates[role] = "surrenders" if garrison and role == "defender" else "withdraws"
    return fates


@dataclass(frozen=True)
class Step:
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
    outcome: HitOutcome
    fate: str


@dataclass(frozen=True)
class BattleResult:
    attacker: SideResult
    defender: SideResult
    verdict: Verdict
    check_passed: bool | None
    steps: tuple[Step, ...]

    @property
    def victor(self) -> str | None:
        return self.verdict.victor

    def side(self, role: str) -> SideResult:
        return self.attacker if one_of("role", role, ROLES) == "attacker" else self.defender


def _totals(
    battle: Battle, role: str, dice: Sequence[int | None]
) -> tuple[list[int | None], int, int]:
    platoons = battle.side(role).platoons
    if (
        isinstance(dice, str | bytes)
        or not isinstance(dice, Sequence)
        or len(dice) != len(platoons)
    ):
        raise RulesError(
            f"{role} dice must give one entry per platoon ({len(platoons)}), got {dice!r}"
        )
    values: list[int | None] = []
    totals = {"attack": 0, "defence": 0}
    for index, die in enumerate(dice):
        explained = explain_roll(battle, role, index)
        if explained.roll is None or explained.fixed_die:
            allowed = (None,) if explained.roll is None else (None, 1)
            if die not in allowed:
                raise RulesError(
                    f"{role} die {index} must be {' or '.join(map(str, allowed))} "
                    f"({explained.platoon} rolls no die), got {die!r}"
                )
        if explained.roll is None:
            values.append(None)
            continue
        value = explained.value(die)
        values.append(value)
        totals[explained.roll] += value
    return values, totals["attack"], totals["defence"]


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
    """Settle one battle by the dice (CA-1, CA-2 to CA-20), with the deciding clause of
    each step.

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
    policy = _policy(policy)
    leadership = _leadership_check(leadership)
    steps, sides = [], {}
    dice = {"attacker": attacker_dice, "defender": defender_dice}
    for role in ROLES:
        sides[role] = _totals(battle, role, dice[role])
        steps.append(Step("CA-2", f"{role} attack {sides[role][1]}, defence {sides[role][2]}"))
    damage, hits, outcomes = {}, {}, {}
    assignments = {"attacker": attacker_hits, "defender": defender_hits}
    for role in ROLES:
        enemy = _other(role)
        damage[role] = sides[role][1] - sides[enemy][2]
        steps.append(
            Step(
                "CA-12",
                f"{role} Battle Damage {sides[role][1]} - {sides[enemy][2]} = {damage[role]}",
            )
        )
    for role in ROLES:
        hits[role] = hits_from_damage(damage[_other(role)])
        clause = "CA-13" if damage[_other(role)] >= 0 else "CA-C3"
        plural = "" if hits[role] == 1 else "s"
        steps.append(Step(clause, f"{role} takes {hits[role]} hit{plural}"))
        platoons = battle.side(role).platoons
        capacity = sum(p.steps_left for p in platoons)
        chosen = assignments[role]
        if chosen is None and hits[role] <= capacity:
            chosen = policy(platoons, hits[role])
        outcomes[role] = assign_hits(platoons, hits[role], chosen)
        if outcomes[role].routed:
            steps.append(Step("CA-16", f"{role} cannot assign {hits[role]} hits: routed"))
        elif hits[role]:
            states = ", ".join(f"{p}" for p in outcomes[role].platoons)
            steps.append(Step("CA-14", f"{role} platoons now: {states}"))
    order = (damage["attacker"] > damage["defender"]) - (damage["attacker"] < damage["defender"])
    found = verdict(outcomes["attacker"], outcomes["defender"], order, garrison=battle.garrison)
    steps.append(Step(found.clause, f"victor: {found.victor or 'none'} ({found.reason})"))
    passed = None
    if found.checker and leadership_roll is not None:
        passed = leadership.passes(leadership_roll)
        rolled = "" if isinstance(leadership_roll, bool) else f"rolled {sum(leadership_roll)}, "
        verdict_text = "passed" if passed else "failed"
        steps.append(Step("CA-C5", f"{found.checker} leadership check: {rolled}{verdict_text}"))
    elif found.checker:
        steps.append(Step(found.clause, f"{found.checker} must check leadership or withdraw"))
    fates = _fates(found, outcomes, passed, battle.garrison)
    if found.victor:
        steps.append(Step("CA-19", "either side may now withdraw voluntarily"))
    results = {
        role: SideResult(
            tuple(sides[role][0]),
            sides[role][1],
            sides[role][2],
            damage[role],
            hits[role],
            outcomes[role],
            fates[role],
        )
        for role in ROLES
    }
    return BattleResult(results["attacker"], results["defender"], found, passed, tuple(steps))


# Exact odds: integer counts of the dice, convolved; Rationals at the edge.


def _damage_counts(
    rolls: Mapping[str, Sequence[RollExplanation]], role: str
) -> tuple[int, list[int], int]:
    """CA-12: counts of a side's Battle Damage, its attack less the enemy's defence:
    (lowest Battle Damage, counts from it up, number of dice rolled)."""
    faces = [
        tuple(sign * face for face in explained.faces)
        for who, roll, sign in ((role, "attack", 1), (_other(role), "defence", -1))
        for explained in rolls[who]
        if explained.roll == roll
    ]
    return *sum_counts(faces), len(faces)


def _explained(battle: Battle) -> dict[str, list[RollExplanation]]:
    return {
        role: [explain_roll(battle, role, i) for i in range(len(battle.side(role).platoons))]
        for role in ROLES
    }


def _hits_taken(low: int, counts: Sequence[int], dice: int) -> dict[int, Rational]:
    """CA-13: the hits that a Battle Damage of these counts (over 6**dice rolls) inflicts."""
    taken: Counter[int] = Counter()
    for i, ways in enumerate(counts):
        taken[hits_from_damage(low + i)] += ways
    return {h: Rational(w, 6**dice) for h, w in sorted(taken.items()) if w}


def hits_odds(battle: Battle) -> dict[str, dict[int, Rational]]:
    """CA-12, CA-13: the exact chance of each number of hits each side takes, and nothing
    more (`battle_odds` goes on to who wins).

    ```python
    from rulesref.campaign import Battle, Platoon, Side, hits_odds

    battle = Battle(Side([Platoon("artillery")] * 2), Side([Platoon()]))
    print(hits_odds(battle)["defender"])
    #> {0: 3/8, 1: 125/216, 2: 5/108}
    ```
    """
    rolls = _explained(instance_of("battle", battle, Battle, "a Battle"))
    return {role: _hits_taken(*_damage_counts(rolls, _other(role))) for role in ROLES}


@dataclass(frozen=True)
class BattleOdds:
    """The exact odds of one battle, before any die is rolled (for each role)."""

    battle_damage: dict[str, dict[int, Rational]]  # a side's Battle Damage (CA-12)
    hits: dict[str, dict[int, Rational]]  # hits a side takes (CA-13)
    routed: dict[str, Rational]  # CA-16
    victor: dict[str | None, Rational]
    must_check: dict[str, Rational]  # CA-17, CA-18, CA-20
    fate: dict[str, dict[str, Rational]]  # holds, withdraws, surrenders, falls back, routed
    outcomes: dict[str, Rational]  # each way the battle can end, by deciding clause

    def expected_hits(self, role: str) -> Rational:
        hits = self.hits[one_of("role", role, ROLES)]
        return sum((h * p for h, p in hits.items()), Rational(0))


def battle_odds(
    battle: Battle,
    *,
    policy: Policy = fewest_withdrawals,
    leadership: LeadershipCheck | None = None,
) -> BattleOdds:
    """Exact odds of every outcome of a battle, by convolution of the dice counts.

    Each side's Battle Damage is a sum of independent dice, counted exactly; hits follow
    (CA-13), then `policy` assigns them (CA-15, CA-C9), and `verdict` decides the battle
    (CA-16 to CA-18). Equal withdrawals are split by comparing the two Battle Damage
    numbers in one sweep. `leadership` is the loser's check (CA-C5).

    ```python
    from rulesref.campaign import Battle, Platoon, Side, battle_odds

    battle = Battle(Side([Platoon("artillery")]), Side([Platoon()]))
    odds = battle_odds(battle)
    print(odds.hits["defender"], odds.victor)
    #> {0: 35/36, 1: 1/36} {'attacker': 7/12, 'defender': 5/18, None: 5/36}
    ```
    """
    instance_of("battle", battle, Battle, "a Battle")
    policy = _policy(policy)
    leadership = _leadership_check(leadership)
    rolls = _explained(battle)
    damage = {role: _damage_counts(rolls, role) for role in ROLES}
    # the Battle Damage of a side decides the hits on the other one
    keys: dict[str, list[HitKey]] = {}
    outcome_of: dict[HitKey, HitOutcome] = {}
    by_key: dict[str, Counter[HitKey]] = {}
    for role in ROLES:
        low, counts, _ = damage[_other(role)]
        platoons = battle.side(role).platoons
        capacity = sum(p.steps_left for p in platoons)
        table: dict[int, HitOutcome] = {}
        key_of = []
        tally: Counter[HitKey] = Counter()
        for offset, ways in enumerate(counts):
            h = min(hits_from_damage(low + offset), capacity + 1)
            if h not in table:
                chosen = policy(platoons, h) if h <= capacity else None
                table[h] = _assign(platoons, h, chosen, build=False)
            key = table[h].key
            outcome_of[key] = table[h]
            key_of.append(key)
            tally[key] += ways
        keys[role], by_key[role] = key_of, tally
    # (verdict, routed and fallen-back flags of both sides) -> ways, over 6**(all the dice)
    results: Counter[tuple[Verdict, Flags, Flags]] = Counter()
    flags: dict[Flags, HitOutcome] = {}  # one outcome with those flags

    def decide(ka: HitKey, kd: HitKey, order: int, ways: int) -> None:
        if ways:
            a, d = outcome_of[ka], outcome_of[kd]
            found = verdict(a, d, order, garrison=battle.garrison)
            results[found, ka[:2], kd[:2]] += ways
            flags[ka[:2]], flags[kd[:2]] = a, d

    def tied(ka: HitKey, kd: HitKey) -> bool:
        return not (ka[1] or kd[1]) and ka[2] == kd[2]

    for ka, na in by_key["attacker"].items():
        for kd, nd in by_key["defender"].items():
            if not tied(ka, kd):
                decide(ka, kd, 0, na * nd)
    # equal withdrawals: compare the Battle Damage numbers (CA-18) in one sweep
    low_a, counts_a, _ = damage["attacker"]  # decides the defender's hits
    low_d, counts_d, _ = damage["defender"]  # decides the attacker's hits
    greater: Counter[tuple[HitKey, HitKey]] = Counter()
    equal: Counter[tuple[HitKey, HitKey]] = Counter()
    same_withdrawals: dict[int, list[HitKey]] = {}
    for ka in by_key["attacker"]:
        same_withdrawals.setdefault(ka[2], []).append(ka)
    below: Counter[HitKey] = Counter()  # defender Battle Damage below x, by the attacker's key
    j = 0
    for i, ways in enumerate(counts_a):
        x = low_a + i
        while j < len(counts_d) and low_d + j < x:
            below[keys["attacker"][j]] += counts_d[j]
            j += 1
        kd = keys["defender"][i]
        if kd[1] or not ways:
            continue
        for ka in same_withdrawals.get(kd[2], ()):
            if tied(ka, kd):
                greater[ka, kd] += ways * below[ka]
                if j < len(counts_d) and low_d + j == x and keys["attacker"][j] == ka:
                    equal[ka, kd] += ways * counts_d[j]
    for ka, na in by_key["attacker"].items():
        for kd, nd in by_key["defender"].items():
            if tied(ka, kd):
                decide(ka, kd, 1, greater[ka, kd])
                decide(ka, kd, 0, equal[ka, kd])
                decide(ka, kd, -1, na * nd - greater[ka, kd] - equal[ka, kd])
    return _odds(battle, damage, by_key, flags, results, leadership.pass_chance)


def _odds(
    battle: Battle,
    damage: dict[str, tuple[int, list[int], int]],
    by_key: dict[str, Counter[HitKey]],
    flags: dict[Flags, HitOutcome],
    results: Counter[tuple[Verdict, Flags, Flags]],
    pass_chance: Rational,
) -> BattleOdds:
    total = 6 ** (damage["attacker"][2] + damage["defender"][2])
    battle_damage, hits, routed = {}, {}, {}
    for role in ROLES:
        low, counts, dice = damage[role]
        battle_damage[role] = {low + i: Rational(w, 6**dice) for i, w in enumerate(counts) if w}
        hits[_other(role)] = _hits_taken(low, counts, dice)
        ways = sum(w for key, w in by_key[_other(role)].items() if key[0])
        routed[_other(role)] = Rational(ways, 6 ** damage[role][2])
    routed = {role: routed[role] for role in ROLES}
    hits = {role: hits[role] for role in ROLES}
    victor: Counter[str | None] = Counter({"attacker": 0, "defender": 0, None: 0})
    must_check: Counter[str] = Counter({"attacker": 0, "defender": 0})
    fate = {role: Counter(dict.fromkeys(FATES, 0)) for role in ROLES}
    outcomes: Counter[str] = Counter()
    for (found, ka, kd), ways in results.items():
        chance = Rational(ways, total)
        victor[found.victor] += chance
        sides = {"attacker": flags[ka], "defender": flags[kd]}
        branches: list[tuple[bool | None, Rational]] = [(None, chance)]
        if found.checker:
            must_check[found.checker] += chance
            branches = [(True, chance * pass_chance), (False, chance * (1 - pass_chance))]
        for passed, part in branches:
            fates = _fates(found, sides, passed, battle.garrison)
            for role in ROLES:
                fate[role][fates[role]] += part
            if found.victor and found.loser:  # a verdict names both or neither
                loser = found.loser
                label = f"{found.victor} wins, {loser} {fates[loser]} ({found.clause})"
            else:
                label = f"no victor ({found.clause})"
            outcomes[label] += part
    return BattleOdds(
        battle_damage,
        hits,
        routed,
        dict(victor),
        dict(must_check),
        {role: dict(fate[role]) for role in ROLES},
        dict(sorted(outcomes.items(), key=lambda item: -item[1])),
    )


# Siege (CA-20, CA-21) and Mission HQ (CA-22 to CA-24): campaign state.


def garrison_tests_for_surrender(platoons: Sequence[Platoon]) -> bool:
    """CA-20: a defeated garrison tests leadership for surrender only if every platoon it
    still has is FUBAR (CA-C14: withdrawn ones are gone and do not count).

    ```python
    from rulesref.campaign import Platoon, garrison_tests_for_surrender

    print(garrison_tests_for_surrender([Platoon(state="fubar"), Platoon(state="withdrawn")]))
    #> True
    print(garrison_tests_for_surrender([Platoon(state="fubar"), Platoon(state="damaged")]))
    #> False
    ```
    """
    left = [p for p in sequence_of("platoons", platoons, Platoon) if p.in_combat]
    return bool(left) and all(p.state == "fubar" for p in left)


@dataclass(frozen=True)
class Garrison:
    """A garrisoned location: its platoons, its supply value, and the points banked."""

    platoons: tuple[Platoon, ...]
    supply_value: int = 0
    banked: int = 0

    def __post_init__(self) -> None:
        platoons = sequence_of("platoons", self.platoons, Platoon, low=1, high=MAX_PLATOONS)
        object.__setattr__(self, "platoons", platoons)
        whole_number("supply_value", self.supply_value, 0, 100)
        whole_number("banked", self.banked, 0, 10**6)


def garrison_turn(garrison: Garrison, repairs: Sequence[int] = (), *, cost: int = 1) -> Garrison:
    """CA-21: a turn of a garrison: bank the location's supply points, then spend `cost`
    points (CA-C15: one) per step repaired; `repairs` lists the platoon repaired by each
    step. Withdrawn platoons have left and cannot be repaired; unspent points carry over.

    ```python
    from rulesref.campaign import Garrison, Platoon, garrison_turn

    fort = Garrison((Platoon(state="fubar"), Platoon(state="damaged")), supply_value=1)
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
        if platoon.state in ("fresh", "withdrawn"):
            raise RulesError(
                f"repair of platoon {index} must be of a damaged or FUBAR one, got {platoon.state}"
            )
        if banked < cost:
            raise RulesError(f"repairs must be paid for: {cost} points needed, {banked} banked")
        banked -= cost
        platoons[index] = replace(platoon, state=STATES[STATES.index(platoon.state) - 1])
    return Garrison(tuple(platoons), garrison.supply_value, banked)


def mission_hq(*, state: str = "fresh", supplied: bool = True) -> tuple[Platoon, Platoon]:
    """CA-22: a Mission HQ caught in combat fights as two Command platoons.

    ```python
    from rulesref.campaign import mission_hq

    print(", ".join(str(p) for p in mission_hq()))
    #> HQ 1, HQ 2
    ```
    """
    first, second = (Platoon("command", state, supplied, f"HQ {n}") for n in (1, 2))
    return first, second


HQ_ACTIVITY = ("quiet", "moved", "fought", "surrendered")


def army_supply(activity: Sequence[str]) -> tuple[bool, ...]:
    """CA-23, CA-24: whether the army is in supply at the end of each turn, from what its
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
        one_of("activity", turn, HQ_ACTIVITY)
        lost = lost or turn == "surrendered"
        result.append(not lost and turn == "quiet")
    return tuple(result)


def hq_surrenders(result: BattleResult, role: str) -> bool:
    """CA-C17: a Mission HQ is forced to surrender when its side loses a battle and must
    leave the hex: routed, fallen back, or failed its check.
    """
    instance_of("result", result, BattleResult, "a BattleResult")
    return result.side(role).fate not in (HOLDS, CHECKS)


@dataclass(frozen=True)
class AfterSurrender:
    game_over: bool
    army_supplied: bool
    clause: str = "CA-24"


def after_hq_surrender(choice: str) -> AfterSurrender:
    """CA-24: after its HQ surrenders, a side may concede, or fight on without supply.

    ```python
    from rulesref.campaign import after_hq_surrender

    print(after_hq_surrender("fight on"))
    #> AfterSurrender(game_over=False, army_supplied=False, clause='CA-24')
    ```
    """
    one_of("choice", choice, ("concede", "fight on"))
    return AfterSurrender(game_over=choice == "concede", army_supplied=False)


def out_of_supply(platoons: Sequence[Platoon]) -> tuple[Platoon, ...]:
    """The platoons of an army cut off from supply (CA-23, CA-24), for CA-11.

    ```python
    from rulesref.campaign import Platoon, out_of_supply

    print([p.supplied for p in out_of_supply([Platoon(), Platoon("artillery")])])
    #> [False, False]
    ```
    """
    return tuple(replace(p, supplied=False) for p in sequence_of("platoons", platoons, Platoon))


def may_withdraw_voluntarily(result: BattleResult) -> bool:
    """CA-19: once a victor is known, either side may withdraw of its own accord."""
    return instance_of("result", result, BattleResult, "a BattleResult").victor is not None
