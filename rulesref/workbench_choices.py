"""What the Workbench page offers and assumes, from the package itself: the words a field
may take, the defaults of what a description leaves out, the limits, and the page's first
answers. `docs/hooks/workbench_data.py` writes `page_data` to the site's
`data/workbench.json` at build time, so the page's JavaScript copies none of the rules.

```python
from rulesref.workbench_choices import choices

battle = choices()["battle"]
print(battle["terrains"], battle["defaults"]["leadership"])
#> ['open', 'forest', 'woods', 'mountain'] 7
print(choices()["force"]["defaults"]["leader"])
#> {'unit': None, 'alive': True}
```
"""

import inspect
from dataclasses import fields
from typing import Any

from rulesref import campaign, leadership
from rulesref.campaign import Kind, Roll, State, Terrain
from rulesref.campaign.model import MAX_CHECK_LEADERSHIP, MAX_PLATOONS
from rulesref.errors import RulesError
from rulesref.inputs import MAX_BYTES, MAX_DEPTH
from rulesref.inputs.battle import POLICIES, SIDE_DEFAULT
from rulesref.leadership import MAX_UNITS
from rulesref.workbench import answer

__all__ = ["choices", "page_data", "SAMPLE_BATTLE"]

Json = dict[str, Any]
# The longest address the page writes: longer descriptions are shared as a file. Chat
# programs and browsers keep links of this length whole (the page says so beyond it).
MAX_ADDRESS_LENGTH = 32_000
# The page's words for each reading's box, ticked when the reading applies.
FORCE_READINGS = {"removed_figures_survive": "removed figures survive (LD-C5)"}
BATTLE_READINGS = {
    "fubar_modified": "other modifiers apply to a FUBAR 1 (CA-C2)",
    "clamp_rolls": "a roll below 0 counts as 0 (CA-C4)",
    "woods_is_forest": "woods and forest are one terrain (CA-C10)",
    "mountain_both_sides": "both armies are in the mountain hex (CA-C11)",
    "defence_minus_attack": "Battle Damage is defence minus attack (CA-C18)",
}
SHOWN = {State.FUBAR: "FUBAR", SIDE_DEFAULT: "as its side"}  # words shown otherwise than written
# What the page's "Add" buttons start from (a player's starting point, not a rule)
NEW = {
    "unit": {"starting": 10, "leadership": "4+"},
    "leader": {"leadership": "4+", "rank": 1},
    "platoon": {"kind": str(Kind.INFANTRY)},
}
# The battle the page's battle tab opens on: a gun and a platoon against one platoon
SAMPLE_BATTLE: Json = {
    "attacker": {"platoons": [{"kind": "artillery"}, {"kind": "infantry"}]},
    "defender": {"platoons": [{"kind": "infantry"}]},
}


def _defaults(kind: type) -> Json:
    """The JSON defaults of a record's constructor: what a description may leave out."""
    return {
        name: str(parameter.default) if isinstance(parameter.default, str) else parameter.default
        for name, parameter in inspect.signature(kind).parameters.items()
        if parameter.default is None or isinstance(parameter.default, bool | int | str)
    }


def _readings(kind: type, words: dict[str, str]) -> list[Json]:
    """Each reading of a document's `Readings`: its field, its box's words, its default."""
    named = [field.name for field in fields(kind)]
    if sorted(named) != sorted(words):  # a new reading needs the words of its box
        raise RulesError(f"readings must have the page's words, got {sorted(words)} for {named}")
    return [
        {"name": field.name, "label": words[field.name], "default": field.default}
        for field in fields(kind)
    ]


def _words(words: list[Any]) -> list[list[str]]:
    """[written, shown] for each word of a list the page offers."""
    return [[str(word), SHOWN.get(word, str(word))] for word in words]


def choices() -> Json:
    """The Workbench's fields: the words each may take, the defaults, the limits."""
    battle = _defaults(campaign.Battle)
    return {
        "limits": {
            "address": MAX_ADDRESS_LENGTH,
            "bytes": MAX_BYTES,
            "depth": MAX_DEPTH,
            "units": MAX_UNITS,
            "leaders": MAX_UNITS,
            "commands": MAX_UNITS,
            "platoons": MAX_PLATOONS,
            "leadership": MAX_CHECK_LEADERSHIP,
        },
        "new": NEW,
        "force": {
            "defaults": {
                "unit": _defaults(leadership.Unit),
                "leader": _defaults(leadership.Leader),
                "doctrine": _defaults(leadership.Doctrine),
            },
            "readings": _readings(leadership.Readings, FORCE_READINGS),
        },
        "battle": {
            "kinds": [str(kind) for kind in Kind],
            "states": _words(list(State)),
            "terrains": [str(terrain) for terrain in Terrain],
            "declarations": _words([SIDE_DEFAULT, *Roll]),
            "policies": list(POLICIES),
            "defaults": {
                "platoon": {**_defaults(campaign.Platoon), "declaration": SIDE_DEFAULT},
                "fortified": _defaults(campaign.Side)["fortified"],
                "terrain": battle["terrain"],
                "garrison": battle["garrison"],
                "policy": next(iter(POLICIES)),
                "leadership": campaign.LeadershipCheck().leadership,
            },
            "readings": _readings(campaign.Readings, BATTLE_READINGS),
        },
    }


def page_data(force: Json) -> Json:
    """`choices` with the descriptions the page opens on (`force`, and `SAMPLE_BATTLE`) and
    their answers, shown at once while Python starts in the page."""
    samples = {"force": force, "battle": SAMPLE_BATTLE}
    return {
        **choices(),
        "samples": samples,
        "answers": {tab: answer({tab: sample}) for tab, sample in samples.items()},
    }
