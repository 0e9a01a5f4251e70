"""The package's error for bad input, and the one set of checks that raise it.

Every public function and constructor checks its input with these, so a wrong type or
value ends in a `RulesError` naming the parameter, the value and what is allowed.
"""

import unicodedata
from collections.abc import Sequence
from dataclasses import fields
from enum import StrEnum
from typing import Any, TypeVar

from rulesref.exact import Rational

__all__ = ["RulesError"]

T = TypeVar("T")
W = TypeVar("W", bound=StrEnum)
MAX_TEXT = 100
# Characters that could forge or hide printed output: controls (newlines, escape codes),
# lone surrogates, line and paragraph separators, and the bidirectional overrides.
_UNSAFE_CATEGORIES = ("Cc", "Cs", "Zl", "Zp")
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


class RulesError(ValueError):
    """Input that no rule accepts: the message names the parameter, the value and what is allowed.

    ```python
    from rulesref.break_test import break_test_probability
    from rulesref.errors import RulesError

    try:
        break_test_probability(leadership=11, lost_by=3)
    except RulesError as error:
        print(error)
        #> leadership must be a whole number from 0 to 10, got 11
    ```
    """


def _shown(value: object) -> str:
    """The value as the message shows it: its repr, cut short if it is long."""
    try:
        shown = repr(value)
    except Exception:  # a hostile __repr__ must not hide the error it is part of
        shown = f"a {type(value).__name__}"
    return shown if len(shown) <= 200 else shown[:197] + "..."


def whole_number(name: str, value: object, low: int, high: int) -> int:
    """Return `value` if it is an int (not a bool) in `low..high`, else raise `RulesError`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        allowed = f"a whole number from {low} to {high}" if low < high else f"{low}"
        raise RulesError(f"{name} must be {allowed}, got {_shown(value)}")
    return value


def yes_or_no(name: str, value: object) -> bool:
    """Return `value` if it is True or False, else raise `RulesError`."""
    if not isinstance(value, bool):
        raise RulesError(f"{name} must be True or False, got {_shown(value)}")
    return value


def one_of(name: str, value: object, allowed: Sequence[str]) -> str:
    """Return `value` if it is one of the `allowed` words, else raise `RulesError`."""
    if not isinstance(value, str) or value not in allowed:
        raise RulesError(f"{name} must be one of {', '.join(allowed)}, got {_shown(value)}")
    return value


def readings_of(record: Any) -> None:
    """Check each field of a document's `Readings` (a dataclass of yes-or-no options)."""
    for field in fields(record):
        yes_or_no(field.name, getattr(record, field.name))


def word_of(name: str, value: object, words: type[W]) -> W:
    """Return the member of `words` that `value` is or spells (`"won"`), else raise `RulesError`."""
    if isinstance(value, words):
        return value
    return words(one_of(name, value, tuple(words)))


def instance_of(name: str, value: object, kind: type[T] | tuple[type[T], ...], allowed: str) -> T:
    """Return `value` if it is an instance of `kind` (`allowed` says so in words), else raise."""
    if not isinstance(value, kind):
        raise RulesError(f"{name} must be {allowed}, got {_shown(value)}")
    return value


def sequence_of(
    name: str,
    value: object,
    kind: type[T] | tuple[type[T], ...],
    *,
    low: int = 0,
    high: int = 10**6,
    noun: str = "",
) -> tuple[T, ...]:
    """Return `value` as a tuple of `low` to `high` instances of `kind` (a list or tuple,
    never a string or a mapping), else raise `RulesError`. `noun` names one item in the
    message (default: the name of `kind`)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    noun = noun or " or ".join(f"a {each.__name__}" for each in kinds)
    what = f"a sequence of {low} to {high} items, each {noun}"
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise RulesError(f"{name} must be {what}, got {_shown(value)}")
    if not low <= len(value) <= high:
        raise RulesError(f"{name} must be {what}, got {len(value)} items")
    items = tuple(value)
    for index, item in enumerate(items):
        if not isinstance(item, kind) or (isinstance(item, bool) and kind is int):
            raise RulesError(f"{name}[{index}] must be {noun}, got {_shown(item)}")
    return items


def text(name: str, value: object, *, empty: bool = False) -> str:
    """Return `value` if it is printable text of at most `MAX_TEXT` characters, not blank
    unless `empty`, else raise `RulesError`. Names end up in printed results, so a control
    character, a lone surrogate or a bidirectional override is refused."""
    allowed = f"text of 1 to {MAX_TEXT} printable characters"
    if not isinstance(value, str) or len(value) > MAX_TEXT or not (empty or value.strip()):
        raise RulesError(f"{name} must be {allowed}, got {_shown(value)}")
    for char in value:
        if unicodedata.category(char) in _UNSAFE_CATEGORIES or char in _BIDI_CONTROLS:
            raise RulesError(f"{name} must be {allowed}, got {_shown(value)}")
    return value


def probability(name: str, value: object) -> Rational:
    """Return `value` if it is an exact probability, a sympy Rational (or an int) from 0
    to 1, else raise `RulesError` (never a float, a bool or a NaN)."""
    if isinstance(value, bool) or not isinstance(value, Rational | int):
        raise RulesError(f"{name} must be a Rational from 0 to 1, got {_shown(value)}")
    exact = value if isinstance(value, Rational) else Rational(value)
    if not 0 <= exact.numerator <= exact.denominator:  # whole numbers: no symbolic comparison
        raise RulesError(f"{name} must be a Rational from 0 to 1, got {_shown(value)}")
    return exact


def dice_roll(name: str, value: object, count: int) -> tuple[int, ...]:
    """Return `value` as a tuple of `count` d6 results, else raise `RulesError`."""
    allowed = f"{count} d6 results, each 1 to 6"
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or len(value) != count:
        raise RulesError(f"{name} must be {allowed}, got {_shown(value)}")
    for face in value:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise RulesError(f"{name} must be {allowed}, got {_shown(value)}")
    return tuple(value)
