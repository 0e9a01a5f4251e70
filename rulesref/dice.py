"""The exact dice core: integer counts of d6 outcomes, turned into sympy Rationals at the edge.

Every probability in rulesref is a count of equally likely rolls divided by the number
of rolls, so it is exact. Nothing here is specific to one rule set.

```python
from rulesref.dice import chance_at_least, chance_at_most

print(chance_at_most(5, dice=2))  # 2D6 totals 5 or less
#> 5/18
print(chance_at_least(4, dice=1))  # a 4+ on one d6
#> 1/2
```

Counts of sums are polynomial products: the counts of one die are the coefficients of
a polynomial, and the counts of a sum of independent dice are the coefficients of the
product. We multiply such polynomials exactly by packing each into one big integer, a
fixed number of bytes per coefficient (Kronecker substitution), so that Python's
big-integer multiplication does the whole convolution at once. The multiplication is
GMP's (through gmpy2, which sympy uses for its integers too when it is installed): for
hundreds of dice it is ten times faster than Python's own.
"""

from collections import Counter
from collections.abc import Sequence
from functools import cache

from gmpy2 import mpz
from sympy import Rational

from rulesref.errors import RulesError, whole_number

FACES = range(1, 7)
D6 = tuple(FACES)
MAX_DICE = 10_000
MAX_TARGET = 6 * MAX_DICE


def _pack(counts: Sequence[int], width: int) -> int:
    return int.from_bytes(b"".join(c.to_bytes(width, "little") for c in counts), "little")


def _unpack(number: int, width: int, length: int) -> list[int]:
    raw = number.to_bytes(width * length, "little")
    return [int.from_bytes(raw[i : i + width], "little") for i in range(0, len(raw), width)]


def convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The counts of the sum of two independent totals, from the counts of each.

    ```python
    from rulesref.dice import convolve

    print(convolve([1, 1], [1, 2, 1]))  # a coin (0 or 1) plus two coins
    #> [1, 3, 3, 1]
    ```
    """
    # a coefficient of the product is at most min(len) * max(a) * max(b): give it room
    bits = max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length()
    width = bits // 8 + 1
    product = mpz(_pack(a, width)) * mpz(_pack(b, width))
    return _unpack(int(product), width, len(a) + len(b) - 1)


@cache
def power_counts(shape: tuple[int, ...], dice: int) -> tuple[int, ...]:
    """Ways for `dice` identical dice, whose faces are `shape` (whole numbers, lowest 0),
    to make each total from 0 up."""
    one = [0] * (max(shape) + 1)
    for face in shape:
        one[face] += 1
    width = (len(shape) ** dice).bit_length() // 8 + 1  # no count exceeds the rolls there are
    power = mpz(_pack(one, width)) ** dice
    return tuple(_unpack(int(power), width, (len(one) - 1) * dice + 1))


def sum_counts(dice: Sequence[Sequence[int]]) -> tuple[int, list[int]]:
    """Ways to roll each total with independent six-sided dice, each given by its faces:
    the lowest total, and the counts of each total from it up (they add up to 6**len(dice)).

    ```python
    from rulesref.dice import D6, sum_counts

    minus_d6 = tuple(-face for face in D6)
    print(sum_counts([D6, minus_d6]))  # d6 - d6: from -5 to 5
    #> (-5, [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1])
    ```
    """
    lowest, alike = 0, Counter()
    for faces in dice:
        base = min(faces)
        lowest += base
        alike[tuple(sorted(face - base for face in faces))] += 1
    counts = [1]
    for shape, number in sorted(alike.items()):
        counts = convolve(counts, power_counts(shape, number))
    return lowest, counts


@cache
def total_counts(dice: int) -> tuple[int, ...]:
    """Ways to roll each total with `dice` d6, indexed by the total.

    ```python
    from rulesref.dice import total_counts

    print(total_counts(2)[7])  # six of the 36 rolls of 2D6 make 7
    #> 6
    ```
    """
    return (0,) * dice + power_counts(tuple(face - 1 for face in D6), dice)


def ways_at_most(target: int, *, dice: int) -> int:
    """How many of the 6**dice rolls of `dice` d6 total `target` or less."""
    whole_number("dice", dice, 0, MAX_DICE)
    whole_number("target", target, -MAX_TARGET, MAX_TARGET)
    return sum(total_counts(dice)[: max(target + 1, 0)])


def chance_at_most(target: int, *, dice: int) -> Rational:
    """Probability that `dice` d6 total `target` or less."""
    return Rational(ways_at_most(target, dice=dice), 6**dice)


def chance_at_least(target: int, *, dice: int) -> Rational:
    """Probability that `dice` d6 total `target` or more."""
    rolls = 6**dice
    return Rational(rolls - ways_at_most(target - 1, dice=dice), rolls)


def with_rerolls(chance: Rational, rerolls: int = 1) -> Rational:
    """Probability of passing when each failure may be re-rolled, up to `rerolls` times.

    ```python
    from sympy import Rational

    from rulesref.dice import with_rerolls

    print(with_rerolls(Rational(1, 2)))
    #> 3/4
    ```
    """
    if not isinstance(chance, Rational) or not 0 <= chance <= 1:
        raise RulesError(f"chance must be a sympy Rational from 0 to 1, got {chance!r}")
    whole_number("rerolls", rerolls, 0, MAX_DICE)
    # every one of the rerolls + 1 tries fails: (1 - p)**(rerolls + 1), in whole numbers
    rolls = chance.q ** (rerolls + 1)
    return Rational(rolls - (chance.q - chance.p) ** (rerolls + 1), rolls)
