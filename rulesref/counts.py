"""Counts at an offset: the one value type of rulesref's exact counting.

`Counts(low, weights)` holds whole-number weights of the totals from `low` up: `weights[k]`
is the weight (the number of equally likely rolls, say) of the total `low + k`. They are
the coefficients of the polynomial x^low (w0 + w1 x + w2 x^2 + ...), so the counts of a sum
of independent totals are the product of their polynomials (`times`, `power`, `product`),
and a question about totals below a bar needs only a window of them (`top=`). The role
dyce's `H` and icepool's `Die` play, in whole numbers: `rulesref.dice` counts dice with it,
`rulesref.odds.battle` the Battle Damage, `rulesref.odds.cascade` the units lost.

Nothing here checks its input: the callers (`rulesref.dice` for the public functions)
check once, at the edge.

```python
from rulesref.counts import Counts

coin = Counts.of_faces((0, 1))
print(coin.power(3))  # three coins: 0 to 3 heads
#> Counts(low=0, weights=(1, 3, 3, 1))
print(coin.power(3).times(Counts.of_faces((-1, 0))))  # and a die of -1 or 0
#> Counts(low=-1, weights=(1, 4, 6, 4, 1))
```

Products run on packed integers (Kronecker substitution): each polynomial packed into one
big integer, a fixed number of bytes per coefficient, so that one GMP multiplication
(through gmpy2) makes the whole product. Where gmpy2 is missing (in the browser), a short
product is one multiplication of Python's integers, and a long one a multiplication of
`decimal`'s numbers, a fixed number of decimal digits per coefficient: libmpdec's
transform is quicker there than Python's Karatsuba.
"""

from abc import ABC, abstractmethod
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal, Inexact, Rounded, localcontext
from functools import cached_property
from itertools import accumulate
from operator import mul
from typing import Generic, TypeVar

from rulesref.exact import decimal_number, decimal_text, gmp, mpz

__all__ = [
    "Counts",
    "Window",
    "all_but_one",
    "correlation",
    "dot",
    "product",
    "windows_of_all_but_one",
]


@dataclass(frozen=True)
class Counts:
    """Weights of the totals from `low` up (`weights[k]`: of the total `low + k`)."""

    low: int
    weights: tuple[int, ...]

    @classmethod
    def of_faces(cls, faces: Iterable[int]) -> "Counts":
        """One die: each face one way (a face shown twice, two ways)."""
        faces = list(faces)
        low = min(faces)
        weights = [0] * (max(faces) - low + 1)
        for face in faces:
            weights[face - low] += 1
        return cls(low, tuple(weights))

    @cached_property
    def total(self) -> int:
        """All the weight: the number of rolls, when the weights count rolls."""
        return sum(self.weights)

    @property
    def high(self) -> int:
        """The highest total counted."""
        return self.low + len(self.weights) - 1

    def shifted(self, by: int) -> "Counts":
        """Every total moved up by `by`."""
        return Counts(self.low + by, self.weights)

    def below(self, top: int) -> "Counts":
        """Only the totals below `top` (none left: no weights)."""
        return Counts(self.low, self.weights[: max(top - self.low, 0)])

    def stripped(self) -> "Counts":
        """The zero weights at the low end taken into `low` (all zero: as it is)."""
        first = next((k for k, weight in enumerate(self.weights) if weight), 0)
        return Counts(self.low + first, self.weights[first:])

    def plus(self, other: "Counts") -> "Counts":
        """The weights of both, added total by total."""
        low = min(self.low, other.low)
        total = [0] * (max(self.high, other.high) - low + 1)
        for counts in (self, other):
            for k, weight in enumerate(counts.weights, counts.low - low):
                total[k] += weight
        return Counts(low, tuple(total))

    def times(self, other: "Counts", top: int | None = None) -> "Counts":
        """The counts of the sum of the two totals (the product of the polynomials), only
        the totals below `top` if given."""
        low = self.low + other.low
        degree = None if top is None else max(top - low, 0)
        return Counts(low, tuple(times(self.weights, other.weights, degree)))

    def power(self, n: int) -> "Counts":
        """The counts of the sum of `n` such totals."""
        if not self.weights:
            return self
        return Counts(self.low * n, tuple(power(self.weights, n)))


