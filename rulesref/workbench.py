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
from collections.abc import Mapping
from typing import Any

from rulesref.errors import RulesError
from rulesref.exact import Rational, fraction_text, short_fraction
from rulesref.inputs import POLICIES, InputError, battle_from_json, force_from_json, parse_json
from rulesref.tables import percent
from rulesref.views.chain_of_command import chain_of_command_html

__all__ = ["answer", "answer_text", "force_odds", "battle_odds_json", "POLICIES"]

Json = dict[str, Any]


def _exact(p: Rational) -> dict[str, str]:
    """A probability for the page: its fraction whole (for a Download) and its percentage;
    a fraction too long to read is summarised in `shown` ("an exact fraction of 31,204
    digits"), and the page shows that instead."""
    shown = short_fraction(p)
    whole = {"probability": fraction_text(p), "percent": percent(p)}
    return whole if shown == whole["probability"] else {**whole, "shown": shown}


def _odds(mapping: Mapping[Any, Rational]) -> dict[str, dict[str, str]]:
    """An odds mapping for JSON: each key as text (None as "none"), each probability exact."""
    return {"none" if key is None else str(key): _exact(p) for key, p in mapping.items()}


def force_odds(data: object) -> Json:
    """The exact odds of a force's end of phase (LD-4 to LD-12), from the JSON that
    `rulesref cascade` reads (`rulesref.inputs.force_from_json`), with `prefer` (figure
    names, LD-C8) and `removed_figures_survive` (LD-C5). The chain of command is drawn as
    on the rules page, shaded by each unit's chance to go: `html`, a tree for a wide
    screen and a list for a phone (`chain_of_command_html`), the stylesheet showing one."""
    question = force_from_json(data)
    odds = question.odds()
    return {
        "test": "cascade",
        "force": question.force.name,
        "force_breaks": _exact(odds.force_breaks),
        "unit_fails": _odds(odds.unit_fails),
        "unit_removed": _odds(odds.unit_removed),
        "command_fails": _odds(odds.command_fails),
        "command_removed": _odds(odds.command_removed),
        "html": chain_of_command_html(question.force, odds),
    }


def battle_odds_json(data: object) -> Json:
    """The exact odds of a campaign battle (CA-2 to CA-20) from the JSON that `rulesref
    battle --file` reads (`rulesref.inputs.battle_from_json`): per side `platoons` (kind,
    state, supplied, name, declaration) and `fortified`; `terrain`, `garrison`,
    `readings`, `policy` ("fewest withdrawals" or "most withdrawals") and `leadership`
    ({"leadership": 7} or {"probability": "1/2"})."""
    odds = battle_from_json(data).odds()
    return {
        "test": "battle",
        "victor": _odds(odds.victor),
        "outcomes": _odds(odds.outcomes),
        **{
            name: {role: _odds(getattr(odds, name)[role]) for role in ("attacker", "defender")}
            for name in ("hits", "battle_damage", "fate")
        },
        "routed": _odds(odds.routed),
        "must_check": _odds(odds.must_check),
    }


def answer_text(text: str) -> str:
    """`answer` from JSON text to JSON text, as the page calls it; the text read as the
    command line reads a file (`rulesref.inputs.parse_json`: size, depth, duplicate keys)."""
    try:
        question = parse_json(text, "description")
    except RulesError as error:
        return json.dumps({"error": _refusal(error, [])})
    return json.dumps(answer(question))


def _refusal(error: RulesError, path: list[str | int]) -> Json:
    return {"path": path, "message": str(error), "parameter": error.parameter}


def answer(question: object) -> Json:
    """The page's one call: `{"force": ...}` or `{"battle": ...}` in, the odds out, or
    `{"error": {"path": [...], "message": ..., "parameter": ...}}` for the first bad field
    (`parameter` as the rules name it, "" for a refusal written as a sentence)."""
    try:
        if isinstance(question, dict) and set(question) == {"force"}:
            return force_odds(question["force"])
        if isinstance(question, dict) and set(question) == {"battle"}:
            return battle_odds_json(question["battle"])
        allowed = "{'force': ...} or {'battle': ...}"
        raise RulesError(parameter="question", value=question, allowed=allowed)
    except InputError as error:
        return {"error": _refusal(error, list(error.path))}
    except RulesError as error:
        return {"error": _refusal(error, [])}
