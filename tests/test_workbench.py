"""The Workbench: rulesref.workbench in CPython (the answers, the places of bad fields,
the dice core without gmpy2), then the page itself in headless Chromium running the same
module through Pyodide, against CPython's answers, with no request leaving 127.0.0.1."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from sympy import Rational

from rulesref.campaign import Battle, LeadershipCheck, Platoon, Readings, Side, battle_odds
from rulesref.campaign import most_withdrawals as most
from rulesref.workbench import answer

ROOT = Path(__file__).resolve().parent.parent
B_COMPANY = json.loads((ROOT / "examples/b-company.json").read_text())

# forces and battles the page must answer exactly as CPython does
FORCES = {
    "b-company": B_COMPANY,
    "one squad": {
        "commands": [{"name": "P", "units": [{"name": "A", "starting": 10, "leadership": "4+"}]}],
        "casualties": {"A": 6},
    },
    "b-company, Lt Ames preferred, figures survive": {
        **B_COMPANY,
        "prefer": ["Lt Ames"],
        "removed_figures_survive": True,
    },
}
BATTLES = {
    "gun against infantry": {
        "attacker": {"platoons": [{"kind": "artillery"}]},
        "defender": {"platoons": [{}]},
    },
    "5 against 4, fortified, damaged and FUBAR, out of supply": {
        "attacker": {
            "platoons": [
                {"kind": "artillery", "state": "damaged"},
                {"kind": "cavalry"},
                {"kind": "infantry", "state": "fubar", "supplied": False},
                {"kind": "command", "declaration": "defence"},
                {"kind": "infantry"},
            ]
        },
        "defender": {
            "platoons": [
                {"kind": "infantry"},
                {"kind": "infantry", "state": "damaged"},
                {"kind": "artillery", "declaration": "attack"},
                {"kind": "infantry", "state": "withdrawn"},
            ],
            "fortified": True,
        },
        "terrain": "forest",
        "policy": "most withdrawals",
        "leadership": {"chance": "2/3"},
        "readings": {"clamp_rolls": True},
    },
    "garrison in the mountains": {
        "attacker": {"platoons": [{"kind": "cavalry"}, {"kind": "infantry"}]},
        "defender": {"platoons": [{"kind": "infantry", "state": "fubar"}]},
        "terrain": "mountain",
        "garrison": True,
        "leadership": {"leadership": 9},
    },
}


def cli(*args: str, hide_gmpy2: bool = False) -> str:
    """The command's output, in a fresh interpreter (gmpy2 made unimportable if asked)."""
    hide = "import sys; sys.modules['gmpy2'] = None; " if hide_gmpy2 else ""
    check = "import rulesref.dice; assert rulesref.dice.mpz is int; " if hide_gmpy2 else ""
    code = f"{hide}{check}from rulesref.cli import main; raise SystemExit(main({list(args)!r}))"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["cascade", "examples/b-company.json", "--json"],
        [
            "battle",
            "--attacker",
            "artillery/damaged, cavalry, infantry/fubar, command, infantry",
            "--defender",
            "infantry, infantry/damaged, artillery, infantry",
            "--fortified",
            "--json",
        ],
        ["break", "--leadership", "7", "--lost-by", "4", "--json"],
        ["leadership", "--target", "5+", "--rerolls", "3", "--json"],
        ["table", "break-test"],
    ],
)
def test_without_gmpy2_every_answer_is_the_same(args):
    """In the browser there is no gmpy2: the dice core falls back to Python's integers
    (and sympy to its own), and not one answer changes."""
    assert cli(*args, hide_gmpy2=True) == cli(*args)


def exact(odds: dict) -> dict:
    return {name: Rational(shown["probability"]) for name, shown in odds.items()}


def test_b_company_is_the_command_lines_answer():
    """LD-4 to LD-12: the Workbench's odds of examples/b-company.json are those of
    `rulesref cascade --json examples/b-company.json`."""
    command = json.loads(cli("cascade", "examples/b-company.json", "--json"))
    page = answer({"force": B_COMPANY})
    assert page["force_breaks"]["probability"] == command["force_breaks"] == "1/4"
    for level in ("unit_removed", "command_removed"):
        assert {k: v["probability"] for k, v in page[level].items()} == command[level]
    assert page["force_breaks"]["percent"] == "25.0%"
    assert page["svg"].startswith("<svg")


def test_options_of_the_cascade_reach_it():
    from rulesref.cli import force_from_json
    from rulesref.leadership import cascade_probabilities

    options = {"prefer": ["Lt Ames"], "removed_figures_survive": True}
    odds = cascade_probabilities(*force_from_json(B_COMPANY), **options)
    page = answer({"force": {**B_COMPANY, **options}})
    assert exact(page["unit_fails"]) == odds.unit_fails
    assert exact(page["command_removed"]) == odds.command_removed


