"""Capturing regimental and army standards: clauses ST-1 to ST-13.

Source: "Army Standard" by Tom Poston (revised May 1998), a proposed clarification of
the Warhammer rules for capturing standards. The site restates each clause under its
id; the code below decides the fate of each standard in one combat round, in the
order the document gives its cases.

```python
from rulesref.standards import Character, Round, Troops, UnitFate, Victor, standard_fate

# Dwarf Trollslayers, immune to Break tests, carrying the Army Standard, are cut down
# to the last Dwarf by a unit that is free to pursue
trollslayers = Round(
    army_standard=True,
    troops=Troops.IMMUNE,
    unit=UnitFate.DESTROYED,
    character=Character.KILLED,
    victor=Victor.FREE,
)
for verdict in standard_fate(trollslayers):
    print(verdict.standard.value, verdict.fate.value, verdict.clause)
    #> regimental standard captured ST-3
    #> army standard captured ST-10
```
"""

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from html import escape
from itertools import product

from rulesref.errors import RulesError, instance_of, yes_or_no

__all__ = [
    "Standard",
    "Troops",
    "UnitFate",
    "Character",
    "Victor",
    "Fate",
    "Verdict",
    "Round",
    "standard_fate",
    "every_round",
    "decision_table_html",
    "REGIMENTAL_STEPS",
    "ARMY_STEPS",
    "decision_path",
    "decision_svg",
]


class Standard(Enum):
    REGIMENTAL = "regimental standard"
    ARMY = "army standard"


class Troops(Enum):
    """How the unit (or a lone Army Standard Bearer) takes Break tests."""

    NORMAL = "takes Break tests normally"
    IMMUNE = "immune to Break tests"
    UNDEAD = "Undead"


class UnitFate(Enum):
    """What became of the unit by the end of the round."""

    HOLDS = "holds"  # won, drew, or lost and stood its ground
    BREAKS = "fails its Break test and flees"
    PANICS = "flees from Terror or Panic"
    DESTROYED = "destroyed in combat"  # every model cut down
    CRUMBLES = "crumbles: destroyed for failing its Break test"  # Undead
    WIPED_OUT = "wiped out by extra casualties"  # Undead (Skeletons)


class Character(Enum):
    """What became of the Army Standard Bearer, or of the character leading an Undead unit."""

    STANDS = "survives"
    KILLED = "killed in combat"
    BREAKS = "fails a Break test and flees"
    CRUMBLES = "destroyed by a failed Break test"  # Undead: a Wight
    PANICS = "flees from Terror or Panic"


class Victor(Enum):
    """The unit(s) that won the combat against the standard."""

    PURSUES = "pursues"
    FREE = "free to pursue, does not"
    TIED = "tied down by other units"


class Fate(Enum):
    CAPTURED = "captured"
    LOST = "lost"
    KEPT = "kept"


UNIT_DESTROYED = (UnitFate.DESTROYED, UnitFate.CRUMBLES, UnitFate.WIPED_OUT)
FLEEING = (UnitFate.BREAKS, UnitFate.PANICS, Character.BREAKS, Character.PANICS)


@dataclass(frozen=True)
class Verdict:
    """The fate of one standard, the clause that decided it, and why."""

    standard: Standard
    fate: Fate
    clause: str
    reason: str
    by: str | None = None  # who takes a captured standard

    def __str__(self) -> str:
        return f"{self.standard.value}: {self.fate.value} ({self.clause}): {self.reason}"


