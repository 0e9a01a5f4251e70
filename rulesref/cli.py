"""The `rulesref` command: the site's exact odds on the command line.

```python
from rulesref.cli import main

main(["break", "--leadership", "8", "--lost-by", "3"])
#> Break test, Leadership 8, lost by 3: stands 5/18 (27.8%), flees 13/18 (72.2%)
```
"""

import argparse
import json
import sys
from collections.abc import Sequence

from sympy import Rational

from rulesref.break_test import break_test_probability, reform_test_probability
from rulesref.errors import RulesError
from rulesref.tables import percent, tables

EXAMPLES = """examples:
  rulesref break --leadership 8 --lost-by 3
  rulesref break --leadership 7 --lost-by 7 --steadfast --json
  rulesref reform --leadership 8 --lost-by 3
  rulesref table break-test > break-test.csv
"""


class _Parser(argparse.ArgumentParser):
    """Reports a usage error in one line and exits with status 2, as for bad values."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog.split()[0]} --help)\n")


def _whole(text: str) -> int | str:
    """An int if the text is one; otherwise the text, for the rules to refuse by name."""
    try:
        return int(text)
    except ValueError:
        return text


def _report(args, title: str, outcome: str, other: str, chance: Rational) -> str:
    if args.json:
        inputs = {k: v for k, v in vars(args).items() if k not in ("json", "command")}
        return json.dumps(
            {"test": args.command, **inputs, outcome: str(chance), "percent": float(chance) * 100}
        )
    return (
        f"{title}, Leadership {args.leadership}, lost by {args.lost_by}: "
        f"{outcome} {chance} ({percent(chance)}), {other} {1 - chance} ({percent(1 - chance)})"
    )


def _break(args) -> str:
    chance = break_test_probability(
        args.leadership,
        args.lost_by,
        steadfast=args.steadfast,
        insane_courage=args.insane_courage,
        reroll=args.reroll,
    )
    return _report(args, "Break test", "stands", "flees", chance)


def _reform(args) -> str:
    chance = reform_test_probability(
        args.leadership,
        args.lost_by,
        steadfast=args.steadfast,
        unbreakable=args.unbreakable,
        insane_courage=args.insane_courage,
    )
    return _report(args, "Reform test", "passes", "fails", chance)


def _table(args) -> str:
    by_name = {table.name: table for table in tables()}
    if args.name not in by_name:
        raise RulesError(f"name must be one of {', '.join(by_name)}, got {args.name!r}")
    return by_name[args.name].csv().rstrip("\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="rulesref",
        description="Exact odds of wargame morale tests, from the rules of rulesref.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, run) -> argparse.ArgumentParser:
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

    sub = command("table", "print a probability table of the site as CSV", _table)
    sub.add_argument("name", help=", ".join(table.name for table in tables()))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; bad input prints one line to stderr and returns 2."""
    parser = _parser()
    args = parser.parse_args(argv)
    run = args.run
    del args.run
    try:
        print(run(args))
    except RulesError as error:
        print(f"rulesref {args.command}: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
