"""Counts at an offset (`rulesref.counts`) against the schoolbook product of polynomials."""

from hypothesis import example, given
from hypothesis import strategies as st

from rulesref.counts import Counts, binomial, divided, polynomial_product, product

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
