"""The exact dice core: integer counts of d6 outcomes, turned into sympy Rationals at the edge.

Every probability in rulesref is a count of equally likely rolls divided by the number
of rolls, so it is exact. Nothing here is specific to one rule set.

```python
from rulesref.dice import probability_at_least, probability_at_most

print(probability_at_most(5, dice=2))  # 2D6 totals 5 or less
#> 5/18
print(probability_at_least(4, dice=1))  # a 4+ on one d6
#> 1/2
```

Counts of sums are polynomial products: the counts of one die are the coefficients of
a polynomial, and the counts of a sum of independent dice are the coefficients of the
product. Three kernels compute them, all in whole numbers:

- **Packed product** (`convolve`, and powers of any die): each polynomial is packed
  into one big integer, a fixed number of bytes per coefficient (Kronecker
  substitution), so that one GMP multiplication (through gmpy2) does the whole
  convolution at once (where gmpy2 is missing, one of Python's integers, or of
  `decimal`'s numbers for long products).
- **Recurrence** (the counts of n d6): the counts are the coefficients of
  ((1 - x^6) / (1 - x))^n, whose derivative gives a short linear recurrence, each
  count from the previous one and those 5 and 6 below it; the counts are symmetric, so
  only the lower half is computed.
- **Inclusion-exclusion** (one tail of n d6, `ways_at_most`): the ways to total m or
  less over the lowest are the sum over j of (-1)^j C(n, j) C(m - 6j + n, n), about m/6
  terms, each from the one before by a few small factors; no distribution is built.

Caches are bounded: counts are kept only for small numbers of dice, so memory stays flat
however many questions are asked.
"""

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import accumulate
from math import comb, gcd, prod

from rulesref import counts
from rulesref.counts import Counts, product
from rulesref.errors import RulesError, checked_by, sequence_of, whole_number
from rulesref.errors import probability as checked_probability
from rulesref.exact import Rational, divexact, in_lowest_terms, mpz, remove

__all__ = [
    "D6",
    "convolve",
    "power_counts",
    "sum_counts",
    "counts_of",
    "total_counts",
    "ways_at_most",
    "probability_of",
    "probability_of_rolls",
    "probability_at_most",
    "probability_at_least",
    "with_rerolls",
    "with_rerolls_up_to",
    "passes_probability",
]

FACES = range(1, 7)
D6 = tuple(FACES)
MAX_DICE = 10_000
_MOST_ROLLS = 6**MAX_DICE
MAX_TARGET = 6 * MAX_DICE
MAX_FACE = MAX_TARGET  # the largest face of a die, whatever its sign
MAX_FACES = 1000  # faces of one die in `power_counts`
# The most bits of counts a product may make (totals times the bits of the largest count):
# about a second and 150 MB of packed products and their unpacking at the very most.
MAX_COUNT_BITS = 2**27
# Totals laid out one by one, summed over the rounds of a product of dice of several kinds
# (each round packs and unpacks counts as wide as the answer): about a second at the most.
MAX_TOTALS_LAID_OUT = 2**21
MAX_FRACTION_BITS = 2**20  # the numerator and denominator of `with_rerolls`, each
_D6_SHAPE = tuple(face - 1 for face in D6)  # a d6 counted from 0
_SMALL = 2**62  # numbers below it fit a machine word
_KEPT = 200  # counts of up to this many dice are cached (some tens of MB at the very most)


def convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The counts of the sum of two independent totals, from the counts of each: the
    coefficients of the product of two polynomials (negative coefficients too).

    ```python
    from rulesref.dice import convolve

    print(convolve([1, 1], [1, 2, 1]))  # a coin (0 or 1) plus two coins
    #> [1, 3, 3, 1]
    print(convolve([1, -1], [1, 1]))  # (1 - x)(1 + x)
    #> [1, 0, -1]
    ```
    """
    a = sequence_of("a", a, int, low=1, high=MAX_COUNT_BITS, noun="a whole number")
    b = sequence_of("b", b, int, low=1, high=MAX_COUNT_BITS, noun="a whole number")
    bits = max(max(a), -min(a)).bit_length() + max(max(b), -min(b)).bit_length() + 1
    _check_size("a and b", len(a) + len(b) - 1, bits)
    return counts.convolve(a, b)


def _check_size(name: str, totals: int, bits: int) -> None:
    """Refuses counts of `totals` totals of up to `bits` bits each past `MAX_COUNT_BITS`,
    before any is made: the work and the memory of a product grow with that size."""
    if totals * bits > MAX_COUNT_BITS:
        raise RulesError(
            f"{name} must make counts of at most {MAX_COUNT_BITS:,} bits (totals times the "
            f"bits of each count), got {totals:,} totals of up to {bits:,} bits"
        )


def _packed_power(shape: tuple[int, ...], dice: int) -> tuple[int, ...]:
    """The packed-product kernel: the counts of `dice` dice of faces `shape`, lowest 0."""
    return Counts.of_faces(shape).power(dice).weights


def _d6_power(dice: int) -> tuple[int, ...]:
    """The recurrence kernel: the counts of `dice` d6, each total from the lowest up."""
    # from (1-x)(1-x^6) f' = n (1 - 6x^5 + 5x^6) f, where f = ((1 - x^6) / (1 - x))^n
    top, n = 5 * dice, dice
    counts = [0] * 6 + [1]  # six zeros below the lowest total spare the edge cases
    for k in range(top // 2):
        following = (k + n) * counts[k + 6] + (k - 5 - 6 * n) * counts[k + 1]
        counts.append((following + (5 * n - k + 6) * counts[k]) // (k + 1))
    lower = counts[6:]
    return (*lower, *reversed(lower[: top + 1 - len(lower)]))


def _power(shape: tuple[int, ...], dice: int) -> tuple[int, ...]:
    return _d6_power(dice) if shape == _D6_SHAPE else _packed_power(shape, dice)


_kept_power = lru_cache(maxsize=256)(_power)


def power_counts(shape: tuple[int, ...], dice: int) -> tuple[int, ...]:
    """Ways for `dice` identical dice, whose faces are `shape` (whole numbers, lowest 0),
    to make each total from 0 up.

    ```python
    from rulesref.dice import power_counts

    print(power_counts((0, 0, 0, 1, 1, 1), 2))  # two coins: 0, 1 or 2 heads
    #> (9, 18, 9)
    ```
    """
    whole_number("dice", dice, 0, MAX_DICE)
    shape = sequence_of("shape", shape, int, low=1, high=MAX_FACES, noun="a whole number")
    whole_number("the lowest face of shape", min(shape), 0, 0)
    whole_number("the highest face of shape", max(shape), 0, MAX_FACE)
    if shape != _D6_SHAPE:  # the recurrence of d6 is bounded by MAX_DICE alone
        _check_size("shape and dice", max(shape) * dice + 1, len(shape).bit_length() * dice)
    return _counts_of_power(shape, dice)


def _counts_of_power(shape: tuple[int, ...], dice: int) -> tuple[int, ...]:
    return (_kept_power if dice <= _KEPT else _power)(shape, dice)


def sum_counts(dice: Sequence[Sequence[int]]) -> Counts:
    """Ways to roll each total with independent six-sided dice, each given by its faces:
    the counts of each total from the lowest up (they add up to 6**len(dice)).

    ```python
    from rulesref.dice import D6, sum_counts

    minus_d6 = tuple(-face for face in D6)
    print(sum_counts([D6, minus_d6]))  # d6 - d6: from -5 to 5
    #> Counts(low=-5, weights=(1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1))
    ```
    """
    dice = sequence_of("dice", dice, Sequence, high=MAX_DICE, noun="the faces of a die")
    seen: set[tuple[int, ...]] = set()
    for index, faces in enumerate(dice):
        if tuple(faces) not in seen:  # each set of faces checked once
            name = f"dice[{index}]"
            seen.add(sequence_of(name, faces, int, low=6, high=6, noun="a whole number"))
            whole_number(f"the lowest face of {name}", min(faces), -MAX_FACE, MAX_FACE)
            whole_number(f"the highest face of {name}", max(faces), -MAX_FACE, MAX_FACE)
    alike = _alike(dice)
    if set(alike) - {_D6_SHAPE}:  # the recurrence of d6 is bounded by MAX_DICE alone
        spread = sum(max(shape) * number for shape, number in alike.items())
        _check_size("dice", spread + 1, 3 * len(dice))  # 6**n has fewer than 3n bits
        rounds = max(1, (len(alike) - 1).bit_length())  # dice of each kind halved together
        if (spread + 1) * rounds > MAX_TOTALS_LAID_OUT:
            raise RulesError(
                f"dice must make at most {MAX_TOTALS_LAID_OUT:,} totals over the rounds of "
                f"their product, got {spread + 1:,} totals in {rounds} rounds (for "
                f"{len(alike):,} kinds of dice)"
            )
    return counts_of(dice)


def _alike(dice: Iterable[Sequence[int]]) -> Counter[tuple[int, ...]]:
    """The number of dice of each shape (the faces less the lowest, sorted)."""
    alike = Counter[tuple[int, ...]]()
    for faces, number in Counter(map(tuple, dice)).items():
        alike[tuple(sorted(face - min(faces) for face in faces))] += number
    return alike


def counts_of(dice: Iterable[Sequence[int]]) -> Counts:
    """`sum_counts` without its checks, for callers that made the dice themselves.

    ```python
    from rulesref.dice import D6, counts_of

    print(counts_of([D6, D6]).weights[5])  # 2D6: six ways to make 7 (the sixth total up)
    #> 6
    ```
    """
    dice = list(dice)
    lowest = sum(min(faces) for faces in dice)
    powers = [
        Counts(0, _counts_of_power(shape, number)) for shape, number in sorted(_alike(dice).items())
    ]
    return product(powers).shifted(lowest)


def total_counts(dice: int) -> tuple[int, ...]:
    """Ways to roll each total with `dice` d6, indexed by the total.

    ```python
    from rulesref.dice import total_counts

    print(total_counts(2)[7])  # six of the 36 rolls of 2D6 make 7
    #> 6
    ```
    """
    return (0,) * whole_number("dice", dice, 0, MAX_DICE) + power_counts(_D6_SHAPE, dice)


@lru_cache(maxsize=_KEPT)
def _kept_at_most(dice: int) -> tuple[int, ...]:
    return tuple(accumulate(power_counts(_D6_SHAPE, dice)))


def _lower_tail(over: int, dice: int) -> int:
    """The inclusion-exclusion kernel: ways for `dice` d6 to total at most `over` above the
    lowest, counting the rolls with some j dice forced above 5 with alternating signs."""
    above = over + dice  # the current term's binomial is C(above, dice)
    term = ways = mpz(comb(above, dice))
    for j in range(1, over // 6 + 1):
        # from the term before: times -(dice - j + 1) / j and C(above - 6, dice) / C(above, dice)
        gain = (dice - j + 1) * prod(range(above - dice - 5, above - dice + 1))
        term = -divexact(term * gain, j * prod(range(above - 5, above + 1)))
        ways += term
        above -= 6
    return int(ways)


def ways_at_most(target: int, *, dice: int) -> int:
    """How many of the 6**dice rolls of `dice` d6 total `target` or less.

    ```python
    from rulesref.dice import ways_at_most

    print(ways_at_most(3, dice=2), ways_at_most(9_999, dice=10_000))  # at least 10,000
    #> 3 0
    ```
    """
    whole_number("dice", dice, 0, MAX_DICE)
    return _at_most(whole_number("target", target, -MAX_TARGET, MAX_TARGET), dice)


def _at_most(target: int, dice: int) -> int:
    over, spread = target - dice, 5 * dice  # the total above the lowest, and its range
    if over < 0:
        return 0
    rolls: int = 6**dice  # typeshed cannot tell that a power of a whole number is whole
    if over >= spread:
        return rolls
    if dice <= _KEPT:
        return _kept_at_most(dice)[over]
    if 2 * over < spread:
        return _lower_tail(over, dice)
    # the counts are symmetric: at most `over` is all but at most spread - over - 1
    return rolls - _lower_tail(spread - over - 1, dice)


def probability_of(ways: int, *, dice: int) -> Rational:
    """`ways` of the 6**dice rolls of `dice` d6, as an exact probability.

    ```python
    from rulesref.dice import probability_of

    print(probability_of(6, dice=2))  # six of the 36 rolls of 2D6 make 7
    #> 1/6
    ```
    """
    rolls = 6 ** whole_number("dice", dice, 0, MAX_DICE)
    return probability_of_rolls.unchecked(whole_number("ways", ways, 0, rolls), rolls)


def _counted_rolls(ways: int, rolls: int) -> None:
    """Refuse what `probability_of_rolls` cannot take: `rolls` must be a count of d6 rolls
    (or a part of them), `ways` some of them."""
    allowed = f"a whole number from 1 to 6**{MAX_DICE} with no prime factor but 2 and 3"
    if isinstance(rolls, bool) or not isinstance(rolls, int) or not 1 <= rolls <= _MOST_ROLLS:
        raise RulesError(parameter="rolls", value=rolls, allowed=allowed)
    if remove(remove(mpz(rolls), 2)[0], 3)[0] != 1:
        raise RulesError(parameter="rolls", value=rolls, allowed=allowed)
    if isinstance(ways, bool) or not isinstance(ways, int) or not 0 <= ways <= rolls:
        raise RulesError(parameter="ways", value=ways, allowed="a whole number from 0 to rolls")


@checked_by(_counted_rolls)
def probability_of_rolls(ways: int, rolls: int) -> Rational:
    """`ways` of `rolls` equally likely rolls, where `rolls` has no prime factor but 2 and
    3 (d6 rolls, or a part of them), as a fraction in lowest terms. `.unchecked` is for
    callers that counted them.

    ```python
    from rulesref.dice import probability_of_rolls

    print(probability_of_rolls(6, 36))
    #> 1/6
    ```

    Only 2s and 3s can divide both, so they are taken out directly: several times quicker
    than the gcd of numbers thousands of bits long, for the thousands of fractions of a
    big battle or force.
    """
    if not ways:
        return Rational(0)
    if rolls < _SMALL:  # a machine word: one gcd is quicker than taking out factors
        common = gcd(ways, rolls)
        return in_lowest_terms(ways // common, rolls // common)
    numerator, denominator = mpz(ways), mpz(rolls)
    for prime in (2, 3):
        numerator, times = remove(numerator, prime)
        # the rolls usually hold all of them: one division, not a count of its own
        shared = times if denominator % prime**times == 0 else remove(denominator, prime)[1]
        numerator *= prime ** (times - shared)
        denominator = divexact(denominator, prime**shared)
    return in_lowest_terms(int(numerator), int(denominator))


def probability_at_most(target: int, *, dice: int) -> Rational:
    """Probability that `dice` d6 total `target` or less."""
    return probability_of(ways_at_most(target, dice=dice), dice=dice)


def probability_at_least(target: int, *, dice: int) -> Rational:
    """Probability that `dice` d6 total `target` or more."""
    whole_number("dice", dice, 0, MAX_DICE)  # before 6**dice is computed
    ways = _at_most(whole_number("target", target, -MAX_TARGET, MAX_TARGET) - 1, dice)
    return probability_of(6**dice - ways, dice=dice)


def passes_probability(at_least: int, *, tests: int, probability: Rational) -> Rational:
    """Probability that at least `at_least` of `tests` independent tests pass, each with
    `probability` (a binomial tail).

    ```python
    from sympy import Rational

    from rulesref.dice import passes_probability

    print(passes_probability(2, tests=3, probability=Rational(1, 2)))  # 2 of 3 coins
    #> 1/2
    ```
    """
    passes = checked_probability("probability", probability)
    whole_number("tests", tests, 0, MAX_DICE)
    whole_number("at_least", at_least, 0, tests)
    hold, out_of = int(passes.numerator), int(passes.denominator)
    bits = out_of.bit_length() * tests
    if bits > MAX_FRACTION_BITS:
        raise RulesError(
            f"tests must keep the answer within {MAX_FRACTION_BITS:,} bits, got {tests:,} "
            f"tests of a denominator of {out_of.bit_length():,} bits ({bits:,} bits)"
        )
    rolls = mpz(out_of) ** tests
    if 2 * at_least > tests:  # the fewer terms: those of at least `at_least`
        ways = _binomial_sum(at_least, tests, hold, out_of - hold)
    else:  # or all but those of fewer, counted as failures of the other side
        ways = rolls - _binomial_sum(tests - at_least + 1, tests, out_of - hold, hold)
    common = gcd(ways, rolls)  # a whole-number gcd: no Rational re-normalises it
    return in_lowest_terms(int(ways // common), int(rolls // common))


def _binomial_sum(first: int, n: int, hold: int, fail: int) -> int:
    """The sum over j from `first` to `n` of C(n, j) hold^j fail^(n - j): each term from
    the one before by small factors and one exact division (no distribution is made)."""
    if not fail:
        return hold**n if first <= n else 0
    term = mpz(comb(n, first)) * mpz(hold) ** first * mpz(fail) ** (n - first)
    ways = term
    for j in range(first, n):
        term = divexact(term * ((n - j) * hold), (j + 1) * fail)
        ways += term
    return int(ways)


def with_rerolls(probability: Rational, rerolls: int = 1) -> Rational:
    """Probability of passing when each failure may be re-rolled, up to `rerolls` times.

    ```python
    from sympy import Rational

    from rulesref.dice import with_rerolls

    print(with_rerolls(Rational(1, 2)))
    #> 3/4
    ```
    """
    passes = checked_probability("probability", probability)
    whole_number("rerolls", rerolls, 0, MAX_DICE)
    tries = rerolls + 1
    bits = int(passes.denominator).bit_length() * tries
    if bits > MAX_FRACTION_BITS:
        raise RulesError(
            f"rerolls must keep the answer within {MAX_FRACTION_BITS:,} bits, got {rerolls:,} "
            f"re-rolls of a denominator of {int(passes.denominator).bit_length():,} bits "
            f"({bits:,} bits)"
        )
    # every one of the tries fails: (1 - p)**tries, in whole numbers; no factor of the
    # denominator divides the misses (p is in lowest terms), so neither does one of the
    # difference: it is in lowest terms already
    rolls = int(passes.denominator) ** tries  # Python's own: a power is quick in either
    misses = int(passes.denominator - passes.numerator) ** tries
    return in_lowest_terms(rolls - misses, rolls)


def with_rerolls_up_to(probability: Rational, rerolls: int) -> tuple[Rational, ...]:
    """The probabilities of passing with 0, 1, ... up to `rerolls` re-rolls of a failure:
    `with_rerolls` for each number of re-rolls, made in one pass (a table's row).

    ```python
    from sympy import Rational

    from rulesref.dice import with_rerolls_up_to

    print(with_rerolls_up_to(Rational(1, 2), 3))
    #> (1/2, 3/4, 7/8, 15/16)
    ```
    """
    passes = checked_probability("probability", probability)
    whole_number("rerolls", rerolls, 0, MAX_DICE)
    out_of = int(passes.denominator)
    bits = out_of.bit_length() * (rerolls + 1) * (rerolls + 2) // 2  # of all the answers
    if bits > MAX_FRACTION_BITS:
        raise RulesError(
            f"rerolls must keep the answers within {MAX_FRACTION_BITS:,} bits, got {rerolls:,} "
            f"re-rolls of a denominator of {out_of.bit_length():,} bits ({bits:,} bits)"
        )
    return _rerolled(out_of - int(passes.numerator), out_of, rerolls)


@lru_cache(maxsize=64)  # a row asked again (a table drawn twice) is not made again
def _rerolled(miss: int, out_of: int, rerolls: int) -> tuple[Rational, ...]:
    """Each try fails with `miss` of `out_of` rolls (in lowest terms): after k re-rolls all
    fail in miss**(k + 1) of out_of**(k + 1), and the rest pass. No factor of out_of
    divides miss, so none divides the passes: each fraction is in lowest terms already."""
    rolls, misses, row = 1, 1, []
    for _ in range(rerolls + 1):
        rolls, misses = rolls * out_of, misses * miss
        row.append(in_lowest_terms(rolls - misses, rolls))
    return tuple(row)
