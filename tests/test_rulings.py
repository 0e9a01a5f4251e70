"""Every ruling's words are the ones in the golden snapshot, `tests/snapshots/rulings/`.

A ruling is published with its clause and its reason (the API, the command line, the
site's examples), and every refusal with its message. The tests elsewhere check what
decides; this fixes the words, so a changed clause id, reason or message shows in
`git diff` after `make snapshot`. Fast on purpose: mutation testing runs it.

- `rulings/messages.json`: the message of each hostile input of tests/test_hostile.py,
  keyed by the name of the case (its pytest id);
- `rulings/break_test.json`: every outcome, clause and reason of `resolve_break_test`,
  `reform_permission` and `check_combat_reform` over a grid of inputs;
- `rulings/campaign.json`: the steps, victor and fates of `resolve_battle` for a few
  battles under a grid of dice, a check passed, failed, not rolled and rolled;
- `rulings/leadership.json`: every test and removal of `resolve_phase` for two small
  forces under a grid of casualties and dice, in both readings of LD-C5;
- `rulings/standards.json`: the fate, clause, reason and taker of each standard in every
  round of `rulesref.standards.every_round`, in both readings of ST-C1.
"""

import json
import re
from functools import partial
from itertools import combinations_with_replacement, product
from pathlib import Path

import pytest
from test_hostile import CASES

from rulesref import break_test as br
from rulesref import campaign as ca
from rulesref import leadership as ld
from rulesref import standards as st
from rulesref.errors import RulesError

FOLDER = Path(__file__).resolve().parent / "snapshots" / "rulings"
ADDRESS = re.compile(r"0x[0-9a-f]+")  # a default repr's memory address changes run to run


def _lines(entries: dict[str, str]) -> str:
    return json.dumps(entries, indent=0, sort_keys=True, ensure_ascii=False) + "\n"


def _refusal(call) -> str:
    try:
        call()
    except RulesError as error:
        return ADDRESS.sub("0x…", str(error))
    return "(accepted)"


def messages() -> dict[str, str]:
    return {case.id: _refusal(case.values[1]) for case in CASES}


def _ruling(record) -> str:
    answer = getattr(record, "outcome", getattr(record, "legal", None))
    return f"{answer} | {record.clause} | {record.reason}"


def break_test_rulings() -> dict[str, str]:
    entries = {}
    rolls = list(combinations_with_replacement(range(1, 7), 2))
    for leadership, by, dice, steadfast, courage in product(
        (0, 2, 7, 10), (0, 3, 12), rolls, (False, True), (False, True)
    ):
        result = br.resolve_break_test(
            leadership, by, dice, steadfast=steadfast, insane_courage=courage
        )
        options = f"steadfast={steadfast}, insane={courage}"
        key = f"resolve_break_test({leadership}, {by}, {dice}, {options})"
        entries[key] = f"{result.modified_leadership} {result.total} | {_ruling(result)}"
    for result, fled, enemy_fled, facings in product(
        br.CombatResult, (False, True), (False, True), (1, 2, 4)
    ):
        key = (
            f"reform_permission({result}, fled={fled}, enemy_fled={enemy_fled}, facings={facings})"
        )
        call = partial(
            br.reform_permission, result, fled=fled, enemy_fled=enemy_fled, engaged_facings=facings
        )
        refusal = _refusal(call)
        entries[key] = refusal if refusal != "(accepted)" else _ruling(call())
    for name, before, after in REFORMS:
        entries[f"check_combat_reform: {name}"] = _ruling(br.check_combat_reform(before, after))
    return entries


def _C(model: str, enemy_model: str, enemy_unit: str, facing: str) -> br.Contact:
    return br.Contact(model, enemy_model, enemy_unit, br.Facing(facing))