@dataclass(frozen=True)
class Round:
    """The circumstances of one combat round, as "Army Standard" tells them apart.

    - `regimental_standard`, `army_standard`: which standards are in the fight.
    - `alone`: the Army Standard Bearer (ASB) fights as a single model, not in a unit.
    - `troops`: how the unit, or the lone ASB, takes Break tests.
    - `unit`: what became of the unit (`None` for a lone ASB).
    - `character`: what became of the ASB; without an ASB, of the character leading
      an Undead unit (`None`: no such character).
    - `victor`: whether the winner pursues, is free to pursue, or is tied down.

    Combinations that cannot happen are refused with a `RulesError`:

    ```python
    from rulesref.errors import RulesError
    from rulesref.standards import Round, Troops, UnitFate

    try:
        Round(troops=Troops.IMMUNE, unit=UnitFate.BREAKS)
    except RulesError as error:
        print(error)
        #> unit must not be BREAKS for troops IMMUNE: allowed HOLDS, DESTROYED
    ```
    """

    regimental_standard: bool = True
    army_standard: bool = False
    alone: bool = False
    troops: Troops = Troops.NORMAL
    unit: UnitFate | None = None
    character: Character | None = None
    victor: Victor = Victor.FREE

    def __post_init__(self) -> None:
        _check_types(self)
        if not (self.regimental_standard or self.army_standard):
            raise RulesError("regimental_standard and army_standard must not both be False")
        if self.alone:
            _check_alone(self)
        else:
            _check_unit(self)
        _check_victor(self)

    @property
    def unit_destroyed(self) -> bool:
        return self.unit in UNIT_DESTROYED

    @property
    def label(self) -> str:
        """The round in a few words, as the decision table shows it."""
        if self.unit is None:  # a lone ASB, whose fate is the character's
            assert self.character is not None  # __post_init__ refuses a lone ASB without one
            bearer = {Troops.NORMAL: "ASB", Troops.IMMUNE: "Break-immune ASB"}
            return f"{bearer.get(self.troops, 'Wight ASB')} {self.character.value}"
        words = [self.unit.value]
        if self.character is not None:
            who = "ASB" if self.army_standard else "character"
            words.append(f"{who} {self.character.value}")
        return "; ".join(words)


# Which fates go together. A unit destroyed in combat takes its characters with it,
# except an Undead character, who may outlive his regiment (ST-5, ST-13).
UNIT_FATES = {
    Troops.NORMAL: (UnitFate.HOLDS, UnitFate.BREAKS, UnitFate.PANICS, UnitFate.DESTROYED),
    Troops.IMMUNE: (UnitFate.HOLDS, UnitFate.DESTROYED),
    Troops.UNDEAD: (UnitFate.HOLDS, UnitFate.DESTROYED, UnitFate.CRUMBLES, UnitFate.WIPED_OUT),
}
LONE_FATES = {
    Troops.NORMAL: (Character.STANDS, Character.KILLED, Character.BREAKS, Character.PANICS),
    Troops.IMMUNE: (Character.STANDS, Character.KILLED),
    Troops.UNDEAD: (Character.STANDS, Character.KILLED, Character.CRUMBLES),
}


def _characters_in(troops: Troops, unit: UnitFate, *, asb: bool) -> tuple[Character, ...]:
    """The fates a character in this unit can meet."""
    if troops is Troops.UNDEAD:
        fates: tuple[Character, ...] = (Character.STANDS, Character.KILLED, Character.CRUMBLES)
        # an Undead character who outlives his regiment may flee, but an ASB is a Wight:
        # a failed Break test destroys him
        if unit in UNIT_DESTROYED and not asb:
            fates += (Character.BREAKS,)
        return fates
    return {
        UnitFate.HOLDS: (Character.STANDS, Character.KILLED),
        UnitFate.BREAKS: (Character.BREAKS, Character.KILLED),
        UnitFate.PANICS: (Character.PANICS, Character.KILLED),
        UnitFate.DESTROYED: (Character.KILLED,),
    }[unit]


def _names(values: Iterable[Enum]) -> str:
    return ", ".join(value.name for value in values)


def _check_types(r: Round) -> None:
    expected: dict[str, tuple[type | tuple[type, ...], str]] = {
        "regimental_standard": (bool, "True or False"),
        "army_standard": (bool, "True or False"),
        "alone": (bool, "True or False"),
        "troops": (Troops, "a Troops"),
        "unit": ((UnitFate, type(None)), "a UnitFate or None"),
        "character": ((Character, type(None)), "a Character or None"),
        "victor": (Victor, "a Victor"),
    }
    for name, (kind, allowed) in expected.items():
        instance_of(name, getattr(r, name), kind, allowed)


