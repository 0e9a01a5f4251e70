"""The one reader of what a player writes: the JSON of a force or a battle, and a
probability written as text, for the command line and the Workbench alike.

It checks in the order that bounds the work: the size first, then how deeply lists and
objects nest (before parsing, so no input can exhaust Python's recursion), then the JSON
itself (each key once in an object, numbers as written: no NaN, no float where a whole
number is meant), then the fields of each record (an unknown field is named), each
value by the rules that take it. Names are normalised (NFC), and two names of a force
that look alike (the same but for case, width or a compatibility form) are refused. A
refusal is an `InputError` that gives the place of the bad field. A battle is read by
`rulesref.inputs.battle` on these same helpers, in a module of its own so that reading a
force never loads the campaign rules (the Workbench answers a force sooner).

```python
import json

from rulesref.inputs import force_from_json, parse_json

unit = {"name": "Le\u0301on", "starting": 10, "leadership": "4+"}  # an e and an accent
text = json.dumps({"commands": [{"name": "P", "units": [unit]}], "casualties": {"L\u00e9on": 6}})
question = force_from_json(parse_json(text))  # read as one name, é
print(question.odds().unit_removed)
#> {'Léon': 1/2}
```
"""

import json
import re
import unicodedata
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from rulesref import leadership
from rulesref.errors import RulesError, instance_of
from rulesref.exact import Rational, parse_exact
from rulesref.leadership import (
    Command,
    Doctrine,
    Force,
    Leader,
    Unit,
    best_leadership,
    leadership_target,
)
from rulesref.odds.cascade import Cascade, cascade_probabilities

__all__ = [
    "InputError",
    "located",
    "parse_json",
    "parse_probability",
    "force_from_json",
    "ForceQuestion",
]

MAX_BYTES = 100_000  # a force or a battle; the units in it are limited by the rules
MAX_DEPTH = 20  # a force nests five levels deep; deeper is not a force
MAX_WHOLE_DIGITS = 12  # a whole number of JSON, as the calculators take them
MAX_PROBABILITY_TEXT = 100  # characters of a probability written by a person
LISTED = ("command", "unit", "leader", "platoon")  # records that come in lists
Place = tuple[str | int, ...]
T = TypeVar("T")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)  # a JSON string, escapes and all
_BRACKET = re.compile(r"[\[\]{}]")


class InputError(RulesError):
    """Bad input at one place of a JSON description: `path` holds the keys and list
    indexes that lead to it from the top, ending with the field when the refusal is about
    one. The message, `parameter`, `value` and `allowed` are those of the rule's refusal.

    ```python
    from rulesref.inputs import InputError, force_from_json

    unit = {"name": "A", "starting": -1, "leadership": "4+"}
    force = {"commands": [{"name": "P", "units": [unit]}]}
    try:
        force_from_json(force)
    except InputError as error:
        print(error.path, error.parameter, error.value)
        #> ('commands', 0, 'units', 0, 'starting') starting -1
    ```
    """

    def __init__(self, error: RulesError, path: Place) -> None:
        super().__init__(
            str(error), parameter=error.parameter, value=error.value, allowed=error.allowed
        )
        self.path = path


@contextmanager
def located(*path: str | int, places: Mapping[str, Place] | None = None) -> Iterator[None]:
    """Turns a RulesError raised inside into an InputError at `path` (one raised deeper
    keeps its own place below it); `places` gives the place below `path` of a refusal by
    its `parameter` (`{"starting": ("starting",)}`)."""
    try:
        yield
    except InputError as error:
        raise InputError(error, (*path, *error.path)) from None
    except RulesError as error:
        below = (places or {}).get(error.parameter, ())
        raise InputError(error, (*path, *below)) from None


# ------------------------------------------------------------------------- JSON text


@dataclass(frozen=True)
class Written:
    """A JSON number kept as written (`1e309`, `2.5`, a whole number of 13 digits or
    more), for the rules to refuse by name: no float ever stands for a whole number."""

    text: str

    def __repr__(self) -> str:
        return self.text


def _whole(text: str) -> int | Written:
    return int(text) if len(text.lstrip("-")) <= MAX_WHOLE_DIGITS else Written(text)


