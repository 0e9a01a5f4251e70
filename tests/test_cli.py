"""The `rulesref` command: every console session of the docs, exit statuses, --help."""

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from sympy import Rational

from rulesref.break_test import break_test_probability
from rulesref.cli import COMMANDS, main
from rulesref.leadership import MAX_CASCADE_TESTS

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).parent / "rulesref"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT)


def console_sessions():
    """Each `$ rulesref ...` line of a console block in docs/ or the README, with its output."""
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for block in re.findall(r"^```console\n(.*?)^```", page.read_text(), re.M | re.S):
            for command in re.split(r"^(?=\$ )", block, flags=re.M):
                if command.startswith("$ rulesref "):
                    first, _, output = command.partition("\n")
                    yield pytest.param(first.removeprefix("$ "), output, id=first[2:])


SESSIONS = list(console_sessions())


def test_sessions_are_found():
    assert len(SESSIONS) >= 8


@pytest.mark.parametrize("command, expected", SESSIONS)
def test_documented_session(command, expected):
    result = run(*shlex.split(command)[1:])
    assert result.stdout + result.stderr == expected
    assert result.returncode == (2 if result.stderr else 0)


@pytest.mark.parametrize("command, expected", SESSIONS)
def test_the_command_prints_what_the_api_computes(command, expected, capsys):
    """The command starts without sympy (fractions.Fraction); in-process, main() runs
    on sympy Rationals: every documented session prints the same either way."""
    try:
        status = main(shlex.split(command)[1:])
    except SystemExit as usage_error:
        status = usage_error.code
    printed = capsys.readouterr()
    assert printed.out + printed.err == expected
    assert status == (2 if printed.err else 0)


def test_the_command_starts_without_sympy():
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: print(sorted({'sympy', 'rulesref.cli'} & set(sys.modules))))\n"
        "sys.argv = ['rulesref', 'battle', '--attacker', 'artillery', '--defender', 'infantry']\n"
        "from rulesref.__main__ import run\n"
        "run()\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("['rulesref.cli']\n"), result.stdout


def test_json_carries_the_exact_fraction():
    result = json.loads(run("break", "--leadership", "6", "--lost-by", "1", "--json").stdout)
    assert Rational(result["stands"]) == break_test_probability(6, 1)
    assert result["percent"] == pytest.approx(float(break_test_probability(6, 1)) * 100)


@pytest.mark.parametrize(
    "args",
    [
        ["break", "--leadership", "-1", "--lost-by", "3"],
        ["break", "--leadership", "8", "--lost-by", "3.5"],
        ["break", "--leadership", "8", "--lost-by", "99999"],
        ["reform", "--leadership", "eight", "--lost-by", "3"],
        ["table", "nonsense"],
        ["leadership", "--target", "1+"],
        ["battle", "--attacker", "tank", "--defender", "infantry"],
        ["battle", "--attacker", "infantry", "--defender", "infantry", "--terrain", "sea"],
        ["cascade", "no-such-file.json"],
        ["cascade", "pyproject.toml"],
        ["break", "--leadership", "8", "--lost-by", "3", "--bogus"],
        ["dance"],
        [],
    ],
)
def test_bad_input_is_one_line_and_status_2(args):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_cascade_agrees_with_the_package():
    """LD-4 to LD-12: the command's JSON is cascade_probabilities on the same force."""
    from rulesref.inputs import force_from_json
    from rulesref.odds.cascade import cascade_probabilities

    question = force_from_json(json.loads((ROOT / "examples/b-company.json").read_text()))
    odds = cascade_probabilities(question.force, question.casualties)
    result = json.loads(run("cascade", "examples/b-company.json", "--json").stdout)
    assert Rational(result["force_breaks"]) == odds.force_breaks == Rational(1, 4)
    assert {k: Rational(v) for k, v in result["unit_removed"].items()} == odds.unit_removed


@pytest.mark.parametrize(
    "force, message",
    [
        ([1], "force must be a JSON object"),
        ({"commands": 5}, "commands must be a JSON list"),
        ({"commands": [{"name": "x", "units": 3}]}, "units must be a JSON list"),
        ({"commands": [{"name": "x", "units": [{"name": "a", "starting": 5}]}]}, "leadership"),
        ({"commands": [], "colour": "red"}, "colour"),
    ],
)
def test_cascade_refuses_a_bad_force(tmp_path, force, message):
    path = tmp_path / "force.json"
    path.write_text(json.dumps(force))
    result = run("cascade", str(path))
    assert result.returncode == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_help_shows_examples():
    result = run("--help")
    assert result.returncode == 0
    assert "rulesref break --leadership 8 --lost-by 3" in result.stdout
    assert "break" in run("break", "--help").stdout