def _check_alone(r: Round) -> None:
    if not r.army_standard or r.regimental_standard:
        raise RulesError(
            "alone must be False unless the round has the army standard and no regimental "
            "standard: a lone ASB carries no regimental standard"
        )
    if r.unit is not None:
        raise RulesError(f"unit must be None for a lone ASB, got {r.unit.name}")
    if r.character not in LONE_FATES[r.troops]:
        raise RulesError(
            f"character must be one of {_names(LONE_FATES[r.troops])} for a lone ASB of "
            f"troops {r.troops.name}, got {r.character!r}"
        )


def _check_unit(r: Round) -> None:
    if r.unit not in UNIT_FATES[r.troops]:
        got = r.unit.name if r.unit else None
        raise RulesError(
            f"unit must not be {got} for troops {r.troops.name}: "
            f"allowed {_names(UNIT_FATES[r.troops])}"
        )
    if r.character is None:
        if r.army_standard:
            raise RulesError("character must give the ASB's fate when army_standard is True")
        return
    if not r.army_standard and r.troops is not Troops.UNDEAD:
        raise RulesError(
            f"character must be None without an ASB unless the unit is Undead "
            f"(only an Undead character changes a standard's fate), got {r.character.name}"
        )
    allowed = _characters_in(r.troops, r.unit, asb=r.army_standard)
    if r.character not in allowed:
        who = "the ASB" if r.army_standard else "an Undead character"
        raise RulesError(
            f"character must be one of {_names(allowed)} for {who} of a {r.troops.name} "
            f"unit that is {r.unit.name}, got {r.character.name}"
        )


def _check_victor(r: Round) -> None:
    if r.victor is Victor.PURSUES and r.unit not in FLEEING and r.character not in FLEEING:
        raise RulesError("victor must not be PURSUES when nothing flees: there is nobody to chase")


def _free(r: Round) -> bool:
    """The victor is free to pursue: not tied down fighting other units."""
    return r.victor is not Victor.TIED


def _needs_pursuit(r: Round, free_to_pursue_suffices: bool) -> bool:
    """ST-C1: the standard of a fleeing unit is taken only by a victor that pursues."""
    return r.victor is Victor.PURSUES or (free_to_pursue_suffices and _free(r))


def _if_free(
    standard: Standard, clause: str, r: Round, why: str, by: str = "a victorious unit"
) -> Verdict:
    """Captured if the victor is free to pursue, lost if it is tied down (ST-C2).

    The winning player chooses which of the victorious units takes it."""
    if _free(r):
        return Verdict(standard, Fate.CAPTURED, clause, f"{why}, the victor is free to pursue", by)
    return Verdict(standard, Fate.LOST, clause, f"{why}, but the victor is tied down")


PURSUIT = {
    Victor.PURSUES: "the victor pursues",
    Victor.FREE: "the victor does not pursue",
    Victor.TIED: "the victor is tied down",
}


def _if_pursued(standard: Standard, clause: str, r: Round, why: str, suffices: bool) -> Verdict:
    """Captured by the pursuer; trampled (lost) when the victor does not pursue (ST-C1),
    unless `suffices` (ST-7, ST-8 read by their words): then a victor free to pursue
    that stays put takes it."""
    victor = PURSUIT[r.victor]
    if _needs_pursuit(r, suffices):
        by = "the pursuer" if r.victor is Victor.PURSUES else "a victorious unit free to pursue"
        return Verdict(standard, Fate.CAPTURED, clause, f"{why}, {victor}", by)
    return Verdict(standard, Fate.LOST, clause, f"{why}, {victor}: trampled")


