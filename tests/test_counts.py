"""Counts at an offset (`rulesref.counts`) against the schoolbook product of polynomials."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rulesref import counts as counts_module
from rulesref.counts import (
    _DECIMAL_BITS,
    _DECIMAL_FACTOR,
    Counts,
    Window,
    _Bytes,
    _Digits,
    all_but_one,
    binomial,
    convolve,
    correlation,
    divided,
    dot,
    polynomial_product,
    power,
    product,
    times,
    windows_of_all_but_one,
)
from rulesref.leadership import Command, Doctrine, Force, Leader, Unit
from rulesref.odds.cascade import cascade_probabilities

weights = st.lists(st.integers(0, 2**80), min_size=1, max_size=40).map(tuple)
counts = st.builds(Counts, st.integers(-50, 50), weights)


def naive(a: Counts, b: Counts) -> dict[int, int]:
    """The weight of each total of the sum, over every pair of totals."""
    totals: dict[int, int] = {}
    for i, x in enumerate(a.weights, a.low):
        for j, y in enumerate(b.weights, b.low):
            totals[i + j] = totals.get(i + j, 0) + x * y
    return totals


def as_dict(c: Counts) -> dict[int, int]:
    return dict(enumerate(c.weights, c.low))


@given(counts, counts)
@example(Counts(0, (1,)), Counts(-3, (0, 0, 5)))
@example(Counts(2, (7, 7, 7)), Counts(0, (1, 2))).via("a number times 1 + x + x^2")
def test_times_is_the_sum_of_independent_totals(a, b):
    assert as_dict(a.times(b)) == naive(a, b)
    assert a.times(b) == b.times(a)


@given(counts, counts, st.integers(-120, 120))
def test_a_window_keeps_the_totals_below_the_bar(a, b, top):
    windowed = a.times(b, top)
    assert windowed.low == a.low + b.low
    assert as_dict(windowed) == {k: w for k, w in naive(a, b).items() if k < top}


@given(st.lists(counts, max_size=6))
def test_a_product_by_halving_equals_one_at_a_time(many):
    one_at_a_time = Counts(0, (1,))
    for each in many:
        one_at_a_time = one_at_a_time.times(each)
    assert product(many) == one_at_a_time


@given(counts, st.integers(0, 6))
def test_a_power_is_a_repeated_product(c, n):
    repeated = Counts(0, (1,))
    for _ in range(n):
        repeated = repeated.times(c)
    assert c.power(n) == repeated


@given(counts, counts)
def test_plus_adds_total_by_total(a, b):
    expected = dict(as_dict(a))
    for k, w in as_dict(b).items():
        expected[k] = expected.get(k, 0) + w
    total = a.plus(b)
    assert as_dict(total) == {k: expected.get(k, 0) for k in range(total.low, total.high + 1)}
    assert total.total == a.total + b.total


@given(counts, st.integers(-60, 60))
def test_stripped_shifted_and_below_keep_every_weight_in_place(c, by):
    assert {k: w for k, w in as_dict(c.stripped()).items() if w} == {
        k: w for k, w in as_dict(c).items() if w
    }
    assert as_dict(c.shifted(by)) == {k + by: w for k, w in as_dict(c).items()}
    assert as_dict(c.below(by)) == {k: w for k, w in as_dict(c).items() if k < by}


def test_faces_are_counted_once_per_side():
    assert Counts.of_faces((0, 0, 0, 1, 1, 1)) == Counts(0, (3, 3))
    assert Counts.of_faces((-6, -1)) == Counts(-6, (1, 0, 0, 0, 0, 1))


@given(st.integers(1, 36), st.integers(0, 36), st.integers(0, 30))
def test_a_binomial_is_a_power_and_divides_out_exactly(hold, fail, count):
    power = Counts(0, (hold, fail)).power(count).weights
    assert tuple(binomial(hold, fail, count)) == power[: count + 1] + (0,) * (
        count + 1 - len(power)
    )
    if count:
        assert divided(binomial(hold, fail, count), hold, fail) == binomial(hold, fail, count - 1)


@given(st.lists(st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=20), max_size=5))
def test_signed_products_by_halving(polynomials):
    expected = Counts(0, (1,))
    for each in polynomials:
        expected = Counts(0, tuple(_schoolbook(expected.weights, each)))
    assert tuple(polynomial_product(polynomials)) == expected.weights


def _schoolbook(a, b):
    result = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            result[i + j] += x * y
    return result


def signed(bits: int, length: int) -> st.SearchStrategy[list[int]]:
    """Coefficients of any sign, the largest of `bits` bits at most, an edge often."""
    edge = st.sampled_from([0, 1, -1, 2**bits - 1, 1 - 2**bits])
    return st.lists(edge | st.integers(1 - 2**bits, 2**bits - 1), min_size=1, max_size=length)


@settings(max_examples=60)
@given(
    st.integers(0, 3000).flatmap(lambda bits: st.tuples(signed(bits, 60), signed(bits, 60))),
    st.integers(-130, 130),
    st.integers(-130, 130) | st.none(),
)
@example(([2**3000 - 1] * 60, [2**3000 - 1] * 60), 0, None).via("every field full")
@example(([-(2**3000) + 1] * 60, [2**3000 - 1] * 60), 0, None).via("and as negative")
@example(([0, 0, 1], [5]), 0, None).via("a product whose top fields are 0")
@example(([1, 2, 3], [4, 5]), 1, 3).via("a window of the product")
def test_products_in_bytes_and_in_digits_are_the_schoolbook_product(pair, start, stop):
    """Kronecker substitution at x = 256**width and at x = 10**width: the fields just wide
    enough (convolve's room), whatever the signs; any window of the product read alone."""
    a, b = pair
    bits = max(map(abs, a + b)).bit_length() * 2 + min(len(a), len(b)).bit_length()
    kept = range(len(a) + len(b) - 1)[start:stop]
    expected = _schoolbook(a, b)[start:stop]
    for fields in (_Bytes.holding(bits), _Digits.holding(bits)):
        assert fields.signed_product(a, b, kept) == expected, fields
        if min(a) >= 0 and min(b) >= 0:
            assert fields.product(a, b, kept) == expected, fields


@given(signed(40, 30), signed(40, 30), st.integers(0, 70), st.integers(0, 70) | st.none())
@example([1, 2, 3], [1] * 10, 11, None).via("only the top of the longer one reaches")
@example([1, 2, 3], [4, 5, 6, 7], 4, 5).via("both cut from below")
@example([1, 2, 3], [2, 2], 1, 3).via("a number times 1 + x, cut")
@example([1] * 5, [7], 2, 4).via("a number, cut")
def test_times_from_start_below_top_is_that_window_of_the_product(a, b, start, top):
    """Only the coefficients that reach the window take part (cut from above and below)."""
    assert times(a, b, top, start) == _schoolbook(a, b)[start:top]


@settings(max_examples=20)
@given(st.lists(st.integers(0, 2**64), min_size=1, max_size=8), st.integers(1, 40))
def test_powers_in_digits_are_powers_in_bytes(polynomial, n):
    if not any(polynomial):
        polynomial = [*polynomial[:-1], 1]
    bits = (sum(polynomial) ** n).bit_length()
    assert _Digits.holding(bits).power(polynomial, n) == _Bytes.holding(bits).power(polynomial, n)


def without_gmp(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """rulesref.counts as without gmpy2 (Python's products, decimal's for long ones); the
    names of the fields each product takes."""
    taken: list[str] = []
    choose = counts_module._fields

    def spied(bits: int, length: int, shorter: int) -> object:
        fields = choose(bits, length, shorter)
        taken.append(type(fields).__name__)
        return fields

    monkeypatch.setattr(counts_module, "gmp", lambda: False)
    monkeypatch.setattr(counts_module, "_fields", spied)
    return taken


def test_without_gmp_long_products_go_through_decimal(monkeypatch):
    """Either side of the bits and of the factors' length where decimal takes over, the
    product is the schoolbook one."""
    taken = without_gmp(monkeypatch)
    bits = _DECIMAL_BITS // (3 * _DECIMAL_FACTOR)  # about the threshold with 2 factors
    for shorter in (_DECIMAL_FACTOR - 1, _DECIMAL_FACTOR):
        for width in (bits // 3, bits):
            a = [(7**k) % 2**width - 2 ** (width - 1) for k in range(shorter)]
            b = [(3**k) % 2**width for k in range(2 * shorter)]
            assert convolve(a, b) == _schoolbook(a, b)
            assert (
                convolve(b, [abs(c) for c in a], 5, -5) == _schoolbook(b, [abs(c) for c in a])[5:-5]
            )
    assert taken == ["_Bytes"] * 6 + ["_Digits"] * 2
    half = Counts(0, (1, 2, 3)).power(300)
    assert tuple(power([1, 2, 3], 600)) == half.times(half).weights
    assert taken[-1] == "_Digits"


def test_a_cascade_through_decimal_products_is_the_cascade_through_gmp(monkeypatch):
    """A re-roll-heavy force (ten re-rolls everywhere, three leaders riding in each
    command's units), whose long products go through decimal without gmpy2: the same
    answer, to the last digit."""
    every = Doctrine(10)
    commands, casualties = [], {}
    for c in range(20):
        squads = [Unit(f"u{c}.{k}", 10, 3 + k % 3, doctrine=every) for k in range(10)]
        leaders = [
            Leader(f"l{c}.{k}", 2 + (c + k) % 5, 1 + (3 * c + k) % 9, squads[k].name)
            for k in range(3)
        ]
        commands.append(Command(f"c{c}", squads, leaders, every))
        casualties |= {squad.name: 6 for squad in squads}
    force = Force(commands, doctrine=every)
    through_gmp = cascade_probabilities(force, casualties)
    taken = without_gmp(monkeypatch)
    assert cascade_probabilities(force, casualties) == through_gmp
    assert taken.count("_Digits") >= 10
    assert 0 < through_gmp.force_breaks < 1


def fewer_than(c: Counts, units: int) -> int:
    """The weight of the totals below `units`, one by one."""
    return sum(w for k, w in as_dict(c).items() if k < units)


def running(c: Counts, top: int) -> Window:
    """The whole window of `c` (totals from 0) up to the bar, summed one by one."""
    return Window(0, [fewer_than(c, units) for units in range(1, top + 1)])


losses = st.builds(
    Counts, st.integers(0, 6), st.lists(st.integers(0, 99), min_size=1, max_size=6).map(tuple)
)


@given(st.lists(losses, min_size=1, max_size=7), losses, losses, st.integers(0, 40))
@example([Counts(0, (1, 1))], Counts(0, (1,)), Counts(0, (1,)), 0).via("a bar never missed")
@example([Counts(5, (1,)), Counts(0, (2, 3))], Counts(0, (1,)), Counts(0, (1,)), 4)
@example([Counts(0, (0, 0, 1))] * 3, Counts(0, (1,)), Counts(2, (1, 1)), 9).via("alike parts")
@example([Counts(0, (1,) * 6)] * 2, Counts(0, (1,)), Counts(0, (1,)), 40).via("packed products")
@example([Counts(0, (1, 1))] * 2, Counts(0, (1, 3)), Counts(1, (2,)), 4).via("a number in common")
def test_each_window_holds_the_product_of_all_the_others(parts, outer, common, top):
    """Every entry a part reads, `fewer(top - k)` for each of its totals k below the bar,
    is the weight of the others' product (with `outer` and `common`) below `top - k`."""
    windows = windows_of_all_but_one(parts, top, running(outer, top), common)
    assert len(windows) == len(parts)
    for index, (part, window) in enumerate(zip(parts, windows, strict=True)):
        others = outer.times(common)
        for other in parts[:index] + parts[index + 1 :]:
            others = others.times(other)
        for k in range(part.low, min(part.high, top - 1) + 1):
            assert window.fewer(top - k) == fewer_than(others, top - k), (index, k)


@given(st.lists(losses, min_size=1, max_size=7), st.integers(0, 40))
def test_the_window_of_one_reaches_as_far_as_the_parts_need(parts, top):
    one = Counts(0, (1,))
    from_one = windows_of_all_but_one(parts, top, Window.of_one(parts, top), one)
    from_zero = windows_of_all_but_one(parts, top, running(one, top), one)
    for part, a, b in zip(parts, from_one, from_zero, strict=True):
        read = range(part.low, min(part.high, top - 1) + 1)  # the part's totals
        assert [a.fewer(top - k) for k in read] == [b.fewer(top - k) for k in read]


@given(losses, losses, st.integers(0, 30), st.integers(1, 30))
@example(Counts(0, tuple(range(1, 30))), Counts(0, (3, 1)), 1, 30).via("sums of products")
@example(Counts(0, (1, 2)), Counts(0, tuple(range(1, 30))), 29, 30).via("one packed product")
def test_a_window_times_a_polynomial_is_the_window_of_the_product(c, by, start, width):
    """From a window that starts as far below `start` as the polynomial's degree."""
    whole = running(c, start + width)
    first = max(start - (len(by.weights) - 1), 0)
    window = Window(first, whole.sums[first:])
    result = window.times(list(by.weights), start, start + width)
    expected = c.times(Counts(0, by.weights))
    assert result.start == start
    assert list(result.sums) == [fewer_than(expected, k + 1) for k in range(start, start + width)]


@given(st.lists(st.integers(-(10**30), 10**30), max_size=12))
def test_all_but_one_is_every_product_but_one(values):
    for index, value in enumerate(all_but_one(values)):
        expected = 1
        for other in values[:index] + values[index + 1 :]:
            expected *= other
        assert value == expected


@given(st.lists(st.integers(-99, 99)), st.lists(st.integers(-99, 99)))
def test_dot_stops_at_the_shorter(a, b):
    assert dot(a, b) == sum(a[k] * b[k] for k in range(min(len(a), len(b))))


def test_a_window_answers_zero_below_its_start_and_when_empty():
    assert Window(3, [5, 6]).fewer(3) == 0
    assert Window(3, [5, 6]).fewer(4) == 5
    assert Window(0, []).fewer(7) == 0


@given(
    st.lists(st.integers(-(10**20), 10**20), min_size=1, max_size=12),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=12),
    st.lists(st.integers(-(10**20), 10**20), max_size=30),
)
@example([1, -2, 3], [1] * 9, [5] * 11).via("a long factor, packed")
@example([7], [1] * 8, list(range(8))).via("the longest factor summed directly")
def test_a_dot_with_a_product_is_a_dot_with_the_correlation(a, factor, values):
    values = (values + [0] * 30)[: len(a) + len(factor) - 1]
    assert dot(times(a, factor), values) == dot(a, correlation(factor, values, len(a)))
    assert len(correlation(factor, values, len(a))) == len(a)
