"""The validators of rulesref.errors: what each accepts at its edges, and the exact message
a caller reads when it refuses (the parameter, the value and what is allowed)."""

import inspect
import os
import subprocess
import sys
from collections import Counter
from enum import StrEnum
from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from sympy import Rational

from rulesref import errors
from rulesref import leadership as ld
from rulesref.campaign import (
    Battle,
    Kind,
    Platoon,
    Side,
    State,
    Terrain,
    most_withdrawals,
    resolve_battle,
)
from rulesref.data import odds
from rulesref.errors import (
    MAX_MESSAGE,
    MAX_TEXT,
    RulesError,
    checked_by,
    dice_roll,
    instance_of,
    member_of,
    one_of,
    probability,
    rational,
    sequence_of,
    text,
    whole_number,
    word_of,
    yes_or_no,
)
from rulesref.exact import MAX_EXACT_TEXT, digits, fraction_text, parse_exact, short_fraction
from rulesref.inputs import parse_json
from rulesref.odds import cascade as oc
from rulesref.odds.battle import battle_odds
from rulesref.views import rounded


def refused(call, *args, **kwargs) -> str:
    with pytest.raises(RulesError) as caught:
        call(*args, **kwargs)
    return str(caught.value)


def test_rules_error_is_a_value_error():
    assert issubclass(RulesError, ValueError)


@given(st.integers(-3, 13))
@example(0)
@example(10)
@example(-1)
@example(11)
def test_whole_number_accepts_exactly_its_range(value):
    if 0 <= value <= 10:
        assert whole_number("leadership", value, 0, 10) == value
    else:
        assert refused(whole_number, "leadership", value, 0, 10) == (
            f"leadership must be a whole number from 0 to 10, got {value}"
        )


@pytest.mark.parametrize("value", [True, False, 3.0, "3", None])
def test_whole_number_refuses_what_is_not_an_int(value):
    assert refused(whole_number, "dice", value, 0, 10) == (
        f"dice must be a whole number from 0 to 10, got {value!r}"
    )


def test_a_whole_number_of_another_type_is_refused_saying_why():
    """sympy's Integer(8) prints as 8: the message says it is not an int."""
    from sympy import Integer

    assert refused(whole_number, "leadership", Integer(8), 0, 10) == (
        "leadership must be a whole number from 0 to 10, got 8 (sympy's Integer, not an int)"
    )


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: fraction_text(0.5), "p must be a Rational (or a Fraction, or an int), got 0.5"),
        (lambda: short_fraction("x"), "p must be a Rational (or a Fraction, or an int), got 'x'"),
        (lambda: fraction_text(True), "p must be a Rational (or a Fraction, or an int), got True"),
        (lambda: digits(1.5), "number must be a whole number (an int), got 1.5"),
        (lambda: odds(None), "table must be a Table or a BattleTable of the site, got None"),
        (lambda: parse_json(5), "file must be JSON text, as bytes or a str, got 5"),
        (lambda: parse_exact(5), "text must be a str of at most 1,000 characters, got 5"),
    ],
)
def test_the_public_helpers_refuse_a_wrong_type_by_name(call, message):
    with pytest.raises(RulesError) as refusal:
        call()
    assert str(refusal.value) == message


def test_the_helpers_take_every_exact_type():
    assert fraction_text(Rational(5, 18)) == fraction_text(Fraction(5, 18)) == "5/18"
    assert short_fraction(3) == "3" and digits(-999) == 3


def test_yes_or_no():
    assert yes_or_no("reroll", True) is True
    assert yes_or_no("reroll", False) is False
    assert refused(yes_or_no, "reroll", "no") == "reroll must be True or False, got 'no'"
    assert refused(yes_or_no, "reroll", 1) == "reroll must be True or False, got 1"


def test_one_of():
    assert one_of("policy", "b", ("a", "b")) == "b"
    assert refused(one_of, "policy", "c", ("a", "b")) == "policy must be one of a, b, got 'c'"
    assert refused(one_of, "policy", ["a"], ["a"]) == "policy must be one of a, got ['a']"


class Colour(StrEnum):
    RED = "red"
    DARK_BLUE = "dark blue"


