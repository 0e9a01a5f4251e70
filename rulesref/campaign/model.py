"""The campaign's words, limits and records: platoons, sides, battles, and what each platoon
rolls for (CA-2, CA-10, CA-14, CA-C1, CA-C10)."""

from dataclasses import dataclass, field, replace

from rulesref.errors import (
    RulesError,
    checked_by,
    instance_of,
    member_of,
    readings_of,
    sequence_of,
    settle,
    text,
    whole_number,
    word_of,
    yes_or_no,
)
from rulesref.words import Word

__all__ = [
    "Kind",
    "State",
    "Terrain",
    "Roll",
    "Role",
    "Fate",
    "HQActivity",
    "Platoon",
    "Side",
    "Readings",
    "Battle",
    "cavalry_barred",
    "declared_rolls",
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


STEPS_LEFT = {state: len(State) - 1 - n for n, state in enumerate(State)}
MAX_PLATOONS = 1000
MAX_BATTLE_DAMAGE = 2 * MAX_PLATOONS * 10  # beyond any sum of modified d6 rolls
DEFAULT_CHECK_LEADERSHIP = 7  # CA-C5: the Leadership a check is taken against unless given
MAX_CHECK_LEADERSHIP = 12  # the most a 2D6 leadership check can be taken against (CA-C5)


@dataclass(frozen=True)
class Platoon:
    """One platoon: its kind, its place on the damage scale (CA-14, CA-C1), its supply.

    `steps_left` is the number of hits it can still take; the last one withdraws it.
    A word written as text is read by its type: `Kind("artillery")`.

    ```python
    from rulesref.campaign import Kind, Platoon, State

    guns = Platoon(Kind.ARTILLERY, State.DAMAGED)
    print(guns.steps_left, guns.hit().state, guns.hit(2).state)
    #> 2 fubar withdrawn
    ```
    """

    kind: Kind = Kind.INFANTRY
    state: State = State.FRESH
    supplied: bool = True
    name: str = ""

    def __post_init__(self) -> None:
        member_of("kind", self.kind, Kind)
        member_of("state", self.state, State)
        yes_or_no("supplied", self.supplied)
        text("name", self.name, empty=True)

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
        return replace(self, state=list(State)[list(State).index(self.state) + hits])

    def __str__(self) -> str:
        label = self.name or self.kind
        notes: list[str] = [] if self.state == State.FRESH else [self.state]
        notes += [] if self.supplied else ["out of supply"]
        return f"{label} ({', '.join(notes)})" if notes else label


@dataclass(frozen=True)
class Side:
    """The platoons one player brings to a battle and what each rolls for (CA-2).

    `declarations` holds `Roll.ATTACK` or `Roll.DEFENCE` for each platoon, or None (no
    die) for a platoon that may not roll: a withdrawn one (CA-C1) or barred cavalry
    (CA-10). Left out, every platoon rolls for its side's role: attack for the attacker,
    defence for the defender, and those that may not roll roll nothing. Either sequence
    may be a list; it is kept as a tuple.
    """

    platoons: tuple[Platoon, ...]
    declarations: tuple[Roll | None, ...] | None = None
    fortified: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        platoons = sequence_of("platoons", self.platoons, Platoon, low=1, high=MAX_PLATOONS)
        if not any(p.in_combat for p in platoons):
            raise RulesError("platoons must include one that is not withdrawn, got none")
        settle(self, "platoons", platoons)
        if self.declarations is not None:
            settle(self, "declarations", _declarations(self.declarations, len(platoons)))
        yes_or_no("fortified", self.fortified)
        text("name", self.name, empty=True)


def _declarations(declarations: object, platoons: int) -> tuple[Roll | None, ...]:
    """A side's declarations, checked: one entry per platoon, each a Roll or None."""
    entries = sequence_of("declarations", declarations, (str, type(None)), noun="a Roll or None")
    if len(entries) != platoons:
        raise RulesError(
            f"declarations must give one entry per platoon ({platoons}), got {len(entries)}"
        )
    return tuple(
        None if entry is None else member_of("declaration", entry, Roll) for entry in entries
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


@dataclass(frozen=True)
class Battle:
    """A battle between an attacking and a defending side in one hex.

    `garrison=True` makes the defender a garrison (CA-20).

    ```python
    from rulesref.campaign import Battle, Kind, Platoon, Side, Terrain

    battle = Battle(Side([Platoon(Kind.CAVALRY)]), Side([Platoon()]), terrain=Terrain.WOODS)
    print(battle.declarations("attacker"))  # cavalry may not roll in woods (CA-10)
    #> (None,)
    ```
    """

    attacker: Side
    defender: Side
    terrain: Terrain = Terrain.OPEN
    garrison: bool = False
    readings: Readings = Readings()
    # what each platoon rolls for, by role (CA-2): worked out and checked once, on creation
    declared: dict[Role, tuple[Roll | None, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        instance_of("attacker", self.attacker, Side, "a Side")
        instance_of("defender", self.defender, Side, "a Side")
        member_of("terrain", self.terrain, Terrain)
        yes_or_no("garrison", self.garrison)
        instance_of("readings", self.readings, Readings, "a Readings")
        settle(self, "declared", {role: declared_rolls(self, role) for role in Role})

    def side(self, role: Role | str) -> Side:
        return self.sides[word_of("role", role, Role)]

    @property
    def sides(self) -> dict[Role, Side]:
        """Both sides, by role."""
        return {Role.ATTACKER: self.attacker, Role.DEFENDER: self.defender}

    def in_terrain(self, *terrains: Terrain | str) -> bool:
        """Whether the battle is in one of `terrains`, forest and woods alike (CA-C10)."""
        alike = {Terrain.FOREST, Terrain.WOODS} if self.readings.woods_is_forest else set()
        here = {self.terrain} | (alike if self.terrain in alike else set())
        return bool(here & set(terrains))

    def declarations(self, role: Role | str) -> tuple[Roll | None, ...]:
        """CA-2: what each platoon of a side rolls for, checked against CA-10 and CA-C1."""
        return self.declared[word_of("role", role, Role)]


def _cavalry_barred_arguments(platoon: Platoon, battle: Battle) -> None:
    instance_of("platoon", platoon, Platoon, "a Platoon")
    instance_of("battle", battle, Battle, "a Battle")


@checked_by(_cavalry_barred_arguments)
def cavalry_barred(platoon: Platoon, battle: Battle) -> bool:
    """CA-10, CA-C12: cavalry rolls no combat die in mountains or woods (it still takes
    hits).

    ```python
    from rulesref.campaign import Battle, Kind, Platoon, Side, Terrain, cavalry_barred

    horse = Platoon(Kind.CAVALRY)
    battle = Battle(Side([horse]), Side([Platoon()]), terrain=Terrain.MOUNTAIN)
    print(cavalry_barred(horse, battle))
    #> True
    ```
    """
    return platoon.kind == Kind.CAVALRY and battle.in_terrain(Terrain.MOUNTAIN, Terrain.WOODS)


def declared_rolls(battle: Battle, role: Role) -> tuple[Roll | None, ...]:
    """CA-2: what each platoon of a side rolls for: as its player declared, checked, or
    by default for its side's role; a platoon that may not roll rolls nothing (`Battle`
    works this out once, on creation: ask it with `Battle.declarations`)."""
    side = battle.sides[role]
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
    if cavalry_barred.unchecked(platoon, battle):
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