def test_a_battle_is_battle_odds():
    """CA-2 to CA-20: every distribution of the Workbench's battle is battle_odds'."""
    data = BATTLES["5 against 4, fortified, damaged and FUBAR, out of supply"]
    attacker = [
        Platoon("artillery", "damaged"),
        Platoon("cavalry"),
        Platoon("infantry", "fubar", supplied=False),
        Platoon("command"),
        Platoon("infantry"),
    ]
    defender = [
        Platoon(),
        Platoon("infantry", "damaged"),
        Platoon("artillery"),
        Platoon("infantry", "withdrawn"),
    ]
    battle = Battle(
        Side(attacker, ["attack", None, "attack", "defence", "attack"]),  # CA-10: no cavalry die
        Side(defender, ["defence", "defence", "attack", None], fortified=True),
        terrain="forest",
        readings=Readings(clamp_rolls=True),
    )
    odds = battle_odds(battle, policy=most, leadership=LeadershipCheck(chance=Rational(2, 3)))
    page = answer({"battle": data})
    assert exact(page["victor"]) == {str(k).lower(): p for k, p in odds.victor.items()}
    assert exact(page["outcomes"]) == odds.outcomes
    assert exact(page["routed"]) == odds.routed
    assert exact(page["must_check"]) == odds.must_check
    for role in ("attacker", "defender"):
        assert exact(page["hits"][role]) == {str(h): p for h, p in odds.hits[role].items()}
        assert exact(page["fate"][role]) == odds.fate[role]


def changed(data: dict, path: list, value: object) -> dict:
    data = copy.deepcopy(data)
    place = data
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return data


# a bad field of the form, and the start of its message; the answer names its place
BAD_FORCE_FIELDS = [
    (["commands", 1, "units", 2, "starting"], -1, "starting must be a whole number from 1"),
    (["commands", 1, "units", 2, "starting"], 100_001, "starting must be a whole number"),
    (["commands", 0, "units", 2, "current"], 11, "current of '2nd Squad' must be"),
    (["commands", 0, "units", 0, "leadership"], "7+", "leadership must be a Leadership"),
    (["commands", 0, "units", 1, "name"], "", "unit name must be text"),
    (["commands", 0, "leaders", 0, "rank"], 101, "rank of 'Lt Ames' must be"),
    (["commands", 1, "units", 3, "doctrine", "rerolls"], 11, "rerolls must be"),
    (["leaders", 0, "leadership"], "1+", "leadership must be"),
    (["casualties", "1st Squad"], 11, "casualties['1st Squad'] must be a whole number"),
    (["casualties", "Nobody"], 1, "casualties must name units of the force"),
    (["prefer"], ["Nobody"], "prefer must name leaders or units"),
]
BAD_BATTLE_FIELDS = [
    (["attacker", "platoons", 0, "kind"], "tank", "kind must be one of"),
    (["defender", "platoons", 1, "state"], "dead", "state must be one of"),
    (["attacker", "platoons", 1, "declaration"], "attack", "attacker platoon 1 (cavalry)"),
    (["terrain"], "swamp", "terrain must be one of"),
    (["leadership", "leadership"], 13, "leadership must be a whole number from 0 to 12"),
    (["leadership", "chance"], "3/2", "chance must be a Rational from 0 to 1"),
    (["policy"], "at random", "policy must be one of"),
]


@pytest.mark.parametrize("path, value, message", BAD_FORCE_FIELDS)
def test_a_bad_force_field_is_named_with_its_place(path, value, message):
    error = answer({"force": changed(B_COMPANY, path, value)})["error"]
    assert error["path"] == path and error["message"].startswith(message)


@pytest.mark.parametrize("path, value, message", BAD_BATTLE_FIELDS)
def test_a_bad_battle_field_is_named_with_its_place(path, value, message):
    battle = BATTLES["5 against 4, fortified, damaged and FUBAR, out of supply"]
    error = answer({"battle": changed(battle, path, value)})["error"]
    assert error["path"] == path and error["message"].startswith(message)


def test_the_command_lines_limits_apply():
    """The same constructors run: a force over the command line's limits is refused."""
    units = [{"name": f"U{i}", "starting": 1, "leadership": "4+"} for i in range(1001)]
    error = answer({"force": {"commands": [{"name": "P", "units": units}]}})["error"]
    assert error["path"] == ["commands", 0, "units"] and "1 to 1000 items" in error["message"]
    assert answer({"neither": 1})["error"]["path"] == []
