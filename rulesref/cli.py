"""The `rulesref` command: the site's exact odds on the command line.

```python
from rulesref.cli import main

main(["break", "--leadership", "8", "--lost-by", "3"])
#> Break test, Leadership 8, lost by 3: stands 5/18 (27.8%), flees 13/18 (72.2%)
```
"""

import argparse
import json
import os
import re
import shlex
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import fields as dataclass_fields
from typing import NoReturn, TypeVar

from rulesref.break_test import break_test_probability, reform_test_probability
from rulesref.campaign import ROLES, TERRAINS, Battle, Platoon, Side
from rulesref.errors import RulesError
from rulesref.exact import Rational
from rulesref.leadership import (
    Command,
    Doctrine,
    Force,
    Leader,
    Unit,
    leadership_target,
    leadership_test_probability,
)
from rulesref.odds.battle import battle_odds
from rulesref.odds.cascade import cascade_probabilities
from rulesref.questions import (
    BreakSetup,
    LeadershipSetup,
    Needed,
    ReformSetup,
    Setup,
    View,
    bar,
    compare,
    fewest_rerolls,
    least_leadership,
    most_lost_by,
    totals_odds,
    viewed,
)
from rulesref.tables import percent, tables

__all__ = ["main", "force_from_json", "parse_json", "InputError", "located"]

EXAMPLES = """examples:
  rulesref break --leadership 8 --lost-by 3
  rulesref break --leadership 7 --lost-by 7 --steadfast --json
  rulesref reform --leadership 8 --lost-by 3
  rulesref leadership --target 4+ --rerolls 1
  rulesref battle --attacker "artillery, cavalry" --defender "infantry" --fortified
  rulesref cascade examples/b-company.json
  rulesref table break-test > break-test.csv
  rulesref compare break "--leadership 8 --lost-by 3 --reroll" "--leadership 9 --lost-by 3"
  rulesref need break --at-least 50% --lost-by 3
  rulesref totals --dice 2 --view at-least
"""


MAX_FILE_BYTES = 100_000  # a force file; the units in it are limited by cascade_probabilities
MAX_JSON_DEPTH = 20  # a force file nests five levels deep; deeper is not a force
WHOLE = re.compile(r"-?[0-9]{1,12}")  # ASCII digits, as the calculators take them
T = TypeVar("T")
Runner = Callable[[argparse.Namespace], str]  # a command: its parsed arguments to its output


class _Parser(argparse.ArgumentParser):
    """Reports a usage error in one line and exits with status 2, as for bad values."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog.split()[0]} --help)\n")


def _whole(value: str) -> int | str:
    """An int if the text is plain ASCII digits (a minus sign allowed); otherwise the text,
    for the rules to refuse by name: no `+8`, `1_0`, `٨` or spaces, as on the site."""
    return int(value) if WHOLE.fullmatch(value) else value


def _printable(line: str) -> str:
    """The line with every character that could forge or hide output escaped."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in line)


def _report(
    args: argparse.Namespace, description: str, outcome: str, other: str, chance: Rational
) -> str:
    if args.json:
        inputs = {k: v for k, v in vars(args).items() if k not in ("json", "command")}
        return json.dumps(
            {"test": args.command, **inputs, outcome: str(chance), "percent": float(chance) * 100}
        )
    return (
        f"{description}: {outcome} {chance} ({percent(chance)}), "
        f"{other} {1 - chance} ({percent(1 - chance)})"
    )


def _break(args: argparse.Namespace) -> str:
    chance = break_test_probability(
        args.leadership,
        args.lost_by,
        steadfast=args.steadfast,
        insane_courage=args.insane_courage,
        reroll=args.reroll,
    )
    description = f"Break test, Leadership {args.leadership}, lost by {args.lost_by}"
    return _report(args, description, "stands", "flees", chance)


def _reform(args: argparse.Namespace) -> str:
    chance = reform_test_probability(
        args.leadership,
        args.lost_by,
        steadfast=args.steadfast,
        unbreakable=args.unbreakable,
        insane_courage=args.insane_courage,
    )
    description = f"Reform test, Leadership {args.leadership}, lost by {args.lost_by}"
    return _report(args, description, "passes", "fails", chance)


def _leadership(args: argparse.Namespace) -> str:
    chance = leadership_test_probability(args.target, rerolls=args.rerolls, ignore=args.ignore)
    rerolls = f", {args.rerolls} re-roll{'s' * (args.rerolls != 1)}" if args.rerolls else ""
    ignore = ", failures ignored" if args.ignore else ""
    target = f"{leadership_target(args.target)}+"
    return _report(args, f"Leadership test {target}{rerolls}{ignore}", "passes", "fails", chance)


