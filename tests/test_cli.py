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
from rulesref.cli import main

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
    from rulesref.cli import _force
    from rulesref.leadership import cascade_probabilities

    data = json.loads((ROOT / "examples/b-company.json").read_text())
    odds = cascade_probabilities(*_force(data))
    result = json.loads(run("cascade", "examples/b-company.json", "--json").stdout)
    assert Rational(result["force_breaks"]) == odds.force_breaks == Rational(1, 4)
    assert {k: Rational(v) for k, v in result["unit_removed"].items()} == odds.unit_removed


@pytest.mark.parametrize(
    "force, message",
    [
        ([1], "one JSON object"),
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


def test_main_returns_the_status(capsys):
    assert main(["break", "--leadership", "8", "--lost-by", "3"]) == 0
    assert "5/18" in capsys.readouterr().out
    assert main(["break", "--leadership", "80", "--lost-by", "3"]) == 2
    assert "leadership must be" in capsys.readouterr().err
