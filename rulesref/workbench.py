"""What the Workbench page asks of rulesref: a force or a battle described in JSON, its
exact odds back as JSON (fractions as text, with a percent to read), or the place and the
message of the first bad field. The page runs this module in the browser (Pyodide); the
same functions run here, so the page's answers are the package's.

```python
from rulesref.workbench import answer

force = {
    "commands": [{"name": "P", "units": [{"name": "A", "starting": 10, "leadership": "4+"}]}],
    "casualties": {"A": 6},
}
print(answer({"force": force})["force_breaks"])
#> {'probability': '1/2', 'percent': '50.0%'}
error = answer({"force": {**force, "casualties": {"A": 11}}})["error"]
print(error["path"], error["message"])
#> ['casualties', 'A'] casualties['A'] must be a whole number from 0 to 10, got 11
```
"""

import json
import re
from collections.abc import Mapping
from typing import Any

from rulesref import leadership
from rulesref.campaign import (
    Battle,
    LeadershipCheck,
    Platoon,
    Readings,
    Role,
    Roll,
    Side,
    fewest_withdrawals,
    most_withdrawals,
)
from rulesref.cli import InputError, force_from_json, located, parse_json
from rulesref.errors import RulesError, one_of, word_of
from rulesref.exact import Rational
from rulesref.odds.battle import battle_odds
from rulesref.odds.cascade import cascade_probabilities
from rulesref.tables import percent
from rulesref.views.chain_of_command import chain_of_command_svg

__all__ = ["answer", "answer_text", "force_odds", "battle_odds_json", "POLICIES"]

Json = dict[str, Any]
# the hit policies a player chooses between (CA-15, CA-C9), by the words the form sends
POLICIES = {"fewest withdrawals": fewest_withdrawals, "most withdrawals": most_withdrawals}
# a declaration left out (or "side"): the platoon rolls for its side's role, if it may roll
SIDE_DEFAULT = "side"
OPTIONS = ("prefer", "removed_figures_survive")  # of cascade_probabilities, in a force's JSON
PLATOON = re.compile(r"(attacker|defender) platoon (\d+) ")  # how Battle names a platoon


def _exact(p: Rational) -> dict[str, str]:
    return {"probability": str(p), "percent": percent(p)}


def _odds(mapping: Mapping[Any, Rational]) -> dict[str, dict[str, str]]:
    """An odds mapping for JSON: each key as text (None as "none"), each probability exact."""
    return {"none" if key is None else str(key): _exact(p) for key, p in mapping.items()}


def force_odds(data: object) -> Json:
    """The exact odds of a force's end of phase (LD-4 to LD-12), from the JSON that
    `rulesref cascade` reads; options `prefer` (figure names, LD-C8) and
    `removed_figures_survive` (a reading) may be added to it. The chain of command is
    drawn as SVG, shaded by each unit's chance to go."""
    options = {}
    if isinstance(data, dict):
        data = dict(data)
        options = {key: data.pop(key) for key in OPTIONS if key in data}
    force, casualties = force_from_json(data)
    try:
        with located(fields=options):
            survive = options.get("removed_figures_survive", False)
            readings = leadership.Readings(removed_figures_survive=survive)
            prefer = options.get("prefer", ())
            odds = cascade_probabilities(force, casualties, prefer=prefer, readings=readings)
    except InputError as error:
        raise InputError(str(error), _casualty(error, casualties) or error.path) from None
    return {
        "test": "cascade",
        "force": force.name,
        "force_breaks": _exact(odds.force_breaks),
        "unit_fails": _odds(odds.unit_fails),
        "unit_removed": _odds(odds.unit_removed),
        "command_fails": _odds(odds.command_fails),
        "command_removed": _odds(odds.command_removed),
        "svg": chain_of_command_svg(force, odds),
    }


def _casualty(error: RulesError, casualties: object) -> tuple[str, ...]:
    """The place of a bad casualty count: the unit its message names (`casualties['A']`)."""
    if not str(error).startswith("casualties") or not isinstance(casualties, Mapping):
        return ()
    named = [name for name in casualties if repr(name) in str(error)]
    return ("casualties", *named[:1])


def _platoons(role: str, side: Json) -> tuple[list[Platoon], list[object]]:
    platoons, declared = [], []
    written = side.get("platoons")
    if not isinstance(written, list):
        raise InputError(f"platoons must be a JSON list, got {written!r}", (role, "platoons"))
    for index, fields in enumerate(written):
        with located(role, "platoons", index, fields=("kind", "state", "supplied", "name")):
            if not isinstance(fields, dict):
                raise RulesError(f"each platoon must be a JSON object, got {fields!r}")
            fields = dict(fields)
            declaration = fields.pop("declaration", SIDE_DEFAULT)
            if declaration not in (SIDE_DEFAULT, None):
                with located("declaration"):
                    declaration = word_of("declaration", declaration, Roll)
            declared.append(declaration)
            try:
                platoons.append(Platoon(**fields))
            except TypeError as error:  # a misspelt field
                raise RulesError(f"platoon: {error}") from None
    return platoons, declared