def _platoons(name: str, text: str) -> tuple[list[Platoon], list[str | None]]:
    """A side written as platoons `KIND[/STATE][@ROLL]`, comma-separated, for example
    `artillery/damaged@attack, cavalry, infantry`."""
    platoons, rolls = [], []
    for item in filter(None, (part.strip() for part in text.split(","))):
        unit, _, roll = item.partition("@")
        kind, _, state = unit.partition("/")
        platoons.append(Platoon(kind.strip(), state.strip() or "fresh"))
        rolls.append(roll.strip() or None)
    if not platoons:
        raise RulesError(f"{name} must list platoons as KIND[/STATE][@ROLL], got {text!r}")
    return platoons, rolls


def _battle(args: argparse.Namespace) -> str:
    sides: dict[str, Side] = {}
    written = {}
    for role in ROLES:
        platoons, written[role] = _platoons(role, getattr(args, role))
        sides[role] = Side(platoons, fortified=role == "defender" and args.fortified)
    # CA-2: a written roll is that platoon's; the others roll for their side's role,
    # except those that may not roll at all (withdrawn, barred cavalry)
    defaults = Battle(sides["attacker"], sides["defender"], terrain=args.terrain)
    for role in ROLES:
        declared = [w or d for w, d in zip(written[role], defaults.declarations(role), strict=True)]
        sides[role] = Side(sides[role].platoons, declared, fortified=sides[role].fortified)
    battle = Battle(sides["attacker"], sides["defender"], terrain=args.terrain)
    odds = battle_odds(battle)
    if args.json:
        return json.dumps(
            {
                "test": "battle",
                "victor": {str(k): str(v) for k, v in odds.victor.items()},
                "hits": {r: {h: str(p) for h, p in odds.hits[r].items()} for r in ROLES},
            }
        )
    victor = ", ".join(
        f"{'no victor' if who is None else who + ' wins'} {p} ({percent(p)})"
        for who, p in odds.victor.items()
    )
    lines = [f"Battle in {args.terrain}: {victor}"]
    for role in ROLES:
        hits = ", ".join(f"{h}: {p} ({percent(p)})" for h, p in odds.hits[role].items())
        lines.append(f"hits on the {role}: {hits}")
    return "\n".join(lines)


class InputError(RulesError):
    """Bad input at one place of a JSON description: `path` holds the keys and list
    indexes that lead to it from the top, ending with the field when the message names
    one. The message is the `RulesError` of the rule that refused the value.

    ```python
    from rulesref.cli import InputError, force_from_json

    unit = {"name": "A", "starting": -1, "leadership": "4+"}
    force = {"commands": [{"name": "P", "units": [unit]}]}
    try:
        force_from_json(force)
    except InputError as error:
        print(error.path)
        #> ('commands', 0, 'units', 0, 'starting')
    ```
    """

    def __init__(self, message: str, path: tuple[str | int, ...]) -> None:
        super().__init__(message)
        self.path = path


def _field_named(message: str, fields: Iterable[str]) -> tuple[str, ...]:
    """The field a message is about, if it names one of `fields` first: every RulesError
    begins with the parameter (`starting must ...`, `rank of 'Hale' must ...`, `unit name
    must ...`)."""
    subject = re.sub(r" of .*", "", message.partition(" must ")[0])
    last = subject.rsplit(" ", 1)[-1]
    return (last,) if last in fields else ()


@contextmanager
def located(*path: str | int, fields: Iterable[str] = ()) -> Iterator[None]:
    """Turns a RulesError raised inside into an InputError at `path` (deeper errors keep
    their own place below it); `fields` are the names the object at `path` may have."""
    try:
        yield
    except InputError as error:
        raise InputError(str(error), (*path, *error.path)) from None
    except RulesError as error:
        raise InputError(str(error), (*path, *_field_named(str(error), fields))) from None


