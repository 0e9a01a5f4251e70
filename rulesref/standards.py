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
from itertools import product

from rulesref.errors import RulesError, checked_by, instance_of, readings_of, sequence_of
from rulesref.words import Word

__all__ = [
    "Standard",
    "Troops",
    "UnitFate",
    "Character",
    "Victor",
    "Fate",
    "Verdict",
    "Round",
    "Readings",
    "Settled",
    "CapturedIfFree",
    "CapturedIfPursued",
    "Step",
    "needs_pursuit",
    "regimental_steps",
    "lone_asb_steps",
    "asb_in_a_normal_unit_steps",
    "asb_in_an_unbreakable_unit_steps",
    "REGIMENTAL_STEPS",
    "ARMY_STEPS",
    "first_step",
    "standard_fate",
    "decision_path",
    "every_round",
]


class Standard(Word):
    REGIMENTAL = "regimental standard"
    ARMY = "army standard"


class Troops(Word):
    """How the unit (or a lone Army Standard Bearer) takes Break tests."""

    NORMAL = "takes Break tests normally"
    IMMUNE = "immune to Break tests"
    UNDEAD = "Undead"


class UnitFate(Word):
    """What became of the unit by the end of the round."""

    HOLDS = "holds"  # won, drew, or lost and stood its ground
    BREAKS = "fails its Break test and flees"
    PANICS = "flees from Terror or Panic"
    DESTROYED = "destroyed in combat"  # every model cut down
    CRUMBLES = "crumbles: destroyed for failing its Break test"  # Undead
    WIPED_OUT = "wiped out by extra casualties"  # Undead (Skeletons)


class Character(Word):
    """What became of the Army Standard Bearer, or of the character leading an Undead unit."""

    STANDS = "survives"
    KILLED = "killed in combat"
    BREAKS = "fails a Break test and flees"
    CRUMBLES = "destroyed by a failed Break test"  # Undead: a Wight
    PANICS = "flees from Terror or Panic"


class Victor(Word):
    """The unit(s) that won the combat against the standard."""

    PURSUES = "pursues"
    FREE = "free to pursue, does not"
    TIED = "tied down by other units"


class Fate(Word):
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

    Combinations that cannot happen are refused with a `RulesError` (ST-C8):

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


def _names(values: Iterable[Word]) -> str:
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


@dataclass(frozen=True)
class Readings:
    """The optional readings of the clarifications; the defaults are the site's.

    - `free_to_pursue_suffices` (ST-C1): when the ASB's unit breaks (ST-7, ST-8), both
      standards go to a victor merely free to pursue, not only to one that pursues, as
      those clauses' words say. A unit without the ASB, or a lone ASB, still needs a
      pursuer.
    """

    free_to_pursue_suffices: bool = False

    def __post_init__(self) -> None:
        readings_of(self)


def _free(r: Round) -> bool:
    """The victor is free to pursue: not tied down fighting other units."""
    return r.victor is not Victor.TIED


def needs_pursuit(r: Round, readings: Readings) -> bool:
    """ST-C1: the standards of a fleeing unit are taken only by a victor that pursues; in
    the other reading, a victor free to pursue takes them when the ASB's unit breaks."""
    asb_unit_broke = r.army_standard and r.unit is UnitFate.BREAKS
    loose = readings.free_to_pursue_suffices and asb_unit_broke and _free(r)
    return r.victor is Victor.PURSUES or loose


def _why(why: str, r: Round) -> str:
    """A reason in words, with the fates of the round's unit and character filled in."""
    return why.format(
        unit=r.unit.value if r.unit else "", character=r.character.value if r.character else ""
    )


@dataclass(frozen=True)
class Settled:
    """The standard is kept or lost, whatever the victor does."""

    fate: Fate
    why: str

    @property
    def summary(self) -> str:
        return self.fate.value

    def verdict(self, standard: Standard, clause: str, r: Round, readings: Readings) -> Verdict:
        return Verdict(standard, self.fate, clause, _why(self.why, r))


@dataclass(frozen=True)
class CapturedIfFree:
    """ST-C2: captured if the victor is free to pursue, lost if it is tied down; the
    winning player chooses which of the victorious units takes it."""

    why: str
    by: str = "a victorious unit"
    summary = "captured if free to pursue, else lost"

    def verdict(self, standard: Standard, clause: str, r: Round, readings: Readings) -> Verdict:
        why = _why(self.why, r)
        if _free(r):
            reason = f"{why}, the victor is free to pursue"
            return Verdict(standard, Fate.CAPTURED, clause, reason, self.by)
        return Verdict(standard, Fate.LOST, clause, f"{why}, but the victor is tied down")


PURSUIT = {
    Victor.PURSUES: "the victor pursues",
    Victor.FREE: "the victor does not pursue",
    Victor.TIED: "the victor is tied down",
}


