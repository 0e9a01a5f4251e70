"""The one reader of input (rulesref.inputs): its limits in the order it checks them,
JSON as written, names, the schema of a force and of a battle, a probability written by
a person; and the same answers or named refusals through the command line and the
Workbench. Every hostile input ends in a RulesError that names what it refuses."""

import copy
import dataclasses
import json
import subprocess
import sys
import time
import types
import typing
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from sympy import Rational

from rulesref import campaign, leadership
from rulesref.campaign import most_withdrawals
from rulesref.errors import MAX_MESSAGE, RulesError
from rulesref.exact import digits, fraction_text, short_fraction
from rulesref.inputs import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_PROBABILITY_TEXT,
    InputError,
    Written,
    force_from_json,
    parse_json,
    parse_probability,
)
from rulesref.inputs.battle import battle_from_json
from rulesref.odds.battle import battle_odds
from rulesref.odds.cascade import cascade_probabilities
from rulesref.workbench import answer, answer_text

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).parent / "rulesref"
B_COMPANY = json.loads((ROOT / "examples/b-company.json").read_text())
BATTLE = json.loads((ROOT / "examples/battle.json").read_text())


def refusal(call, *args) -> RulesError:
    with pytest.raises(RulesError) as caught:
        call(*args)
    return caught.value


# ------------------------------------------------------------------ JSON text