REFORMS = [
    ("nothing changes", [_C("a", "1", "Orcs", "front")], [_C("a", "1", "Orcs", "front")]),
    ("our model leaves", [_C("a", "1", "Orcs", "front")], [_C("b", "1", "Orcs", "front")]),
    ("their model leaves", [_C("a", "1", "Orcs", "front")], [_C("a", "2", "Orcs", "front")]),
    (
        "two leave",
        [_C("a", "1", "Orcs", "front"), _C("b", "2", "Orcs", "front")],
        [_C("c", "3", "Orcs", "front")],
    ),
    ("a new facing", [_C("a", "1", "Orcs", "rear")], [_C("a", "1", "Orcs", "front")]),
    (
        "two new facings",
        [_C("a", "1", "Orcs", "rear")],
        [_C("a", "1", "Orcs", "left flank"), _C("a", "1", "Orcs", "right flank")],
    ),
    (
        "a new unit on any facing",
        [_C("a", "1", "Orcs", "front")],
        [_C("a", "1", "Orcs", "front"), _C("b", "1", "Wolves", "rear")],
    ),
]


def _P(kind: str = "infantry", state: str = "fresh", supplied: bool = True) -> ca.Platoon:
    return ca.Platoon(ca.Kind(kind), ca.State(state), supplied)


BATTLES = {
    "2 v 2 infantry": ca.Battle(ca.Side([_P(), _P()]), ca.Side([_P(), _P()])),
    "guns and horse v fortified foot in woods": ca.Battle(
        ca.Side([_P("artillery"), _P("cavalry")]),
        ca.Side([_P()], fortified=True),
        terrain=ca.Terrain.WOODS,
    ),
    "damaged and FUBAR v a garrison": ca.Battle(
        ca.Side([_P(state="damaged"), _P(state="fubar")]), ca.Side([_P()]), garrison=True
    ),
    "a lone FUBAR platoon v three guns": ca.Battle(
        ca.Side([_P("artillery")] * 3), ca.Side([_P(state="fubar")])
    ),
    "foot and barred horse in the mountains v HQ": ca.Battle(
        ca.Side([_P(), _P("cavalry")]),
        ca.Side([_P("command", supplied=False)]),
        terrain=ca.Terrain.MOUNTAIN,
    ),
}


def _rolls(battle: ca.Battle, role: str) -> list[tuple[int | None, ...]]:
    """Low, middling and high dice for each platoon that rolls; None for one that does not,
    and the fixed die of a FUBAR platoon."""
    faces = []
    for index in range(len(battle.side(role).platoons)):
        explained = ca.explain_roll(battle, role, index)
        if explained.roll is None:
            faces.append((None,))
        elif explained.fixed_die is not None:
            faces.append((explained.fixed_die,))
        else:
            faces.append((1, 3, 6))
    return list(product(*faces))


SIDES = {
    "1 fresh": [_P()],
    "2 fresh": [_P(), _P()],
    "damaged and FUBAR": [_P(state="damaged"), _P(state="fubar")],
}


def _after_hits() -> dict[str, ca.AfterHits]:
    """Each side after 0 to 4 hits, shared out to withdraw the fewest platoons; more hits
    than the side can take rout it (CA-16), with no sharing out."""
    found = {}
    for name, platoons in SIDES.items():
        for hits in range(5):
            room = sum(platoon.steps_left for platoon in platoons)
            given = ca.fewest_withdrawals(platoons, hits) if hits <= room else None
            found[f"{name} after {hits} hits"] = ca.assign_hits(platoons, hits, given)
    return found


def verdict_rulings() -> dict[str, str]:
    """CA-16 to CA-18: every verdict over pairs of sides after their hits."""
    entries = {}
    after = _after_hits()
    for (a, attacker), (d, defender), order, garrison in product(
        after.items(), after.items(), (-1, 0, 1), (False, True)
    ):
        found = ca.verdict(attacker, defender, order, garrison=garrison)
        key = f"attacker {a}, defender {d}, damage order {order}, garrison {garrison}"
        entries[key] = (
            f"{found.victor} | {found.loser} | {found.checker} | {found.clause} | {found.reason}"
        )
    for name, result in after.items():
        entries[name] = (
            f"{result.assignment} withdrawn {result.withdrawn} routed {result.routed} "
            f"fell back {result.fell_back} all FUBAR {result.all_fubar}"
        )
    return entries