def product(counts: Sequence[Counts], top: int | None = None) -> Counts:
    """The counts of the sum of many totals (below `top` if given), halving the list so
    that GMP multiplies long polynomials, not one at a time onto a growing product."""
    low = sum(each.low for each in counts)
    degree = None if top is None else max(top - low, 0)
    return Counts(low, tuple(polynomial_product([each.weights for each in counts], degree)))


# The algebra on plain sequences of coefficients (the coefficient k of x^k), for the
# counting code that works on them directly.

Polynomial = Sequence[int]
Packed = TypeVar("Packed", int, Decimal)


class _Fields(ABC, Generic[Packed]):
    """Kronecker substitution: a polynomial as one number, its value at x = base**width,
    each coefficient in a field of `width` places; the product of two numbers holds the
    product of the polynomials, field by field, when no field overflows into the next."""

    width: int

    @abstractmethod
    def pack(self, coefficients: Polynomial) -> Packed:
        """The polynomial (coefficients not negative, each fitting a field) as a number."""

    @abstractmethod
    def repeated(self, coefficient: int, length: int) -> Packed:
        """`pack` of `length` times the same coefficient, written once."""

    @abstractmethod
    def unpack(self, number: Packed, length: int, kept: range) -> list[int]:
        """The fields `kept` of a number of `length` fields (not negative): only those
        are read."""

    @property
    @abstractmethod
    def half(self) -> int:
        """Half the largest field and one: the offset of `signed_product`'s fields."""

    def product(self, a: Polynomial, b: Polynomial, kept: range) -> list[int]:
        """The coefficients `kept` of the product of two polynomials (coefficients not
        negative)."""
        with localcontext(_EXACT):
            return self.unpack(self.pack(a) * self.pack(b), len(a) + len(b) - 1, kept)

    def signed_product(self, a: Polynomial, b: Polynomial, kept: range) -> list[int]:
        """`product` for coefficients of any sign, none of the product's as large as
        `half`: each field raised by `half`, so that none is negative or borrows from the
        next."""
        length = len(a) + len(b) - 1
        with localcontext(_EXACT):
            product = self.signed_pack(a) * self.signed_pack(b)
            raised = product + self.repeated(self.half, length)
        return [field - self.half for field in self.unpack(raised, length, kept)]

    def signed_pack(self, coefficients: Polynomial) -> Packed:
        """`pack` for coefficients of any sign: their positive parts, less their negative
        parts."""
        with localcontext(_EXACT):
            return self.pack([max(c, 0) for c in coefficients]) - self.pack(
                [max(-c, 0) for c in coefficients]
            )

    def power(self, polynomial: Polynomial, n: int) -> list[int]:
        """The polynomial (coefficients not negative) to the power `n` (1 at least)."""
        with localcontext(_EXACT):
            length = (len(polynomial) - 1) * n + 1
            return self.unpack(self.pack(polynomial) ** n, length, range(length))