def test_the_size_is_checked_first_and_exactly():
    padded = b"{}" + b" " * (MAX_BYTES - 2)
    assert parse_json(padded) == {}
    error = refusal(parse_json, padded + b" ")
    assert str(error) == f"file must be at most {MAX_BYTES} bytes, got {MAX_BYTES + 1}"
    # counted in UTF-8 bytes, not characters: 'é' is two
    assert "at most" in str(refusal(parse_json, '"' + "é" * (MAX_BYTES // 2) + '"'))
    assert error.parameter == "file"


@pytest.mark.parametrize("depth", [1, MAX_DEPTH - 1, MAX_DEPTH])
def test_nesting_up_to_the_limit_is_read(depth):
    assert parse_json("[" * depth + "]" * depth) is not None


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 3000, 49_999])
def test_deeper_nesting_is_refused_before_parsing(depth):
    """Counted without recursion: 3,000 levels in 6 KB killed the page's Python once."""
    for opening, closing in (("[", "]"), ('{"a":', "}")):
        text = opening * depth + "1" + closing * depth
        error = refusal(parse_json, text[:MAX_BYTES] if len(text) > MAX_BYTES else text)
        assert f"at most {MAX_DEPTH} deep" in str(error) or "bytes" in str(error)


def test_brackets_inside_strings_are_not_nesting():
    text = json.dumps({"name": "[" * 500 + '\\"{' * 100})
    assert parse_json(text) == json.loads(text)


def test_a_key_twice_in_one_object_is_refused():
    error = refusal(parse_json, '{"casualties": {"A": 1, "A": 6}}')
    assert str(error) == ("file must be JSON that gives each key of an object once, got 'A' twice")
    # the same key in NFC and in decomposed form is the same key
    assert "twice" in str(refusal(parse_json, '{"\u00e9": 1, "e\u0301": 2}'))


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused(word):
    error = refusal(parse_json, f'{{"starting": {word}}}')
    assert str(error) == f"file must be JSON without NaN or Infinity, got '{word}'"


@pytest.mark.parametrize("number", ["1e309", "2.5", "10.0", "-0.0", "1e2", "1234567890123"])
def test_numbers_that_are_not_whole_numbers_stay_as_written(number):
    """A float never stands in for a whole number: `1e309` is refused as `1e309`, not
    as 'got None' or infinity."""
    value = parse_json(f"[{number}]")[0]
    assert value == Written(number) and repr(value) == number
    unit = {"name": "A", "starting": value, "leadership": 4}
    error = refusal(force_from_json, {"commands": [{"name": "P", "units": [unit]}]})
    assert str(error) == f"starting must be a whole number from 1 to 100000, got {number}"
    assert error.path == ("commands", 0, "units", 0, "starting")


def test_whole_numbers_of_up_to_12_digits_are_numbers():
    assert parse_json("[999999999999, -999999999999, 0]") == [10**12 - 1, 1 - 10**12, 0]


@pytest.mark.parametrize(
    "raw, said",
    [(b"\xff{}", "UTF-8"), ("{\ud800}", "UTF-8"), (b"{", "readable JSON"), (b"", "readable JSON")],
)
def test_text_that_is_not_json_is_refused(raw, said):
    assert said in str(refusal(parse_json, raw))


@pytest.mark.parametrize("name", ["file", "this link"])
@pytest.mark.parametrize(
    "raw, value, allowed, said",
    [
        (b"\xff{}", b"\xff{}", "readable JSON text in UTF-8", "(invalid start byte)"),
        (
            "[[]," + "[" * 20 + "]" * 20 + "]",
            None,
            f"JSON nesting lists and objects at most {MAX_DEPTH} deep",
            "21 deep",
        ),
        ('{"A": 1, "A": 2}', "A", "JSON that gives each key of an object once", "'A' twice"),
        ("{not json", None, "readable JSON", "(Expecting property name"),
    ],
    ids=["not UTF-8", "nesting", "a key twice", "not JSON"],
)
def test_a_refused_text_names_the_description_its_value_and_the_limit(
    name, raw, value, allowed, said
):
    """The parts a caller reads (the CLI's and the page's marks): the parameter is the
    description's name, the value what was refused (the whole text, or the key), and the
    message says what came. A closing bracket ends one level, however deep the first."""
    error = refusal(parse_json, raw, name)
    assert (error.parameter, error.value) == (name, raw if value is None else value)
    assert error.allowed == allowed and said in str(error)
    assert str(error).startswith(f"{name} must be {allowed}, got ")


def test_a_text_of_many_characters_is_measured_in_bytes_only_when_it_may_fit():
    """Characters past the limit are too many bytes already, and said as such (the
    text is not encoded); up to it, each is counted in UTF-8 bytes."""
    over = refusal(parse_json, "\u00e9" * (MAX_BYTES + 1), "this link")
    assert str(over) == f"this link must be at most {MAX_BYTES} bytes, got {MAX_BYTES + 1}"
    assert over.parameter == "this link" and len(over.value) == MAX_BYTES + 1
    at = refusal(parse_json, '"' + "\u00e9" * (MAX_BYTES - 2) + '"')
    assert str(at).endswith(f"got {2 * MAX_BYTES - 2}")


def test_a_probability_of_up_to_its_limit_of_characters_is_read():
    longest = "0." + "1" * (MAX_PROBABILITY_TEXT - 2)
    assert parse_probability(longest) == Rational(int("1" * 98), 10**98)
    error = refusal(parse_probability, longest + "1")
    assert error.allowed == (
        f"a probability from 0 to 1 written in at most {MAX_PROBABILITY_TEXT} characters, as "
        "digits with an optional decimal point (0.25) or a fraction of two whole numbers (7/12)"
    )


def test_every_text_is_normalised_to_nfc():
    decomposed = "Le\u0301on"
    data = parse_json(json.dumps({decomposed: [decomposed, {"x": decomposed}]}))
    assert data == {"L\u00e9on": ["L\u00e9on", {"x": "L\u00e9on"}]}


# ------------------------------------------------------------------ probabilities


@pytest.mark.parametrize(
    "written, exact",
    [
        ("7/12", Rational(7, 12)),
        ("14/24", Rational(7, 12)),
        ("0.5", Rational(1, 2)),
        ("0.25", Rational(1, 4)),
        ("1", 1),
        ("0", 0),
        ("1.000", 1),
        ("0/5", 0),
        ("00.50", Rational(1, 2)),
    ],
)
def test_a_probability_as_a_person_writes_it(written, exact):
    assert parse_probability(written) == exact


@pytest.mark.parametrize(
    "written",
    [
        "0.5/1",
        "1e-1/1",
        "1/1e999999999",
        "1e-1",
        "1/0",
        "0/0",
        "3/2",
        "1.5",
        "2",
        " 1/2",
        "1/2 ",
        "1 / 2",
        "-0.5",
        "+0.5",
        ".5",
        "5.",
        "½",
        "\u0661/\u0662",  # Arabic-Indic digits
        "1/2/3",
        "",
        "1/" + "7" * 4299,
        "0." + "1" * MAX_PROBABILITY_TEXT,
        "Rational(1, 2)",
        "sqrt(1/4)",
        0.5,
        1,
        None,
        ["1/2"],
    ],
)
def test_anything_else_is_refused_at_once_by_name(written):
    started = time.process_time()
    error = refusal(parse_probability, written)
    assert time.process_time() - started < 0.5  # never builds 10**999999999
    assert error.parameter == "probability" and error.value == written
    assert "fraction of two whole numbers (7/12)" in str(error)
    assert len(str(error)) <= MAX_MESSAGE


@given(st.integers(0, 10**30), st.integers(1, 10**30))
def test_every_fraction_of_whole_numbers_reads_as_itself(numerator, denominator):
    written = f"{numerator}/{denominator}"
    if len(written) > MAX_PROBABILITY_TEXT or numerator > denominator:
        refusal(parse_probability, written)
    else:
        assert parse_probability(written) == Rational(numerator, denominator)


@given(st.integers(0, 10**20), st.integers(0, 20))
@example(5, 1)
@example(100, 2)
def test_every_decimal_reads_as_itself(digits_, places):
    written = str(digits_).zfill(places + 1)
    written = f"{written[:-places]}.{written[-places:]}" if places else written
    exact = Rational(digits_, 10**places)
    if exact > 1:
        refusal(parse_probability, written)
    else:
        assert parse_probability(written) == exact


PAGE_PYTHON = (
    "import os, sys; sys.modules['gmpy2'] = sys.modules['sympy'] = None; "
    "os.environ['RULESREF_FRACTIONS'] = '1'; "
)


def test_the_page_reads_every_probability_as_cpython_does():
    """The page runs the same parser (Python's fractions, no sympy): the same fractions
    and the same refusals, so '0.5/1' is refused in both."""
    written = ["7/12", "0.5", "1", "0", "0.125", "0.5/1", "1e-1/1", "1/1e999999999", "3/2"]
    code = PAGE_PYTHON + (
        "import json; from rulesref.inputs import parse_probability\n"
        "def read(w):\n"
        "    try: return str(parse_probability(w))\n"
        "    except ValueError as e: return 'refused: ' + str(e)\n"
        f"print(json.dumps([read(w) for w in {written!r}]))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr

    def read(w):
        try:
            return str(parse_probability(w))
        except RulesError as e:
            return "refused: " + str(e)

    assert json.loads(run.stdout) == [read(w) for w in written]
    assert [read(w) for w in written][:5] == ["7/12", "1/2", "1", "0", "1/8"]


# ------------------------------------------------------------------ a force


def unit(name="A", **fields):
    return {"name": name, "starting": 10, "leadership": "4+", **fields}


def force(*units, **fields):
    return {"commands": [{"name": "P", "units": list(units) or [unit()]}], **fields}


@pytest.mark.parametrize(
    "data, path, start",
    [
        (force(colour="red"), (), "force field must be one of name, commands"),
        (force(unit(strength=3)), ("commands", 0, "units", 0), "unit field must be one of name"),
        ({"name": "F"}, ("commands",), "commands must be given for each force, got nothing"),
        (
            force({"name": "A", "starting": 5}),
            ("commands", 0, "units", 0, "leadership"),
            "leadership must be given",
        ),
        (force(leaders=[5]), ("leaders", 0), "each leader must be a JSON object, got 5"),
        (force(leaders=[True]), ("leaders", 0), "each leader must be a JSON object, got True"),
        (force(leaders=5), ("leaders",), "leaders must be a JSON list, got 5"),
        ({"commands": [None, 5]}, ("commands", 0), "each command must be a JSON object, got None"),
        (
            {"commands": [{"name": "P", "units": [None]}]},
            ("commands", 0, "units", 0),
            "each unit must be a JSON object",
        ),
        (
            {"commands": [{"name": "P", "units": "x"}]},
            ("commands", 0, "units"),
            "units must be a JSON list, got 'x'",
        ),
        ([1], (), "force must be a JSON object, got [1]"),
        (
            force(unit(leadership=["4+", {}])),
            ("commands", 0, "units", 0, "leadership"),
            "leadership must be a Leadership",
        ),
        (force(unit(current=11)), ("commands", 0, "units", 0, "current"), "current of 'A' must be"),
        (
            force(unit(doctrine={"rerolls": 11})),
            ("commands", 0, "units", 0, "doctrine", "rerolls"),
            "rerolls must be",
        ),
        (
            force(unit(doctrine={"name": "\n"})),
            ("commands", 0, "units", 0, "doctrine", "name"),
            "doctrine name must be",
        ),
        (
            force(unit(doctrine=[])),
            ("commands", 0, "units", 0, "doctrine"),
            "doctrine must be a JSON object",
        ),
        (force(casualties=[]), ("casualties",), "casualties must be a JSON object"),
        (force(casualties={"Z": 1}), ("casualties", "Z"), "casualties must be names of units"),
        (
            force(casualties={"A": 11}),
            ("casualties", "A"),
            "casualties['A'] must be a whole number from 0 to 10",
        ),
        (
            force(casualties={"A": -1}),
            ("casualties", "A"),
            "casualties['A'] must be a whole number from 0 to 10, got -1",
        ),
        (
            force(casualties={"A": 1.0}),
            ("casualties", "A"),
            "casualties['A'] must be a whole number",
        ),
        (force(prefer="A"), ("prefer",), "prefer must be a JSON list, got 'A'"),
        (
            force(prefer=[[1]]),
            ("prefer",),
            "prefer must be names of leaders or units of the force, got [1]",
        ),
        (force(prefer=[["A"]]), ("prefer",), "prefer must be names of leaders or units"),
        (force(prefer=["Z"]), ("prefer",), "prefer must be names of leaders or units"),
        (
            force(removed_figures_survive="yes"),
            ("removed_figures_survive",),
            "removed_figures_survive must be True or False",
        ),
        (force(unit("A\u200b")), ("commands", 0, "units", 0, "name"), "unit name must be text"),
        (force(unit("\ufeffA")), ("commands", 0, "units", 0, "name"), "unit name must be text"),
        (force(unit("A\ufffe")), ("commands", 0, "units", 0, "name"), "unit name must be text"),
        (
            force(unit("A"), unit("A")),
            ("commands", 0, "units", 1, "name"),
            "name must be a name of its own in the force, not alike another but for case or "
            "width, got 'A' twice",
        ),
        (
            force(unit("Alpha"), unit("ALPHA")),
            ("commands", 0, "units", 1, "name"),
            "name must be a name of its own",
        ),
        (
            force(unit("A"), unit("\uff21")),
            ("commands", 0, "units", 1, "name"),
            "name must be a name of its own",
        ),
        (force(unit("P")), ("commands", 0, "units", 0, "name"), "name must be a name of its own"),
        (
            force(leaders=[{"name": "a", "leadership": 3, "rank": 1}]),
            ("leaders", 0, "name"),
            "name must be a name of its own",
        ),
        (
            {"commands": [{"name": 5, "units": [unit()]}]},
            ("commands", 0, "name"),
            "command name must be text",
        ),
        (
            {"commands": [{"units": [unit()]}]},
            ("commands", 0, "name"),
            "name must be given for each command, got nothing",
        ),
        (
            {"commands": [{"name": "P", "units": [unit()], "leaders": 5}]},
            ("commands", 0, "leaders"),
            "leaders must be a JSON list, got 5",
        ),
        (
            {"commands": [{"name": "P", "units": []}]},
            ("commands", 0, "units"),
            "units of command 'P' must be a sequence of 1 to",
        ),
        (
            force(leaders=[{"name": "L", "leadership": 9, "rank": 1}]),
            ("leaders", 0, "leadership"),
            "leadership must be a Leadership from 2+ to 6+",
        ),
        (
            force(leaders=[{"name": "L", "leadership": 3, "rank": 1, "unit": 5}]),
            ("leaders", 0, "unit"),
            "unit of 'L' must be text",
        ),
        (force(doctrine={"ignores": "yes"}), ("doctrine", "ignores"), "ignores must be True or"),
        (
            force(unit(removed="x")),
            ("commands", 0, "units", 0, "removed"),
            "removed must be True or False",
        ),
        # a name alike another, reported at the later one's place; one not text is left
        # to its record, and the others are still told apart
        (
            force(unit("A"), unit("a")),
            ("commands", 0, "units", 1, "name"),
            "name must be a name of its own in the force, not alike another but for case or "
            "width, got 'a', alike 'A'",
        ),
        (force(unit("A"), unit("A"), name=5), ("commands", 0, "units", 1, "name"), "name must"),
        (force(name="P"), ("commands", 0, "name"), "name must be a name of its own"),
        (
            {
                "commands": [
                    {
                        "name": "P",
                        "units": [unit()],
                        "leaders": [{"name": "A", "leadership": 3, "rank": 1}],
                    }
                ]
            },
            ("commands", 0, "leaders", 0, "name"),
            "name must be a name of its own",
        ),
        (force(name=5), ("name",), "force name must be text"),
        ({"commands": []}, ("commands",), "commands must be a sequence of 1 to"),
        (
            force(leaders=[{"name": 5, "leadership": 3, "rank": 1}]),
            ("leaders", 0, "name"),
            "leader name must be",
        ),
        (
            force(leaders=[{"name": "L", "leadership": 3}]),
            ("leaders", 0, "rank"),
            "rank must be given for each leader, got nothing",
        ),
        (
            force(leaders=[{"name": "L", "leadership": 3, "rank": 101}]),
            ("leaders", 0, "rank"),
            "rank of 'L' must be",
        ),
        (
            force(leaders=[{"name": "L", "leadership": 3, "rank": 1, "alive": "yes"}]),
            ("leaders", 0, "alive"),
            "alive must be True or False",
        ),
        (
            force(leaders=[{"name": "L", "leadership": 3, "rank": 1, "unit": "A"}]),
            (),
            "leader 'L' of the force must be independent",
        ),
    ],
)
def test_a_bad_force_is_refused_at_its_place(data, path, start):
    error = refusal(lambda: force_from_json(data).odds())
    assert isinstance(error, InputError)
    assert (error.path, str(error)[: len(start)]) == (path, start)
    page = answer({"force": data})["error"]  # the Workbench: the same place and words
    assert (tuple(page["path"]), page["message"]) == (path, str(error))
    assert page["parameter"] == error.parameter


def test_a_name_typed_two_ways_is_one_name():
    """NFC: a casualty keyed by the composed name reaches the unit named decomposed."""
    data = parse_json(json.dumps(force(unit("Le\u0301on"), casualties={"L\u00e9on": 6})))
    question = force_from_json(data)
    assert question.casualties == {"L\u00e9on": 6}
    assert question.odds().unit_removed["L\u00e9on"] == Rational(1, 2)


def test_a_leader_is_alive_whether_or_not_the_file_says_so():
    """The page wrote `"alive": true` on every leader; a file with or without it is one force."""
    with_alive = copy.deepcopy(B_COMPANY)
    for leader in with_alive["leaders"] + [
        lead for command in with_alive["commands"] for lead in command.get("leaders", [])
    ]:
        leader["alive"] = True
    assert force_from_json(with_alive) == force_from_json(B_COMPANY)
    dead = copy.deepcopy(with_alive)
    dead["leaders"][0]["alive"] = False
    assert force_from_json(dead).force.leaders[0].alive is False


# ------------------------------------------------------------------ a battle


def battle(**fields):
    return {"attacker": {"platoons": [{}]}, "defender": {"platoons": [{}]}, **fields}


@pytest.mark.parametrize(
    "data, path, start",
    [
        (battle(readings=5), ("readings",), "readings must be a JSON object, got 5"),
        (battle(readings="abc"), ("readings",), "readings must be a JSON object, got 'abc'"),
        (battle(readings={"x": 1}), ("readings",), "readings field must be one of fubar_modified"),
        (
            battle(readings={"clamp_rolls": 1}),
            ("readings", "clamp_rolls"),
            "clamp_rolls must be True or False",
        ),
        (battle(leadership=5), ("leadership",), "leadership must be a JSON object, got 5"),
        (
            battle(leadership={"leadership": 13}),
            ("leadership", "leadership"),
            "leadership must be a whole number from 0 to 12",
        ),
        (
            battle(leadership={"leadership": 7.0}),
            ("leadership", "leadership"),
            "leadership must be a whole number from 0 to 12, got 7.0",
        ),
        (
            battle(leadership={"probability": "1/1e999999999"}),
            ("leadership", "probability"),
            "probability must be a probability",
        ),
        (
            battle(leadership={"leadership": None}),
            ("leadership", "leadership"),
            "leadership must be a whole number from 0 to 12, got None",
        ),
        (
            battle(leadership={"leadership": None, "probability": "1/2"}),
            ("leadership", "leadership"),
            "leadership must be a whole number from 0 to 12, got None",
        ),
        (
            battle(leadership={"leadership": 7, "probability": "1/2"}),
            ("leadership",),
            "leadership and probability must not both be given (a probability replaces "
            "the roll), got 7 and 1/2",
        ),
        (
            battle(leadership={"probability": "0.5/1"}),
            ("leadership", "probability"),
            "probability must be a probability",
        ),
        (
            battle(leadership={"probability": "1e-1/1"}),
            ("leadership", "probability"),
            "probability must be a probability",
        ),
        (
            battle(leadership={"probability": 0.5}),
            ("leadership", "probability"),
            "probability must be a probability",
        ),
        (
            battle(leadership={"odds": 1}),
            ("leadership",),
            "leadership field must be one of leadership, probability",
        ),
        (
            battle(policy="at random"),
            ("policy",),
            "policy must be one of fewest withdrawals, most withdrawals",
        ),
        (battle(policy=["most withdrawals"]), ("policy",), "policy must be one of"),
        (battle(terrain="swamp"), ("terrain",), "terrain must be one of"),
        (battle(garrison="no"), ("garrison",), "garrison must be True or False"),
        (battle(weather="rain"), (), "battle field must be one of attacker, defender"),
        ({"attacker": {"platoons": [{}]}}, ("defender",), "defender must be given for each battle"),
        (battle(attacker=5), ("attacker",), "side must be a JSON object, got 5"),
        (
            battle(attacker={"platoons": 5}),
            ("attacker", "platoons"),
            "platoons must be a JSON list, got 5",
        ),
        (
            battle(attacker={"platoons": []}),
            ("attacker", "platoons"),
            "platoons must be a sequence of 1 to 1000",
        ),
        (
            battle(attacker={"platoons": [5]}),
            ("attacker", "platoons", 0),
            "each platoon must be a JSON object, got 5",
        ),
        (
            battle(attacker={"platoons": [{"kind": "tank"}]}),
            ("attacker", "platoons", 0, "kind"),
            "kind must be one of",
        ),
        (
            battle(attacker={"platoons": [{"name": "\ufffe"}]}),
            ("attacker", "platoons", 0, "name"),
            "name must be text",
        ),
        (
            battle(attacker={"platoons": [{"colour": 1}]}),
            ("attacker", "platoons", 0),
            "platoon field must be one of kind",
        ),
        (
            battle(attacker={"platoons": [{"declaration": 5}]}),
            ("attacker", "platoons", 0, "declaration"),
            "declaration must be one of attack, defence",
        ),
        (
            battle(attacker={"platoons": [{}], "fortified": "yes"}),
            ("attacker", "fortified"),
            "fortified must be True or False",
        ),
        (
            battle(attacker={"platoons": [{}], "name": "x"}),
            ("attacker",),
            "side field must be one of platoons, fortified",
        ),
        (
            battle(
                attacker={"platoons": [{"kind": "cavalry", "declaration": "attack"}]},
                terrain="woods",
            ),
            ("attacker", "platoons", 0, "declaration"),
            "attacker platoon 0 (cavalry) is cavalry in woods and may not roll (CA-10)",
        ),
        (
            battle(attacker={}),
            ("attacker", "platoons"),
            "platoons must be given for each side, got nothing",
        ),
        (
            battle(defender={"platoons": [{"declaration": "defence"}, {"declaration": None}]}),
            ("defender", "platoons", 1, "declaration"),
            "defender platoon 1 (infantry) must roll",
        ),
        (
            battle(defender={"platoons": [{}, {"declaration": None}]}),
            ("defender", "platoons", 1, "declaration"),
            "defender platoon 1 (infantry) must roll",
        ),
        (
            battle(attacker={"platoons": [{"state": "withdrawn"}]}),
            ("attacker",),
            "platoons must include one that is not withdrawn",
        ),
        (5, (), "battle must be a JSON object, got 5"),
    ],
)
def test_a_bad_battle_is_refused_at_its_place(data, path, start):
    error = refusal(lambda: battle_from_json(data).odds())
    assert isinstance(error, InputError)
    assert (error.path, str(error)[: len(start)]) == (path, start)
    page = answer({"battle": data})["error"]
    assert (tuple(page["path"]), page["message"]) == (path, str(error))


def test_casualties_name_units_of_the_force_and_may_be_none():
    unknown = refusal(force_from_json, force(casualties={"Z": 1}))
    assert (unknown.path, unknown.parameter, unknown.value) == (
        ("casualties", "Z"),
        "casualties",
        "Z",
    )
    not_an_object = refusal(force_from_json, force(casualties=5))
    assert (not_an_object.path, not_an_object.value) == (("casualties",), 5)
    assert force_from_json(force(casualties={"A": 0})).casualties == {"A": 0}
    unknown_field = refusal(force_from_json, force(colour="red"))
    assert (unknown_field.parameter, unknown_field.value) == ("force field", "colour")
    alike = refusal(force_from_json, force(unit("A"), unit("a")))
    assert (alike.parameter, alike.value) == ("name", "a")


def test_a_refusal_at_a_place_keeps_the_rule_s_own_parts():
    """An InputError is the record's refusal with a place: message, parameter, value
    and what is allowed, unchanged."""
    with pytest.raises(RulesError) as direct:
        leadership.Unit("A", -1, "4+")
    error = refusal(force_from_json, force(unit(starting=-1)))
    assert isinstance(error, InputError) and error.path[-1] == "starting"
    parts = (str(error), error.parameter, error.value, error.allowed)
    assert parts == (str(direct.value), "starting", -1, direct.value.allowed)
    assert error.allowed


def test_a_battle_keeps_its_garrison_readings_policy_and_check():
    """Each field reaches the battle and its odds, declarations or not; a garrison not
    written is none (CA-C2's default)."""
    readings = {"clamp_rolls": True, "woods_is_forest": False}  # neither the default
    check = {"probability": "1/3"}
    guns = {"kind": "artillery"}
    for platoons in ([guns] * 3, [{"declaration": "attack", **guns}, guns, guns]):
        data = battle(
            attacker={"platoons": platoons},
            defender={"platoons": [{}, {"state": "damaged"}, {"kind": "cavalry"}]},
            terrain="woods",
            readings=readings,
            policy="most withdrawals",
            leadership=check,
        )
        question = battle_from_json(data)
        assert question.battle.readings == campaign.Readings(**readings)
        assert question.battle.garrison is False
        check_ = campaign.LeadershipCheck(probability=Rational(1, 3))
        expected = battle_odds(question.battle, policy=most_withdrawals, leadership=check_)
        assert question.odds() == expected
        assert question.odds() != battle_odds(question.battle, leadership=check_)  # the policy
        assert question.odds() != battle_odds(question.battle, policy=most_withdrawals)


def test_a_side_left_to_its_role_rolls_as_the_rules_say():
    """CA-2 with CA-10: a platoon left to its side's role rolls for it, barred cavalry
    rolls nothing; a declaration is that platoon's alone."""
    data = battle(
        attacker={"platoons": [{"kind": "cavalry"}, {"declaration": "defence"}]}, terrain="woods"
    )
    question = battle_from_json(data)
    assert question.battle.declarations("attacker") == (None, "defence")
    assert question.battle.declarations("defender") == ("defence",)
    # every platoon declared, none left to its side: each rolls as declared
    declared = battle(
        attacker={"platoons": [{"declaration": "defence"}]},
        defender={"platoons": [{"declaration": "attack"}]},
    )
    question = battle_from_json(declared)
    assert question.battle.declarations("attacker") == ("defence",)
    assert question.battle.declarations("defender") == ("attack",)


# ------------------------------------------------------------------ the Workbench's files


def every_force_field() -> dict:
    """A force as the page downloads it, with every field the page writes."""
    data = copy.deepcopy(B_COMPANY)
    data["doctrine"] = {"name": "Veterans", "rerolls": 1, "ignores": False}
    data["commands"][1]["doctrine"] = {"ignores": True}
    data["leaders"][0]["alive"] = True
    data["commands"][1]["leaders"][0]["alive"] = False
    # LD-C8: two sergeants of one rank; Kay, the worse, is tested on only when preferred
    kay = {"name": "Sgt Kay", "leadership": "5+", "rank": 2, "unit": "2nd Squad"}
    lee = {"name": "Sgt Lee", "leadership": "4+", "rank": 2, "unit": "2nd Squad"}
    data["commands"][0]["leaders"] += [kay, lee]
    data["prefer"] = ["Sgt Kay", "1st Squad"]
    # LD-C5: a Major whose command was gone before the phase counts in one reading only
    old = {"name": "X", "starting": 10, "leadership": "6+", "current": 0}
    major = {"name": "Major", "leadership": "2+", "rank": 5, "alive": True}
    data["commands"].append({"name": "Old Guard", "units": [old], "leaders": [major]})
    return data


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("survive", [False, True])
@pytest.mark.parametrize("prefer", [None, ["Sgt Kay", "1st Squad"], ["Capt Hale"]])
def test_a_downloaded_force_is_what_the_command_line_answers(tmp_path, survive, prefer):
    """The page's Download, every field, each reading and `prefer`: `rulesref cascade`
    and `workbench.answer` give the package's odds of that force."""
    data = every_force_field() | {"removed_figures_survive": survive}
    data = {k: v for k, v in data.items() if k != "prefer"} | ({"prefer": prefer} if prefer else {})
    path = tmp_path / "force.json"
    path.write_text(json.dumps(data, indent=2))
    run = cli("cascade", str(path), "--json")
    assert run.returncode == 0, run.stderr
    command = json.loads(run.stdout)
    page = answer({"force": json.loads(path.read_text())})
    question = force_from_json(data)
    odds = cascade_probabilities(
        question.force,
        question.casualties,
        prefer=prefer or (),
        readings=leadership.Readings(removed_figures_survive=survive),
    )
    assert Rational(command["force_breaks"]) == odds.force_breaks
    assert Rational(page["force_breaks"]["probability"]) == odds.force_breaks
    for level in ("unit_removed", "command_removed"):
        assert {k: Rational(v) for k, v in command[level].items()} == getattr(odds, level)
        assert {k: Rational(v["probability"]) for k, v in page[level].items()} == getattr(
            odds, level
        )


def test_the_options_change_the_odds():
    """So the round trip above could fail: each option reaches the cascade."""
    data = every_force_field()
    plain = answer({"force": data | {"prefer": []}})
    assert answer({"force": data})["command_fails"] != plain["command_fails"]
    survive = answer({"force": data | {"prefer": [], "removed_figures_survive": True}})
    assert survive["force_breaks"] != plain["force_breaks"]


READINGS = ["fubar_modified", "clamp_rolls", "woods_is_forest", "mountain_both_sides"]


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"policy": "most withdrawals", "leadership": {"probability": "2/3"}},
        {"leadership": {"leadership": 9}, "garrison": True, "terrain": "mountain"},
        {"leadership": {"probability": "0.25"}, "terrain": "woods"},
        *({"readings": {name: not getattr(campaign.Readings(), name)}} for name in READINGS),
    ],
)
def test_a_downloaded_battle_is_what_the_command_line_answers(tmp_path, changes):
    data = BATTLE | changes
    data["attacker"]["platoons"][2]["declaration"] = "defence"
    path = tmp_path / "battle.json"
    path.write_text(json.dumps(data))
    run = cli("battle", "--file", str(path), "--json")
    assert run.returncode == 0, run.stderr
    command = json.loads(run.stdout)
    page = answer({"battle": data})
    question = battle_from_json(data)
    odds = battle_odds(question.battle, policy=question.policy, leadership=question.leadership)
    expected = {str(k).lower(): p for k, p in odds.victor.items()}
    assert {k.lower(): Rational(v) for k, v in command["victor"].items()} == expected
    assert {k: Rational(v["probability"]) for k, v in page["victor"].items()} == expected
    if changes.get("policy"):
        assert question.policy is most_withdrawals