def force_from_json(data: object) -> tuple[Force, Mapping[str, int]]:
    """A force and this phase's casualties from parsed JSON (see examples/b-company.json),
    as `rulesref cascade` and the Workbench read them; the casualties as written, for
    `cascade_probabilities` to check. Bad input raises an `InputError` at its place."""

    def listed(name: str, values: object) -> list[object]:
        if not isinstance(values, list):
            raise InputError(f"{name} must be a JSON list, got {values!r}", (name,))
        return values

    def build(kind: type[T], written: object, **parts: object) -> T:
        name = kind.__name__.lower()
        if not isinstance(written, dict):
            raise RulesError(f"each {name} must be a JSON object, got {written!r}")
        fields = {**written, **parts}
        if "doctrine" in fields:
            with located("doctrine", fields=_names(Doctrine)):
                fields["doctrine"] = build(Doctrine, fields["doctrine"])
        with located(fields=_names(kind)):
            try:
                return kind(**fields)
            except TypeError as error:  # a misspelt or missing field
                called = f" {fields['name']!r}" if isinstance(fields.get("name"), str) else ""
                raise RulesError(f"{name}{called}: {error}") from None

    def each(kind: type[T], values: list[object], name: str) -> list[T]:
        built = []
        for index, value in enumerate(values):
            with located(name, index):
                built.append(build(kind, value))
        return built

    def leaders(fields: dict[str, object]) -> list[Leader]:
        return each(Leader, listed("leaders", fields.get("leaders", [])), "leaders")

    def command(fields: object) -> Command:
        if not isinstance(fields, dict):
            raise RulesError(f"each command must be a JSON object, got {fields!r}")
        units = each(Unit, listed("units", fields.get("units")), "units")
        return build(Command, fields, units=units, leaders=leaders(fields))

    if not isinstance(data, dict):
        raise InputError(f"the file must hold one JSON object, got {data!r}", ())
    fields = dict(data)
    casualties = fields.pop("casualties", {})
    commands = []
    for index, written in enumerate(listed("commands", fields.get("commands"))):
        with located("commands", index):
            commands.append(command(written))
    return build(Force, fields, commands=commands, leaders=leaders(fields)), casualties


def _names(kind: type) -> frozenset[str]:
    """The fields of a record of the rules, as its JSON object names them."""
    return frozenset(field.name for field in dataclass_fields(kind))


def _read(name: str) -> bytes:
    """The bytes of a regular file of at most MAX_FILE_BYTES (never a fifo, a device or a
    directory, which could block, never end or not be read at all)."""
    allowed = f"a regular JSON file of at most {MAX_FILE_BYTES} bytes"
    try:
        handle = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError) as error:
        raise RulesError(
            f"file must be {allowed}, got {name!r} ({error.__class__.__name__})"
        ) from None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise RulesError(f"file must be {allowed}, got {name!r} (not a regular file)")
        chunks, size = [], 0
        while chunk := os.read(handle, MAX_FILE_BYTES + 1 - size):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_FILE_BYTES:
                raise RulesError(f"file must be {allowed}, got {name!r} (larger)")
    except OSError as error:
        raise RulesError(
            f"file must be {allowed}, got {name!r} ({error.__class__.__name__})"
        ) from None
    finally:
        os.close(handle)
    return b"".join(chunks)