def test_member_of_takes_only_a_member_and_says_how_to_write_one():
    assert member_of("colour", Colour.DARK_BLUE, Colour) is Colour.DARK_BLUE
    assert refused(member_of, "colour", "dark blue", Colour) == (
        "colour must be a Colour (Colour.DARK_BLUE or Colour(\"dark blue\")), got 'dark blue'"
    )
    for other in ("purple", None, 1, ["red"]):  # nothing it spells: its first member shown
        assert refused(member_of, "colour", other, Colour) == (
            f'colour must be a Colour (Colour.RED or Colour("red")), got {other!r}'
        )


def test_word_of_returns_the_member_for_the_member_or_its_word():
    assert word_of("colour", "dark blue", Colour) is Colour.DARK_BLUE
    assert word_of("colour", Colour.RED, Colour) is Colour.RED
    message = "colour must be one of red, dark blue, got 'RED'"
    assert refused(word_of, "colour", "RED", Colour) == message
    assert refused(word_of, "colour", 1, Colour) == "colour must be one of red, dark blue, got 1"


def test_instance_of():
    assert instance_of("unit", 3, int, "a number") == 3
    assert refused(instance_of, "unit", None, int, "a Unit") == "unit must be a Unit, got None"


def test_a_long_value_is_cut_to_200_characters_in_the_message():
    shown_199 = "x" * 197  # repr adds two quotes
    assert refused(instance_of, "v", shown_199, int, "n") == f"v must be n, got '{shown_199}'"
    shown_200 = "x" * 198
    assert refused(instance_of, "v", shown_200, int, "n") == f"v must be n, got '{shown_200}'"
    long = "x" * 199  # its repr has 201 characters
    message = refused(instance_of, "v", long, int, "n")
    assert message == "v must be n, got '" + "x" * 196 + "..."
    assert len(message.removeprefix("v must be n, got ")) == 200


def test_a_hostile_repr_does_not_hide_the_error():
    class Hostile:
        def __repr__(self):
            raise RuntimeError("no")

    assert refused(instance_of, "v", Hostile(), int, "n") == "v must be n, got a Hostile"


def test_sequence_of_accepts_lists_and_tuples_within_its_bounds():
    assert sequence_of("dice", [1, 2], int, low=1, high=2) == (1, 2)
    assert sequence_of("dice", (1,), int, low=1, high=2) == (1,)
    assert sequence_of("dice", [], int) == ()
    assert sequence_of("dice", [0] * 10**6, int) == (0,) * 10**6


def test_sequence_of_messages():
    what = "dice must be a sequence of 1 to 2 items, each a int, got"
    assert refused(sequence_of, "dice", [], int, low=1, high=2) == f"{what} 0 items"
    assert refused(sequence_of, "dice", [1, 2, 3], int, low=1, high=2) == f"{what} 3 items"
    assert refused(sequence_of, "dice", "12", int, low=1, high=2) == f"{what} '12'"
    assert refused(sequence_of, "dice", b"12", int, low=1, high=2) == f"{what} b'12'"
    assert refused(sequence_of, "dice", {1: 2}, int, low=1, high=2) == f"{what} {{1: 2}}"
    assert refused(sequence_of, "dice", [1, True], int, low=1, high=2) == (
        "dice[1] must be a int, got True"
    )
    assert refused(sequence_of, "units", [1, "a"], int, noun="a count") == (
        "units[1] must be a count, got 'a'"
    )
    assert refused(sequence_of, "units", [0] * (10**6 + 1), int) == (
        "units must be a sequence of 0 to 1000000 items, each a int, got 1000001 items"
    )
    assert sequence_of("dice", [1, "a"], (int, str)) == (1, "a")
    assert refused(sequence_of, "dice", [1, 1.5], (int, str)) == (
        "dice[1] must be a int or a str, got 1.5"
    )


def test_sequence_of_lets_a_bool_through_where_bools_are_asked_for():
    assert sequence_of("flags", [True, False], bool) == (True, False)


ALLOWED_TEXT = f"text of 1 to {MAX_TEXT} printable characters"