# one option of each command, written here (not read from the parser) so a lost one shows
OPTION_OF = {
    "break": "--no-insane-courage",
    "reform": "--unbreakable",
    "leadership": "--rerolls",
    "battle": "--terrain",
    "cascade": "file",
    "table": "name",
    "compare": "{break,reform,leadership}",
    "need": "--at-least",
    "totals": "--view",
}


@pytest.mark.parametrize(("name", "described"), [command[:2] for command in COMMANDS])
def test_each_command_has_its_own_help(capsys, name, described):
    with pytest.raises(SystemExit) as exited:
        main([name, "--help"])
    shown = capsys.readouterr().out
    assert exited.value.code == 0
    assert shown.startswith(f"usage: rulesref {name} ") and described in shown
    assert OPTION_OF[name] in shown and "--help" in shown
    assert "rulesref break --leadership 8 --lost-by 3" in shown  # the examples, as epilog


def test_the_help_lists_every_command(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    assert set(OPTION_OF) == {command[0] for command in COMMANDS}
    listed = re.findall(r"^    (\w+)", shown, flags=re.MULTILINE)
    assert listed == [command[0] for command in COMMANDS], shown


def test_main_returns_the_status(capsys):
    assert main(["break", "--leadership", "8", "--lost-by", "3"]) == 0
    assert "5/18" in capsys.readouterr().out
    assert main(["break", "--leadership", "80", "--lost-by", "3"]) == 2
    assert "leadership must be" in capsys.readouterr().err


# Hostile input on the command line: one line on stderr, a non-zero status, never a
# traceback, a hang or a forged line of output.


def _force_file(tmp_path, name="B", unit="A", **extra) -> str:
    force = {
        "name": name,
        "commands": [{"name": "C", "units": [{"name": unit, "starting": 10, "leadership": 4}]}],
    }
    path = tmp_path / "force.json"
    path.write_text(json.dumps(force | extra))
    return str(path)


def _fifo(tmp_path) -> str:
    import os

    os.mkfifo(tmp_path / "fifo")
    return str(tmp_path / "fifo")


def _written(tmp_path, name: str, data: bytes) -> str:
    (tmp_path / name).write_bytes(data)
    return str(tmp_path / name)


HOSTILE = [
    (
        "deep lists",
        lambda t: ["cascade", _written(t, "deep.json", b"[" * 40000 + b"]" * 40000)],
        "20 deep",
    ),
    (
        "deep objects",
        lambda t: ["cascade", _written(t, "d.json", b'{"a":' * 25 + b"1" + b"}" * 25)],
        "20 deep",
    ),
    (
        "too large",
        lambda t: ["cascade", _written(t, "big.json", b" " * 100_001 + b"{}")],
        "100000 bytes",
    ),
    ("not UTF-8", lambda t: ["cascade", _written(t, "bad.json", b"\xff{}")], "readable JSON"),
    ("a device", lambda t: ["cascade", "/dev/zero"], "not a regular file"),
    ("a fifo", lambda t: ["cascade", _fifo(t)], "not a regular file"),
    ("a directory", lambda t: ["cascade", str(t)], "not a regular file"),
    (
        "a newline in a name",
        lambda t: ["cascade", _force_file(t, unit="A\nB breaks: 0")],
        "unit name",
    ),
    ("an escape code", lambda t: ["cascade", _force_file(t, name="\x1b[2J")], "force name"),
    ("a lone surrogate", lambda t: ["cascade", _force_file(t, name="\ud800")], "force name"),
    ("too many tests", lambda t: ["cascade", _many_tests(t)], f"at most {MAX_CASCADE_TESTS} units"),
    ("a number with a newline", lambda t: ["leadership", "--target", "4+\n"], "target"),
    (
        "Arabic-Indic digit",
        lambda t: ["break", "--leadership", "٨", "--lost-by", "3"],
        "leadership",
    ),
    ("underscore", lambda t: ["break", "--leadership", "1_0", "--lost-by", "3"], "leadership"),
    ("plus sign", lambda t: ["break", "--leadership", "+8", "--lost-by", "3"], "leadership"),
    ("spaces", lambda t: ["leadership", "--target", "5", "--rerolls", " 1"], "rerolls"),
    (
        "huge number",
        lambda t: ["break", "--leadership", "9" * 5000, "--lost-by", "3"],
        "leadership",
    ),
    (
        "a surrogate in argv",
        lambda t: ["battle", "--attacker", "\udcff", "--defender", "infantry"],
        "kind",
    ),
    (
        "barred cavalry rolls",
        lambda t: [
            "battle",
            "--attacker",
            "cavalry@attack",
            "--defender",
            "infantry",
            "--terrain",
            "woods",
        ],
        "CA-10",
    ),
    (
        "too many platoons",
        lambda t: ["battle", "--attacker", ",".join(["infantry"] * 1001), "--defender", "infantry"],
        "1000",
    ),
]


def _battle_file(tmp_path, **changes) -> str:
    battle = {"attacker": {"platoons": [{}]}, "defender": {"platoons": [{}]}, **changes}
    return _written(tmp_path, "battle.json", json.dumps(battle).encode())


def _force(tmp_path, **changes) -> str:
    unit = {"name": "A", "starting": 10, "leadership": 4}
    force = {"commands": [{"name": "C", "units": [unit]}], **changes}
    return _written(tmp_path, "force.json", json.dumps(force).encode())


# issue 19: inputs within the old limits that ended in a traceback, a hang or a wrong answer
FILES = [
    (
        "battle nested 3000 deep",
        lambda t: ["battle", "--file", _written(t, "d.json", b"[" * 3000 + b"]" * 3000)],
        "at most 20 deep",
    ),
    (
        "cascade nested 3000 deep",
        lambda t: ["cascade", _written(t, "d.json", b'{"a":' * 3000 + b"1" + b"}" * 3000)],
        "at most 20 deep",
    ),
    (
        "a key twice",
        lambda t: ["cascade", _written(t, "k.json", b'{"name": "A", "name": "B"}')],
        "'name' twice",
    ),
    ("NaN", lambda t: ["battle", "--file", _written(t, "n.json", b'{"garrison": NaN}')], "NaN"),
    (
        "1e309",
        lambda t: [
            "cascade",
            _written(
                t,
                "e.json",
                json.dumps(
                    {
                        "commands": [
                            {"name": "C", "units": [{"name": "A", "starting": 1, "leadership": 4}]}
                        ]
                    }
                )
                .replace('"starting": 1', '"starting": 1e309')
                .encode(),
            ),
        ],
        "commands[0].units[0].starting: starting must be a whole number from 1 to 100000, "
        "got 1e309",
    ),
    (
        "readings 5",
        lambda t: ["battle", "--file", _battle_file(t, readings=5)],
        "readings: readings must be a JSON object, got 5",
    ),
    (
        "readings abc",
        lambda t: ["battle", "--file", _battle_file(t, readings="abc")],
        "readings must be a JSON object",
    ),
    (
        "leadership 5",
        lambda t: ["battle", "--file", _battle_file(t, leadership=5)],
        "leadership must be a JSON object, got 5",
    ),
    (
        "a huge probability",
        lambda t: [
            "battle",
            "--file",
            _battle_file(t, leadership={"probability": "1/1e999999999"}),
        ],
        "leadership.probability: probability must be",
    ),
    (
        "0.5/1",
        lambda t: ["battle", "--file", _battle_file(t, leadership={"probability": "0.5/1"})],
        "fraction of two whole numbers (7/12)",
    ),
    (
        "1/7...7",
        lambda t: [
            "battle",
            "--file",
            _battle_file(t, leadership={"probability": "1/" + "7" * 4299}),
        ],
        "at most 100 characters",
    ),
    (
        "a battle field unknown",
        lambda t: ["battle", "--file", _battle_file(t, weather="rain")],
        "'weather'",
    ),
    (
        "a force for a battle",
        lambda t: ["battle", "--file", "examples/b-company.json"],
        "got 'name'",
    ),
    ("a battle for a force", lambda t: ["cascade", "examples/battle.json"], "got 'attacker'"),
    (
        "leaders [5]",
        lambda t: ["cascade", _force(t, leaders=[5])],
        "leaders[0]: each leader must be a JSON object, got 5",
    ),
    (
        "leaders [true]",
        lambda t: ["cascade", _force(t, leaders=[True])],
        "each leader must be a JSON object, got True",
    ),
    (
        "prefer [[1]]",
        lambda t: ["cascade", _force(t, prefer=[[1]])],
        "prefer: prefer must be names of leaders or units of the force, got [1]",
    ),
    ("prefer [['A']]", lambda t: ["cascade", _force(t, prefer=[["A"]])], "prefer must be names"),
    (
        "an invisible name",
        lambda t: ["cascade", _force(t, name="B\u200b")],
        "force name must be text",
    ),
    ("a noncharacter", lambda t: ["cascade", _force(t, name="B\ufffe")], "force name must be text"),
    (
        "look-alike names",
        lambda t: ["cascade", _force(t, name="a")],
        "name: name must be a name of its own in the force",
    ),
    (
        "a survival that is not a reading",
        lambda t: ["cascade", _force(t, removed_figures_survive="no")],
        "removed_figures_survive must be True or False",
    ),
    ("no sides and no file", lambda t: ["battle"], "--attacker and --defender, or --file"),
    (
        "a file and sides",
        lambda t: ["battle", "--file", "examples/battle.json", "--attacker", "infantry"],
        "--file alone",
    ),
    (
        "a missing battle file",
        lambda t: ["battle", "--file", "no-such.json"],
        "file must be a regular JSON file",
    ),
]


def _many_tests(tmp_path) -> str:
    """One test more than the cascade takes, in commands of 30 testing units."""
    sizes = [30] * (MAX_CASCADE_TESTS // 30) + [MAX_CASCADE_TESTS % 30 + 1]
    commands = [
        {
            "name": f"C{c}",
            "units": [{"name": f"U{c}-{u}", "starting": 10, "leadership": 4} for u in range(size)],
        }
        for c, size in enumerate(sizes)
    ]
    casualties = {unit["name"]: 6 for command in commands for unit in command["units"]}
    path = tmp_path / "many.json"
    path.write_text(json.dumps({"name": "F", "commands": commands, "casualties": casualties}))
    return str(path)


@pytest.mark.parametrize(
    ("case", "args", "message"), HOSTILE + FILES, ids=[case for case, _, _ in HOSTILE + FILES]
)
def test_hostile_input_is_one_safe_line(tmp_path, capsys, case, args, message):
    assert main(args(tmp_path)) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.endswith("\n") and err[:-1].isprintable() and message in err


@pytest.mark.parametrize(("case", "args", "message"), FILES, ids=[case for case, _, _ in FILES])
def test_a_hostile_file_is_one_line_and_status_2_from_the_command(tmp_path, case, args, message):
    """The installed command, started as a player starts it (on fractions, no sympy)."""
    result = run(*args(tmp_path))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("target", [" 4+ ", "4", "4+"])
def test_a_target_is_normalised_in_the_label(target):
    result = run("leadership", "--target", target)
    assert result.stdout == "Leadership test 4+: passes 1/2 (50.0%), fails 1/2 (50.0%)\n"


def test_a_full_or_closed_output_is_one_line_and_status_1():
    full = subprocess.run(
        f"{SCRIPT} table break-test > /dev/full", shell=True, capture_output=True, text=True
    )
    closed = subprocess.run(
        f"{SCRIPT} table break-test >&-", shell=True, capture_output=True, text=True
    )
    for result, reason in ((full, "No space left"), (closed, "closed")):
        assert result.returncode == 1 and reason in result.stderr
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


def test_a_declaration_applies_to_its_platoon_only():
    """CA-2 with CA-10: the written roll is that platoon's; the others take their side's
    default, except barred cavalry (and withdrawn platoons), which roll nothing."""
    from rulesref.campaign import Battle, Kind, Platoon, Roll, Side, Terrain
    from rulesref.odds.battle import battle_odds

    result = run(
        "battle",
        "--attacker",
        "cavalry,infantry@defence",
        "--defender",
        "infantry",
        "--terrain",
        "woods",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    battle = Battle(
        Side([Platoon(Kind.CAVALRY), Platoon()], [None, Roll.DEFENCE]),
        Side([Platoon()]),
        terrain=Terrain.WOODS,
    )
    expected = battle_odds(battle).victor
    assert {k: Rational(v) for k, v in json.loads(result.stdout)["victor"].items()} == {
        str(k): v for k, v in expected.items()
    }
    withdrawn = run(
        "battle", "--attacker", "infantry/withdrawn,artillery@defence", "--defender", "infantry"
    )
    assert withdrawn.returncode == 0, withdrawn.stderr