# ------------------------------------------------------------------ long answers


def long_force(units: int) -> dict:
    """Units on 6+ with ten re-rolls each, each down to its last model: answers of
    thousands of digits (600 units: over 10,000, past str()'s limit of 4,300)."""
    squads = [
        {"name": f"U{i}", "starting": 3, "leadership": "6+", "doctrine": {"rerolls": 10}}
        for i in range(units)
    ]
    return {
        "commands": [{"name": "C", "units": squads}],
        "casualties": {s["name"]: 2 for s in squads},
    }


def test_an_answer_past_strs_digit_limit_prints(tmp_path):
    """Issue 19: `rulesref cascade` and the Workbench ended in Python's 4,300-digit
    ValueError; now the line summarises each fraction, --exact and --json write it whole."""
    path = tmp_path / "long.json"
    path.write_text(json.dumps(long_force(600)))
    summary = cli("cascade", str(path))
    assert summary.returncode == 0, summary.stderr
    first = summary.stdout.splitlines()[0]
    assert first.startswith("force breaks: an exact fraction of ") and first.endswith("%)")
    whole = cli("cascade", str(path), "--json")
    breaks = json.loads(whole.stdout)["force_breaks"]
    top, bottom = breaks.split("/")
    assert len(top) + len(bottom) > 10_000
    assert f"an exact fraction of {len(top) + len(bottom):,} digits" in first
    exact = cli("cascade", str(path), "--exact").stdout.splitlines()[0]
    assert exact.startswith(f"force breaks: {breaks} (")
    page = answer({"force": long_force(600)})["force_breaks"]
    assert page["probability"] == breaks and page["shown"] in first