@given(st.integers(0, MAX_TEXT + 2))
@example(MAX_TEXT)
@example(MAX_TEXT + 1)
@example(0)
@example(1)
def test_text_length(length):
    value = "n" * length
    if 1 <= length <= MAX_TEXT:
        assert text("name", value) == value
    else:
        assert refused(text, "name", value) == f"name must be {ALLOWED_TEXT}, got {value!r}"


def test_text_blank_only_where_allowed():
    assert MAX_TEXT == 100
    assert text("name", "", empty=True) == ""
    assert text("name", "  ", empty=True) == "  "
    assert refused(text, "name", "  ") == f"name must be {ALLOWED_TEXT}, got '  '"
    assert refused(text, "name", 5) == f"name must be {ALLOWED_TEXT}, got 5"


@pytest.mark.parametrize(
    "char", ["\n", "\x1b", "\ud800", "\u2028", "\u2029", "\u202e", "\u061c", "\u2069", "\u200e"]
)
def test_text_refuses_characters_that_could_forge_output(char):
    value = f"Orcs{char}x"
    assert refused(text, "name", value) == f"name must be {ALLOWED_TEXT}, got {value!r}"


def test_text_keeps_ordinary_unicode():
    assert text("name", "Élan ✓ 兵") == "Élan ✓ 兵"


@pytest.mark.parametrize("value", [Rational(0), Rational(1), Rational(1, 3), 0, 1])
def test_probability_accepts_exact_probabilities(value):
    result = probability("chance", value)
    assert result == value and isinstance(result, Rational)


@pytest.mark.parametrize(
    "value", [Rational(-1, 3), Rational(4, 3), 2, -1, True, 0.5, float("nan"), "1/2"]
)
def test_probability_refuses_the_rest(value):
    assert refused(probability, "chance", value) == (
        f"chance must be a Rational from 0 to 1, got {value!r}"
    )


def test_a_rational_of_any_exact_type_comes_back_as_the_packages_own():
    """A Fraction, an int or a sympy Rational, in range, is the package's Rational."""
    for value in (Fraction(1, 3), Rational(1, 3)):
        assert rational("x", value, -1, 1) == Rational(1, 3)
        assert isinstance(rational("x", value, -1, 1), Rational)
    assert rational("x", -1, -1, 1) == -1 and isinstance(rational("x", -1, -1, 1), Rational)
    assert refused(rational, "x", Fraction(-4, 3), -1, 1) == (
        "x must be a Rational from -1 to 1, got Fraction(-4, 3)"
    )
    assert refused(rational, "x", 10**7, 0, 10**6) == (
        "x must be a Rational from 0 to 1,000,000, got 10000000"
    )


def test_with_fractions_for_rationals_the_views_still_take_sympys():
    """Under RULESREF_FRACTIONS=1 a caller's sympy Rational is read, not refused."""
    probe = (
        "from sympy import Rational\n"
        "from rulesref.views import percent, points, rounded\n"
        "print(percent(Rational(1, 3)), points(Rational(-1, 3)), rounded(Rational(7, 3)))\n"
    )
    env = {**os.environ, "RULESREF_FRACTIONS": "1"}
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    assert run.stdout == "33.3% -33.3 points 2.33\n", run.stderr


def test_an_expected_number_too_big_to_be_one_is_refused_not_written():
    assert refused(rounded, 10**5000) == (
        "value must be a Rational from 0 to 1,000,000, got a whole number of 5,001 digits"
    )


def test_the_exact_reader_reads_at_most_its_limit():
    assert parse_exact("1" * MAX_EXACT_TEXT) == int("1" * MAX_EXACT_TEXT)
    assert refused(parse_exact, "1" * (MAX_EXACT_TEXT + 1)).startswith(
        "text must be a str of at most 1,000 characters, got '111"
    )


def test_dice_roll():
    assert dice_roll("roll", [1, 6], 2) == (1, 6)
    assert isinstance(dice_roll("roll", [1, 6], 2), tuple)
    allowed = "roll must be 2 d6 results, each 1 to 6, got"
    for bad in ([1], [1, 2, 3], [0, 1], [1, 7], [True, 1], [1.0, 2], "12", b"12", 12):
        assert refused(dice_roll, "roll", bad, 2) == f"{allowed} {bad!r}"
    assert refused(dice_roll, "roll", [1], 0) == "roll must be 0 d6 results, each 1 to 6, got [1]"