def _depth(data: object) -> int:
    """How deeply lists and objects nest, counted without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, depth)
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return deepest


def parse_json(raw: bytes, name: str, shown: str) -> object:
    """JSON within the command line's limits: at most MAX_FILE_BYTES, nested at most
    MAX_JSON_DEPTH deep; else a RulesError about `name` (the file), showing `shown`.

    ```python
    from rulesref.cli import parse_json

    print(parse_json(b'{"casualties": {"A": 6}}', "file", "'force.json'"))
    #> {'casualties': {'A': 6}}
    ```
    """
    deep = f"{name} must nest lists and objects at most {MAX_JSON_DEPTH} deep, got {shown}"
    if len(raw) > MAX_FILE_BYTES:
        raise RulesError(f"{name} must be at most {MAX_FILE_BYTES} bytes, got {len(raw)}")
    try:
        data = json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise RulesError(deep) from None
    except ValueError as error:
        raise RulesError(f"{name} must be a readable JSON {name}, got {shown} ({error})") from None
    if _depth(data) > MAX_JSON_DEPTH:
        raise RulesError(deep)
    return data


def _cascade(args: argparse.Namespace) -> str:
    data = parse_json(_read(args.file), "file", repr(args.file))
    force, casualties = force_from_json(data)
    odds = cascade_probabilities(force, casualties)
    if args.json:
        return json.dumps(
            {
                "test": "cascade",
                "force_breaks": str(odds.force_breaks),
                "unit_removed": {k: str(v) for k, v in odds.unit_removed.items()},
                "command_removed": {k: str(v) for k, v in odds.command_removed.items()},
            }
        )

    def listing(chances: Mapping[str, Rational]) -> str:
        return ", ".join(f"{name} {p} ({percent(p)})" for name, p in chances.items())

    return "\n".join(
        [
            f"{force.name} breaks: {odds.force_breaks} ({percent(odds.force_breaks)})",
            f"commands off the table: {listing(odds.command_removed)}",
            f"units off the table: {listing(odds.unit_removed)}",
        ]
    )


def _table(args: argparse.Namespace) -> str:
    by_name = {table.name: table for table in tables()}
    if args.name not in by_name:
        raise RulesError(f"name must be one of {', '.join(by_name)}, got {args.name!r}")
    return by_name[args.name].csv().rstrip("\n")


# `rulesref compare`: each set-up is written with the options of its own test's command
SETUPS: dict[str, tuple[type[Setup], str]] = {
    "break": (BreakSetup, "stands"),
    "reform": (ReformSetup, "passes"),
    "leadership": (LeadershipSetup, "passes"),
}


def _compare(args: argparse.Namespace) -> str:
    setup, outcome = SETUPS[args.test]
    written = {"A": args.a, "B": args.b}
    chosen: list[Setup] = []
    for name, options in written.items():
        try:
            parsed = _parser().parse_args([args.test, *shlex.split(options)])
        except ValueError as error:  # an unclosed quote
            raise RulesError(
                f"{name.lower()} must be options of rulesref {args.test}, got {options!r} ({error})"
            ) from None
        fields = {k: v for k, v in vars(parsed).items() if k not in ("command", "run", "json")}
        chosen.append(setup(**fields))
    a, b = chosen
    both = compare(a, b)
    if args.json:
        return json.dumps(
            {
                "test": "compare",
                "kind": args.test,
                "a": str(both.a),
                "b": str(both.b),
                "difference": str(both.difference),
            }
        )
    return "\n".join(
        [
            f"A, {args.a}: {outcome} {both.a} ({percent(both.a)})",
            f"B, {args.b}: {outcome} {both.b} ({percent(both.b)})",
            f"A - B: {both.difference} ({both.points()})",
        ]
    )


def _needed(found: Needed | None, answer: str, none: str) -> str:
    """The answer to a `need` question, with the cell of the site's table that holds it."""
    if found is None:
        return none
    where = f", the {found.table} table's row {found.row}, column {found.column}"
    chance = f"{found.probability} ({percent(found.probability)})"
    return f"{answer} {found.value}: {chance}{where * bool(found.table)}"


def _need(args: argparse.Namespace) -> str:
    goal = bar(args.at_least)
    wanted = f"at least {goal} ({percent(goal)})"
    if args.test == "leadership":
        if args.target is None:
            raise RulesError("target must be given for a Leadership test (2 to 6, or written 4+)")
        on = f"On {leadership_target(args.target)}+"
        return _needed(
            fewest_rerolls(goal, args.target, ignore=args.ignore),
            f"{on}, the fewest re-rolls that pass {wanted} are",
            f"{on}, no number of re-rolls from 0 to 10 passes {wanted}",
        )
    if (args.leadership is None) == (args.lost_by is None):
        raise RulesError("give one of leadership and lost_by: the other is the answer")
    options = {
        "steadfast": args.steadfast,
        "insane_courage": args.insane_courage,
        "reroll": args.reroll,
    }
    if args.leadership is None:
        return _needed(
            least_leadership(goal, args.lost_by, **options),
            f"Lost by {args.lost_by}, the least Leadership that stands {wanted} is",
            f"Lost by {args.lost_by}, no Leadership from 0 to 10 stands {wanted}",
        )
    return _needed(
        most_lost_by(goal, args.leadership, **options),
        f"Leadership {args.leadership} stands {wanted} when lost by at most",
        f"Leadership {args.leadership} stands {wanted} at no margin from 0 to 100",
    )


