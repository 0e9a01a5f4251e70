"""The package's error for bad input, and the one set of checks that raise it.

Every public function and constructor checks its input with these, so a wrong type or
value ends in a `RulesError` naming the parameter, the value and what is allowed.
"""

import functools
import numbers
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import fields
from enum import StrEnum
from typing import Any, Generic, ParamSpec, TypeVar

from rulesref.exact import Rational, digits, in_lowest_terms

__all__ = ["RulesError"]

T = TypeVar("T")
W = TypeVar("W", bound=StrEnum)
P = ParamSpec("P")
R = TypeVar("R")
MAX_TEXT = 100
MAX_SHOWN = 200  # characters of a value quoted in a message
MAX_MESSAGE = 1000  # characters of a message: one line a player reads, whatever the value
# Characters that could forge, hide or break printed output: controls (newlines, escape
# codes), lone surrogates, line and paragraph separators, and the invisible format
# characters (the bidirectional overrides, U+200B, U+FEFF ...).
_UNSAFE_CATEGORIES = ("Cc", "Cs", "Zl", "Zp", "Cf")


class RulesError(ValueError):
    """Input that no rule accepts: the message names the parameter, the value and what is allowed.

    The checks of this module raise it with `parameter`, `value` and `allowed` kept as
    attributes and the message built from them, so a caller marks the field it is about
    without reading the message; a refusal written as a sentence carries its message
    alone (its `parameter` is then ""). A message is at most `MAX_MESSAGE` characters:
    a long value is cut in it, never printed whole.

    ```python
    from rulesref.break_test import break_test_probability
    from rulesref.errors import RulesError

    try:
        break_test_probability(leadership=11, lost_by=3)
    except RulesError as error:
        print(error)
        #> leadership must be a whole number from 0 to 10, got 11
        print(error.parameter, error.value, error.allowed, sep=" | ")
        #> leadership | 11 | a whole number from 0 to 10
    ```
    """

    def __init__(
        self,
        message: str = "",
        *,
        parameter: str = "",
        value: object = None,
        allowed: str = "",
        got: str = "",
    ) -> None:
        self.parameter = parameter
        self.value = value
        self.allowed = allowed
        if not message:  # built from its parts; `got` says what came when not the value itself
            message = f"{parameter} must be {allowed}, got {got or _shown(value)}"
        super().__init__(_cut(message))


def _cut(message: str) -> str:
    """The message, its middle cut out if it is over MAX_MESSAGE characters."""
    if len(message) <= MAX_MESSAGE:
        return message
    half = (MAX_MESSAGE - 60) // 2
    cut = len(message) - 2 * half
    return f"{message[:half]} ... ({cut:,} characters cut) ... {message[-half:]}"


def _shown(value: object) -> str:
    """The value as the message shows it: its repr, cut short if it is long."""
    if isinstance(value, int) and value.bit_length() > 1000:  # repr fails past 4,300 digits
        return f"a whole number of {digits(value):,} digits"
    try:
        shown = repr(value)
    except Exception:  # a hostile __repr__ must not hide the error it is part of
        shown = f"a {type(value).__name__}"
    return shown if len(shown) <= MAX_SHOWN else shown[: MAX_SHOWN - 3] + "..."


class Checked(Generic[P, R]):
    """A public rules kernel that checks its arguments before it runs: `unchecked` is the
    kernel alone, which the package calls with values it has already checked (a battle's
    odds call the same kernels thousands of times), so each input is checked once, where it
    comes in. Made by `checked_by`; `inspect.unwrap` gives the kernel's own function."""

    def __init__(self, check: Callable[P, object], kernel: Callable[P, R]) -> None:
        self.check = check
        self.unchecked = kernel
        functools.update_wrapper(self, kernel)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        self.check(*args, **kwargs)
        return self.unchecked(*args, **kwargs)


def checked_by(check: Callable[P, object]) -> Callable[[Callable[P, R]], Checked[P, R]]:
    """Decorate a kernel with `check`, a function of the same arguments that raises
    `RulesError` for any it refuses: calling the kernel checks them, `.unchecked` does not.

    ```python
    from rulesref.campaign import hits_from_damage
    from rulesref.errors import RulesError

    print(hits_from_damage(17), hits_from_damage.unchecked(17))
    #> 2 2
    try:
        hits_from_damage(17.0)
    except RulesError as error:
        print(error.parameter, "|", error.allowed)
        #> battle_damage | a whole number from -20000 to 20000
    ```
    """

    def decorate(kernel: Callable[P, R]) -> Checked[P, R]:
        return Checked(check, kernel)

    return decorate


