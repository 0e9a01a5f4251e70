"""Campaign combat settled with one d6 per platoon: clauses CA-1 to CA-24.

Source: a campaign-combat note "by Dylan, October 2001" (our copy:
`001_a56d7721d8c2cbcd.txt`). The site restates each clause under its id; the code
below implements each in one place. Readings where the note is silent are the
clarifications CA-C1 and on; the optional ones are fields of `Readings`. The exact
odds of a battle are computed in `rulesref.odds.battle` from these rules.

```python
from rulesref.campaign import Battle, Platoon, Side, resolve_battle

battle = Battle(Side([Platoon()] * 3), Side([Platoon()] * 3))  # 3 v 3 infantry, in the open
print(resolve_battle(battle, [6, 5, 4], [2, 2, 1]).victor)
#> attacker
```
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from rulesref.dice import D6, probability_at_most
from rulesref.errors import (
    RulesError,
    Word,
    chance,
    dice_roll,
    instance_of,
    readings_of,
    sequence_of,
    text,
    whole_number,
    word_of,
    yes_or_no,
)
from rulesref.exact import Rational
from rulesref.moved import moved_from

__all__ = [
    "Kind",
    "State",
    "Terrain",
    "Roll",
    "Role",
    "Fate",
    "HQActivity",
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
    "Policy",
    "fewest_withdrawals",
    "most_withdrawals",
    "hit_order",
    "hits_from_damage",
    "AfterHits",
    "assign_hits",
    "LeadershipCheck",
    "Verdict",
    "verdict",
    "FATES",
    "fates",
    "Step",
    "SideResult",
    "BattleResult",
    "resolve_battle",
    "garrison_tests_for_surrender",
    "Garrison",
    "garrison_turn",
    "mission_hq",
    "HQ_ACTIVITY",
    "army_supply",
    "hq_surrenders",
    "AfterSurrender",
    "SurrenderChoice",
    "after_hq_surrender",
    "out_of_supply",
    "may_withdraw_voluntarily",
]


class Kind(Word):
    """What a platoon is (CA-3, CA-4, CA-22)."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"
    COMMAND = "command"


class State(Word):
    """The damage scale, best first (CA-14, CA-C1)."""

    FRESH = "fresh"
    DAMAGED = "damaged"
    FUBAR = "fubar"
    WITHDRAWN = "withdrawn"


class Terrain(Word):
    """Where the battle is fought (CA-3, CA-7, CA-10)."""

    OPEN = "open"
    FOREST = "forest"
    WOODS = "woods"
    MOUNTAIN = "mountain"


class Roll(Word):
    """What a platoon's die counts for (CA-2)."""

    ATTACK = "attack"
    DEFENCE = "defence"


