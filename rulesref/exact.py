"""The one exact number type of rulesref: `Rational`, a `sympy.Rational`.

Importing sympy is most of the time rulesref takes to start. A program that only prints
answers may do without it: with `RULESREF_FRACTIONS=1` in the environment before rulesref
is first imported, `Rational` is Python's `fractions.Fraction`, which gives the same
fractions, prints them the same (`5/18`) and compares equal to sympy's. The `rulesref`
command starts that way; the Python API returns sympy Rationals.

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