@given(st.integers(0, 10**9), st.integers(0, 12_000))
@example(1, 0)
@example(0, 5000)
@example(10**9, 12_000)
def test_fraction_text_writes_any_fraction_whole(numerator, power):
    p = Fraction(numerator, 7**power + 1) if numerator <= 7**power + 1 else Fraction(1, 2)
    written = fraction_text(p)
    top, _, bottom = written.partition("/")
    assert digits(p.numerator) == len(top) and (not bottom or digits(p.denominator) == len(bottom))
    # each end of the text against the numbers, as str() cannot read them whole
    assert int(bottom[-1000:] or "1") == (p.denominator % 10**1000 if bottom else 1)
    assert int(top[:1000]) == p.numerator // 10 ** max(0, len(top) - 1000)
    summary = short_fraction(p)
    assert summary == written if len(top) + len(bottom) <= 100 else summary.startswith("an exact")


# ------------------------------------------------------------ any input: an answer or a refusal


LIMIT_NUMBERS = st.sampled_from(
    [
        0,
        1,
        2,
        6,
        7,
        10,
        11,
        12,
        13,
        99,
        100,
        101,
        1000,
        1001,
        4000,
        4001,
        100_000,
        100_001,
        -1,
        10**12 - 1,
        Written("1e309"),
        Written("2.5"),
        True,
        False,
        None,
    ]
)
NAMES = st.lists(
    st.sampled_from(["A", "a", "\uff21", "\u00e9", "e\u0301", "\u200b", "\ufffe", " ", "\n", "x"]),
    max_size=4,
).map("".join) | st.sampled_from(["x" * 100, "x" * 101])
LEADERSHIPS = (
    st.sampled_from(["4+", "1+", "7+", 2, 6, 7, ["5+", "4+"], [], "4 +", " 4+ "]) | LIMIT_NUMBERS
)
ANYTHING = st.recursive(
    st.none() | st.booleans() | LIMIT_NUMBERS | NAMES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
    max_leaves=6,
)