def _battle(data: object) -> tuple[Battle, Json]:
    """A Battle and the options of `battle_odds` from the Workbench's JSON (CA-2: a
    declaration of "side", or none, rolls for the side's role where the platoon may roll)."""
    if not isinstance(data, dict):
        raise InputError(f"the battle must be one JSON object, got {data!r}", ())
    sides: dict[str, Side] = {}
    declared: dict[str, list[object]] = {}
    for role in Role:
        side = data.get(role)
        if not isinstance(side, dict):
            raise InputError(f"{role} must be a JSON object, got {side!r}", (role,))
        platoons, declared[role] = _platoons(role, side)
        with located(role, fields=("platoons", "fortified")):
            sides[role] = Side(platoons, fortified=side.get("fortified", False))
    readings = data.get("readings", {})
    with located("readings", fields=readings if isinstance(readings, dict) else ()):
        if not isinstance(readings, dict):
            raise RulesError(f"readings must be a JSON object, got {readings!r}")
        try:
            readings = Readings(**readings)
        except TypeError as error:  # a misspelt reading
            raise RulesError(f"readings: {error}") from None
    terrain, garrison = data.get("terrain", "open"), data.get("garrison", False)
    with located(fields=("terrain", "garrison")):
        defaults = Battle(sides["attacker"], sides["defender"], terrain, garrison, readings)
    for role in Role:
        own: list[Any] = [
            default if written == SIDE_DEFAULT else written
            for written, default in zip(declared[role], defaults.declarations(role), strict=True)
        ]
        with located(role, fields=("declarations",)):
            sides[role] = Side(sides[role].platoons, own, fortified=sides[role].fortified)
    try:
        battle = Battle(sides["attacker"], sides["defender"], terrain, garrison, readings)
    except RulesError as error:  # "attacker platoon 2 (...) may not roll": its declaration
        where = PLATOON.match(str(error))
        path = (where[1], "platoons", int(where[2]), "declaration") if where else ()
        raise InputError(str(error), path) from None
    return battle, {"policy": _policy(data), "leadership": _check(data)}


def _policy(data: Json) -> Any:
    with located(fields=("policy",)):
        return POLICIES[one_of("policy", data.get("policy", "fewest withdrawals"), list(POLICIES))]


def _check(data: Json) -> LeadershipCheck:
    """CA-C5: the loser's check, on a Leadership or at a given probability written `p/q`."""
    check = data.get("leadership", {})
    with located("leadership", fields=("leadership", "probability")):
        if not isinstance(check, dict):
            raise RulesError(f"leadership must be a JSON object, got {check!r}")
        probability = check.get("probability")
        if isinstance(probability, str):  # exact, as the player wrote it: never a float
            try:
                if "/" in probability or probability.isdigit():
                    probability = Rational(probability)
            except (TypeError, ValueError, ZeroDivisionError):
                pass  # left as text, for LeadershipCheck to refuse by name
        return LeadershipCheck(check.get("leadership", 7), probability)


def battle_odds_json(data: object) -> Json:
    """The exact odds of a campaign battle (CA-2 to CA-20) from the Workbench's JSON: per
    side `platoons` (kind, state, supplied, name, declaration) and `fortified`; `terrain`,
    `garrison`, `readings`, `policy` ("fewest withdrawals" or "most withdrawals") and
    `leadership` ({"leadership": 7} or {"probability": "1/2"})."""
    battle, options = _battle(data)
    odds = battle_odds(battle, **options)
    return {
        "test": "battle",
        "victor": _odds(odds.victor),
        "outcomes": _odds(odds.outcomes),
        **{
            name: {role: _odds(getattr(odds, name)[role]) for role in Role}
            for name in ("hits", "battle_damage", "fate")
        },
        "routed": _odds(odds.routed),
        "must_check": _odds(odds.must_check),
    }


def answer_text(text: str) -> str:
    """`answer` from JSON text to JSON text, as the page calls it; the text within the
    command line's limits (`rulesref.cli.parse_json`)."""
    try:
        question = parse_json(text.encode("utf-8", "surrogatepass"), "description", "the form")
    except RulesError as error:
        return json.dumps({"error": {"path": [], "message": str(error)}})
    return json.dumps(answer(question))


def answer(question: object) -> Json:
    """The page's one call: `{"force": ...}` or `{"battle": ...}` in, the odds out, or
    `{"error": {"path": [...], "message": ...}}` for the first bad field."""
    try:
        if isinstance(question, dict) and set(question) == {"force"}:
            return force_odds(question["force"])
        if isinstance(question, dict) and set(question) == {"battle"}:
            return battle_odds_json(question["battle"])
        raise InputError(
            f"question must be {{'force': ...}} or {{'battle': ...}}, got {question!r}", ()
        )
    except InputError as error:
        return {"error": {"path": list(error.path), "message": str(error)}}
    except RulesError as error:
        return {"error": {"path": [], "message": str(error)}}
