"""The modifiers of a platoon's roll, one function per clause (CA-3 to CA-11), and the roll
explained term by term."""

from collections.abc import Callable
from dataclasses import dataclass

from rulesref.campaign.model import Battle, Kind, Platoon, Role, Roll, State, Terrain
from rulesref.dice import D6
from rulesref.errors import (
    RulesError,
    checked_by,
    dice_roll,
    instance_of,
    whole_number,
)

__all__ = [
    "Term",
    "artillery_modifier",
    "cavalry_modifier",
    "defender_modifier",
    "fortified_modifier",
    "mountain_modifier",
    "damaged_modifier",
    "supply_modifier",
    "MODIFIERS",
    "RollExplanation",
    "explain_roll",
]


@dataclass(frozen=True)
class Term:
    """One modifier of a roll: its value and the clause that gives it."""

    clause: str
    reason: str
    value: int

    def __str__(self) -> str:
        return f"{self.value:+d} {self.reason} ({self.clause})"


# One function per modifier clause: (platoon, what it rolls for, its role, the battle).


def artillery_modifier(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-3: artillery +2 on every combat roll, but -1 instead in forest."""
    if platoon.kind != Kind.ARTILLERY:
        return None
    if battle.in_terrain(Terrain.FOREST):
        return Term("CA-3", "artillery, forest", -1)
    return Term("CA-3", "artillery", +2)


def cavalry_modifier(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-4: cavalry +1 when it rolls for attack."""
    attacking = platoon.kind == Kind.CAVALRY and roll == Roll.ATTACK
    return Term("CA-4", "cavalry", +1) if attacking else None


def defender_modifier(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-5: the defending army +1 on its defence rolls."""
    defending = role == Role.DEFENDER and roll == Roll.DEFENCE
    return Term("CA-5", "defender", +1) if defending else None


def fortified_modifier(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-6: a fortified army +1 on its defence rolls."""
    fortified = battle.sides[role].fortified
    return Term("CA-6", "fortified", +1) if fortified and roll == Roll.DEFENCE else None


def mountain_modifier(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-7, CA-C11: an army in a mountain hex +1 on its defence rolls (both armies)."""
    in_hex = battle.readings.mountain_both_sides or role == Role.DEFENDER
    if battle.terrain == Terrain.MOUNTAIN and in_hex and roll == Roll.DEFENCE:
        return Term("CA-7", "mountain", +1)
    return None


def damaged_modifier(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-8: a Damaged platoon -1 on its rolls (not a FUBAR one: CA-C1)."""
    return Term("CA-8", "Damaged", -1) if platoon.state == State.DAMAGED else None


def supply_modifier(platoon: Platoon, roll: Roll, role: Role, battle: Battle) -> Term | None:
    """CA-11: a platoon out of supply -1 on all its rolls."""
    return None if platoon.supplied else Term("CA-11", "no supply", -1)


MODIFIERS: tuple[Callable[[Platoon, Roll, Role, Battle], Term | None], ...] = (
    artillery_modifier,
    cavalry_modifier,
    defender_modifier,
    fortified_modifier,
    mountain_modifier,
    damaged_modifier,
    supply_modifier,
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


def _explain_roll_arguments(battle: Battle, role: Role | str, index: int) -> None:
    side = instance_of("battle", battle, Battle, "a Battle").side(role)
    whole_number("index", index, 0, len(side.platoons) - 1)


@checked_by(_explain_roll_arguments)
def explain_roll(battle: Battle, role: Role | str, index: int) -> RollExplanation:
    """CA-9, CA-C2: the final modifier of one platoon's roll, term by term (the terms of
    CA-3 to CA-11, `MODIFIERS`).

    A FUBAR platoon rolls no die: it scores 1 (CA-9), and by default the other
    modifiers still apply to that 1 (CA-C2).

    ```python
    from rulesref.campaign import Battle, Kind, Platoon, Side, State, explain_roll

    battle = Battle(Side([Platoon(Kind.ARTILLERY, State.DAMAGED)]), Side([Platoon()]))
    print(explain_roll(battle, "attacker", 0))
    #> artillery (damaged), attack: d6 +2 artillery (CA-3) -1 Damaged (CA-8) = d6+1
    ```
    """
    role = Role(role)
    platoon, roll = battle.sides[role].platoons[index], battle.declared[role][index]
    fubar = platoon.state == State.FUBAR
    terms: tuple[Term, ...] = ()
    if roll is not None and (not fubar or battle.readings.fubar_modified):
        terms = tuple(t for rule in MODIFIERS if (t := rule(platoon, roll, role, battle)))
    fixed = 1 if fubar else None
    return RollExplanation(platoon, roll, terms, fixed, battle.readings.clamp_rolls)