def _unit_strategy():
    return st.fixed_dictionaries(
        {"name": NAMES, "starting": LIMIT_NUMBERS, "leadership": LEADERSHIPS},
        optional={
            "current": LIMIT_NUMBERS,
            "removed": st.booleans() | ANYTHING,
            "doctrine": st.fixed_dictionaries(
                {}, optional={"rerolls": LIMIT_NUMBERS, "ignores": ANYTHING}
            ),
            "strength": ANYTHING,
        },
    )


FORCES = (
    st.fixed_dictionaries(
        {
            "commands": st.lists(
                st.fixed_dictionaries(
                    {"name": NAMES, "units": st.lists(_unit_strategy(), max_size=3)}
                ),
                max_size=2,
            )
        },
        optional={
            "casualties": st.dictionaries(NAMES, LIMIT_NUMBERS, max_size=3) | ANYTHING,
            "prefer": st.lists(NAMES | ANYTHING, max_size=2) | ANYTHING,
            "removed_figures_survive": ANYTHING,
            "leaders": st.lists(
                st.fixed_dictionaries(
                    {"name": NAMES, "leadership": LEADERSHIPS, "rank": LIMIT_NUMBERS},
                    optional={"alive": ANYTHING},
                ),
                max_size=2,
            ),
            "name": NAMES,
        },
    )
    | ANYTHING
)