def _regimental(r: Round, suffices: bool) -> Verdict:
    """ST-1 to ST-5, and ST-C3: the fate of the unit's own standard."""
    s = Standard.REGIMENTAL
    if r.unit is UnitFate.BREAKS:  # ST-1; with the ASB in it, ST-7 and ST-8 hand both over
        return _if_pursued(s, "ST-1", r, "failed its Break test", suffices and r.army_standard)
    if r.unit is UnitFate.PANICS:  # ST-2
        return Verdict(s, Fate.KEPT, "ST-2", "fled from psychology, not a failed Break test")
    if r.unit_destroyed and r.troops is Troops.UNDEAD and r.character is not None:
        if r.character is Character.STANDS:  # ST-5
            return Verdict(s, Fate.LOST, "ST-5", "Undead unit destroyed, its character remains")
        if r.character is not Character.KILLED:  # ST-5: he flees or is destroyed
            return _if_free(s, "ST-5", r, f"unit destroyed, its character {r.character.value}")
    if r.unit is UnitFate.DESTROYED:  # ST-3
        return _if_free(s, "ST-3", r, "destroyed outright")
    if r.unit in (UnitFate.CRUMBLES, UnitFate.WIPED_OUT):  # ST-4
        return _if_free(s, "ST-4", r, f"Undead unit {r.unit.value}")
    if r.troops is Troops.NORMAL:  # ST-1: only a failed Break test takes a standard
        return Verdict(s, Fate.KEPT, "ST-1", "the unit held: no failed Break test")
    return Verdict(s, Fate.KEPT, "ST-C3", "never breaks and was not destroyed")  # ST-C3


def _army(r: Round, suffices: bool) -> Verdict:
    """ST-2, ST-6 to ST-13, with ST-C3 to ST-C7: the fate of the army standard."""
    s, asb = Standard.ARMY, r.character
    if asb is Character.PANICS:  # ST-2
        return Verdict(s, Fate.KEPT, "ST-2", "fled from psychology, not a failed Break test")
    if r.alone:  # ST-6 (a lone Wight destroyed by a failed test counts as killed: ST-C4)
        if asb in (Character.KILLED, Character.CRUMBLES):
            return _if_free(s, "ST-6", r, f"lone ASB {asb.value}", "the unit that killed him")
        if asb is Character.BREAKS:  # ST-C4: a unit of one that breaks, as ST-1
            return _if_pursued(s, "ST-1", r, "lone ASB failed his Break test", False)
        return Verdict(s, Fate.KEPT, "ST-6", "lone ASB not killed")
    if r.troops is Troops.NORMAL:
        if r.unit is UnitFate.BREAKS and asb is Character.BREAKS:  # ST-7
            return _if_pursued(s, "ST-7", r, "ASB alive, his unit broke", suffices)
        if r.unit is UnitFate.BREAKS:  # ST-8
            return _if_pursued(s, "ST-8", r, "ASB killed, his unit broke", suffices)
        if r.unit is UnitFate.DESTROYED:  # ST-C5: with its ASB, as ST-3
            return _if_free(s, "ST-3", r, "ASB's unit destroyed outright")
        if asb is Character.KILLED:  # ST-9
            return Verdict(s, Fate.LOST, "ST-9", "ASB killed, his unit did not break")
        return Verdict(s, Fate.KEPT, "ST-1", "ASB alive, his unit held")
    if asb is Character.KILLED and (r.troops is Troops.IMMUNE or r.unit_destroyed):  # ST-10
        if r.unit_destroyed:
            return _if_free(s, "ST-10", r, "ASB killed, whole unit destroyed")
        return Verdict(s, Fate.LOST, "ST-10", "ASB killed, his unit not destroyed")
    if r.troops is Troops.UNDEAD:
        if r.unit_destroyed and asb is Character.CRUMBLES:  # ST-11
            return _if_free(s, "ST-11", r, "unit destroyed, Wight ASB failed his Break test")
        if asb in (Character.KILLED, Character.CRUMBLES):  # ST-12
            return Verdict(s, Fate.LOST, "ST-12", f"Wight ASB {asb.value}, his unit remains")
        if r.unit_destroyed:  # ST-13
            return Verdict(s, Fate.KEPT, "ST-13", "Wight ASB outlives his unit: alone from now")
    return Verdict(s, Fate.KEPT, "ST-C3", "ASB alive, his unit never breaks and still stands")