class Role(Word):
    """A side's part in the battle."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def enemy(self) -> "Role":
        return Role.DEFENDER if self is Role.ATTACKER else Role.ATTACKER


class Fate(Word):
    """What becomes of a side after a battle (CA-16 to CA-20, CA-C8); `MUST_CHECK` while
    its leadership check is still to be rolled."""

    HOLDS = "holds"
    WITHDRAWS = "withdraws"
    SURRENDERS = "surrenders"
    FALLS_BACK = "falls back"
    ROUTED = "routed"
    MUST_CHECK = "must check"


class HQActivity(Word):
    """What a Mission HQ did in a turn (CA-23, CA-24)."""

    QUIET = "quiet"
    MOVED = "moved"
    FOUGHT = "fought"
    SURRENDERED = "surrendered"


KINDS = tuple(Kind)
STATES = tuple(State)
TERRAINS = tuple(Terrain)
ROLLS = tuple(Roll)
ROLES = tuple(Role)
FATES = tuple(fate for fate in Fate if fate is not Fate.MUST_CHECK)  # once every die is rolled
HQ_ACTIVITY = tuple(HQActivity)
STEPS_LEFT = {state: len(STATES) - 1 - n for n, state in enumerate(STATES)}
MAX_PLATOONS = 1000
MAX_BATTLE_DAMAGE = 2 * MAX_PLATOONS * 10  # beyond any sum of modified d6 rolls
MAX_CHECK_LEADERSHIP = 12  # the most a 2D6 leadership check can be taken against (CA-C5)


@dataclass(frozen=True, init=False)
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

    kind: Kind
    state: State
    supplied: bool
    name: str

    def __init__(
        self,
        kind: Kind | str = Kind.INFANTRY,
        state: State | str = State.FRESH,
        supplied: bool = True,
        name: str = "",
    ) -> None:
        object.__setattr__(self, "kind", word_of("kind", kind, Kind))
        object.__setattr__(self, "state", word_of("state", state, State))
        object.__setattr__(self, "supplied", yes_or_no("supplied", supplied))
        object.__setattr__(self, "name", text("name", name, empty=True))

    @property
    def steps_left(self) -> int:
        return STEPS_LEFT[self.state]

    @property
    def in_combat(self) -> bool:
        """A platoon withdrawn before the battle takes no part in it (CA-C1)."""
        return self.state != State.WITHDRAWN

    def hit(self, hits: int = 1) -> "Platoon":
        """CA-14: each hit moves the platoon one step down the damage scale."""
        whole_number("hits", hits, 0, self.steps_left)
        return replace(self, state=STATES[STATES.index(self.state) + hits])

    def __str__(self) -> str:
        label = self.name or self.kind
        notes: list[str] = [] if self.state == State.FRESH else [self.state]
        notes += [] if self.supplied else ["out of supply"]
        return f"{label} ({', '.join(notes)})" if notes else label


@dataclass(frozen=True, init=False)
class Side:
    """The platoons one player brings to a battle and what each rolls for (CA-2).

    `declarations` holds "attack" or "defence" for each platoon, or None (no die) for a
    platoon that may not roll: a withdrawn one (CA-C1) or barred cavalry (CA-10). Left
    out, every platoon rolls for its side's role: attack for the attacker, defence for
    the defender, and those that may not roll roll nothing.
    """

    platoons: tuple[Platoon, ...]
    declarations: tuple[Roll | None, ...] | None
    fortified: bool
    name: str

    def __init__(
        self,
        platoons: Sequence[Platoon],
        declarations: Sequence[Roll | str | None] | None = None,
        fortified: bool = False,
        name: str = "",
    ) -> None:
        platoons = sequence_of("platoons", platoons, Platoon, low=1, high=MAX_PLATOONS)
        if not any(p.in_combat for p in platoons):
            raise RulesError("platoons must include one that is not withdrawn, got none")
        object.__setattr__(self, "platoons", platoons)
        object.__setattr__(self, "declarations", _declarations(declarations, len(platoons)))
        object.__setattr__(self, "fortified", yes_or_no("fortified", fortified))
        object.__setattr__(self, "name", text("name", name, empty=True))


def _declarations(
    declarations: Sequence[Roll | str | None] | None, platoons: int
) -> tuple[Roll | None, ...] | None:
    """A side's declarations, checked: one entry per platoon, each a Roll or None."""
    if declarations is None:
        return None
    entries = sequence_of(
        "declarations", declarations, (str, type(None)), noun="'attack', 'defence' or None"
    )
    if len(entries) != platoons:
        raise RulesError(
            f"declarations must give one entry per platoon ({platoons}), got {len(entries)}"
        )
    return tuple(
        None if entry is None else word_of("declaration", entry, Roll) for entry in entries
    )


@dataclass(frozen=True)
class Readings:
    """The optional readings of the clarifications; the defaults are the site's.

    - `fubar_modified` (CA-C2): the other modifiers apply to a FUBAR platoon's 1.
    - `clamp_rolls` (CA-C4): a modified roll below 0 counts as 0 (default: not clamped).
    - `woods_is_forest` (CA-C10): forest and woods are one terrain.
    - `mountain_both_sides` (CA-C11): both armies are in the mountain hex.
    - `defence_minus_attack` (CA-C18): a side's Battle Damage is the enemy's defence minus
      its own attack, the note's words taken literally (default: attack minus defence).
    """

    fubar_modified: bool = True
    clamp_rolls: bool = False
    woods_is_forest: bool = True
    mountain_both_sides: bool = True
    defence_minus_attack: bool = False

    def __post_init__(self) -> None:
        readings_of(self)


