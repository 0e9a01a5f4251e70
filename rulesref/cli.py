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
from collections.abc import Callable, Mapping, Sequence
from typing import NoReturn, TypeVar

from rulesref.break_test import break_test_probability, reform_test_probability
from rulesref.campaign import Role, Terrain
from rulesref.errors import RulesError
from rulesref.exact import MAX_SHOWN_DIGITS, Rational, fraction_text, short_fraction
from rulesref.inputs import (
    MAX_BYTES,
    InputError,
    force_from_json,
    located,
    parse_json,
)
from rulesref.inputs.battle import battle_from_json
from rulesref.leadership import leadership_target, leadership_test_probability
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
from rulesref.tables import tables
from rulesref.views import percent

__all__ = ["main", "force_from_json", "parse_json", "InputError", "located"]

EXAMPLES = """examples:
  rulesref break --leadership 8 --lost-by 3
  rulesref break --leadership 7 --lost-by 7 --steadfast --json
  rulesref reform --leadership 8 --lost-by 3
  rulesref leadership --target 4+ --rerolls 1
  rulesref battle --attacker "artillery, cavalry" --defender "infantry" --fortified
  rulesref battle --file examples/battle.json
  rulesref cascade examples/b-company.json --exact
  rulesref table break-test > break-test.csv
  rulesref compare break "--leadership 8 --lost-by 3 --reroll" "--leadership 9 --lost-by 3"
  rulesref need break --at-least 50% --lost-by 3
  rulesref totals --dice 2 --view at-least
"""


T = TypeVar("T")
WHOLE = re.compile(r"-?[0-9]{1,12}")  # ASCII digits, as the calculators take them
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


def _shown(args: argparse.Namespace, p: Rational) -> str:
    """A probability to read: its fraction (whole with --exact, else whole when short)
    and its percentage."""
    fraction = fraction_text(p) if args.exact else short_fraction(p)
    return f"{fraction} ({percent(p)})"


def _report(
    args: argparse.Namespace, description: str, outcome: str, other: str, probability: Rational
) -> str:
    if args.json:
        inputs = {k: v for k, v in vars(args).items() if k not in ("json", "command", "exact")}
        return json.dumps(
            {
                "test": args.command,
                **inputs,
                outcome: fraction_text(probability),
                "percent": float(probability) * 100,
            }
        )
    shown = f"{outcome} {_shown(args, probability)}, {other} {_shown(args, 1 - probability)}"
    return f"{description}: {shown}"


def _break(args: argparse.Namespace) -> str:
    probability = break_test_probability(
        args.leadership,
        args.lost_by,
        steadfast=args.steadfast,
        insane_courage=args.insane_courage,
        reroll=args.reroll,
    )
    description = f"Break test, Leadership {args.leadership}, lost by {args.lost_by}"
    return _report(args, description, "stands", "flees", probability)


def _reform(args: argparse.Namespace) -> str:
    probability = reform_test_probability(
        args.leadership,
        args.lost_by,
        steadfast=args.steadfast,
        unbreakable=args.unbreakable,
        insane_courage=args.insane_courage,
    )
    description = f"Reform test, Leadership {args.leadership}, lost by {args.lost_by}"
    return _report(args, description, "passes", "fails", probability)


def _leadership(args: argparse.Namespace) -> str:
    probability = leadership_test_probability(args.target, rerolls=args.rerolls, ignore=args.ignore)
    rerolls = f", {args.rerolls} re-roll{'s' * (args.rerolls != 1)}" if args.rerolls else ""
    ignore = ", failures ignored" if args.ignore else ""
    target = f"{leadership_target(args.target)}+"
    return _report(
        args, f"Leadership test {target}{rerolls}{ignore}", "passes", "fails", probability
    )


def _side(role: str, text: str) -> dict[str, object]:
    """A side written as platoons `KIND[/STATE][@ROLL]`, comma-separated, for example
    `artillery/damaged@attack, cavalry, infantry`, as the battle file writes it."""
    platoons: list[dict[str, object]] = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        unit, _, roll = item.partition("@")
        kind, _, state = unit.partition("/")
        platoon: dict[str, object] = {"kind": kind.strip(), "state": state.strip() or "fresh"}
        platoons.append(platoon | ({"declaration": roll.strip()} if roll.strip() else {}))
    if not platoons:
        raise RulesError(parameter=role, value=text, allowed="platoons KIND[/STATE][@ROLL]")
    return {"platoons": platoons}


def _from_file(args: argparse.Namespace, read: Callable[[object], T]) -> T:
    """The question in `args.file`, read by `read`; a refusal names its place in the file."""
    try:
        return read(parse_json(_read(args.file)))
    except InputError as error:
        if not error.path:
            raise
        raise RulesError(f"{_place(error.path)}: {error}") from None


def _place(path: Sequence[str | int]) -> str:
    """A place in a JSON file as a reader finds it: `commands[0].units[2].current`."""
    written = ""
    for step in path:
        if isinstance(step, int):
            written += f"[{step}]"
        elif step.isidentifier():
            written += f".{step}" if written else step
        else:
            written += f"[{step!r}]"
    return written