@dataclass(frozen=True)
class CapturedIfPursued:
    """ST-C1: captured by the pursuer; trampled (lost) when the victor does not pursue."""

    why: str
    summary = "captured if the victor pursues, else trampled"

    def verdict(self, standard: Standard, clause: str, r: Round, readings: Readings) -> Verdict:
        why, victor = _why(self.why, r), PURSUIT[r.victor]
        if needs_pursuit(r, readings):
            if r.victor is Victor.PURSUES:
                return Verdict(standard, Fate.CAPTURED, clause, f"{why}, {victor}", "the pursuer")
            # the other reading of ST-C1: ST-7 or ST-8 hands both standards to a victor free
            # to pursue, which ST-1 alone never does, so the clause that decides is theirs
            handed = "ST-7" if r.character is Character.BREAKS else "ST-8"
            by = "a victorious unit free to pursue"
            return Verdict(standard, Fate.CAPTURED, handed, f"{why}, {victor}", by)
        return Verdict(standard, Fate.LOST, clause, f"{why}, {victor}: trampled")


@dataclass(frozen=True)
class Step:
    """One step of a standard's rules: a question about the round in our words, the test
    it stands for, the clause that answers it, and the ruling when the answer is yes.
    A "no" goes on to the next step."""

    question: str
    applies: Callable[[Round], bool]
    clause: str
    yes: Settled | CapturedIfFree | CapturedIfPursued


PSYCHOLOGY = "fled from psychology, not a failed Break test"
KILLED_OR_CRUMBLED = (Character.KILLED, Character.CRUMBLES)


def regimental_steps() -> tuple[Step, ...]:
    """ST-1 to ST-5, ST-C3: the fate of the unit's own standard, step by step."""
    return (
        Step(
            "Failed its Break test and fled?",
            lambda r: r.unit is UnitFate.BREAKS,
            "ST-1",  # with the ASB in it, ST-7 and ST-8 hand both standards over
            CapturedIfPursued("failed its Break test"),
        ),
        Step(
            "Fled from Terror or Panic?",
            lambda r: r.unit is UnitFate.PANICS,
            "ST-2",
            Settled(Fate.KEPT, PSYCHOLOGY),
        ),
        Step(
            "Undead unit destroyed, its character still stands?",
            lambda r: (
                r.troops is Troops.UNDEAD and r.unit_destroyed and r.character is Character.STANDS
            ),
            "ST-5",
            Settled(Fate.LOST, "Undead unit destroyed, its character remains"),
        ),
        Step(
            "Undead unit destroyed, its character flees or crumbles?",
            lambda r: (
                r.troops is Troops.UNDEAD
                and r.unit_destroyed
                and r.character in (Character.BREAKS, Character.CRUMBLES)
            ),
            "ST-5",
            CapturedIfFree("unit destroyed, its character {character}"),
        ),
        Step(
            "Destroyed outright in combat?",
            lambda r: r.unit is UnitFate.DESTROYED,
            "ST-3",
            CapturedIfFree("destroyed outright"),
        ),
        Step(
            "Undead: crumbled or wiped out?",
            lambda r: r.unit_destroyed,
            "ST-4",
            CapturedIfFree("Undead unit {unit}"),
        ),
        Step(
            "Takes Break tests normally, and held?",
            lambda r: r.troops is Troops.NORMAL,
            "ST-1",  # only a failed Break test takes a standard
            Settled(Fate.KEPT, "the unit held: no failed Break test"),
        ),
        Step(
            "Otherwise: never breaks, still stands",
            lambda r: True,
            "ST-C3",
            Settled(Fate.KEPT, "never breaks and was not destroyed"),
        ),
    )


def lone_asb_steps() -> tuple[Step, ...]:
    """ST-2, ST-6, ST-C4: the army standard of an Army Standard Bearer who flees from
    psychology, or who fights alone, step by step."""
    return (
        Step(
            "ASB fled from Terror or Panic?",
            lambda r: r.character is Character.PANICS,
            "ST-2",
            Settled(Fate.KEPT, PSYCHOLOGY),
        ),
        Step(  # ST-C4: a unit of one that breaks, as ST-1
            "Lone ASB failed his Break test and fled?",
            lambda r: r.alone and r.character is Character.BREAKS,
            "ST-1",
            CapturedIfPursued("lone ASB failed his Break test"),
        ),
        Step(  # ST-6; a lone Wight destroyed by a failed test counts as killed (ST-C4)
            "Lone ASB killed (or a lone Wight crumbles)?",
            lambda r: r.alone and r.character in KILLED_OR_CRUMBLED,
            "ST-6",
            CapturedIfFree("lone ASB {character}", "the unit that killed him"),
        ),
        Step(
            "Lone ASB still alive?",
            lambda r: r.alone,
            "ST-6",
            Settled(Fate.KEPT, "lone ASB not killed"),
        ),
    )