@dataclass(frozen=True, init=False)
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
    terrain: Terrain
    garrison: bool
    readings: Readings
    # what each platoon rolls for, by role: worked out and checked once, on creation
    _declared: dict[Role, tuple[Roll | None, ...]] = field(repr=False, compare=False)

    def __init__(
        self,
        attacker: Side,
        defender: Side,
        terrain: Terrain | str = Terrain.OPEN,
        garrison: bool = False,
        readings: Readings = Readings(),
    ) -> None:
        object.__setattr__(self, "attacker", instance_of("attacker", attacker, Side, "a Side"))
        object.__setattr__(self, "defender", instance_of("defender", defender, Side, "a Side"))
        object.__setattr__(self, "terrain", word_of("terrain", terrain, Terrain))
        object.__setattr__(self, "garrison", yes_or_no("garrison", garrison))
        object.__setattr__(
            self, "readings", instance_of("readings", readings, Readings, "a Readings")
        )
        object.__setattr__(self, "_declared", {role: _declare(self, role) for role in Role})

    def side(self, role: Role | str) -> Side:
        return self.attacker if word_of("role", role, Role) is Role.ATTACKER else self.defender

    def in_terrain(self, *terrains: Terrain | str) -> bool:
        """Whether the battle is in one of `terrains`, forest and woods alike (CA-C10)."""
        alike = {Terrain.FOREST, Terrain.WOODS} if self.readings.woods_is_forest else set()
        here = {self.terrain} | (alike if self.terrain in alike else set())
        return bool(here & set(terrains))

    def declarations(self, role: Role | str) -> tuple[Roll | None, ...]:
        """CA-2: what each platoon of a side rolls for, checked against CA-10 and CA-C1."""
        return self._declared[word_of("role", role, Role)]


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
    return platoon.kind == Kind.CAVALRY and battle.in_terrain(Terrain.MOUNTAIN, Terrain.WOODS)


def _declare(battle: Battle, role: Role) -> tuple[Roll | None, ...]:
    """CA-2: what each platoon of a side rolls for: as its player declared, checked, or
    by default for its side's role; a platoon that may not roll rolls nothing."""
    side = battle.side(role)
    if side.declarations is None:
        default = Roll.ATTACK if role is Role.ATTACKER else Roll.DEFENCE
        return tuple(None if _no_die(p, battle) else default for p in side.platoons)
    return tuple(
        _declared_roll(battle, role, index, platoon, entry)
        for index, (platoon, entry) in enumerate(zip(side.platoons, side.declarations, strict=True))
    )


def _no_die(platoon: Platoon, battle: Battle) -> str:
    """Why `platoon` rolls no die in this battle (CA-C1, CA-10), "" if it rolls one."""
    if not platoon.in_combat:
        return "is withdrawn"
    if cavalry_barred(platoon, battle):
        return f"is cavalry in {battle.terrain}"
    return ""


def _declared_roll(
    battle: Battle, role: Role, index: int, platoon: Platoon, entry: Roll | None
) -> Roll | None:
    """CA-2, CA-10, CA-C1: a player's declaration for one platoon, checked."""
    barred = _no_die(platoon, battle)
    if barred and entry is not None:
        clause = " (CA-10)" if platoon.in_combat else ""
        raise RulesError(
            f"{role} platoon {index} ({platoon}) {barred} and may not roll{clause}, "
            f"got {entry.value!r}"
        )
    if not barred and entry is None:  # CA-2: every other platoon rolls its die
        raise RulesError(
            f"{role} platoon {index} ({platoon}) must roll for attack or defence "
            "(only withdrawn platoons and barred cavalry roll nothing), got None"
        )
    return entry


@dataclass(frozen=True)
class Term:
    """One modifier of a roll: its value and the clause that gives it."""

    clause: str
    reason: str
    value: int

    def __str__(self) -> str:
        return f"{self.value:+d} {self.reason} ({self.clause})"


# One function per modifier clause: (platoon, what it rolls for, its role, the battle).