def _option_place(path: Sequence[str | int]) -> str:
    """A place in the battle the options write, named as the rules name a platoon:
    `attacker platoon 0`."""
    option, *rest = path
    if len(rest) >= 2 and rest[0] == "platoons" and isinstance(rest[1], int):
        return f"{option} platoon {rest[1]}"
    return f"--{option}"


def _battle(args: argparse.Namespace) -> str:
    if args.file is None:
        if args.attacker is None or args.defender is None:
            raise RulesError("battle must be given --attacker and --defender, or --file")
        written = {
            "attacker": _side("attacker", args.attacker),
            "defender": {**_side("defender", args.defender), "fortified": args.fortified},
            "terrain": args.terrain,
        }
        try:
            question = battle_from_json(written)
        except InputError as error:
            if not (error.path and error.parameter):  # a sentence names its own place
                raise
            raise RulesError(f"{_option_place(error.path)}: {error}") from None
    elif args.attacker or args.defender or args.fortified or args.terrain != "open":
        raise RulesError("battle must be given --file alone, or --attacker and --defender")
    else:
        question = _from_file(args, battle_from_json)
    odds = question.odds()
    terrain = question.battle.terrain
    if args.json:
        return json.dumps(
            {
                "test": "battle",
                "victor": {str(k): fraction_text(v) for k, v in odds.victor.items()},
                "hits": {r: {h: fraction_text(p) for h, p in odds.hits[r].items()} for r in Role},
            }
        )
    victor = ", ".join(
        f"{'no victor' if who is None else who + ' wins'} {_shown(args, p)}"
        for who, p in odds.victor.items()
    )
    lines = [f"Battle in {terrain}: {victor}"]
    for role in Role:
        hits = ", ".join(f"{h}: {_shown(args, p)}" for h, p in odds.hits[role].items())
        lines.append(f"hits on the {role}: {hits}")
    return "\n".join(lines)


def _read(name: str) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES (never a fifo, a device or a
    directory, which could block, never end or not be read at all)."""
    allowed = f"a regular JSON file of at most {MAX_BYTES} bytes"
    try:
        handle = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError) as error:
        raise RulesError(
            parameter="file", value=name, allowed=allowed, got=f"{name!r} ({type(error).__name__})"
        ) from None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise RulesError(
                parameter="file", value=name, allowed=allowed, got=f"{name!r} (not a regular file)"
            )
        chunks, size = [], 0
        while chunk := os.read(handle, MAX_BYTES + 1 - size):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_BYTES:
                raise RulesError(
                    parameter="file", value=name, allowed=allowed, got=f"{name!r} (larger)"
                )
    except OSError as error:
        raise RulesError(
            parameter="file", value=name, allowed=allowed, got=f"{name!r} ({type(error).__name__})"
        ) from None
    finally:
        os.close(handle)
    return b"".join(chunks)


def _cascade(args: argparse.Namespace) -> str:
    question = _from_file(args, force_from_json)
    try:
        odds = question.odds()
    except InputError as error:
        raise RulesError(f"{_place(error.path)}: {error}" if error.path else str(error)) from None
    if args.json:
        return json.dumps(
            {
                "test": "cascade",
                "force_breaks": fraction_text(odds.force_breaks),
                "unit_removed": {k: fraction_text(v) for k, v in odds.unit_removed.items()},
                "command_removed": {k: fraction_text(v) for k, v in odds.command_removed.items()},
            }
        )

    def listing(chances: Mapping[str, Rational]) -> str:
        return ", ".join(f"{name} {_shown(args, p)}" for name, p in chances.items())

    force = question.force
    return "\n".join(
        [
            f"{force.name} breaks: {_shown(args, odds.force_breaks)}",
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


class _SetupError(argparse.ArgumentParser):
    """A set-up's own parser: what it refuses is raised, for `compare` to say which set-up."""

    def error(self, message: str) -> NoReturn:
        raise RulesError(message)


def _setup_parser(test: str) -> argparse.ArgumentParser:
    """The options of `test`'s own command, for one set-up of `compare`."""
    parser = _SetupError(prog=f"rulesref {test}", add_help=False)
    for name, _, _, options in COMMANDS:
        if name == test:
            options(parser)
    return parser