def _totals(args: argparse.Namespace) -> str:
    view = View(args.view.replace("-", " "))
    lines = [f"{args.dice}D6, {view} each total:"]
    chances = viewed(totals_odds(args.dice), view)
    return "\n".join(lines + [f"{total}: {p} ({percent(p)})" for total, p in chances.items()])


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="rulesref",
        description="Exact odds of wargame morale tests, from the rules of rulesref.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, run: Runner) -> argparse.ArgumentParser:
        sub = commands.add_parser(
            name,
            help=help,
            description=help,
            epilog=EXAMPLES,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.set_defaults(run=run)
        return sub

    def test_inputs(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--leadership", type=_whole, required=True, help="0 to 10")
        sub.add_argument("--lost-by", type=_whole, required=True, help="combat result difference")
        sub.add_argument("--steadfast", action="store_true", help="ignore the difference (BR-6)")
        sub.add_argument("--json", action="store_true", help="print one JSON object")

    sub = command("break", "chance to stand a Break test (BR-1 to BR-6)", _break)
    test_inputs(sub)
    sub.add_argument(
        "--no-insane-courage",
        dest="insane_courage",
        action="store_false",
        help="a double 1 does not pass (BR-5 off)",
    )
    sub.add_argument(
        "--reroll",
        action="store_true",
        help="one re-roll of a failed test (a variant, not in the source)",
    )

    sub = command("reform", "chance to pass the reform test after a defeat (BR-15)", _reform)
    test_inputs(sub)
    sub.add_argument("--unbreakable", action="store_true", help="test on unmodified Leadership")
    sub.add_argument(
        "--insane-courage",
        action="store_true",
        help="let a double 1 pass (the other reading of BR-C3)",
    )

    sub = command("leadership", "chance to pass a d6 Leadership test (LD-1, LD-7)", _leadership)
    sub.add_argument("--target", type=_whole, required=True, help="2 to 6, or written 4+")
    sub.add_argument("--rerolls", type=_whole, default=0, help="re-rolls of a failure")
    sub.add_argument("--ignore", action="store_true", help="a Doctrine ignores a failure")
    sub.add_argument("--json", action="store_true", help="print one JSON object")

    sub = command("battle", "exact odds of a campaign battle (CA-2 to CA-18)", _battle)
    for role in ROLES:
        sub.add_argument(
            f"--{role}", required=True, help="platoons KIND[/STATE][@ROLL], comma-separated"
        )
    sub.add_argument("--terrain", default="open", help=", ".join(TERRAINS))
    sub.add_argument("--fortified", action="store_true", help="the defender is fortified")
    sub.add_argument("--json", action="store_true", help="print one JSON object")

    sub = command(
        "cascade",
        "exact odds of each unit, command and the force breaking (LD-4 to LD-12)",
        _cascade,
    )
    sub.add_argument(
        "file",
        help="a JSON file: the force and this phase's casualties (see examples/b-company.json)",
    )
    sub.add_argument("--json", action="store_true", help="print one JSON object")

    sub = command("table", "print a probability table of the site as CSV", _table)
    sub.add_argument("name", help=", ".join(table.name for table in tables()))

    sub = command("compare", "two set-ups of one test side by side, and their difference", _compare)
    sub.add_argument("test", choices=list(SETUPS), help="the test both set-ups take")
    sub.add_argument("a", help="set-up A: the options of that test's command, quoted")
    sub.add_argument("b", help="set-up B, the same way")
    sub.add_argument("--json", action="store_true", help="print one JSON object")

    sub = command(
        "need", "the least Leadership, greatest margin or fewest re-rolls for a chance", _need
    )
    sub.add_argument(
        "test", choices=("break", "leadership"), help="the test to reach the chance in"
    )
    sub.add_argument("--at-least", required=True, help="the chance to reach: 90%%, 0.9 or 9/10")
    sub.add_argument("--leadership", type=_whole, help="break: give it to ask the greatest margin")
    sub.add_argument("--lost-by", type=_whole, help="break: give it to ask the least Leadership")
    sub.add_argument("--steadfast", action="store_true", help="break: ignore the margin (BR-6)")
    sub.add_argument(
        "--no-insane-courage", dest="insane_courage", action="store_false", help="break: BR-5 off"
    )
    sub.add_argument("--reroll", action="store_true", help="break: one re-roll (a variant)")
    sub.add_argument("--target", type=_whole, help="leadership: 2 to 6, or written 4+")
    sub.add_argument(
        "--ignore", action="store_true", help="leadership: a Doctrine ignores a failure"
    )

    sub = command(
        "totals", "the chance of each total of some d6, exactly, at least or at most", _totals
    )
    sub.add_argument("--dice", type=_whole, required=True, help="1 to 100")
    sub.add_argument("--view", choices=("exactly", "at-least", "at-most"), default="exactly")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; bad input prints one line to stderr and returns 2."""
    parser = _parser()
    args = parser.parse_args(argv)
    run = args.run
    del args.run
    try:
        if sys.stdout is None:  # started with its output closed
            raise OSError("standard output is closed")
        output = "\n".join(_printable(line) for line in run(args).split("\n"))
        print(output, flush=True)
    except RulesError as error:
        print(_printable(f"rulesref {args.command}: {error}"), file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader stopped early (`| head`): not an error of ours
        _silence_stdout()
    except OSError as error:  # a full disk, a closed output: say so once, no traceback
        _silence_stdout()
        print(f"rulesref {args.command}: cannot write the result ({error})", file=sys.stderr)
        return 1
    return 0


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that Python's own flush at exit succeeds."""
    if sys.stdout is not None:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
