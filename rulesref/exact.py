"""The one exact number type of rulesref: `Rational`, a `sympy.Rational`.

Importing sympy is most of the time rulesref takes to start. A program that only prints
answers may do without it: with `RULESREF_FRACTIONS=1` in the environment before rulesref
is first imported, `Rational` is Python's `fractions.Fraction`, which gives the same
fractions, prints them the same (`5/18`) and compares equal to sympy's. The `rulesref`
command starts that way; the Python API returns sympy Rationals.

The counting modules take their big whole numbers' operations from here too (`mpz`,
`divexact`, `gcd`, `remove`): GMP's through gmpy2, or Python's own where gmpy2 is missing
(in the browser), which count the same, only slower.

```python
from sympy import Rational as SympyRational

from rulesref.exact import Rational

print(Rational(10, 36), Rational is SympyRational)
#> 5/18 True
```
"""

import os
from typing import TYPE_CHECKING

__all__ = ["Rational", "in_lowest_terms", "FRACTIONS"]

FRACTIONS = "RULESREF_FRACTIONS"  # the environment variable

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


# For the counting modules, whole numbers thousands of bits long: GMP's (through gmpy2)
# multiply, divide and take common divisors far quicker than Python's own.
try:
    from gmpy2 import divexact as divexact
    from gmpy2 import gcd as gcd
    from gmpy2 import mpz as mpz
    from gmpy2 import remove as remove
except ImportError:  # no gmpy2 in the browser (Pyodide): Python's integers count the same, slower
    from math import gcd as gcd
    from operator import floordiv

    divexact = floordiv  # exact there: each division it is asked for leaves no remainder
    mpz = int
    remove = _remove
