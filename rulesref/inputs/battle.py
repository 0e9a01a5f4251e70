"""A campaign battle as the command line and the Workbench read it: the JSON of two sides,
their platoons and the battle's terms, checked by `rulesref.inputs`'s reader (the size,
the nesting, the JSON, then each field by the rules that take it), every refusal an
`InputError` at its place.

```python
from rulesref.inputs.battle import battle_from_json

written = {"attacker": {"platoons": [{"kind": "artillery"}]}, "defender": {"platoons": [{}]}}
print(battle_from_json(written).odds().victor)
#> {'attacker': 7/12, 'defender': 5/18, None: 5/36}
```
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesref import campaign
from rulesref.campaign import (
    Battle,
    Kind,
    LeadershipCheck,
    Platoon,
    Policy,
    Role,
    Roll,
    Side,
    State,
    Terrain,
    fewest_withdrawals,
    most_withdrawals,
)
from rulesref.campaign.model import MAX_CHECK_LEADERSHIP
from rulesref.errors import RulesError, one_of, word_of
from rulesref.inputs import (
    InputError,
    Place,
    field_names,
    json_list,
    json_object,
    located,
    parse_probability,
)
from rulesref.odds.battle import BattleOdds, battle_odds

__all__ = ["POLICIES", "BattleQuestion", "battle_from_json"]

# the hit policies a player chooses between (CA-15, CA-C9), by the words the form sends
POLICIES: dict[str, Policy] = {
    "fewest withdrawals": fewest_withdrawals,
    "most withdrawals": most_withdrawals,
}
SIDE_DEFAULT = "side"  # a platoon's declaration left to its side's role (CA-2)


@dataclass(frozen=True)
class BattleQuestion:
    """A campaign battle as the command line and the Workbench ask it: the battle, the
    policy that assigns hits (CA-15, CA-C9) and the loser's check (CA-C5)."""

    battle: Battle
    policy: Policy = fewest_withdrawals
    leadership: LeadershipCheck = LeadershipCheck()

    def odds(self) -> BattleOdds:
        """`battle_odds` of the question."""
        return battle_odds(self.battle, policy=self.policy, leadership=self.leadership)


BATTLE_FIELDS = ("attacker", "defender", "terrain", "garrison", "readings", "policy", "leadership")
SIDE_FIELDS = ("platoons", "fortified")
PLATOON_FIELDS = ("kind", "state", "supplied", "name", "declaration")
CHECK_FIELDS = ("leadership", "probability")


def battle_from_json(data: object) -> BattleQuestion:
    """A battle's question from parsed JSON, as `rulesref battle --file` and the Workbench
    read it and the Workbench downloads it: per side (`attacker`, `defender`) its
    `platoons` (kind, state, supplied, name, declaration: "attack", "defence", null, or
    "side" for its side's role, CA-2) and `fortified`; `terrain`, `garrison`, `readings`
    (those of `rulesref.campaign.Readings`), `policy` ("fewest withdrawals" or "most
    withdrawals") and `leadership` ({"leadership": 7} or {"probability": "1/2"}). Bad
    input raises an `InputError` at its place.

    ```python
    from rulesref.inputs import InputError
    from rulesref.inputs.battle import battle_from_json

    written = {"attacker": {"platoons": [{"kind": "dragoons"}]}, "defender": {"platoons": [{}]}}
    try:
        battle_from_json(written)
    except InputError as error:
        print(error.path)
        #> ('attacker', 'platoons', 0, 'kind')
    ```
    """
    with located():
        fields = json_object("battle", data, BATTLE_FIELDS, list(Role))
    sides: dict[str, Side] = {}
    declared: dict[str, list[object]] = {}
    for role in Role:
        with located(role):
            sides[role], declared[role] = _side(fields[role])
    readings = _readings(fields.get("readings", {}))
    with located(places={"terrain": ("terrain",), "garrison": ("garrison",)}):
        terrain = word_of("terrain", fields.get("terrain", Terrain.OPEN), Terrain)
        garrison = fields.get("garrison", False)
        battle = Battle(sides["attacker"], sides["defender"], terrain, garrison, readings)
    with located("policy"):
        policy = POLICIES[
            one_of("policy", fields.get("policy", "fewest withdrawals"), list(POLICIES))
        ]
    return BattleQuestion(
        _as_declared(battle, declared), policy, _check(fields.get("leadership", {}))
    )


def _side(written: object) -> tuple[Side, list[object]]:
    """A side, its platoons rolling for the side's role, and each platoon's declaration."""
    fields = json_object("side", written, SIDE_FIELDS, ("platoons",))
    platoons, declared = [], []
    for index, item in enumerate(json_list("platoons", fields["platoons"])):
        with located("platoons", index):
            platoon = json_object("platoon", item, PLATOON_FIELDS)
            declaration = platoon.pop("declaration", SIDE_DEFAULT)
            if declaration not in (SIDE_DEFAULT, None):
                with located("declaration"):
                    declaration = word_of("declaration", declaration, Roll)
            declared.append(declaration)
            with located(places={field: (field,) for field in PLATOON_FIELDS}):
                for field, words in (("kind", Kind), ("state", State)):
                    if field in platoon:
                        platoon[field] = word_of(field, platoon[field], words)
                platoons.append(Platoon(**platoon))
    with located(places={field: (field,) for field in SIDE_FIELDS}):
        return Side(tuple(platoons), fortified=fields.get("fortified", False)), declared


def _readings(written: object) -> campaign.Readings:
    every = field_names(campaign.Readings)
    with located("readings", places={field: (field,) for field in every}):
        return campaign.Readings(**json_object("readings", written, every))


def _as_declared(battle: Battle, declared: Mapping[str, list[object]]) -> Battle:
    """CA-2: the battle with each platoon rolling as its player declared; one left to its
    side rolls as `battle` (built with no declarations) says: its side's role, or
    nothing if it may not roll. A declaration against that is refused at its place."""
    if all(written == SIDE_DEFAULT for role in Role for written in declared[role]):
        return battle
    sides: dict[str, Side] = {}
    for role in Role:
        own: tuple[Any, ...] = tuple(
            default if written == SIDE_DEFAULT else written
            for written, default in zip(declared[role], battle.declarations(role), strict=True)
        )
        side = battle.side(role)
        sides[role] = Side(side.platoons, own, fortified=side.fortified)
    try:
        return Battle(
            sides["attacker"], sides["defender"], battle.terrain, battle.garrison, battle.readings
        )
    except RulesError as error:  # CA-2, CA-10, CA-C1: the first platoon declared against its die
        raise InputError(error, _against_its_die(battle, declared)) from None


def _against_its_die(battle: Battle, declared: Mapping[str, list[object]]) -> Place:
    for role in Role:
        for index, (written, default) in enumerate(
            zip(declared[role], battle.declarations(role), strict=True)
        ):
            if written != SIDE_DEFAULT and (written is None) != (default is None):
                return (role, "platoons", index, "declaration")
    return ()


def _check(written: object) -> LeadershipCheck:
    """CA-C5: the loser's check, on a Leadership or at a probability written as text."""
    with located("leadership"):
        fields = json_object("leadership", written, CHECK_FIELDS)
    with located("leadership", places={field: (field,) for field in CHECK_FIELDS}):
        if "leadership" in fields and fields["leadership"] is None:  # not "not given"
            allowed = f"a whole number from 0 to {MAX_CHECK_LEADERSHIP}"
            raise RulesError(parameter="leadership", value=None, allowed=allowed)
        if "probability" in fields:
            fields["probability"] = parse_probability(fields["probability"])
        return LeadershipCheck(**fields)