def standard_fate(r: Round, *, free_to_pursue_suffices: bool = False) -> tuple[Verdict, ...]:
    """The fate of each standard in the round: regimental first, then the army standard.

    `free_to_pursue_suffices=True` is the other reading of ST-C1: when the ASB's unit
    breaks (ST-7, ST-8), both standards go to a victor merely free to pursue, not only
    to one that pursues. A unit without the ASB, or a lone ASB, still needs a pursuer.

    ```python
    from rulesref.standards import Character, Round, UnitFate, Victor, standard_fate

    # the ASB dies in the round his unit breaks; the victor pursues
    regimental, army = standard_fate(
        Round(
            army_standard=True,
            unit=UnitFate.BREAKS,
            character=Character.KILLED,
            victor=Victor.PURSUES,
        )
    )
    print(regimental.fate.value, regimental.clause, "|", army.fate.value, army.clause)
    #> captured ST-1 | captured ST-8
    ```
    """
    instance_of("r", r, Round, "a Round")
    yes_or_no("free_to_pursue_suffices", free_to_pursue_suffices)
    verdicts = []
    if r.regimental_standard:
        verdicts.append(_regimental(r, free_to_pursue_suffices))
    if r.army_standard:
        verdicts.append(_army(r, free_to_pursue_suffices))
    return tuple(verdicts)


def every_round() -> Iterator[Round]:
    """Every combination of circumstances that can happen, each once.

    ```python
    from rulesref.standards import every_round

    print(sum(1 for _ in every_round()))
    #> 171
    ```
    """
    choices = {
        "regimental_standard": (True, False),
        "army_standard": (False, True),
        "alone": (False, True),
        "troops": tuple(Troops),
        "unit": (*UnitFate, None),
        "character": (None, *Character),
        "victor": tuple(Victor),
    }
    for values in product(*choices.values()):
        try:
            yield Round(**dict(zip(choices, values, strict=True)))
        except RulesError:
            continue


# The decision table and the decision diagram, drawn at build time from the code above.

GROUPS = (  # (title, alone, regimental, army)
    ("Regimental standard, no ASB", False, True, False),
    ("ASB in a unit with a regimental standard", False, True, True),
    ("ASB in a unit without a regimental standard", False, False, True),
    ("ASB fighting alone", True, False, True),
)
VICTOR_LABELS = {Victor.PURSUES: "pursues", Victor.FREE: "free, stays", Victor.TIED: "tied down"}
FATE_STYLE = {Fate.CAPTURED: "#b8322a", Fate.LOST: "#8a6d1f", Fate.KEPT: "#2e7d32"}


def _cell(verdict: Verdict) -> str:
    colour = FATE_STYLE[verdict.fate]
    anchor = verdict.clause.lower()
    return (
        f'<td><strong style="color:{colour}">{verdict.fate.value}</strong> '
        f'<a href="#{anchor}">{verdict.clause}</a></td>'
    )


def table_groups() -> list[tuple[str, list[Round]]]:
    """Every round, grouped as the decision table shows them: by who carries what, then
    by troops."""
    rounds = list(every_round())
    groups = []
    for title, alone, regimental, army in GROUPS:
        for troops in Troops:
            members = [
                r
                for r in rounds
                if (r.alone, r.regimental_standard, r.army_standard, r.troops)
                == (alone, regimental, army, troops)
            ]
            groups.append((f"{title}: {troops.value}", members))
    return groups


TABLE_STYLE = (  # compact cells, so that three columns fit on a phone
    "<style>.st-table table td, .st-table table th {padding: .5em .6em}"
    " .st-table table {font-size: .62rem}</style>"
)


def decision_table_html() -> str:
    """The complete decision table as HTML: one collapsible table per group, one row per
    round (what happened, then the victor), each fate linked to the deciding clause."""
    parts = [TABLE_STYLE]
    for title, rounds in table_groups():
        standards = [s for s in Standard if any(v.standard is s for v in standard_fate(rounds[0]))]
        head = "".join(f"<th>{s.value.split()[0]}</th>" for s in standards)
        rows = [
            f"<tr><td>{escape(r.label)}<br><em>victor: {VICTOR_LABELS[r.victor]}</em></td>"
            + "".join(_cell(v) for v in standard_fate(r))
            + "</tr>"
            for r in rounds
        ]
        parts.append(
            f'<details class="st-table"><summary>{escape(title)} ({len(rounds)} rounds)</summary>'
            f"<table><thead><tr><th>round</th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></details>"
        )
    return "\n".join(parts)