# Structured refusals: the parts a caller reads, and the message built from them


def caught(call, *args, **kwargs) -> RulesError:
    with pytest.raises(RulesError) as error:
        call(*args, **kwargs)
    return error.value


@pytest.mark.parametrize(
    "call, parameter, value, allowed",
    [
        (lambda: whole_number("rank", 0, 1, 100), "rank", 0, "a whole number from 1 to 100"),
        (lambda: whole_number("rank", 2, 1, 1), "rank", 2, "1"),
        (lambda: yes_or_no("alive", None), "alive", None, "True or False"),
        (lambda: one_of("policy", "x", ("a", "b")), "policy", "x", "one of a, b"),
        (lambda: word_of("colour", "RED", Colour), "colour", "RED", "one of red, dark blue"),
        (
            lambda: member_of("colour", "red", Colour),
            "colour",
            "red",
            'a Colour (Colour.RED or Colour("red"))',
        ),
        (lambda: instance_of("unit", 3, str, "a Unit"), "unit", 3, "a Unit"),
        (
            lambda: sequence_of("dice", "12", int),
            "dice",
            "12",
            "a sequence of 0 to 1000000 items, each a int",
        ),
        (lambda: sequence_of("dice", [1, "a"], int), "dice[1]", "a", "a int"),
        (
            lambda: text("name", "A\u200b"),
            "name",
            "A\u200b",
            f"text of 1 to {MAX_TEXT} printable characters",
        ),
        (lambda: probability("probability", 2), "probability", 2, "a Rational from 0 to 1"),
        (lambda: dice_roll("roll", [7], 1), "roll", [7], "1 d6 results, each 1 to 6"),
    ],
)
def test_every_check_refuses_with_its_parts(call, parameter, value, allowed):
    error = caught(call)
    assert (error.parameter, error.value, error.allowed) == (parameter, value, allowed)
    assert str(error).startswith(f"{parameter} must be {allowed}, got ")


def test_a_refusal_written_as_a_sentence_has_no_parts():
    error = RulesError("force must have a unit in play, got none")
    assert (error.parameter, error.value, error.allowed) == ("", None, "")
    assert str(error) == "force must have a unit in play, got none"
    assert str(RulesError(parameter="p", value=1, allowed="2", got="one")) == "p must be 2, got one"


def test_a_message_is_never_longer_than_its_limit():
    """A value quoted whole (a 99 KB list of casualties) is cut in the middle of the line."""
    message = str(RulesError("casualties must map names to models, got " + "x" * 99_000))
    assert len(message) <= MAX_MESSAGE and "\n" not in message
    assert message.startswith("casualties must map names") and "characters cut" in message
    assert str(RulesError("y" * MAX_MESSAGE)) == "y" * MAX_MESSAGE


def test_a_whole_number_past_strs_limit_is_shown_by_its_length():
    huge = 10**5000
    assert refused(whole_number, "starting", huge, 1, 10) == (
        "starting must be a whole number from 1 to 10, got a whole number of 5,001 digits"
    )


@pytest.mark.parametrize(
    "char", ["\u200b", "\ufeff", "\u2060", "\u00ad", "\ufffe", "\uffff", "\ufdd0", "\U0001fffe"]
)
def test_text_refuses_invisible_characters_and_noncharacters(char):
    value = f"A{char}"
    assert refused(text, "name", value) == f"name must be {ALLOWED_TEXT}, got {value!r}"


def _positive(value: int) -> None:
    whole_number("value", value, 1, 10)


@checked_by(_positive)
def _halved(value: int) -> int:
    """A kernel for the tests below."""
    return value // 2


def test_a_checked_kernel_checks_when_called_and_not_when_called_unchecked():
    assert _halved(5) == 2
    with pytest.raises(RulesError, match="value must be a whole number from 1 to 10"):
        _halved(12)
    assert _halved.unchecked(12) == 6  # the package's own calls, with values it checked