def whole_number(name: str, value: object, low: int, high: int) -> int:
    """Return `value` if it is an int (not a bool) in `low..high`, else raise `RulesError`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        allowed = f"a whole number from {low} to {high}" if low < high else f"{low}"
        # sympy's Integer(8) reads as 8: say why it is refused
        whole_but_not_int = hasattr(value, "__index__") and not isinstance(value, int)
        kind = f"{type(value).__module__.split('.')[0]}'s {type(value).__name__}"
        got = f"{_shown(value)} ({kind}, not an int)" if whole_but_not_int else ""
        raise RulesError(parameter=name, value=value, allowed=allowed, got=got)
    return value


def yes_or_no(name: str, value: object) -> bool:
    """Return `value` if it is True or False, else raise `RulesError`."""
    if not isinstance(value, bool):
        raise RulesError(parameter=name, value=value, allowed="True or False")
    return value


def one_of(name: str, value: object, allowed: Sequence[str]) -> str:
    """Return `value` if it is one of the `allowed` words, else raise `RulesError`."""
    if not isinstance(value, str) or value not in allowed:
        raise RulesError(parameter=name, value=value, allowed=f"one of {', '.join(allowed)}")
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


def member_of(name: str, value: object, words: type[W]) -> W:
    """Return `value` if it is a member of `words`, else raise `RulesError` saying how to
    write one. Records store the member and take nothing else: a word written as text is
    read where it comes in, by `Kind("cavalry")` or `rulesref.inputs`."""
    if isinstance(value, words):
        return value
    spelled = next((word for word in words if word.value == value), next(iter(words)))
    kind = words.__name__
    allowed = f'a {kind} ({kind}.{spelled.name} or {kind}("{spelled.value}"))'
    raise RulesError(parameter=name, value=value, allowed=allowed)


def settle(record: object, name: str, value: object) -> None:
    """Set the field `name` of a frozen record from its `__post_init__`: a sequence given
    for a `tuple[X, ...]` field, stored as the tuple its check returned, or a field worked
    out once from the others. The one place a record's field is set after it is made."""
    object.__setattr__(record, name, value)


def instance_of(name: str, value: object, kind: type[T] | tuple[type[T], ...], allowed: str) -> T:
    """Return `value` if it is an instance of `kind` (`allowed` says so in words), else raise."""
    if not isinstance(value, kind):
        raise RulesError(parameter=name, value=value, allowed=allowed)
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
        raise RulesError(parameter=name, value=value, allowed=what)
    if not low <= len(value) <= high:
        raise RulesError(parameter=name, value=value, allowed=what, got=f"{len(value)} items")
    items = tuple(value)
    for index, item in enumerate(items):
        if not isinstance(item, kind) or (isinstance(item, bool) and kind is int):
            raise RulesError(parameter=f"{name}[{index}]", value=item, allowed=noun)
    return items


def text(name: str, value: object, *, empty: bool = False) -> str:
    """Return `value` if it is printable text of at most `MAX_TEXT` characters, not blank
    unless `empty`, else raise `RulesError`. Names end up in printed results and drawn
    pages, so a control character, a lone surrogate, a bidirectional override, an
    invisible format character (U+200B, U+FEFF) or a noncharacter (U+FFFE) is refused."""
    if (
        not isinstance(value, str)
        or len(value) > MAX_TEXT
        or not (empty or value.strip())
        or any(_unsafe(char) for char in value)
    ):
        allowed = f"text of 1 to {MAX_TEXT} printable characters"
        raise RulesError(parameter=name, value=value, allowed=allowed)
    return value


def _unsafe(char: str) -> bool:
    """A character that could forge, hide or break what is printed or drawn."""
    code = ord(char)
    noncharacter = 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE
    return noncharacter or unicodedata.category(char) in _UNSAFE_CATEGORIES


def rational(name: str, value: object, low: int, high: int) -> Rational:
    """Return `value` as the package's `Rational` if it is an exact number from `low` to
    `high`: a sympy Rational, a Fraction or an int (never a float, a bool or a NaN), else
    raise `RulesError`."""
    allowed = f"a Rational from {low} to {high:,}"
    if isinstance(value, bool) or not isinstance(value, numbers.Rational):
        raise RulesError(parameter=name, value=value, allowed=allowed)
    numerator, denominator = int(value.numerator), int(value.denominator)
    if not low * denominator <= numerator <= high * denominator:  # no symbolic comparison
        raise RulesError(parameter=name, value=value, allowed=allowed)
    return value if isinstance(value, Rational) else in_lowest_terms(numerator, denominator)


def probability(name: str, value: object) -> Rational:
    """Return `value` if it is an exact probability, a Rational from 0 to 1 (see `rational`),
    else raise `RulesError`."""
    return rational(name, value, 0, 1)


def dice_roll(name: str, value: object, count: int) -> tuple[int, ...]:
    """Return `value` as a tuple of `count` d6 results, else raise `RulesError`."""
    allowed = f"{count} d6 results, each 1 to 6"
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or len(value) != count:
        raise RulesError(parameter=name, value=value, allowed=allowed)
    for face in value:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise RulesError(parameter=name, value=value, allowed=allowed)
    return tuple(value)