# Each step of the diagram: a question, the test it stands for, and its "yes" answer
# linked to the clause; "no" goes on to the next step. The tests check that the first
# step answered "yes" names the clause `standard_fate` gives, for every round.
_Y = Troops.UNDEAD
DiagramStep = tuple[str, Callable[[Round], bool], str, str]
REGIMENTAL_STEPS: tuple[DiagramStep, ...] = (
    (
        "Failed its Break test and fled?",
        lambda r: r.unit is UnitFate.BREAKS,
        "captured if the victor pursues, else trampled",
        "st-1",
    ),
    ("Fled from Terror or Panic?", lambda r: r.unit is UnitFate.PANICS, "kept", "st-2"),
    (
        "Undead unit destroyed, its character still stands?",
        lambda r: r.troops is _Y and r.unit_destroyed and r.character is Character.STANDS,
        "lost",
        "st-5",
    ),
    (
        "Undead unit destroyed, its character flees or crumbles?",
        lambda r: (
            r.troops is _Y
            and r.unit_destroyed
            and r.character in (Character.BREAKS, Character.CRUMBLES)
        ),
        "captured if free to pursue, else lost",
        "st-5",
    ),
    (
        "Destroyed outright in combat?",
        lambda r: r.unit is UnitFate.DESTROYED,
        "captured if free to pursue, else lost",
        "st-3",
    ),
    (
        "Undead: crumbled or wiped out?",
        lambda r: r.unit_destroyed,
        "captured if free to pursue, else lost",
        "st-4",
    ),
    ("Takes Break tests normally?", lambda r: r.troops is Troops.NORMAL, "kept: it held", "st-1"),
    ("Otherwise: never breaks, still stands", lambda r: True, "kept", "st-c3"),
)
ARMY_STEPS: tuple[DiagramStep, ...] = (
    ("ASB fled from Terror or Panic?", lambda r: r.character is Character.PANICS, "kept", "st-2"),
    (
        "Lone ASB failed his Break test and fled?",
        lambda r: r.alone and r.character is Character.BREAKS,
        "captured if the victor pursues, else lost",
        "st-1",
    ),
    (
        "Lone ASB killed (or a lone Wight crumbles)?",
        lambda r: r.alone and r.character in (Character.KILLED, Character.CRUMBLES),
        "captured if free to pursue, else lost",
        "st-6",
    ),
    ("Lone ASB still alive?", lambda r: r.alone, "kept", "st-6"),
    (
        "Unit broke, ASB alive and fled with it?",
        lambda r: r.character is Character.BREAKS,
        "captured if the victor pursues, else lost",
        "st-7",
    ),
    (
        "Unit broke, ASB killed?",
        lambda r: r.unit is UnitFate.BREAKS,
        "captured if the victor pursues, else lost",
        "st-8",
    ),
    (
        "Normal unit destroyed with its ASB?",
        lambda r: r.troops is Troops.NORMAL and r.unit_destroyed,
        "captured if free to pursue, else lost",
        "st-3",
    ),
    (
        "Normal unit did not break, ASB killed?",
        lambda r: r.troops is Troops.NORMAL and r.character is Character.KILLED,
        "lost",
        "st-9",
    ),
    ("Normal unit held, ASB alive?", lambda r: r.troops is Troops.NORMAL, "kept", "st-1"),
    (
        "ASB killed, in an immune unit or a destroyed Undead one?",
        lambda r: (
            r.character is Character.KILLED and (r.troops is Troops.IMMUNE or r.unit_destroyed)
        ),
        "captured if all destroyed and free, else lost",
        "st-10",
    ),
    (
        "Undead unit destroyed, Wight ASB crumbles?",
        lambda r: r.unit_destroyed and r.character is Character.CRUMBLES,
        "captured if free to pursue, else lost",
        "st-11",
    ),
    (
        "Wight ASB killed or crumbles, unit remains?",
        lambda r: r.character in (Character.KILLED, Character.CRUMBLES),
        "lost",
        "st-12",
    ),
    (
        "Wight ASB outlives his crumbled unit?",
        lambda r: r.unit_destroyed,
        "kept: fights alone from now",
        "st-13",
    ),
    ("Otherwise: ASB alive in a unit that still stands", lambda r: True, "kept", "st-c3"),
)