@dataclass(frozen=True)
class _Bytes(_Fields[int]):
    """Fields of `width` bytes, in one of GMP's (gmpy2's) integers, or Python's without it."""

    width: int

    @classmethod
    def holding(cls, bits: int) -> "_Bytes":
        """Fields wide enough for coefficients of `bits` bits, or a sign and `bits` bits."""
        return cls(bits // 8 + 1)

    def pack(self, coefficients: Polynomial) -> int:
        raw = b"".join(c.to_bytes(self.width, "little") for c in coefficients)
        return mpz(int.from_bytes(raw, "little"))

    def repeated(self, coefficient: int, length: int) -> int:
        return mpz(int.from_bytes(coefficient.to_bytes(self.width, "little") * length, "little"))

    def unpack(self, number: int, length: int, kept: range) -> list[int]:
        raw = int(number).to_bytes(self.width * length, "little")
        width = self.width
        return [int.from_bytes(raw[k * width : (k + 1) * width], "little") for k in kept]

    @property
    def half(self) -> int:
        return 1 << (8 * self.width - 1)


@dataclass(frozen=True)
class _Digits(_Fields[Decimal]):
    """Fields of `width` decimal digits, in one of `decimal`'s numbers: libmpdec multiplies
    long ones by a number-theoretic transform, far quicker than Python's own integers
    (Karatsuba) on products of hundreds of thousands of digits. Each coefficient is
    written in decimal and read back on its own: short numbers, and the long one is read
    and written as its digits, without converting it."""

    width: int

    @classmethod
    def holding(cls, bits: int) -> "_Digits":
        """Fields wide enough for coefficients of `bits` bits, or a sign and `bits` bits:
        one digit more than `bits` bits ever take (log10(2) < 0.30103)."""
        return cls(bits * 30103 // 100_000 + 2)

    def pack(self, coefficients: Polynomial) -> Decimal:
        return Decimal("".join(decimal_text(c).zfill(self.width) for c in coefficients[::-1]))

    def repeated(self, coefficient: int, length: int) -> Decimal:
        return Decimal(decimal_text(coefficient).zfill(self.width) * length)

    def unpack(self, number: Decimal, length: int, kept: range) -> list[int]:
        text = str(number).zfill(self.width * length)  # the highest field first
        width = self.width
        return [decimal_number(text[(length - 1 - k) * width : (length - k) * width]) for k in kept]

    @property
    def half(self) -> int:
        field: int = 10**self.width
        return field // 2


# Exact: any rounding raises rather than errs (no product comes near MAX_PREC digits)
_EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN, traps=[Inexact, Rounded])
# Without GMP, a product goes through decimal where that was quicker on the cascade's
# products: of this many bits at least, its factors of this many coefficients at least
# (each coefficient written in decimal and read back costs as its digits squared)
_DECIMAL_BITS = 2**17
_DECIMAL_FACTOR = 48


def _fields(bits: int, length: int, shorter: int) -> _Fields[int] | _Fields[Decimal]:
    """The fields for a product of `length` coefficients of up to `bits` bits (a sign
    apart), whose shorter factor has `shorter` coefficients."""
    if gmp() or bits * length < _DECIMAL_BITS or shorter < _DECIMAL_FACTOR:
        return _Bytes.holding(bits)
    return _Digits.holding(bits)


def convolve(a: Polynomial, b: Polynomial, start: int = 0, top: int | None = None) -> list[int]:
    """The product of two polynomials (not empty; coefficients of any sign), packed: its
    coefficients from degree `start` on, below degree `top` if given (only those are
    unpacked)."""
    # a coefficient of the product is at most min(len) * max|a| * max|b|: give it room
    bits = _size(a) + _size(b) + min(len(a), len(b)).bit_length()
    length = len(a) + len(b) - 1
    kept = range(length)[start:top]
    fields = _fields(bits, length, min(len(a), len(b)))
    if min(a) < 0 or min(b) < 0:
        return fields.signed_product(a, b, kept)
    return fields.product(a, b, kept)


def _size(coefficients: Polynomial) -> int:
    """The bits of the largest coefficient, whatever its sign."""
    return max(max(coefficients), -min(coefficients)).bit_length()


def power(polynomial: Polynomial, n: int) -> list[int]:
    """The polynomial (coefficients not negative, not all 0) to the power `n`, packed."""
    if not n:
        return [1]
    # no coefficient of the power exceeds the polynomial at x = 1 to the power n
    bits = (sum(polynomial) ** n).bit_length()
    length = (len(polynomial) - 1) * n + 1
    return _fields(bits, length, length).power(polynomial, n)  # written and read once


def times(a: Polynomial, b: Polynomial, top: int | None = None, start: int = 0) -> list[int]:
    """The product of two polynomials, from degree `start` on, below degree `top` if
    given."""
    a, b = a[:top], b[:top]  # no coefficient from above `top` reaches below it
    # nor one of `a` below `start` less the degree of `b` up to `start`, and the same of `b`
    below_a, below_b = max(start - len(b) + 1, 0), max(start - len(a) + 1, 0)
    if below_a or below_b:  # each cut, the product's degrees drop by both cuts
        a, b, start = a[below_a:], b[below_b:], start - below_a - below_b
        top = None if top is None else max(top - below_a - below_b, 0)
        a, b = a[:top], b[:top]
    if len(a) > len(b):
        a, b = b, a
    if not a:
        return []
    if len(a) == 1:  # a number: no packing
        return [a[0] * term for term in b[start:top]]
    if a.count(a[0]) == len(a):  # a number times 1 + x + ...: sums in a row
        return [a[0] * total for total in _sliding(b, len(a))[start:top]]
    return convolve(a, b, start, top)


def _sliding(polynomial: Polynomial, width: int) -> list[int]:
    """The product of `polynomial` and 1 + x + ... + x^(width - 1): sums of `width`
    coefficients in a row."""
    sums = list(accumulate(polynomial, initial=0))
    last = len(polynomial)
    return [sums[min(k + 1, last)] - sums[max(k + 1 - width, 0)] for k in range(last + width - 1)]


def polynomial_product(polynomials: Sequence[Polynomial], top: int | None = None) -> list[int]:
    """The product of many polynomials, below degree `top` if given, halving the list."""
    if not polynomials:
        return [1][:top]
    ends = list(accumulate((len(polynomial) for polynomial in polynomials), initial=0))

    def between(low: int, high: int) -> list[int]:
        if high - low == 1:
            return list(polynomials[low][:top])
        middle = middle_of(ends, low, high)
        return times(between(low, middle), between(middle, high), top)

    return between(0, len(polynomials))


def middle_of(ends: Sequence[int], low: int, high: int) -> int:
    """Where to halve the polynomials from `low` to `high` (excluded, two at least) so that
    the halves are about as long (`ends[i]`: the length of all before the i-th): a long
    one goes on its own, and is not multiplied again at every level."""
    middle = bisect_left(ends, (ends[low] + ends[high]) // 2, low + 1, high)
    return min(middle, high - 1)


def binomial(hold: int, fail: int, count: int) -> list[int]:
    """(hold + fail x)^count: the weights of k failures among `count` alike tries, each
    holding on `hold` rolls and failing on `fail` (`hold` not 0)."""
    terms = [hold**count]
    for k in range(count):
        # C(n, k+1) h^(n-k-1) f^(k+1) from C(n, k) h^(n-k) f^k, exactly
        terms.append(terms[-1] * (count - k) * fail // ((k + 1) * hold) if fail else 0)
    return terms


def divided(polynomial: Polynomial, hold: int, fail: int) -> list[int]:
    """`polynomial` / (hold + fail x), which must divide it exactly: one try's factor
    taken out."""
    quotient, previous = [], 0
    for coefficient in polynomial[:-1]:
        previous = (coefficient - fail * previous) // hold
        quotient.append(previous)
    return quotient


def dot(a: Sequence[int], b: Sequence[int]) -> int:
    """The sum of the products of terms in the same place, up to the shorter's end.

    ```python
    from rulesref.counts import dot

    print(dot([1, 2, 3], [10, 100]))
    #> 210
    ```
    """
    return sum(map(mul, a, b))


def all_but_one(values: Sequence[int]) -> list[int]:
    """For each value, the product of all the others (without dividing: a 0 is welcome).

    ```python
    from rulesref.counts import all_but_one

    print(all_but_one([2, 3, 0]))
    #> [0, 0, 6]
    ```
    """
    before = list(accumulate(values, mul, initial=1))
    after = list(accumulate(reversed(values), mul, initial=1))[::-1]
    return [before[index] * after[index + 1] for index in range(len(values))]


def correlation(polynomial: Polynomial, values: Sequence[int], length: int) -> list[int]:
    """Entry k, for k below `length`: the sum over i of `polynomial[i] * values[k + i]`
    (`values` as long as `length` and the polynomial's degree). What the dot product with a
    product needs of one factor: `dot(times(a, polynomial), values)` is
    `dot(a, correlation(polynomial, values, len(a)))`, so a sum of dot products with the
    products of a growing product is summed from the longest down, on short numbers.

    ```python
    from rulesref.counts import correlation

    print(correlation([1, 2], [10, 20, 30], 2))  # 10 + 2*20, 20 + 2*30
    #> [50, 80]
    ```
    """
    width = len(polynomial)
    if width <= _SUMS_PER_COEFFICIENT:
        return [dot(polynomial, values[k : k + width]) for k in range(length)]
    return times(polynomial[::-1], values, width - 1 + length, width - 1)


# Windows: what a sum of totals needs of all the others, when the question is "below a bar".
# Some entries of a product are quicker as sums of products than by packing, when the sums
# take at most this many products for each coefficient that packing would make.
_SUMS_PER_COEFFICIENT = 8


@dataclass(frozen=True)
class Window:
    """Running totals of a polynomial's weights, only from degree `start` on: `sums[j]` is
    the weight of every degree up to `start + j`. Below its start it answers 0: it is read
    only where the polynomial has no weight below its start, or where no reader looks.

    ```python
    from rulesref.counts import Window

    two_coins = Window(0, [1, 3, 4])  # 0, 1, 2 heads: 1, 2, 1 ways
    print(two_coins.fewer(2), two_coins.times([1, 1], 1, 3))  # a third coin
    #> 3 Window(start=1, sums=[4, 7])
    ```
    """

    start: int
    sums: Sequence[int]

    @classmethod
    def of_one(cls, parts: Sequence[Counts], top: int) -> "Window":
        """The window of the number 1 (every running total 1) that `windows_of_all_but_one`
        needs for these parts under `top`."""
        lowered = top - sum(part.low for part in parts)
        start = max(lowered - 1 - sum(len(part.weights) - 1 for part in parts), 0)
        return cls(start, [1] * max(lowered - start, 0))

    def fewer(self, units: int) -> int:
        """The weight of every degree below `units`."""
        index = units - 1 - self.start
        return self.sums[index] if index >= 0 and self.sums else 0

    def times(self, polynomial: Polynomial, start: int, top: int) -> "Window":
        """The window from `start` to `top` (excluded) of the product of this window's
        polynomial and `polynomial`, whose degree is at most `start - self.start` (or this
        window's polynomial has nothing below its start)."""
        low = min(self.start, start)  # below its start, the window's sums are 0
        sums = [0] * (self.start - low) + list(self.sums)
        products = (top - start) * len(polynomial)
        if products <= _SUMS_PER_COEFFICIENT * (len(sums) + len(polynomial)):
            return Window(
                start, [dot(polynomial, sums[k::-1]) for k in range(start - low, top - low)]
            )
        return Window(start, times(sums, polynomial, top - low, start - low))


def windows_of_all_but_one(
    parts: Sequence[Counts], top: int, outer: Window, common: Counts
) -> list[Window]:
    """For each part, the window of the product of all the other parts, of `outer`'s
    polynomial and of `common` (a factor of every product, which needs no window of its
    own; `Counts(0, (1,))` for none), as far as that part needs under the bar `top`: the
    window answers `fewer(top - k)` for every total k of the part. `outer` must reach as
    far below the bar as all the parts and `common` together (`Window.of_one` for none).

    Each window is read at `top - k`, so each is found by halving the list (each half gets
    the other half's product, made once, cut at the bar), not by dividing the whole product.

    ```python
    from rulesref.counts import Counts, Window, windows_of_all_but_one

    coin, die = Counts(0, (1, 1)), Counts(1, (1, 1, 1))  # 0 or 1; 1, 2 or 3
    one = Counts(0, (1,))
    windows = windows_of_all_but_one([coin, die], 3, Window.of_one([coin, die], 3), one)
    print(windows[0].fewer(3 - 0), windows[1].fewer(3 - 1))  # die below 3; coin below 2
    #> 2 2
    ```
    """
    shift = sum(part.low for part in parts) + common.low
    if top <= shift or not outer.sums:
        return [Window(0, [])] * len(parts)  # every total reaches the bar
    lowered = top - shift
    if common.weights != (1,):
        reach = sum(len(part.weights) - 1 for part in parts)
        outer = outer.times(common.weights, max(lowered - 1 - reach, 0), lowered)
    windows = _halving([part.weights for part in parts], lowered, outer)
    return [
        Window(window.start + shift - part.low, window.sums)
        for window, part in zip(windows, parts, strict=True)
    ]


def _halving(parts: Sequence[Polynomial], top: int, outer: Window) -> list[Window]:
    """`windows_of_all_but_one` for polynomials (totals from 0)."""
    reaches = [len(part) - 1 for part in parts]
    ends = list(accumulate((len(part) for part in parts), initial=0))
    products: dict[tuple[int, int], Polynomial] = {}

    def product_of(low: int, high: int) -> Polynomial:
        if (low, high) not in products:
            middle = middle_of(ends, low, high)
            products[low, high] = (
                parts[low][:top]
                if high - low == 1
                else times(product_of(low, middle), product_of(middle, high), top)
            )
        return products[low, high]

    def start(low: int, high: int) -> int:
        return max(top - 1 - sum(reaches[low:high]), 0)

    def down(low: int, high: int, outer: Window) -> list[Window]:
        if high - low == 1:
            return [outer]
        middle = middle_of(ends, low, high)
        left = outer.times(product_of(middle, high), start(low, middle), top)
        right = outer.times(product_of(low, middle), start(middle, high), top)
        return down(low, middle, left) + down(middle, high, right)

    return down(0, len(parts), outer)