def asb_in_a_normal_unit_steps() -> tuple[Step, ...]:
    """ST-7, ST-8, ST-9, ST-C5, ST-C7: the army standard of an ASB in a unit that breaks,
    or in one that takes Break tests normally, step by step."""
    return (
        Step(
            "Unit broke, ASB alive and fled with it?",
            lambda r: r.unit is UnitFate.BREAKS and r.character is Character.BREAKS,
            "ST-7",
            CapturedIfPursued("ASB alive, his unit broke"),
        ),
        Step(
            "Unit broke, ASB killed?",
            lambda r: r.unit is UnitFate.BREAKS,
            "ST-8",
            CapturedIfPursued("ASB killed, his unit broke"),
        ),
        Step(  # ST-C5: a unit destroyed with its ASB, as ST-3
            "Normal unit destroyed with its ASB?",
            lambda r: r.troops is Troops.NORMAL and r.unit is UnitFate.DESTROYED,
            "ST-3",
            CapturedIfFree("ASB's unit destroyed outright"),
        ),
        Step(  # ST-C7: also when his unit flees from Panic
            "Normal unit did not break, ASB killed?",
            lambda r: r.troops is Troops.NORMAL and r.character is Character.KILLED,
            "ST-9",
            Settled(Fate.LOST, "ASB killed, his unit did not break"),
        ),
        Step(
            "Normal unit held, ASB alive?",
            lambda r: r.troops is Troops.NORMAL,
            "ST-1",
            Settled(Fate.KEPT, "ASB alive, his unit held"),
        ),
    )


def asb_in_an_unbreakable_unit_steps() -> tuple[Step, ...]:
    """ST-10 to ST-13, ST-C3, ST-C6: the army standard of an ASB in a unit that does not
    take Break tests normally (immune, or Undead with a Wight ASB), step by step."""
    return (
        Step(  # ST-C6: a Wight ASB killed as his regiment is destroyed
            "ASB killed, his whole unit destroyed?",
            lambda r: r.character is Character.KILLED and r.unit_destroyed,
            "ST-10",
            CapturedIfFree("ASB killed, whole unit destroyed"),
        ),
        Step(
            "ASB killed, his Break-immune unit still stands?",
            lambda r: r.character is Character.KILLED and r.troops is Troops.IMMUNE,
            "ST-10",
            Settled(Fate.LOST, "ASB killed, his unit not destroyed"),
        ),
        Step(
            "Undead unit destroyed, Wight ASB crumbles?",
            lambda r: r.unit_destroyed and r.character is Character.CRUMBLES,
            "ST-11",
            CapturedIfFree("unit destroyed, Wight ASB failed his Break test"),
        ),
        Step(
            "Wight ASB killed or crumbles, unit remains?",
            lambda r: r.character in KILLED_OR_CRUMBLED,
            "ST-12",
            Settled(Fate.LOST, "Wight ASB {character}, his unit remains"),
        ),
        Step(
            "Wight ASB outlives his crumbled unit?",
            lambda r: r.unit_destroyed,
            "ST-13",
            Settled(Fate.KEPT, "Wight ASB outlives his unit: alone from now"),
        ),
        Step(  # ST-C3
            "Otherwise: ASB alive in a unit that still stands",
            lambda r: True,
            "ST-C3",
            Settled(Fate.KEPT, "ASB alive, his unit never breaks and still stands"),
        ),
    )


REGIMENTAL_STEPS = regimental_steps()
"""The regimental standard's steps, in the order the document gives its cases."""
ARMY_STEPS = (*lone_asb_steps(), *asb_in_a_normal_unit_steps(), *asb_in_an_unbreakable_unit_steps())
"""The army standard's steps, in the order the document gives its cases."""
STEPS = {Standard.REGIMENTAL: REGIMENTAL_STEPS, Standard.ARMY: ARMY_STEPS}


def _steps_and_round(steps: Sequence[Step], r: Round) -> None:
    sequence_of("steps", steps, Step, low=1)
    instance_of("r", r, Round, "a Round")


@checked_by(_steps_and_round)
def first_step(steps: Sequence[Step], r: Round) -> int:
    """The index of the first step that `r` answers "yes": the one that decides.

    ```python
    from rulesref.standards import REGIMENTAL_STEPS, Round, UnitFate, first_step

    step = REGIMENTAL_STEPS[first_step(REGIMENTAL_STEPS, Round(unit=UnitFate.PANICS))]
    print(step.question, step.clause, step.yes.summary)
    #> Fled from Terror or Panic? ST-2 kept
    ```
    """
    return next(i for i, step in enumerate(steps) if step.applies(r))


def standard_fate(r: Round, *, readings: Readings = Readings()) -> tuple[Verdict, ...]:
    """The fate of each standard in the round, regimental first, then the army standard:
    the ruling of the first step of its table (`REGIMENTAL_STEPS`, `ARMY_STEPS`) that the
    round answers "yes". `readings` chooses how ST-C1 is read.

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
    instance_of("readings", readings, Readings, "a standards.Readings")
    present = {Standard.REGIMENTAL: r.regimental_standard, Standard.ARMY: r.army_standard}
    verdicts = []
    for standard, steps in STEPS.items():
        if present[standard]:
            step = steps[first_step.unchecked(steps, r)]
            verdicts.append(step.yes.verdict(standard, step.clause, r, readings))
    return tuple(verdicts)


def decision_path(r: Round, standard: Standard) -> list[str]:
    """The questions of one standard's table for `r`, each with its answer, down to the
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
    steps = STEPS[standard]
    last = first_step(steps, r)
    return [f"{step.question} no" for step in steps[:last]] + [
        f"{steps[last].question} yes: {steps[last].clause}"
    ]


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