def first_step(steps: Sequence[DiagramStep], r: Round) -> int:
    """The index of the first step of a diagram that `r` answers "yes"."""
    return next(i for i, (_, applies, _, _) in enumerate(steps) if applies(r))


def decision_path(r: Round, standard: Standard) -> list[str]:
    """The diagram's questions for one standard of `r`, each with its answer, down to the
    deciding clause.

    ```python
    from rulesref.standards import Character, Round, Standard, Troops, UnitFate, decision_path

    wight = Round(
        army_standard=True,
        troops=Troops.UNDEAD,
        unit=UnitFate.HOLDS,
        character=Character.KILLED,
    )
    print(decision_path(wight, Standard.ARMY)[-1])
    #> Wight ASB killed or crumbles, unit remains? yes: ST-12
    ```
    """
    instance_of("r", r, Round, "a Round")
    instance_of("standard", standard, Standard, "a Standard")
    steps = REGIMENTAL_STEPS if standard is Standard.REGIMENTAL else ARMY_STEPS
    last = first_step(steps, r)
    path = [f"{question} no" for question, _, _, _ in steps[:last]]
    question, _, _, anchor = steps[last]
    return [*path, f"{question} yes: {anchor.upper()}"]


def decision_svg(steps: Sequence[DiagramStep], *, title: str, name: str) -> str:
    """A flowchart in one narrow column, to read on a phone: each question, its "yes"
    outcome below it (linked to the clause), and "no" down the left to the next question.

    `name` keeps the arrow marker's id apart from other diagrams on the page."""
    longest = max(max(len(q), len(f"{out} · {a}") + 4) for q, _, out, a in steps)
    width, indent, box_h, marker = round(longest * 7.2) + 40, 34, 28, f"{name}-arrow"
    step_h = 2 * box_h + 30
    arrow = f'stroke="currentColor" marker-end="url(#{marker})"'
    body = [f'<text x="2" y="18" font-size="15" font-weight="bold">{escape(title)}</text>']
    for index, (question, _, outcome, anchor) in enumerate(steps):
        y, last = 30 + index * step_h, index == len(steps) - 1
        out_y, out_w = y + box_h + 12, width - indent - 2
        body.append(
            f'<rect x="2" y="{y}" width="{width - 4}" height="{box_h}" rx="6" '
            f'fill="none" stroke="currentColor"/>'
            f'<text x="10" y="{y + 19}" font-size="13">{escape(question)}</text>'
            f'<line x1="{indent + 20}" y1="{y + box_h}" x2="{indent + 20}" y2="{out_y - 1}" '
            f"{arrow}/>"
            f'<text x="{indent + 25}" y="{y + box_h + 10}" font-size="10">'
            f"{'' if last else 'yes'}</text>"
            f'<a href="#{anchor}"><rect x="{indent}" y="{out_y}" width="{out_w}" '
            f'height="{box_h}" rx="6" fill="#2e6fba" fill-opacity="0.15" stroke="#2e6fba"/>'
            f'<text x="{indent + 8}" y="{out_y + 19}" font-size="13">'
            f"{escape(outcome)} · {anchor.upper()}</text></a>"
        )
        if not last:
            body.append(
                f'<line x1="14" y1="{y + box_h}" x2="14" y2="{y + step_h - 1}" {arrow}/>'
                f'<text x="18" y="{y + box_h + 24}" font-size="10">no</text>'
            )
    height = 30 + len(steps) * step_h - 14
    defs = (
        f'<defs><marker id="{marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto"><path d="M0 0 L10 5 L0 10 z" fill="currentColor"/>'
        "</marker></defs>"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{escape(title)}" '
        f'viewBox="0 0 {width} {height}" width="{width}" '
        f'style="max-width: 100%; height: auto" fill="currentColor">'
        + defs
        + "".join(body)
        + "</svg>"
    )
