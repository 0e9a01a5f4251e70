"""The exact dice core against brute-force enumeration of every roll."""

from collections import Counter
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sympy import Rational

from rulesref.dice import (
    D6,
    FACES,
    chance_at_least,
    chance_at_most,
    convolve,
    power_counts,
    sum_counts,
    total_counts,
    with_rerolls,
)
from rulesref.errors import RulesError


def rolls(dice):
    return list(product(FACES, repeat=dice))


def test_total_counts_match_enumeration():
    for dice in range(0, 5):
        counts = [0] * (6 * dice + 1)
        for roll in rolls(dice):
            counts[sum(roll)] += 1
        assert total_counts(dice) == tuple(counts)


def test_chances_match_enumeration():
    for dice in (1, 2, 3):
        everything = rolls(dice)
        for target in range(-2, 6 * dice + 3):
            at_most = sum(1 for roll in everything if sum(roll) <= target)
            at_least = sum(1 for roll in everything if sum(roll) >= target)
            assert chance_at_most(target, dice=dice) == Rational(at_most, len(everything))
            assert chance_at_least(target, dice=dice) == Rational(at_least, len(everything))


def test_chances_are_exact_rationals():
    assert isinstance(chance_at_most(5, dice=2), Rational)
    assert chance_at_most(5, dice=2) == Rational(5, 18)


def test_rerolls_match_enumeration():
    """A 4+ with one re-roll: enumerate the first die and the re-roll."""
    passes = sum(1 for first, second in rolls(2) if first >= 4 or second >= 4)
    assert with_rerolls(chance_at_least(4, dice=1)) == Rational(passes, 36)
    assert with_rerolls(Rational(1, 2), 0) == Rational(1, 2)


@given(st.fractions(min_value=0, max_value=1), st.integers(min_value=0, max_value=5))
def test_rerolls_never_lower_a_chance(p, rerolls):
    chance = Rational(p.numerator, p.denominator)
    assert chance <= with_rerolls(chance, rerolls) <= 1
    assert with_rerolls(chance, rerolls) <= with_rerolls(chance, rerolls + 1)


def test_power_counts_match_enumeration():
    """The packed big-integer power against the plain enumeration of every roll."""
    for dice in range(0, 60):
        assert power_counts((0, 1, 2, 3, 4, 5), dice) == total_counts(dice)[dice:]
    faces = (0, 0, 1, 2, 3, 4)  # a d6 - 2 whose negative results count as 0
    for dice in range(0, 5):
        sums = Counter(sum(roll) for roll in product(faces, repeat=dice))
        assert power_counts(faces, dice) == tuple(sums[s] for s in range(4 * dice + 1))


def test_convolve_is_the_product_of_polynomials():
    assert convolve([1, 2], [3, 0, 1]) == [3, 6, 1, 2]
    big = [6**40, 1, 6**40]  # coefficients far larger than a machine word
    assert convolve(big, big) == [6**80, 2 * 6**40, 2 * 6**80 + 1, 2 * 6**40, 6**80]


@given(st.lists(st.sampled_from([D6, (1, 1, 1, 1, 1, 1), (-1, 0, 0, 1, 2, 3)]), max_size=4))
def test_sum_counts_match_enumeration(dice):
    lowest, counts = sum_counts(dice)
    totals = Counter(sum(roll) for roll in product(*dice))
    assert lowest == min(totals)
    assert counts == [totals[lowest + i] for i in range(len(counts))]
    assert sum(counts) == 6 ** len(dice)


def test_many_dice_need_no_recursion():
    assert sum(total_counts(2000)) == 6**2000


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: chance_at_most(3, dice=-1), "dice"),
        (lambda: chance_at_least(3, dice=2.0), "dice"),
        (lambda: chance_at_most("3", dice=2), "target"),
        (lambda: with_rerolls(Rational(1, 2), -1), "rerolls"),
        (lambda: with_rerolls(0.5), "chance"),
        (lambda: with_rerolls(Rational(3, 2)), "chance"),
    ],
)
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(RulesError, match=f"^{name} must be"):
        call()