def _explained(explanation: ca.RollExplanation, die: int) -> str:
    try:
        return str(explanation.value(die))
    except RulesError as refused:
        return f"refused: {refused}"


def roll_rulings() -> dict[str, str]:
    """CA-2 to CA-11: each kind and state of platoon, rolling for attack or defence on
    either side, in each terrain, fortified or not, modified rolls clamped or not."""
    entries = {}
    for kind, state, supplied, role, roll, terrain, fortified, clamp in product(
        ca.Kind,
        ("fresh", "damaged", "fubar"),
        (True, False),
        ca.Role,
        ca.Roll,
        ca.Terrain,
        (False, True),
        (False, True),
    ):
        platoon = _P(kind, state, supplied)
        ours = ca.Side([platoon], [roll], fortified=fortified and role == "defender")
        sides = (ours, ca.Side([_P()])) if role == "attacker" else (ca.Side([_P()]), ours)
        key = f"{platoon} as {role} declaring {roll} in {terrain}, {fortified=}, {clamp=}"
        try:
            battle = ca.Battle(*sides, terrain=terrain, readings=ca.Readings(clamp_rolls=clamp))
        except RulesError as refused:  # barred cavalry declaring a roll (CA-10)
            entries[key] = f"refused: {refused}"
            continue
        explanation = ca.explain_roll(battle, role, 0)
        entries[key] = " | ".join(
            (str(explanation), _explained(explanation, 1), _explained(explanation, 6))
        )
    return entries


# The loser's check (CA-C5): passed, failed, not yet rolled, or rolled on two dice (8 fails)
CHECKS = {True: "passed", False: "failed", None: "not rolled", (4, 4): "rolled (4, 4)"}


def campaign_rulings() -> dict[str, str]:
    entries = verdict_rulings() | roll_rulings()
    for name, battle in BATTLES.items():
        for attack, defence, check in product(
            _rolls(battle, "attacker"), _rolls(battle, "defender"), CHECKS
        ):
            result = ca.resolve_battle(battle, attack, defence, leadership_roll=check)
            fates = f"{result.attacker.fate}/{result.defender.fate}"
            steps = " / ".join(map(str, result.steps))
            key = f"{name}: {attack} v {defence}, check {CHECKS[check]}"
            entries[key] = f"{result.victor} | {fates} | check {result.check_passed} | {steps}"
    return entries


_DRILLED = ld.Doctrine(rerolls=1, name="Drilled")
COMPANY = ld.Force(
    [
        ld.Command(
            "1st",
            [ld.Unit("A", 10, 4), ld.Unit("B", 10, 5, doctrine=_DRILLED)],
            [ld.Leader("Lt", 3, rank=2, unit="A")],
        ),
        ld.Command("2nd", [ld.Unit("C", 10, 4), ld.Unit("D", 4, 4)]),
    ],
    [ld.Leader("Cpt", 2, rank=3)],
)
FACES = {
    "all 1s": dict.fromkeys(["A", "C", "D", "1st", "2nd", "force"], [1]) | {"B": [1, 1]},
    "all 6s": dict.fromkeys(["A", "B", "C", "D", "1st", "2nd", "force"], [6]),
    "mixed": {"A": [1], "B": [1, 6], "C": [6], "D": [1], "1st": [1], "2nd": [6], "force": [2]},
}
# A command of two units never tests (one left is half); one of three does (LD-9), so
# here a command fails and takes its last unit with it (LD-10), on the word of a rank 1
# leader who outranks the ordinary models beside him (LD-3, LD-C9).
SECTION = ld.Force(
    [
        ld.Command(
            "3rd",
            [ld.Unit("E", 4, 4), ld.Unit("F", 4, 4), ld.Unit("G", 4, 4)],
            [ld.Leader("Sgt", 5, rank=1, unit="E")],
        ),
        ld.Command("4th", [ld.Unit("H", 4, 3)]),
    ]
)
SECTION_FACES = {
    "all 1s": dict.fromkeys(["E", "F", "G", "H", "3rd", "4th", "force"], [1]),
    "all 6s": dict.fromkeys(["E", "F", "G", "H", "3rd", "4th", "force"], [6]),
}


