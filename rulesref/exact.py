"""The one exact number type of rulesref: `Rational`, a `sympy.Rational`.

Importing sympy is most of the time rulesref takes to start. A program that only prints
answers may do without it: with `RULESREF_FRACTIONS=1` in the environment before rulesref
is first imported, `Rational` is Python's `fractions.Fraction`, which gives the same
fractions, prints them the same (`5/18`) and compares equal to sympy's. The `rulesref`
command starts that way; the Python API returns sympy Rationals.

The counting modules take their big whole numbers' operations from here too (`mpz`,
`divexact`, `gcd`, `remove`; `gmp` says which): GMP's through gmpy2, or Python's own where
gmpy2 is missing (in the browser), which count the same, only slower. gmpy2 is imported
when one of them is first used, not before.

```python
from sympy import Rational as SympyRational

from rulesref.exact import Rational

print(Rational(10, 36), Rational is SympyRational)
#> 5/18 True
```
"""

import math
import numbers
import os
import re
from collections.abc import Callable
from functools import cache
from operator import floordiv
from typing import TYPE_CHECKING, NamedTuple, NoReturn

__all__ = [
    "Rational",
    "in_lowest_terms",
    "FRACTIONS",
    "digits",
    "fraction_text",
    "short_fraction",
    "parse_exact",
]

FRACTIONS = "RULESREF_FRACTIONS"  # the environment variable
_LOG10_2 = 0.30102999566  # a little under log10(2): digits are estimated from bits, never over
MAX_SHOWN_DIGITS = 100  # digits above and below the line of a fraction shown whole
_STR_BITS = 10_000  # whole numbers str() writes (about 3,000 digits; it refuses past 4,300)
_STR_DIGITS = 3_000  # and int() reads

if TYPE_CHECKING or os.environ.get(FRACTIONS) != "1":
    from sympy import Rational

    def in_lowest_terms(numerator: int, denominator: int) -> Rational:
        """`numerator / denominator`, known to share no factor: no gcd is taken."""
        return Rational.from_coprime_ints(numerator, denominator)

else:  # the same numbers, without importing sympy
    from fractions import Fraction as Rational

    def in_lowest_terms(numerator, denominator):
        return Rational(numerator, denominator)


def _remove(number: int, factor: int) -> tuple[int, int]:
    """gmpy2.remove on Python's integers: `number` without its `factor`s, and how many.

    As quick as the number is long, not as its factors are many: 2s are counted from the
    bits; another factor is divided out by its powers factor**(2**i) while they divide,
    then again from the largest down (a few big divisions, as for the bits of a count).
    """
    if not number:
        return number, 0
    if factor == 2:
        times = (number & -number).bit_length() - 1
        return number >> times, times
    powers, times = [factor], 0
    while number % powers[-1] == 0:
        number //= powers[-1]
        times += 1 << (len(powers) - 1)
        powers.append(powers[-1] * powers[-1])
    for exponent in range(len(powers) - 2, -1, -1):
        if number % powers[exponent] == 0:
            number //= powers[exponent]
            times += 1 << exponent
    return number, times


class _Operations(NamedTuple):
    mpz: Callable[[int], int]
    divexact: Callable[[int, int], int]
    gcd: Callable[..., int]
    remove: Callable[[int, int], tuple[int, int]]
    gmp: bool


@cache
def _operations() -> _Operations:
    """For the counting modules, whole numbers thousands of bits long: GMP's (through
    gmpy2) multiply, divide and take common divisors far quicker than Python's own. Looked
    up on first use, so that an answer that needs none (the `rulesref` command's small
    ones) never pays for importing gmpy2."""
    try:
        import gmpy2
    except ImportError:  # no gmpy2 in the browser (Pyodide): Python's integers count the same
        return _Operations(int, floordiv, math.gcd, _remove, gmp=False)  # floordiv: exact here
    return _Operations(gmpy2.mpz, gmpy2.divexact, gmpy2.gcd, gmpy2.remove, gmp=True)


def gmp() -> bool:
    """Whether GMP (through gmpy2) makes the big whole numbers' operations."""
    return _operations().gmp


def mpz(number: int) -> int:
    """`number` as a GMP integer (gmpy2's `mpz`), or as it is without gmpy2."""
    return _operations().mpz(number)


def divexact(number: int, divisor: int) -> int:
    """`number // divisor`, where `divisor` is known to divide `number`."""
    return _operations().divexact(number, divisor)


def gcd(*numbers: int) -> int:
    """The greatest common divisor of `numbers`."""
    return _operations().gcd(*numbers)


def remove(number: int, factor: int) -> tuple[int, int]:
    """`number` without its `factor`s, and how many there were."""
    return _operations().remove(number, factor)


def _refuse(name: str, value: object, allowed: str) -> NoReturn:
    """Raise the package's RulesError; imported here, as `rulesref.errors` is built on
    this module."""
    from rulesref.errors import RulesError

    raise RulesError(parameter=name, value=value, allowed=allowed)