def answered_or_refused(question: dict) -> dict | None:
    """The odds the Workbench gives, or None after checking its refusal is a named one."""
    result = answer(question)
    if "error" not in result:
        return result
    message = result["error"]["message"]
    assert message and len(message) <= MAX_MESSAGE and " must " in message
    return None


@given(FORCES)
def test_any_force_gets_an_answer_or_a_named_refusal(data):
    if result := answered_or_refused({"force": data}):
        assert 0 <= Rational(result["force_breaks"]["probability"]) <= 1


PLATOONS = st.fixed_dictionaries(
    {},
    optional={
        "kind": st.sampled_from(["infantry", "cavalry", "artillery", "command", "tank"]) | ANYTHING,
        "state": st.sampled_from(["fresh", "damaged", "fubar", "withdrawn"]) | ANYTHING,
        "declaration": st.sampled_from(["side", "attack", "defence", None, "x"]) | ANYTHING,
        "supplied": st.booleans() | ANYTHING,
        "name": NAMES,
    },
)
BATTLES = (
    st.fixed_dictionaries(
        {
            "attacker": st.fixed_dictionaries({"platoons": st.lists(PLATOONS, max_size=3)}),
            "defender": st.fixed_dictionaries(
                {"platoons": st.lists(PLATOONS, max_size=3)}, optional={"fortified": ANYTHING}
            ),
        },
        optional={
            "terrain": st.sampled_from(["open", "woods", "forest", "mountain", "sea"]) | ANYTHING,
            "garrison": ANYTHING,
            "readings": st.dictionaries(st.sampled_from(READINGS + ["x"]), ANYTHING, max_size=2)
            | ANYTHING,
            "policy": st.sampled_from(["fewest withdrawals", "most withdrawals", "x"]) | ANYTHING,
            "leadership": st.fixed_dictionaries(
                {},
                optional={
                    "leadership": LIMIT_NUMBERS,
                    "probability": st.sampled_from(["1/2", "0.5", "1", "0.5/1", "3/2", "1/0"])
                    | ANYTHING,
                },
            )
            | ANYTHING,
        },
    )
    | ANYTHING
)