def _phase_rulings(
    force: ld.Force, losses: dict[str, tuple[int, ...]], faces: dict[str, dict]
) -> dict[str, str]:
    """Every test and removal of `resolve_phase` for each combination of `losses` (the
    casualties each unit may take) and `faces`, in both readings of LD-C5."""
    entries = {}
    for *lost, (named, dice), survive in product(*losses.values(), faces.items(), (False, True)):
        casualties = {name: n for name, n in zip(losses, lost, strict=True) if n}
        readings = ld.Readings(removed_figures_survive=survive)
        result = ld.resolve_phase(force, casualties, dice, readings=readings)
        tests = " / ".join(
            f"{t.who} {t.level} {t.clause} on {t.figure} {t.target}+ rolled {t.rolls} "
            f"{'passed' if t.passed else 'failed'}{' (ignored)' if t.ignored else ''}"
            for t in result.tests
        )
        removed = " / ".join(f"{r.who} {r.level} {r.clause}: {r.reason}" for r in result.removed)
        key = f"casualties {casualties}, dice {named}, removed figures survive {survive}"
        entries[key] = f"{tests} | {removed} | broken {result.force_broken}"
    return entries


def leadership_rulings() -> dict[str, str]:
    company = {"A": (0, 6, 10), "B": (0, 6, 10), "C": (0, 6, 10), "D": (0, 4)}
    section = {"E": (0, 3), "F": (0, 4), "G": (0, 4), "H": (0, 3)}
    return _phase_rulings(COMPANY, company, FACES) | {
        f"{SECTION.commands[0].name} and {SECTION.commands[1].name}: {key}": ruled
        for key, ruled in _phase_rulings(SECTION, section, SECTION_FACES).items()
    }


def standards_rulings() -> dict[str, str]:
    """Every verdict of the decision table, keyed by the round and the reading of ST-C1."""
    entries = {}
    for r in st.every_round():
        key = " ".join(f"{name}={getattr(value, 'name', value)}" for name, value in vars(r).items())
        for suffices in (False, True):
            verdicts = st.standard_fate(r, readings=st.Readings(free_to_pursue_suffices=suffices))
            entries[f"{key} free_to_pursue_suffices={suffices}"] = " | ".join(
                f"{v} [by {v.by}]" for v in verdicts
            )
    return entries


RULINGS = {
    "rulings/messages.json": messages,
    "rulings/break_test.json": break_test_rulings,
    "rulings/campaign.json": campaign_rulings,
    "rulings/leadership.json": leadership_rulings,
    "rulings/standards.json": standards_rulings,
}


def rulings() -> dict[str, str]:
    """Each file's path under tests/snapshots/ and its text, from the current code."""
    return {name: _lines(ruled()) for name, ruled in RULINGS.items()}


@pytest.mark.parametrize("name", sorted(RULINGS))
def test_rulings_equal_the_snapshot(name):
    # computed here, not when the tests are collected: mutation testing runs each mutant
    # in a process forked after collection
    stored = json.loads((FOLDER.parent / name).read_text(encoding="utf-8"))
    now = RULINGS[name]()
    changed = {key: (stored.get(key), now.get(key)) for key in stored.keys() | now.keys()}
    changed = {key: pair for key, pair in changed.items() if pair[0] != pair[1]}
    assert not changed, (
        f"the words of {len(changed)} rulings in {name} changed (snapshot, now); if meant, "
        f"run `make snapshot`: {dict(sorted(changed.items())[:10])}"
    )