def _whole(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _refuse(name, value, "a whole number (an int)")
    return value


def _fraction(name: str, value: object) -> Rational:
    if isinstance(value, bool) or not isinstance(value, numbers.Rational):
        _refuse(name, value, "a Rational (or a Fraction, or an int)")
    return value


def digits(number: int) -> int:
    """How many decimal digits a whole number has, counted from its bits: `str()` cannot
    say, as Python refuses to write an int of more than 4,300 digits.

    ```python
    from rulesref.exact import digits

    print(digits(0), digits(999), digits(1000), digits(7**100_000))
    #> 1 3 4 84510
    ```
    """
    number = abs(_whole("number", number))
    count = int((number.bit_length() - 1) * _LOG10_2) + 1 if number else 1
    while number >= 10**count:
        count += 1
    return count


def decimal_text(number: int) -> str:
    """A whole number >= 0 in decimal, however long (`str()` refuses more than 4,300
    digits): halves of it written apart.

    ```python
    from rulesref.exact import decimal_text

    print(decimal_text(10**5000)[:4], len(decimal_text(10**5000)))
    #> 1000 5001
    ```
    """
    if number.bit_length() <= _STR_BITS:
        return str(number)
    half = digits(number) // 2
    high, low = divmod(number, 10**half)
    return decimal_text(high) + decimal_text(low).zfill(half)


def decimal_number(text: str) -> int:
    """The whole number a string of decimal digits writes, however long (`int()` refuses
    more than 4,300): halves of it read apart.

    ```python
    from rulesref.exact import decimal_number, decimal_text

    print(decimal_number("000120"), decimal_number(decimal_text(7**9000)) == 7**9000)
    #> 120 True
    ```
    """
    if len(text) <= _STR_DIGITS:
        return int(text)
    half = len(text) // 2
    shift: int = 10**half
    return decimal_number(text[:-half]) * shift + decimal_number(text[-half:])


def fraction_text(p: Rational) -> str:
    """A fraction written whole (`5/18`, or `1` for a whole number), however many digits
    it has. `str()` of a `Rational` with more than 4,300 digits above or below the line
    raises Python's `ValueError` about the limit for integer string conversion; this
    writes it in pieces, and sets nothing global.

    ```python
    from rulesref.exact import Rational, digits, fraction_text

    tiny = Rational(1, 6**10_000)
    print(fraction_text(Rational(10, 36)), len(fraction_text(tiny)), digits(tiny.denominator))
    #> 5/18 7784 7782
    ```
    """
    numerator, denominator = int(_fraction("p", p).numerator), int(p.denominator)
    sign = "-" if numerator < 0 else ""
    whole = sign + decimal_text(abs(numerator))
    return whole if denominator == 1 else f"{whole}/{decimal_text(denominator)}"


def short_fraction(p: Rational) -> str:
    """A fraction to read: whole if it has at most `MAX_SHOWN_DIGITS` digits above and below
    the line, else how many it has (`fraction_text` writes it whole).

    ```python
    from rulesref.exact import Rational, short_fraction

    print(short_fraction(Rational(5, 18)), "|", short_fraction(Rational(1, 6**10_000)))
    #> 5/18 | an exact fraction of 7,783 digits
    ```
    """
    numerator, denominator = int(_fraction("p", p).numerator), int(p.denominator)
    written = digits(numerator) + (digits(denominator) if denominator != 1 else 0)
    if written <= MAX_SHOWN_DIGITS:
        return fraction_text(p)
    return f"an exact fraction of {written:,} digits"


MAX_EXACT_TEXT = 1_000  # characters parse_exact reads: well within what int() reads
_DECIMAL = re.compile(r"([0-9]+)(?:\.([0-9]+))?")
_FRACTION = re.compile(r"([0-9]+)/([0-9]+)")


def parse_exact(text: str) -> Rational | None:
    """The number `text` writes in plain ASCII, exactly: digits with an optional decimal
    point (`0.25`) or a fraction of two whole numbers (`7/12`). None for anything else: a
    sign, an exponent, a space, an underscore, other digits, a zero below the line. Text of
    more than `MAX_EXACT_TEXT` characters, or not text, is a RulesError.

    ```python
    from rulesref.exact import parse_exact

    print(parse_exact("0.25"), parse_exact("7/12"), parse_exact("1e-5"), parse_exact("+1"))
    #> 1/4 7/12 None None
    ```
    """
    if not isinstance(text, str) or len(text) > MAX_EXACT_TEXT:
        _refuse("text", text, f"a str of at most {MAX_EXACT_TEXT:,} characters")
    decimal, fraction = _DECIMAL.fullmatch(text), _FRACTION.fullmatch(text)
    if decimal:
        places = decimal[2] or ""
        return Rational(int(decimal[1] + places), 10 ** len(places))
    if fraction and int(fraction[2]):
        return Rational(int(fraction[1]), int(fraction[2]))
    return None