def _compare(args: argparse.Namespace) -> str:
    setup, outcome = SETUPS[args.test]
    written = {"A": args.a, "B": args.b}
    chosen: list[Setup] = []
    for name, options in written.items():
        what = f"set-up {name} must be options of rulesref {args.test}"
        try:
            parsed = _setup_parser(args.test).parse_args(shlex.split(options))
        except ValueError as error:  # an unclosed quote, or options its command refuses
            raise RulesError(f"{what}, got {options!r} ({error})") from None
        if parsed.json or parsed.exact:
            raise RulesError(f"{what} (--json and --exact are compare's own), got {options!r}")
        fields = {k: v for k, v in vars(parsed).items() if k not in ("json", "exact")}
        chosen.append(setup(**fields))
        try:  # answered here first, so that a refusal says which set-up
            chosen[-1].probability()
        except RulesError as error:
            raise RulesError(f"set-up {name}: {error}") from None
    a, b = chosen
    both = compare(a, b)
    if args.json:
        return json.dumps(
            {
                "test": "compare",
                "kind": args.test,
                "a": fraction_text(both.a),
                "b": fraction_text(both.b),
                "difference": fraction_text(both.difference),
            }
        )
    return "\n".join(
        [
            f"A, {args.a}: {outcome} {_shown(args, both.a)}",
            f"B, {args.b}: {outcome} {_shown(args, both.b)}",
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


Options = Callable[[argparse.ArgumentParser], None]  # adds a command's arguments


def _outputs(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--json", action="store_true", help="print one JSON object, every fraction whole"
    )
    sub.add_argument(
        "--exact",
        action="store_true",
        help=f"print every fraction whole (one of more than {MAX_SHOWN_DIGITS} digits is "
        "otherwise summarised by its length)",
    )


def _test_inputs(sub: argparse.ArgumentParser) -> None:
    """The inputs of a Break or reform test (BR-1 to BR-6)."""
    sub.add_argument("--leadership", type=_whole, required=True, help="0 to 10")
    sub.add_argument("--lost-by", type=_whole, required=True, help="combat result difference")
    sub.add_argument("--steadfast", action="store_true", help="ignore the difference (BR-6)")
    _outputs(sub)


def _break_options(sub: argparse.ArgumentParser) -> None:
    _test_inputs(sub)
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


def _reform_options(sub: argparse.ArgumentParser) -> None:
    _test_inputs(sub)
    sub.add_argument("--unbreakable", action="store_true", help="test on unmodified Leadership")
    sub.add_argument(
        "--insane-courage",
        action="store_true",
        help="let a double 1 pass (the other reading of BR-C3)",
    )


def _leadership_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--target", type=_whole, required=True, help="2 to 6, or written 4+")
    sub.add_argument("--rerolls", type=_whole, default=0, help="re-rolls of a failure")
    sub.add_argument("--ignore", action="store_true", help="a Doctrine ignores a failure")
    _outputs(sub)


def _battle_options(sub: argparse.ArgumentParser) -> None:
    for role in Role:
        sub.add_argument(f"--{role}", help="platoons KIND[/STATE][@ROLL], comma-separated")
    sub.add_argument("--terrain", default="open", help=", ".join(Terrain))
    sub.add_argument("--fortified", action="store_true", help="the defender is fortified")
    sub.add_argument(
        "--file",
        help="instead of the options above, a JSON file of the battle, as the Workbench "
        "downloads it (see examples/battle.json)",
    )
    _outputs(sub)


def _cascade_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "file",
        help="a JSON file: the force and this phase's casualties, as the Workbench downloads "
        "it (see examples/b-company.json)",
    )
    _outputs(sub)


def _table_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("name", help=", ".join(table.name for table in tables()))


def _compare_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("test", choices=list(SETUPS), help="the test both set-ups take")
    sub.add_argument("a", help="set-up A: the options of that test's command, quoted")
    sub.add_argument("b", help="set-up B, the same way")
    _outputs(sub)


def _need_options(sub: argparse.ArgumentParser) -> None:
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


def _totals_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--dice", type=_whole, required=True, help="1 to 100")
    sub.add_argument("--view", choices=("exactly", "at-least", "at-most"), default="exactly")


# Each command: its name, what it does (its help and description), its runner, its options.
COMMANDS: tuple[tuple[str, str, Runner, Options], ...] = (
    ("break", "chance to stand a Break test (BR-1 to BR-6)", _break, _break_options),
    (
        "reform",
        "chance to pass the reform test after a defeat (BR-15)",
        _reform,
        _reform_options,
    ),
    (
        "leadership",
        "chance to pass a d6 Leadership test (LD-1, LD-7)",
        _leadership,
        _leadership_options,
    ),
    ("battle", "exact odds of a campaign battle (CA-2 to CA-18)", _battle, _battle_options),
    (
        "cascade",
        "exact odds of each unit, command and the force breaking (LD-4 to LD-12)",
        _cascade,
        _cascade_options,
    ),
    ("table", "print a probability table of the site as CSV", _table, _table_options),
    (
        "compare",
        "two set-ups of one test side by side, and their difference",
        _compare,
        _compare_options,
    ),
    (
        "need",
        "the least Leadership, greatest margin or fewest re-rolls for a chance",
        _need,
        _need_options,
    ),
    (
        "totals",
        "the chance of each total of some d6, exactly, at least or at most",
        _totals,
        _totals_options,
    ),
)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="rulesref",
        description="Exact odds of wargame morale tests, from the rules of rulesref.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, help, run, options in COMMANDS:
        sub = commands.add_parser(
            name,
            help=help,
            description=help,
            epilog=EXAMPLES,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.set_defaults(run=run)
        options(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; bad input prints one line to stderr and returns 2 (a command line
    argparse refuses, such as a missing option, exits with status 2 instead)."""
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