def test_a_checked_kernel_is_its_function_to_inspect():
    assert inspect.unwrap(_halved) is _halved.unchecked
    assert _halved.__name__ == "_halved" and _halved.__doc__ == "A kernel for the tests below."
    assert "return value // 2" in inspect.getsource(_halved)


# Check once, at the edge (issue 20): a record checks its fields when it is made, a public
# function its arguments; what the package then computes from them is not checked again.
VALIDATORS = (
    "whole_number",
    "yes_or_no",
    "one_of",
    "readings_of",
    "word_of",
    "member_of",
    "instance_of",
    "sequence_of",
    "text",
    "probability",
    "dice_roll",
)


def counted_validators(monkeypatch) -> Counter[str]:
    """Count each call of a validator of `rulesref.errors`, wherever the package calls it
    from (each module holds its own reference to the functions it imports)."""
    calls: Counter[str] = Counter()
    for name in VALIDATORS:
        validator = getattr(errors, name)

        def counting(*args, _name=name, _validator=validator, **kwargs):
            calls[_name] += 1
            return _validator(*args, **kwargs)

        for module in [m for n, m in sys.modules.items() if n.startswith("rulesref")]:
            if getattr(module, name, None) is validator:
                monkeypatch.setattr(module, name, counting)
    return calls


def _battle(copies: int) -> Battle:
    """A battle of three kinds of platoon on each side, `copies` times over."""
    side = [Platoon(), Platoon(Kind.CAVALRY), Platoon(Kind.ARTILLERY, State.DAMAGED)] * copies
    return Battle(Side(side), Side(side, fortified=True), terrain=Terrain.OPEN)


@pytest.mark.parametrize("copies", [1, 67])
def test_the_odds_of_a_valid_battle_check_its_input_once(monkeypatch, copies):
    battle = _battle(copies)
    calls = counted_validators(monkeypatch)
    battle_odds(battle)
    assert 0 < sum(calls.values()) <= 15, calls  # the same at 3 v 3 and 201 v 201
    calls.clear()
    battle_odds(battle, policy=most_withdrawals)
    assert 0 < sum(calls.values()) <= 15, calls


def test_a_battle_settled_by_the_dice_checks_its_input_once(monkeypatch):
    battle = _battle(1)
    calls = counted_validators(monkeypatch)
    result = resolve_battle(battle, [6, 5, 6], [1, 2, 1])
    assert result.defender.hits_taken == 1  # a platoon after a hit: made and checked once
    assert 0 < sum(calls.values()) <= 15, calls
    assert calls["dice_roll"] == 6  # each die once


def test_making_a_battle_checks_each_field_once(monkeypatch):
    calls = counted_validators(monkeypatch)
    _battle(1)
    # 3 platoons of 4 fields, 2 sides of 3 (their declarations left out), a battle of 5
    assert sum(calls.values()) == 3 * 4 + 2 * 3 + 5, calls
    assert calls["member_of"] == 3 * 2 + 1 and not calls["one_of"], calls  # words: no text


def _force(commands: int) -> ld.Force:
    """A force of `commands` commands of three units, each with a leader in its first unit."""
    return ld.Force(
        [
            ld.Command(
                f"C{c}",
                [ld.Unit(f"U{c}-{u}", 10, 4) for u in range(3)],
                [ld.Leader(f"L{c}", 3, 1, f"U{c}-0")],
            )
            for c in range(commands)
        ],
        [ld.Leader("Captain", 2, 2)],
    )


@pytest.mark.parametrize("commands", [2, 20])
def test_a_phase_checks_its_casualties_once(monkeypatch, commands):
    force = _force(commands)
    casualties = {unit.name: 6 for unit in force.units[::2]}
    calls = counted_validators(monkeypatch)
    oc.cascade_probabilities(force, casualties)
    # one check of each unit's casualties (LD-5), and the force itself
    assert 0 < sum(calls.values()) <= len(force.units) + 5, calls
    calls.clear()
    ld.resolve_phase(force, casualties, {name: [3] for name in casualties})
    assert 0 < sum(calls.values()) <= len(force.units) + 5, calls
