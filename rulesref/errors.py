"""The package's error for bad input, and the checks that raise it."""

from collections.abc import Sequence


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


def whole_number(name: str, value: object, low: int, high: int) -> int:
    """Return `value` if it is an int (not a bool) in `low..high`, else raise `RulesError`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(f"{name} must be a whole number from {low} to {high}, got {value!r}")
    return value


def yes_or_no(name: str, value: object) -> bool:
    """Return `value` if it is True or False, else raise `RulesError`."""
    if not isinstance(value, bool):
        raise RulesError(f"{name} must be True or False, got {value!r}")
    return value


def one_of(name: str, value: object, allowed: Sequence[str]) -> str:
    """Return `value` if it is one of the `allowed` words, else raise `RulesError`."""
    if not isinstance(value, str) or value not in allowed:
        raise RulesError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def dice_roll(name: str, value: object, count: int) -> tuple[int, ...]:
    """Return `value` as a tuple of `count` d6 results, else raise `RulesError`."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or len(value) != count:
        raise RulesError(f"{name} must be {count} d6 results, each 1 to 6, got {value!r}")
    for face in value:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise RulesError(f"{name} must be {count} d6 results, each 1 to 6, got {value!r}")
    return tuple(value)