def _depth(text: str) -> int:
    """How deeply lists and objects nest in JSON text, counted without parsing it."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _utf8(raw: bytes | str) -> bytes:
    """Text as the bytes a file of it holds (a lone surrogate kept, for decoding to refuse)."""
    return raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw


def parse_json(raw: bytes | str, name: str = "file") -> object:
    """JSON within the readers' limits: at most `MAX_BYTES` of UTF-8, nested at most
    `MAX_DEPTH` deep, each key once in an object, no NaN or Infinity; each text NFC
    normalised. Else a RulesError about `name` (the file, the description).

    ```python
    from rulesref.inputs import parse_json

    print(parse_json(b'{"casualties": {"A": 6}, "starting": 1e309}'))
    #> {'casualties': {'A': 6}, 'starting': 1e309}
    ```
    """
    instance_of(name, raw, (bytes, str), "JSON text, as bytes or a str")
    size = len(raw) if len(raw) > MAX_BYTES else len(_utf8(raw))  # a character is 1 to 4 bytes
    if size > MAX_BYTES:
        raise RulesError(
            parameter=name, value=raw, allowed=f"at most {MAX_BYTES} bytes", got=f"{size}"
        )
    try:
        text = _utf8(raw).decode()
    except UnicodeDecodeError as error:
        readable = "readable JSON text in UTF-8"
        raise RulesError(
            parameter=name, value=raw, allowed=readable, got=f"({error.reason})"
        ) from None
    depth = _depth(text)
    if depth > MAX_DEPTH:
        allowed = f"JSON nesting lists and objects at most {MAX_DEPTH} deep"
        raise RulesError(parameter=name, value=raw, allowed=allowed, got=f"{depth} deep")

    def constant(word: str) -> object:
        raise RulesError(parameter=name, value=word, allowed="JSON without NaN or Infinity")

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        found: dict[str, object] = {}
        for key, value in items:
            key = unicodedata.normalize("NFC", key)
            if key in found:
                allowed = "JSON that gives each key of an object once"
                raise RulesError(parameter=name, value=key, allowed=allowed, got=f"{key!r} twice")
            found[key] = value
        return found

    try:
        data = json.loads(
            text,
            object_pairs_hook=pairs,
            parse_float=Written,
            parse_int=_whole,
            parse_constant=constant,
        )
    except RulesError:
        raise
    except ValueError as error:
        allowed = "readable JSON"
        raise RulesError(parameter=name, value=raw, allowed=allowed, got=f"({error})") from None
    return _normalised(data)


def _normalised(value: object) -> object:
    """Every text of parsed JSON in NFC, so a name typed two ways is one name (at most
    MAX_DEPTH calls deep: the depth is checked first)."""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [_normalised(item) for item in value]
    if isinstance(value, dict):
        return {key: _normalised(item) for key, item in value.items()}
    return value


def parse_probability(written: object, name: str = "probability") -> Rational:
    """A probability as a person writes it, `"7/12"`, `"0.25"`, `"1"` or `"0"`: ASCII
    digits with an optional decimal point, or a fraction of two whole numbers, from 0 to
    1, at most `MAX_PROBABILITY_TEXT` characters. Read the same wherever Python runs (the
    page too), never by a parser of expressions; anything else is a RulesError.

    ```python
    from rulesref.inputs import parse_probability

    print(parse_probability("7/12"), parse_probability("0.25"), parse_probability("1"))
    #> 7/12 1/4 1
    ```
    """
    allowed = (
        f"a probability from 0 to 1 written in at most {MAX_PROBABILITY_TEXT} characters, "
        "as digits with an optional decimal point (0.25) or a fraction of two whole numbers (7/12)"
    )
    if not isinstance(written, str) or len(written) > MAX_PROBABILITY_TEXT:
        raise RulesError(parameter=name, value=written, allowed=allowed)
    probability = parse_exact(written)
    if probability is None or probability > 1:
        raise RulesError(parameter=name, value=written, allowed=allowed)
    return probability


# ------------------------------------------------------------------------- records


def json_object(
    what: str, written: object, allowed: Sequence[str], required: Sequence[str] = ()
) -> dict[str, Any]:
    """The fields of a JSON object that describes a `what`, each one of `allowed` and
    every one of `required` there; else a RulesError (an unknown field at the object, which
    the form draws, a missing one at its own place)."""
    if not isinstance(written, dict):
        named = f"each {what}" if what in LISTED else what
        raise RulesError(parameter=named, value=written, allowed="a JSON object")
    for key in written:
        if key not in allowed:
            raise RulesError(
                parameter=f"{what} field", value=key, allowed=f"one of {', '.join(allowed)}"
            )
    for key in required:
        if key not in written:
            error = RulesError(parameter=key, allowed=f"given for each {what}", got="nothing")
            raise InputError(error, (key,))
    return dict(written)


def field_names(kind: Any) -> tuple[str, ...]:
    """The fields of a record of the rules, as its JSON object names them."""
    return tuple(field.name for field in fields(kind))


def json_list(name: str, written: object) -> list[Any]:
    """`written` if it is a JSON list, else a refusal at `name`."""
    if not isinstance(written, list):
        raise InputError(RulesError(parameter=name, value=written, allowed="a JSON list"), (name,))
    return written


def _places(kind: str, name: object, *fields: str) -> dict[str, Place]:
    """Where a record's constructor's refusals go, by the parameter each names: a field
    by its own name, `unit name`, `current of 'A'`, `units of command 'P'`."""
    places: dict[str, Place] = {}
    for field in fields:
        for spelled in (
            field,
            f"{kind} {field}",
            f"{field} of {name!r}",
            f"{field} of {kind} {name!r}",
            f"{field} of the {kind}",
        ):
            places[spelled] = (field,)
    return places


def _doctrine(written: object) -> Doctrine:
    fields = json_object("doctrine", written, field_names(Doctrine))
    with located(places=_places("doctrine", None, "rerolls", "ignores", "name")):
        return Doctrine(**fields)


def _with_doctrine(written: dict[str, Any]) -> dict[str, Any]:
    if "doctrine" in written:
        with located("doctrine"):
            written["doctrine"] = _doctrine(written["doctrine"])
    return written


def _leadership(written: Any) -> int:
    """A Leadership as a player writes it: the target (4), written ("4+"), or a list of one
    per model, of which LD-2 keeps the best (which refuses anything else)."""
    if isinstance(written, int | str):
        return leadership_target(written, "leadership")
    return best_leadership(written)


def _leader(written: object) -> Leader:
    fields = json_object("leader", written, field_names(Leader), ("name", "leadership", "rank"))
    name = fields.get("name")
    with located(places=_places("leader", name, "name", "leadership", "rank", "unit", "alive")):
        fields["leadership"] = _leadership(fields["leadership"])
        return Leader(**fields)


def _unit(written: object) -> Unit:
    fields = _with_doctrine(
        json_object("unit", written, field_names(Unit), ("name", "starting", "leadership"))
    )
    name = fields.get("name")
    every = ("name", "starting", "leadership", "current", "doctrine", "removed")
    with located(places=_places("unit", name, *every)):
        fields["leadership"] = _leadership(fields["leadership"])
        return Unit(**fields)


def _each(name: str, written: object, read: Callable[[object], T]) -> list[T]:
    """The records of a JSON list, each read by `read` at its index."""
    built = []
    for index, item in enumerate(json_list(name, written)):
        with located(name, index):
            built.append(read(item))
    return built


def _command(written: object) -> Command:
    fields = _with_doctrine(
        json_object("command", written, field_names(Command), ("name", "units"))
    )
    fields["units"] = _each("units", fields["units"], _unit)
    fields["leaders"] = _each("leaders", fields.get("leaders", []), _leader)
    with located(places=_places("command", fields["name"], "name", "units", "leaders", "doctrine")):
        return Command(**fields)


def _alike(name: str) -> str:
    """A name as a reader may see it: without case, width or compatibility forms."""
    return unicodedata.normalize("NFKC", name).casefold()


def _names_apart(named: Sequence[tuple[Place, object]]) -> None:
    """Every name of a force told apart from the others by eye (a casualty, a preference
    and a line of the answer each find a figure by its name)."""
    seen: dict[str, str] = {}
    for place, name in named:
        if not isinstance(name, str):
            continue  # refused by its record
        other = seen.get(_alike(name))
        seen.setdefault(_alike(name), name)
        if other is not None:
            allowed = "a name of its own in the force, not alike another but for case or width"
            got = f"{name!r} twice" if other == name else f"{name!r}, alike {other!r}"
            raise InputError(
                RulesError(parameter="name", value=name, allowed=allowed, got=got), place
            )


@dataclass(frozen=True)
class ForceQuestion:
    """A force's end of phase as the command line and the Workbench ask it: the force,
    this phase's casualties as written, the figures preferred among equals (LD-C8) and
    the reading of LD-C5."""

    force: Force
    casualties: Mapping[str, Any]
    prefer: tuple[str, ...] = ()
    readings: leadership.Readings = leadership.Readings()

    def odds(self) -> Cascade:
        """`cascade_probabilities` of the question; a refusal of a casualty or a preferred
        figure at its place."""
        places: dict[str, Place] = {
            f"casualties[{name!r}]": ("casualties", name) for name in self.casualties
        }
        with located(places={**places, "prefer": ("prefer",)}):
            return cascade_probabilities(
                self.force, self.casualties, prefer=self.prefer, readings=self.readings
            )


FORCE_FIELDS = (
    "name",
    "commands",
    "leaders",
    "doctrine",
    "casualties",
    "prefer",
    "removed_figures_survive",
)


def force_from_json(data: object) -> ForceQuestion:
    """A force's question from parsed JSON (see examples/b-company.json), as `rulesref
    cascade` and the Workbench read it and the Workbench downloads it: the fields of
    `Force` (commands of units and leaders, independent leaders, a doctrine, a name), the
    `casualties` of this phase by unit name, `prefer` (LD-C8) and
    `removed_figures_survive` (LD-C5). Bad input raises an `InputError` at its place, here
    or, for how many models a unit loses (LD-5's to check), from `ForceQuestion.odds`."""
    with located():
        fields = _with_doctrine(json_object("force", data, FORCE_FIELDS, ("commands",)))
    commands = _each("commands", fields.pop("commands"), _command)
    leaders = _each("leaders", fields.pop("leaders", []), _leader)
    named: list[tuple[Place, object]] = [(("name",), fields["name"])] if "name" in fields else []
    for c, command in enumerate(commands):
        named.append((("commands", c, "name"), command.name))
        named += [
            (("commands", c, "units", u, "name"), unit.name) for u, unit in enumerate(command.units)
        ]
        named += [
            (("commands", c, "leaders", i, "name"), lead.name)
            for i, lead in enumerate(command.leaders)
        ]
    named += [(("leaders", i, "name"), lead.name) for i, lead in enumerate(leaders)]
    _names_apart(named)
    casualties = _casualties(
        fields.pop("casualties", {}), {u.name for c in commands for u in c.units}
    )
    prefer = tuple(json_list("prefer", fields.pop("prefer", [])))
    with located(places={"removed_figures_survive": ("removed_figures_survive",)}):
        readings = leadership.Readings(
            removed_figures_survive=fields.pop("removed_figures_survive", False)
        )
    with located(
        places=_places("force", fields.get("name"), "name", "commands", "leaders", "doctrine")
    ):
        force = Force(tuple(commands), tuple(leaders), **fields)
    return ForceQuestion(force, casualties, prefer, readings)


def _casualties(written: object, units: Collection[str]) -> dict[str, Any]:
    """This phase's casualties as a JSON object of the names of `units`; how many each
    may lose is the rules' to check (LD-5, `ForceQuestion.odds`)."""
    if not isinstance(written, dict):
        error = RulesError(
            parameter="casualties",
            value=written,
            allowed="a JSON object of unit names and models lost",
        )
        raise InputError(error, ("casualties",))
    for name in written:
        with located("casualties", name):
            if name not in units:
                allowed = "names of units of the force"
                raise RulesError(parameter="casualties", value=name, allowed=allowed)
    return written
