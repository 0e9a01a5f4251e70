"""Counts at an offset (`rulesref.counts`) against the schoolbook product of polynomials."""

import operator
import random
import sys

import gmpy2
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rulesref import counts as counts_module
from rulesref import exact
from rulesref.counts import (
    Counts,
    Window,
    _Fields,
    all_but_one,
    binomial,
    correlation,
    divided,
    dot,
    polynomial_product,
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
def test_packed_products_are_the_schoolbook_product(pair, start, stop):
    """Kronecker substitution at x = 256**width: the fields just wide enough (convolve's
    room), whatever the signs; any window of the product read alone."""
    a, b = pair
    bits = max(map(abs, a + b)).bit_length() * 2 + min(len(a), len(b)).bit_length()
    kept = range(len(a) + len(b) - 1)[start:stop]
    expected = _schoolbook(a, b)[start:stop]
    fields = _Fields.holding(bits)
    assert fields.signed_product(a, b, kept) == expected
    if min(a) >= 0 and min(b) >= 0:
        assert fields.product(a, b, kept) == expected


@given(signed(40, 30), signed(40, 30), st.integers(0, 70), st.integers(0, 70) | st.none())
@example([1, 2, 3], [1] * 10, 11, None).via("only the top of the longer one reaches")
@example([1, 2, 3], [4, 5, 6, 7], 4, 5).via("both cut from below")
@example([1, 2, 3], [2, 2], 1, 3).via("a number times 1 + x, cut")
@example([1] * 5, [7], 2, 4).via("a number, cut")
def test_times_from_start_below_top_is_that_window_of_the_product(a, b, start, top):
    """Only the coefficients that reach the window take part (cut from above and below)."""
    assert times(a, b, top, start) == _schoolbook(a, b)[start:top]


class _JavaScript:
    """A stand-in for Pyodide's `js` module: `Function.new` gives the function whose body
    it is given, worked out on the hexadecimal text it is passed (the real one, BigInt's,
    answers the same force in the page: tests/test_workbench.py `riding_leaders`)."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.Function = self

    def new(self, *parameters_and_body: str):
        body = parameters_and_body[-1]

        def function(a: str, b) -> str:  # on GMP's integers, as quick as BigInt's
            self.calls.append(body)
            left = gmpy2.mpz(a, 16)
            return format(left * gmpy2.mpz(b, 16) if " * " in body else left**b, "x")

        return function


@pytest.fixture
def javascript(monkeypatch: pytest.MonkeyPatch) -> _JavaScript:
    """rulesref.counts as in the browser: no gmpy2, products by `js` (the stand-in)."""
    js = _JavaScript()
    monkeypatch.setitem(sys.modules, "js", js)
    multiply, power_of = exact._javascript_products()
    monkeypatch.setattr(counts_module, "mpz", int)
    monkeypatch.setattr(counts_module, "multiply", multiply)
    monkeypatch.setattr(counts_module, "power_of", power_of)
    return js


def test_in_the_browser_long_products_cross_to_javascript_and_back(javascript):
    """Either side of `JAVASCRIPT_BITS`, any signs: the product is Python's, and only the
    long ones cross."""
    multiply, power_of = counts_module.multiply, counts_module.power_of
    bar = exact.JAVASCRIPT_BITS
    for left_bits, right_bits in [(2**15, 2**16), (2**15, 2**16 - 1), (2**11, 2**20), (64, 2**24)]:
        bits = random.Random(left_bits + right_bits).getrandbits
        left = bits(left_bits) | 1 << (left_bits - 1)  # its bits exactly
        right = bits(right_bits) | 1 << (right_bits - 1)
        for a, b in [(left, right), (-left, right), (left, -right), (-left, -right)]:
            crossed = len(javascript.calls)
            assert multiply(a, b) == a * b
            assert len(javascript.calls) - crossed == (left_bits * right_bits >= bar)
    assert multiply(0, 2**(2**20)) == 0
    for base, n in [(3**1000, 46), (3**1000, 47), (-(3**1000), 47), (-(3**1000), 48)]:
        crossed = len(javascript.calls)
        assert power_of(base, n) == base**n
        assert len(javascript.calls) - crossed == ((base.bit_length() * n // 2) ** 2 >= bar)


def test_where_javascript_cannot_be_reached_products_are_pythons(monkeypatch):
    """A host whose policy forbids JavaScript's `Function`: Python's own, the same."""

    class Forbidden(_JavaScript):
        def new(self, *parameters_and_body: str):
            raise RuntimeError("EvalError: Refused to evaluate a string as JavaScript")

    monkeypatch.setitem(sys.modules, "js", Forbidden())
    assert exact._javascript_products() == (operator.mul, pow)
    monkeypatch.delitem(sys.modules, "js")
    monkeypatch.setattr(exact.importlib, "import_module", lambda name: 1 / 0)
    assert exact._javascript_products() == (operator.mul, pow)


def test_a_cascade_through_javascript_products_is_the_cascade_through_gmp(javascript):
    """A re-roll-heavy force (ten re-rolls everywhere, three leaders riding in each
    command's units), whose long products cross to JavaScript in the page: the same
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
    crossed = len(javascript.calls)
    through_javascript = cascade_probabilities(force, casualties)
    assert len(javascript.calls) - crossed >= 10
    with pytest.MonkeyPatch.context() as gmp:
        gmp.setattr(counts_module, "mpz", exact.mpz)
        gmp.setattr(counts_module, "multiply", exact.multiply)
        gmp.setattr(counts_module, "power_of", exact.power_of)
        assert cascade_probabilities(force, casualties) == through_javascript
    assert 0 < through_javascript.force_breaks < 1


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
