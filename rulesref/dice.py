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
"""

from functools import cache

from sympy import Rational

FACES = range(1, 7)


@cache
def total_counts(dice: int) -> tuple[int, ...]:
    """Ways to roll each total with `dice` d6, indexed by the total.

    ```python
    from rulesref.dice import total_counts

    print(total_counts(2)[7])  # six of the 36 rolls of 2D6 make 7
    #> 6
    ```
    """
    if dice == 0:
        return (1,)
    fewer = total_counts(dice - 1)
    counts = [0] * (len(fewer) + 6)
    for total, ways in enumerate(fewer):
        for face in FACES:
            counts[total + face] += ways
    return tuple(counts)


def chance_at_most(target: int, *, dice: int) -> Rational:
    """Probability that `dice` d6 total `target` or less."""
    counts = total_counts(dice)
    return Rational(sum(counts[: max(target + 1, 0)]), 6**dice)


def chance_at_least(target: int, *, dice: int) -> Rational:
    """Probability that `dice` d6 total `target` or more."""
    return 1 - chance_at_most(target - 1, dice=dice)


def with_rerolls(chance: Rational, rerolls: int = 1) -> Rational:
    """Probability of passing when each failure may be re-rolled, up to `rerolls` times.

    ```python
    from sympy import Rational

    from rulesref.dice import with_rerolls

    print(with_rerolls(Rational(1, 2)))
    #> 3/4
    ```
    """
    return 1 - (1 - chance) ** (rerolls + 1)