@given(BATTLES)
def test_any_battle_gets_an_answer_or_a_named_refusal(data):
    if result := answered_or_refused({"battle": data}):
        assert sum(Rational(v["probability"]) for v in result["victor"].values()) == 1


@given(st.text(max_size=200) | st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
def test_any_text_gets_an_answer_or_a_named_refusal(text):
    result = json.loads(answer_text(text))
    assert "error" in result or "test" in result


def test_json_nested_3000_deep_is_a_named_refusal_in_the_workbench():
    """6 KB of brackets once ended the page's Python (a fatal RecursionError)."""
    for text in ("[" * 3000 + "]" * 3000, '{"force": ' + '{"a": ' * 3000 + "1" + "}" * 3001):
        error = json.loads(answer_text(text))["error"]
        assert error["path"] == [] and f"at most {MAX_DEPTH} deep" in error["message"]


@pytest.mark.parametrize(
    "question",
    [
        ["x" * 99_000],
        {"force": {"commands": ["x" * 99_000]}},
        {"force": {"commands": [], "casualties": "x" * 99_000}},
        {"force": force(casualties={"x" * 99_000: 1})},
        {"force": force(unit(leadership=["x" * 99_000]))},
        {"force": force(prefer=["x" * 99_000])},
        {"battle": battle(attacker={"platoons": "x" * 99_000})},
        {"battle": battle(policy="x" * 99_000)},
    ],
)
def test_a_huge_value_is_cut_in_its_message(question):
    """A refusal once quoted a 99 KB value whole, on one line."""
    error = answer(question)["error"]
    assert len(error["message"]) <= MAX_MESSAGE and " must " in error["message"]


def _stores_its_types(value: object, hint: object) -> bool:
    """Whether `value` is of the type `hint` declares, through records, tuples and dicts."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return any(_stores_its_types(value, each) for each in args)
    if origin is tuple:
        return isinstance(value, tuple) and all(_stores_its_types(v, args[0]) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(
            _stores_its_types(k, args[0]) and _stores_its_types(v, args[1])
            for k, v in value.items()
        )
    if hint is type(None):
        return value is None
    if dataclasses.is_dataclass(hint):
        hints = typing.get_type_hints(hint)
        return isinstance(value, hint) and all(
            _stores_its_types(getattr(value, field.name), hints[field.name])
            for field in dataclasses.fields(hint)
        )
    return isinstance(value, hint) and not (hint is int and isinstance(value, bool))


@pytest.mark.parametrize(
    "data",
    [
        {
            "force": force(
                unit(), unit("B", leadership=["5+", 3], current=4), unit("C", leadership=2)
            )
        },
        {"force": json.loads((ROOT / "examples" / "b-company.json").read_text())},
        {"battle": json.loads((ROOT / "examples" / "battle.json").read_text())},
        {"battle": battle(attacker={"platoons": [{"kind": "cavalry", "declaration": "defence"}]})},
        {"battle": battle(terrain="woods", defender={"platoons": [{"state": "damaged"}]})},
    ],
)
def test_the_records_read_from_json_store_the_types_they_declare(data):
    """Converted at the edge (issue 20): the JSON's words, "4+" and lists of Leaderships
    reach the records as the members, targets and tuples their fields declare."""
    read = force_from_json(data["force"]).force if "force" in data else None
    read = read or battle_from_json(data["battle"]).battle
    assert _stores_its_types(read, type(read))
    # and the check tells a word written as text, a list and a bool from what is declared
    assert not _stores_its_types("cavalry", campaign.Kind)
    assert not _stores_its_types(["4+"], tuple[str, ...]) and not _stores_its_types(True, int)
