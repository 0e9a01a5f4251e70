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
from functools import lru_cache
from typing import Any

from rulesref.errors import RulesError
from rulesref.exact import Rational, fraction_text, short_fraction
from rulesref.inputs import InputError, force_from_json, parse_json
from rulesref.views import percent, points
from rulesref.views.chain_of_command import chain_of_command_html

__all__ = [
    "answer",
    "answer_text",
    "compared",
    "force_odds",
    "battle_odds_json",
]

Json = dict[str, Any]
# An answer's exact numbers before they are written for the page: each outcome's
# probability, in mappings by name (a unit, a role, a fate) as deep as the answer nests.
Tree = Mapping[str, "Rational | Tree"]


def _exact(p: Rational) -> dict[str, str]:
    """A probability for the page: its fraction whole (for a Download) and its percentage;
    a fraction too long to read is summarised in `shown` ("an exact fraction of 31,204
    digits"), and the page shows that instead."""
    shown = short_fraction(p)
    whole = {"probability": fraction_text(p), "percent": percent(p)}
    return whole if shown == whole["probability"] else {**whole, "shown": shown}


def _written(tree: Tree) -> Json:
    """A tree of probabilities for JSON, each one `_exact`."""
    return {
        name: _written(value) if isinstance(value, Mapping) else _exact(value)
        for name, value in tree.items()
    }


def _named(mapping: Mapping[Any, Rational]) -> dict[str, Rational]:
    """An odds mapping keyed by text (None as "none"), as JSON keys it."""
    return {"none" if key is None else str(key): p for key, p in mapping.items()}


def _force(data: object) -> tuple[Json, Tree]:
    """A force's end of phase: what the page shows beside the odds, and the odds."""
    question = force_from_json(data)
    odds = question.odds()
    tree = {
        "force_breaks": odds.force_breaks,
        "unit_fails": _named(odds.unit_fails),
        "unit_removed": _named(odds.unit_removed),
        "command_fails": _named(odds.command_fails),
        "command_removed": _named(odds.command_removed),
    }
    about = {"test": "cascade", "force": question.force.name}
    return {**about, "html": chain_of_command_html(question.force, odds)}, tree


def _battle(data: object) -> tuple[Json, Tree]:
    """A battle's odds, and the name of its test."""
    # imported for a battle only: a force's answer never loads the campaign rules, and
    # the Workbench, which imports this module as it starts, is ready sooner
    from rulesref.campaign import Role
    from rulesref.inputs.battle import battle_from_json

    odds = battle_from_json(data).odds()
    tree: dict[str, Rational | Tree] = {
        "victor": _named(odds.victor),
        "outcomes": _named(odds.outcomes),
    }
    for name in ("hits", "battle_damage", "fate"):
        tree[name] = {str(role): _named(getattr(odds, name)[role]) for role in Role}
    tree |= {"routed": _named(odds.routed), "must_check": _named(odds.must_check)}
    return {"test": "battle"}, tree


def _shown(about: Json, tree: Tree) -> Json:
    """An answer as the page reads it: its name and force first, its odds, its chart last."""
    html = {"html": about["html"]} if "html" in about else {}
    head = {key: value for key, value in about.items() if key != "html"}
    return {**head, **_written(tree), **html}


def force_odds(data: object) -> Json:
    """The exact odds of a force's end of phase (LD-4 to LD-12), from the JSON that
    `rulesref cascade` reads (`rulesref.inputs.force_from_json`), with `prefer` (figure
    names, LD-C8) and `removed_figures_survive` (LD-C5). The chain of command is drawn as
    on the rules page, shaded by each unit's chance to go: `html`, a tree for a wide
    screen and a list for a phone (`chain_of_command_html`), the stylesheet showing one."""
    return _shown(*_force(data))


def battle_odds_json(data: object) -> Json:
    """The exact odds of a campaign battle (CA-2 to CA-20) from the JSON that `rulesref
    battle --file` reads (`rulesref.inputs.battle.battle_from_json`): per side `platoons` (kind,
    state, supplied, name, declaration) and `fortified`; `terrain`, `garrison`,
    `readings`, `policy` ("fewest withdrawals" or "most withdrawals") and `leadership`
    ({"leadership": 7} or {"probability": "1/2"})."""
    return _shown(*_battle(data))