def _ca3_artillery(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-3: artillery +2 on every combat roll, but -1 instead in forest."""
    if platoon.kind != Kind.ARTILLERY:
        return None
    if battle.in_terrain(Terrain.FOREST):
        return Term("CA-3", "artillery, forest", -1)
    return Term("CA-3", "artillery", +2)


def _ca4_cavalry(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-4: cavalry +1 when it rolls for attack."""
    attacking = platoon.kind == Kind.CAVALRY and roll == Roll.ATTACK
    return Term("CA-4", "cavalry", +1) if attacking else None


def _ca5_defending(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-5: the defending army +1 on its defence rolls."""
    defending = role == Role.DEFENDER and roll == Roll.DEFENCE
    return Term("CA-5", "defender", +1) if defending else None


def _ca6_fortified(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-6: a fortified army +1 on its defence rolls."""
    fortified = battle.side(role).fortified
    return Term("CA-6", "fortified", +1) if fortified and roll == Roll.DEFENCE else None


def _ca7_mountain(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-7: an army in a mountain hex +1 on its defence rolls (CA-C11: both armies)."""
    in_hex = battle.readings.mountain_both_sides or role == Role.DEFENDER
    if battle.terrain == Terrain.MOUNTAIN and in_hex and roll == Roll.DEFENCE:
        return Term("CA-7", "mountain", +1)
    return None


def _ca8_damaged(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-8: a Damaged platoon -1 on its rolls (not a FUBAR one: CA-C1)."""
    return Term("CA-8", "Damaged", -1) if platoon.state == State.DAMAGED else None


def _ca11_supply(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-11: a platoon out of supply -1 on all its rolls."""
    return None if platoon.supplied else Term("CA-11", "no supply", -1)


MODIFIERS: tuple[Callable[[Platoon, Roll, Role, Battle], Term | None], ...] = (
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
    roll: Roll | None
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


def explain_roll(battle: Battle, role: Role | str, index: int) -> RollExplanation:
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
    role = word_of("role", role, Role)
    side = instance_of("battle", battle, Battle, "a Battle").side(role)
    whole_number("index", index, 0, len(side.platoons) - 1)
    platoon, roll = side.platoons[index], battle.declarations(role)[index]
    fubar = platoon.state == State.FUBAR
    terms: tuple[Term, ...] = ()
    if roll is not None and (not fubar or battle.readings.fubar_modified):
        terms = tuple(t for rule in MODIFIERS if (t := rule(platoon, roll, role, battle)))
    fixed = 1 if fubar else None
    return RollExplanation(platoon, roll, terms, fixed, battle.readings.clamp_rolls)


# Hits (CA-13 to CA-15) and the policies that assign them.

Policy = Callable[[Sequence[Platoon], int], tuple[int, ...]]


def checked_policy(policy: object) -> Policy:
    """`policy` if it can assign hits (a function like `fewest_withdrawals`), else raise."""
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
    return _first_hits(_fewest_first(platoons), len(platoons), hits)


def _fewest_first(platoons: Sequence[Platoon]) -> list[int]:
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
    return _first_hits(_weakest_first(platoons), len(platoons), hits)


def _weakest_first(platoons: Sequence[Platoon]) -> list[int]:
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
    fewest_withdrawals: _fewest_first,
    most_withdrawals: _weakest_first,
}


def hit_order(policy: Policy, platoons: Sequence[Platoon]) -> list[int] | None:
    """CA-15: the platoon that takes each hit in turn under `policy`, for a policy that
    gives its hits one at a time in a fixed order (one more hit leaves the others where
    they were), as both of ours do; None for a policy of the caller's own.

    ```python
    from rulesref.campaign import Platoon, fewest_withdrawals, hit_order

    print(hit_order(fewest_withdrawals, [Platoon(), Platoon(state="fubar")]))
    #> [0, 0, 0, 1]
    ```
    """
    order = HIT_ORDERS.get(checked_policy(policy))
    if order is None:
        return None
    return order(sequence_of("platoons", platoons, Platoon, low=1, high=MAX_PLATOONS))


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


@dataclass(frozen=True)
class AfterHits:
    """A side after its hits are assigned (CA-14 to CA-16): what the verdict reads."""

    platoons: tuple[Platoon, ...]  # the side's platoons afterwards
    assignment: tuple[int, ...]
    withdrawn: int  # platoons of the battle withdrawn by hits (CA-14, CA-C13)
    routed: bool  # could not assign every hit (CA-16)
    fell_back: bool  # no platoon left in the battle (CA-C8)
    all_fubar: bool  # every platoon left is FUBAR (CA-20)


def assign_hits(
    platoons: Sequence[Platoon], hits: int, assignment: Sequence[int] | None = None
) -> AfterHits:
    """CA-14 to CA-16: apply `hits` to a side's platoons as `assignment` says (hits per
    platoon, adding up to `hits`). A side that cannot take them all is routed (CA-16):
    every platoon withdraws, and no assignment is needed.

    ```python
    from rulesref.campaign import Platoon, assign_hits

    after = assign_hits([Platoon(), Platoon(state="fubar")], 2, [1, 1])
    print([p.state for p in after.platoons], after.withdrawn, after.routed)
    #> ['damaged', 'withdrawn'] 1 False
    ```
    """
    platoons = sequence_of("platoons", platoons, Platoon, low=1, high=MAX_PLATOONS)
    whole_number("hits", hits, 0, 10 * MAX_PLATOONS)
    steps = [p.steps_left for p in platoons]
    given = _assignment(platoons, hits, assignment)
    left = [room - taken for room, taken in zip(steps, given, strict=True)]
    after = tuple(p.hit(n) for p, n in zip(platoons, given, strict=True))
    return _after(after, given, left, steps, routed=hits > sum(steps))


def _assignment(
    platoons: Sequence[Platoon], hits: int, assignment: Sequence[int] | None
) -> tuple[int, ...]:
    """CA-15, CA-16: a player's assignment of `hits`, checked (all a routed side can take)."""
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
        return steps if routed else (0,) * len(steps)
    given = sequence_of("assignment", assignment, int, high=MAX_PLATOONS)
    if len(given) != len(platoons):
        raise RulesError(
            f"assignment must give one number per platoon ({len(platoons)}), got {assignment!r}"
        )
    for index, (taken, room) in enumerate(zip(given, steps, strict=True)):
        whole_number(f"hits on platoon {index} ({platoons[index]})", taken, 0, room)
    if sum(given) != hits:
        raise RulesError(f"assignment must add up to {hits} hits, got {sum(given)}")
    return given


def _after(
    platoons: tuple[Platoon, ...],
    assignment: tuple[int, ...],
    left: Sequence[int],
    steps: Sequence[int],
    *,
    routed: bool,
) -> AfterHits:
    """CA-14, CA-C8, CA-C13, CA-20: what the verdict reads of a side after its hits."""
    withdrawn = sum(1 for room, rest in zip(steps, left, strict=True) if room and not rest)
    remaining = [rest for rest in left if rest]
    all_fubar = bool(remaining) and all(rest == 1 for rest in remaining)
    return AfterHits(platoons, assignment, withdrawn, routed, not remaining, all_fubar)


@dataclass(frozen=True)
class LeadershipCheck:
    """The leadership check of CA-17 and CA-18, which the note does not define (CA-C5).

    By default 2D6 at or under a Leadership of 7 passes (7/12); `probability` replaces
    the test by a given probability of passing.

    ```python
    from sympy import Rational

    from rulesref.campaign import LeadershipCheck

    print(LeadershipCheck().pass_probability, LeadershipCheck(leadership=9).pass_probability)
    #> 7/12 5/6
    print(LeadershipCheck(probability=Rational(1, 2)).pass_probability)
    #> 1/2
    ```
    """

    leadership: int = 7
    probability: Rational | None = None

    def __post_init__(self) -> None:
        whole_number("leadership", self.leadership, 0, MAX_CHECK_LEADERSHIP)
        if self.probability is not None:
            object.__setattr__(self, "probability", chance("probability", self.probability))

    @property
    def pass_probability(self) -> Rational:
        if self.probability is not None:
            return self.probability
        return probability_at_most(self.leadership, dice=2)

    def passes(self, roll: bool | Sequence[int]) -> bool:
        """A rolled check: two dice against the Leadership, or simply passed or not."""
        if isinstance(roll, bool):
            return roll
        if roll is None:
            raise RulesError("roll must be two dice, or True or False, got None")
        if self.probability is not None:
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
class Verdict:
    victor: Role | None
    loser: Role | None
    checker: Role | None  # the side that must check leadership
    clause: str
    reason: str = field(compare=False)


def verdict(
    attacker: AfterHits, defender: AfterHits, damage_order: int, *, garrison: bool = False
) -> Verdict:
    """Who won and who must check leadership, from both sides' hits (CA-16 to CA-18).

    `damage_order` is the sign of the attacker's Battle Damage minus the defender's;
    it matters only when the withdrawals are equal (CA-18).
    """
    after = {Role.ATTACKER: attacker, Role.DEFENDER: defender}
    for role, side in after.items():
        instance_of(role, side, AfterHits, "an AfterHits, from assign_hits")
    whole_number("damage_order", damage_order, -1, 1)
    yes_or_no("garrison", garrison)
    gone = [role for role in Role if after[role].fell_back]
    if len(gone) == 2:
        return Verdict(None, None, None, "CA-C7", "both sides have fallen back: no victor")
    if gone:
        loser = gone[0]
        how = "is routed" if after[loser].routed else "has no platoon left"
        clause = "CA-16" if after[loser].routed else "CA-C8"
        return Verdict(loser.enemy, loser, None, clause, f"the {loser} {how}")
    if attacker.withdrawn != defender.withdrawn:
        loser = Role.ATTACKER if attacker.withdrawn > defender.withdrawn else Role.DEFENDER
        clause = "CA-17"
        reason = f"withdrawals {attacker.withdrawn} to {defender.withdrawn}"
    elif damage_order:
        loser = Role.ATTACKER if damage_order < 0 else Role.DEFENDER
        clause = "CA-18"
        reason = f"withdrawals equal ({attacker.withdrawn}), the {loser.enemy} did more damage"
    else:
        return Verdict(None, None, None, "CA-C6", "equal withdrawals and equal Battle Damage")
    checker: Role | None = loser
    if garrison and loser is Role.DEFENDER and not defender.all_fubar:
        checker, reason = None, reason + "; the garrison is not all FUBAR, so no test (CA-20)"
    return Verdict(loser.enemy, loser, checker, clause, reason)


def fates(
    found: Verdict, after: Mapping[Role, AfterHits], passed: bool | None, *, garrison: bool
) -> dict[Role, Fate]:
    """What becomes of each side, from the verdict and the loser's check (CA-16 to CA-20,
    CA-C8); `passed` is None while the check is not rolled.

    ```python
    from rulesref.campaign import Platoon, assign_hits, fates, verdict

    attacker, defender = assign_hits([Platoon()], 0), assign_hits([Platoon()], 1, [1])
    found = verdict(attacker, defender, 1)
    print(fates(found, {"attacker": attacker, "defender": defender}, False, garrison=True))
    #> {'attacker': 'holds', 'defender': 'surrenders'}
    ```
    """
    instance_of("found", found, Verdict, "a Verdict, from verdict")
    for role in Role:
        instance_of(f"after[{role!r}]", after.get(role), AfterHits, "an AfterHits")
    if passed is not None:
        yes_or_no("passed", passed)
    yes_or_no("garrison", garrison)
    return {role: _fate(role, found, after[role], passed, garrison) for role in Role}


def _fate(
    role: Role, found: Verdict, after: AfterHits, passed: bool | None, garrison: bool
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
    after_hits: AfterHits
    fate: Fate


@dataclass(frozen=True)
class BattleResult:
    attacker: SideResult
    defender: SideResult
    verdict: Verdict
    check_passed: bool | None
    steps: tuple[Step, ...]

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
    platoons = battle.side(role).platoons
    if (
        isinstance(dice, str | bytes)
        or not isinstance(dice, Sequence)
        or len(dice) != len(platoons)
    ):
        raise RulesError(
            f"{role} dice must give one entry per platoon ({len(platoons)}), got {dice!r}"
        )
    values = tuple(
        _value(explain_roll(battle, role, i), role, i, die) for i, die in enumerate(dice)
    )
    declared = battle.declarations(role)
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
    policy = checked_policy(policy)
    leadership = checked_leadership(leadership)
    dice = {Role.ATTACKER: attacker_dice, Role.DEFENDER: defender_dice}
    rolled = {role: _totals(battle, role, dice[role]) for role in Role}
    sign = -1 if battle.readings.defence_minus_attack else 1  # CA-C18
    damage = {role: sign * (rolled[role].attack - rolled[role.enemy].defence) for role in Role}
    steps = _damage_steps(rolled, damage, sign)
    assignments = {Role.ATTACKER: attacker_hits, Role.DEFENDER: defender_hits}
    hits = {role: hits_from_damage(damage[role.enemy]) for role in Role}
    after = {}
    for role in Role:
        after[role] = _take_hits(battle.side(role).platoons, hits[role], assignments[role], policy)
        steps += _hit_steps(role, damage[role.enemy], hits[role], after[role])
    attack, defence = damage[Role.ATTACKER], damage[Role.DEFENDER]
    order = (attack > defence) - (attack < defence)
    found = verdict(after[Role.ATTACKER], after[Role.DEFENDER], order, garrison=battle.garrison)
    steps.append(Step(found.clause, f"victor: {found.victor or 'none'} ({found.reason})"))
    passed = _check(found, leadership, leadership_roll, steps)
    fate = fates(found, after, passed, garrison=battle.garrison)
    if found.victor:
        steps.append(Step("CA-19", "either side may now withdraw voluntarily"))
    results = {
        role: SideResult(*rolled[role], damage[role], hits[role], after[role], fate[role])
        for role in Role
    }
    return BattleResult(results[Role.ATTACKER], results[Role.DEFENDER], found, passed, tuple(steps))


def _damage_steps(
    rolled: Mapping[Role, _Rolled], damage: Mapping[Role, int], sign: int
) -> list[Step]:
    """The steps of the totals (CA-2) and the Battle Damage (CA-12, CA-C18) of both sides."""
    steps = [
        Step("CA-2", f"{r} attack {rolled[r].attack}, defence {rolled[r].defence}") for r in Role
    ]
    for r in Role:
        if sign == 1:
            sums = f"{rolled[r].attack} - {rolled[r.enemy].defence} = {damage[r]}"
            steps.append(Step("CA-12", f"{r} Battle Damage {sums}"))
        else:
            sums = f"{rolled[r.enemy].defence} - {rolled[r].attack} = {damage[r]}"
            steps.append(Step("CA-C18", f"{r} Battle Damage {sums}"))
    return steps


def _take_hits(
    platoons: Sequence[Platoon], hits: int, chosen: Sequence[int] | None, policy: Policy
) -> AfterHits:
    """CA-14 to CA-16: the player's assignment, or the policy's if they gave none."""
    if chosen is None and hits <= sum(p.steps_left for p in platoons):
        chosen = policy(platoons, hits)
    return assign_hits(platoons, hits, chosen)


def _hit_steps(role: Role, damage: int, hits: int, after: AfterHits) -> list[Step]:
    """The steps of a side's hits: how many (CA-13), and what they did (CA-14, CA-16)."""
    plural = "" if hits == 1 else "s"
    steps = [Step("CA-13" if damage >= 0 else "CA-C3", f"{role} takes {hits} hit{plural}")]
    if after.routed:
        steps.append(Step("CA-16", f"{role} cannot assign {hits} hits: routed"))
    elif hits:
        states = ", ".join(f"{p}" for p in after.platoons)
        steps.append(Step("CA-14", f"{role} platoons now: {states}"))
    return steps


def _check(
    found: Verdict,
    leadership: LeadershipCheck,
    roll: bool | Sequence[int] | None,
    steps: list[Step],
) -> bool | None:
    """CA-17, CA-18, CA-C5: the loser's check, if it must take one and it was rolled."""
    if not found.checker:
        return None
    if roll is None:
        steps.append(Step(found.clause, f"{found.checker} must check leadership or withdraw"))
        return None
    passed = leadership.passes(roll)
    rolled = "" if isinstance(roll, bool) else f"rolled {sum(roll)}, "
    said = "passed" if passed else "failed"
    steps.append(Step("CA-C5", f"{found.checker} leadership check: {rolled}{said}"))
    return passed


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
    return bool(left) and all(p.state == State.FUBAR for p in left)


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
        if platoon.state in (State.FRESH, State.WITHDRAWN):
            raise RulesError(
                f"repair of platoon {index} must be of a damaged or FUBAR one, got {platoon.state}"
            )
        if banked < cost:
            raise RulesError(f"repairs must be paid for: {cost} points needed, {banked} banked")
        banked -= cost
        platoons[index] = replace(platoon, state=STATES[STATES.index(platoon.state) - 1])
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
    first, second = (Platoon(Kind.COMMAND, state, supplied, f"HQ {n}") for n in (1, 2))
    return first, second


def army_supply(activity: Sequence[HQActivity | str]) -> tuple[bool, ...]:
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


__getattr__ = moved_from(__name__)