def _difference(a: Tree, b: Tree, absent_is_nought: bool) -> Json:
    """B - A of each probability both trees hold. In a battle's odds an outcome one of
    them leaves out has probability 0 there; a force's unit or command that only one of
    them has is not compared."""
    names = [*b, *(n for n in a if n not in b)] if absent_is_nought else [n for n in b if n in a]
    differences: Json = {}
    for name in names:
        in_a, in_b = a.get(name, Rational(0)), b.get(name, Rational(0))
        if isinstance(in_a, Mapping) and isinstance(in_b, Mapping):
            differences[name] = _difference(in_a, in_b, absent_is_nought)
        elif not isinstance(in_a, Mapping) and not isinstance(in_b, Mapping):
            differences[name] = _change(in_b - in_a)
    return differences


def _change(difference: Rational) -> dict[str, str]:
    """A difference for the page, as `_exact` writes a probability: whole, in points, and
    summarised in `shown` when too long to read."""
    shown = short_fraction(difference)
    whole = {"difference": fraction_text(difference), "points": points(difference)}
    return whole if shown == whole["difference"] else {**whole, "shown": shown}


def answer_text(text: str, kept: str | None = None) -> str:
    """`answer` from JSON text to JSON text, as the page calls it; the text read as the
    command line reads a file (`rulesref.inputs.parse_json`: size, depth, duplicate keys).
    With `kept`, the description kept as A: `compared`."""
    try:
        question = parse_json(text, "description")
    except RulesError as error:
        return json.dumps({"error": _refusal(error, [])})
    if kept is None:
        return json.dumps(answer(question))
    return json.dumps(compared(question, kept))


def _refusal(error: RulesError, path: list[str | int]) -> Json:
    return {"path": path, "message": str(error), "parameter": error.parameter}


def _answered(question: object) -> tuple[Json, Tree] | Json:
    """What a question shows and its odds, or `{"error": ...}` for its first bad field."""
    try:
        if isinstance(question, dict) and set(question) == {"force"}:
            return _force(question["force"])
        if isinstance(question, dict) and set(question) == {"battle"}:
            return _battle(question["battle"])
        allowed = "{'force': ...} or {'battle': ...}"
        raise RulesError(parameter="question", value=question, allowed=allowed)
    except InputError as error:
        return {"error": _refusal(error, list(error.path))}
    except RulesError as error:
        return {"error": _refusal(error, [])}


def answer(question: object) -> Json:
    """The page's one call: `{"force": ...}` or `{"battle": ...}` in, the odds out, or
    `{"error": {"path": [...], "message": ..., "parameter": ...}}` for the first bad field
    (`parameter` as the rules name it, "" for a refusal written as a sentence)."""
    answered = _answered(question)
    return _shown(*answered) if isinstance(answered, tuple) else answered


@lru_cache(maxsize=2)
def _kept(text: str) -> tuple[Json, Tree] | Json:
    """A kept description's answer, worked out once: the page asks it again with each
    change of B (the one mutable thing it returns is never changed)."""
    try:
        return _answered(parse_json(text, "kept description"))
    except RulesError as error:
        return {"error": _refusal(error, [])}


def compared(question: object, kept: str) -> Json:
    """A and B side by side: `answer` of `question` (B, as the player has changed it),
    with `a`, the answer of the description kept as A (JSON text, of the same test), and
    `difference`, B - A of each probability both have (`difference` exact and signed,
    `points` to read); a refusal of B is its `error`, as `answer` gives it.

    ```python
    import json

    from rulesref.workbench import compared

    unit = {"name": "A", "starting": 10, "leadership": "4+"}
    a = {"force": {"commands": [{"name": "P", "units": [unit]}], "casualties": {"A": 6}}}
    steadier = {**unit, "leadership": "3+"}
    b = {"force": {**a["force"], "commands": [{"name": "P", "units": [steadier]}]}}
    both = compared(b, json.dumps(a))
    print(both["a"]["force_breaks"]["percent"], both["force_breaks"]["percent"])
    #> 50.0% 33.3%
    print(both["difference"]["force_breaks"])
    #> {'difference': '-1/6', 'points': '-16.7 points'}
    ```
    """
    answered, of_a = _answered(question), _kept(kept)
    if not isinstance(answered, tuple):
        return answered
    if not isinstance(of_a, tuple):
        return {**_shown(*answered), "a": of_a}
    if of_a[0]["test"] != answered[0]["test"]:
        refusal = RulesError(parameter="kept", value=of_a[0]["test"], allowed=answered[0]["test"])
        return {**_shown(*answered), "a": {"error": _refusal(refusal, [])}}
    in_battle = answered[0]["test"] == "battle"
    difference = _difference(of_a[1], answered[1], absent_is_nought=in_battle)
    return {**_shown(*answered), "a": _shown(*of_a), "difference": difference}
