"""The exact dice core against brute-force enumeration of every roll."""

from collections import Counter
from fractions import Fraction
from itertools import accumulate, product

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from sympy import Rational

from rulesref import dice as core
from rulesref.counts import power
from rulesref.dice import (
    D6,
    FACES,
    MAX_COUNT_BITS,
    MAX_DICE,
    MAX_FACE,
    convolve,
    passes_probability,
    power_counts,
    probability_at_least,
    probability_at_most,
    probability_of,
    probability_of_rolls,
    sum_counts,
    total_counts,
    ways_at_most,
    with_rerolls,
    with_rerolls_up_to,
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
            assert probability_at_most(target, dice=dice) == Rational(at_most, len(everything))
            assert probability_at_least(target, dice=dice) == Rational(at_least, len(everything))


def test_chances_are_exact_rationals():
    assert isinstance(probability_at_most(5, dice=2), Rational)
    assert probability_at_most(5, dice=2) == Rational(5, 18)


def test_rerolls_match_enumeration():
    """A 4+ with one re-roll: enumerate the first die and the re-roll."""
    passes = sum(1 for first, second in rolls(2) if first >= 4 or second >= 4)
    assert with_rerolls(probability_at_least(4, dice=1)) == Rational(passes, 36)
    assert with_rerolls(Rational(1, 2), 0) == Rational(1, 2)


def test_a_row_of_rerolls_matches_enumeration():
    """Each target of one d6 with 0 to 3 re-rolls: every roll of the die and its re-rolls
    enumerated, a pass if any of them makes the target."""
    for target in range(1, 8):
        row = with_rerolls_up_to(Rational(sum(f >= target for f in FACES), 6), 3)
        for rerolls, got in enumerate(row):
            tries = rolls(rerolls + 1)
            passes = sum(1 for roll in tries if max(roll) >= target)
            assert got == Rational(passes, len(tries)) and isinstance(got, Rational)


@given(st.fractions(min_value=0, max_value=1, max_denominator=10**6), st.integers(0, 40))
@example(Fraction(0), 3).via("never passes")
@example(Fraction(1), 3).via("always passes")
def test_a_row_of_rerolls_is_with_rerolls_for_each(p, rerolls):
    """The row is `with_rerolls` for each number of re-rolls, in lowest terms as a gcd
    would leave it, and made again when asked again."""
    passes = Rational(p.numerator, p.denominator)
    row = with_rerolls_up_to(passes, rerolls)
    assert len(row) == rerolls + 1 and row[0] == passes
    for number, got in enumerate(row):
        expected = with_rerolls(passes, number)
        assert (got.p, got.q) == (expected.p, expected.q)
    assert with_rerolls_up_to(passes, rerolls) == row


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


def _naive_product(a: list[int], b: list[int]) -> list[int]:
    result = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            result[i + j] += x * y
    return result


@given(
    st.lists(st.integers(-(2**70), 2**70), min_size=1, max_size=300),
    st.lists(st.integers(-(2**70), 2**70), min_size=1, max_size=300),
)
@example([255] * 255, [255] * 255).via("every coefficient as wide as the bound allows")
@example([2**64 - 1] * 300, [2**64 - 1] * 300)
@example([-255] * 255, [255] * 255).via("as wide, and negative")
@example([-(2**64)] * 300, [-(2**64)] * 300).via("a negative times a negative")
@example([-1, 0, 1], [1]).via("a negative field beside a zero one")
@example([1, -128], [-128, 1]).via("a field's sign bit is the coefficient's sign")
@example([-255] * 127, [255] * 127).via("a product past a quarter of its field")
def test_convolve_matches_the_schoolbook_product(a, b):
    assert convolve(a, b) == _naive_product(a, b)


def test_probability_of_names_what_it_refuses():
    with pytest.raises(RulesError, match="^ways must be a whole number from 0 to 36, got 37$"):
        probability_of(37, dice=2)
    with pytest.raises(RulesError, match="^dice must be a whole number from 0 to 10000, got -1$"):
        probability_of(1, dice=-1)


def test_sum_counts_takes_as_many_dice_as_allowed():
    assert sum(sum_counts([D6] * MAX_DICE).weights) == 6**MAX_DICE
    with pytest.raises(RulesError, match="^dice must be a sequence of 0 to 10000 items"):
        sum_counts([D6] * (MAX_DICE + 1))


@given(st.lists(st.sampled_from([D6, (1, 1, 1, 1, 1, 1), (-1, 0, 0, 1, 2, 3)]), max_size=4))
def test_sum_counts_match_enumeration(dice):
    lowest, counts = sum_counts(dice).low, sum_counts(dice).weights
    totals = Counter(sum(roll) for roll in product(*dice))
    assert lowest == min(totals)
    assert counts == tuple(totals[lowest + i] for i in range(len(counts)))
    assert sum(counts) == 6 ** len(dice)


def test_many_dice_need_no_recursion():
    assert sum(total_counts(2000)) == 6**2000


# --- each kernel against enumeration and against another kernel ---------------------

D6_SHAPE = tuple(face - 1 for face in D6)


def test_every_kernel_matches_enumeration():
    for dice in range(0, 5):
        sums = Counter(sum(roll) for roll in product(D6_SHAPE, repeat=dice))
        counts = tuple(sums[s] for s in range(5 * dice + 1))
        assert core._d6_power(dice) == core._packed_power(D6_SHAPE, dice) == counts
        tails = list(accumulate(counts))
        assert [core._lower_tail(over, dice) for over in range(5 * dice + 1)] == tails


@given(st.integers(min_value=0, max_value=300))
@example(0).via("no dice")
@example(1).via("one die")
@example(core._KEPT).via("the last kept")
@example(core._KEPT + 1).via("the first not kept")
def test_the_recurrence_agrees_with_the_packed_product(dice):
    assert core._d6_power(dice) == core._packed_power(D6_SHAPE, dice)
    assert power_counts(D6_SHAPE, dice) == core._d6_power(dice)


@given(st.integers(min_value=0, max_value=260), st.integers(min_value=-10, max_value=1570))
@example(0, 0).via("no dice, total 0")
@example(0, -1).via("no dice, below")
@example(1, 0).via("one die, below its lowest")
@example(1, 1).via("one die, its lowest")
@example(1, 6).via("one die, its highest")
@example(1, 7).via("one die, above")
@example(core._KEPT + 1, core._KEPT).via("below the lowest")
@example(core._KEPT + 1, core._KEPT + 1).via("the lowest")
@example(core._KEPT + 1, 6 * core._KEPT + 5).via("one below the highest")
@example(core._KEPT + 1, 6 * core._KEPT + 6).via("the highest")
@example(core._KEPT + 1, 7 * core._KEPT // 2 + 3).via("the middle")
@example(259, 906).via("the middle of an odd spread")
def test_a_single_tail_agrees_with_the_whole_distribution(dice, target):
    """The closed form (many dice) or the kept sums (few) against the packed product."""
    counts = (0,) * dice + core._packed_power(D6_SHAPE, dice)
    expected = sum(counts[: max(target + 1, 0)])
    assert ways_at_most(target, dice=dice) == expected
    assert probability_at_most(target, dice=dice) == Rational(expected, 6**dice)
    assert probability_at_least(target + 1, dice=dice) == 1 - Rational(expected, 6**dice)


def test_the_tail_and_the_recurrence_agree_for_a_thousand_dice():
    tails = list(accumulate(total_counts(1000)))
    for target in (1000, 1001, 2500, 3499, 3500, 3501, 5999, 6000):
        assert ways_at_most(target, dice=1000) == tails[target]


def test_many_dice_questions_leave_the_caches_as_they_were():
    """Memory stays flat: counts beyond the kept sizes are never cached."""
    probability_at_most(3, dice=1)
    before = core._kept_power.cache_info().currsize, core._kept_at_most.cache_info().currsize
    for dice in range(core._KEPT + 1, core._KEPT + 60):
        probability_at_most(3 * dice, dice=dice)
        power_counts(D6_SHAPE, dice)
    after = core._kept_power.cache_info().currsize, core._kept_at_most.cache_info().currsize
    assert after == before
    assert core._kept_power.cache_info().maxsize and core._kept_at_most.cache_info().maxsize


def test_the_most_dice_answer_exactly():
    assert probability_at_most(3, dice=MAX_DICE) == 0
    assert probability_at_least(6 * MAX_DICE, dice=MAX_DICE) == Rational(1, 6**MAX_DICE)
    assert probability_at_most(6 * MAX_DICE - 1, dice=MAX_DICE) == 1 - Rational(1, 6**MAX_DICE)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: probability_at_most(3, dice=-1), "dice"),
        (lambda: probability_at_least(3, dice=2.0), "dice"),
        (lambda: probability_at_most("3", dice=2), "target"),
        (lambda: probability_at_least(3, dice=10**9), "dice"),
        (lambda: probability_at_least(3, dice=None), "dice"),
        (lambda: probability_at_least(None, dice=3), "target"),
        (lambda: probability_at_least(-(10**9), dice=3), "target"),
        (lambda: probability_at_most(3, dice=True), "dice"),
        (lambda: ways_at_most(3, dice=MAX_DICE + 1), "dice"),
        (lambda: total_counts(-1), "dice"),
        (lambda: total_counts(None), "dice"),
        (lambda: power_counts(D6_SHAPE, 10**9), "dice"),
        (lambda: sum_counts([D6] * (MAX_DICE + 1)), "dice"),
        (lambda: with_rerolls(Rational(1, 2), -1), "rerolls"),
        (lambda: with_rerolls(0.5), "probability"),
        (lambda: with_rerolls(Rational(3, 2)), "probability"),
        (lambda: with_rerolls_up_to(Rational(1, 2), -1), "rerolls"),
        (lambda: with_rerolls_up_to(Rational(1, 2), True), "rerolls"),
        (lambda: with_rerolls_up_to(0.5, 2), "probability"),
        (lambda: with_rerolls_up_to(Rational(-1, 2), 2), "probability"),
    ],
)
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(RulesError, match=f"^{name} must be"):
        call()


@given(st.integers(0, 4))
@example(2)
def test_power_counts_of_a_die_with_repeated_faces_match_enumeration(dice):
    # a die with repeated faces (a coin as 0,0,0,1,1,1) goes through the packed kernel,
    # which must count each repeated face once per side that shows it
    shape = (0, 0, 0, 1, 1, 1)
    expected = [0] * (dice + 1)
    for roll in product(shape, repeat=dice):
        expected[sum(roll)] += 1
    assert power_counts(shape, dice) == tuple(expected)


@given(st.integers(0, 6**300), st.sampled_from([2, 3, 5]))
@example(0, 3).via("no factor to take out of 0")
@example(2**5 * 3, 2)
def test_the_python_fallback_removes_factors_as_gmpy2_does(number, factor):
    from gmpy2 import remove

    from rulesref.exact import _remove

    rest, times = _remove(number, factor)
    assert (rest, times) == tuple(map(int, remove(number, factor)))


# --- limits on the work: an answer, or a refusal that names the limit, up front -------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: convolve([1.5], [2]), r"^a\[0\] must be a whole number, got 1.5$"),
        (lambda: convolve([], [1]), r"^a must be a sequence of 1 to"),
        (lambda: convolve([1], "12"), r"^b must be a sequence of 1 to"),
        (lambda: convolve([2**10**6] * 300, [1]), r"^a and b must make counts of at most"),
        (lambda: power_counts((-1, 0), 2), r"^the lowest face of shape must be 0, got -1$"),
        (lambda: power_counts((1, 2), 2), r"^the lowest face of shape must be 0, got 1$"),
        (lambda: power_counts((0, 10**9), 2), r"^the highest face of shape must be"),
        (lambda: power_counts((0, 60_000), 9000), r"^shape and dice must make counts of at most"),
        (lambda: power_counts((), 2), r"^shape must be a sequence of 1 to"),
        (lambda: sum_counts([(1, 2, 3)]), r"^dice\[0\] must be a sequence of 6 to 6 items"),
        (lambda: sum_counts([D6, (0.5,) * 6]), r"^dice\[1\]\[0\] must be a whole number"),
        (lambda: sum_counts([D6, (0, 0, 0, 0, 0, 10**6)]), r"^the highest face of dice\[1\]"),
        (lambda: sum_counts(["123456"]), r"^dice\[0\] must be a sequence"),
        (
            lambda: sum_counts([(0, 0, 0, 0, 0, 60_000)] * 2000),
            r"^dice must make counts of at most 134,217,728 bits",
        ),
        (
            lambda: with_rerolls(Rational(1, 10**1000), 10_000),
            r"^rerolls must keep the answer within 1,048,576 bits, got 10,000 re-rolls",
        ),
        (
            lambda: with_rerolls_up_to(Rational(1, 6), 1000),
            r"^rerolls must keep the answers within 1,048,576 bits, got 1,000 re-rolls",
        ),
    ],
)
def test_work_past_the_limits_is_refused_up_front(call, message):
    with pytest.raises(RulesError, match=message):
        call()


def test_many_different_dice_are_multiplied_by_halving():
    """1,500 dice of 150 different shapes: a product tree, not 1,500 products onto a
    growing one; the counts still add up to every roll, from the lowest (an odd die shows
    its lowest, 1, on two faces) to the highest."""
    dice = [(n % 2, 1, 2, 3, 4 + n % 10, 5 + n % 15) for n in range(1500)]
    counts = sum_counts(dice)
    assert counts.low == sum(n % 2 for n in range(1500)) and sum(counts.weights) == 6**1500
    assert counts.weights[0] == 2**750 and counts.high == sum(max(die) for die in dice)


@given(st.integers(1, 2000), st.integers(0, 59_999))
@example(1, MAX_FACE - 1).via("the widest die")
@example(2000, 5).via("the battle's most dice")
def test_dice_near_the_limit_are_answered_or_refused_by_name(dice, face):
    """Faces 0 to 4 and `face`: counted (adding up to every roll), or refused by the limit
    on the size of the counts, before any work."""
    shape = (0, 1, 2, 3, 4, face + 1)
    totals = (face + 1) * dice + 1
    if totals * 3 * dice > MAX_COUNT_BITS:
        with pytest.raises(RulesError, match="^shape and dice must make counts of at most"):
            power_counts(shape, dice)
    elif totals * 3 * dice < 2**24:  # a few MB at most, in a test
        assert sum(power_counts(shape, dice)) == 6**dice


@given(st.fractions(min_value=0, max_value=1, max_denominator=10**9), st.integers(0, 200))
def test_rerolls_are_in_lowest_terms_as_a_gcd_would_leave_them(p, rerolls):
    passes = Rational(p.numerator, p.denominator)
    expected = 1 - (1 - passes) ** (rerolls + 1)
    got = with_rerolls(passes, rerolls)
    assert (got.p, got.q) == (expected.p, expected.q)


@given(st.integers(0, 6**400), st.integers(0, 3000))
@example(3**1024, 0).via("a power of 3 that is a power of 2 times")
@example(0, 5).via("no ways")
def test_the_python_fallback_takes_out_many_3s_and_2s(number, threes):
    from gmpy2 import remove

    from rulesref.exact import _remove

    for factor in (2, 3):
        multiple = number * factor**threes
        assert _remove(multiple, factor) == tuple(map(int, remove(multiple, factor)))


@given(st.integers(0, 12), st.integers(0, 13), st.fractions(0, 1, max_denominator=40))
@example(0, 0, Fraction(0)).via("no tests, at least none")
@example(3, 3, Fraction(1)).via("every test passes surely")
@example(3, 1, Fraction(0)).via("no test can pass")
def test_passes_probability_matches_the_sum_over_every_outcome(tests, at_least, p):
    """At least k of n tests: against the sum over every pattern of passes and failures."""
    passes = Rational(p.numerator, p.denominator)
    if at_least > tests:
        with pytest.raises(RulesError, match="^at_least must be"):
            passes_probability(at_least, tests=tests, probability=passes)
        return
    expected = sum(
        (
            passes ** sum(pattern) * (1 - passes) ** (tests - sum(pattern))
            for pattern in product((0, 1), repeat=tests)
            if sum(pattern) >= at_least
        ),
        Rational(0),
    )
    assert passes_probability(at_least, tests=tests, probability=passes) == expected


def test_passes_probability_of_many_tests_agrees_with_the_polynomial_power():
    """750 of 1,000 units passing 4+ with a re-roll (3/4): against (1 + 3x)^1000."""
    weights = power([1, 3], 1000)  # (1 + 3x)^1000 by the packed power
    for at_least in (0, 1, 250, 500, 750, 999, 1000):
        expected = Rational(sum(weights[at_least:]), 4**1000)
        assert passes_probability(at_least, tests=1000, probability=Rational(3, 4)) == expected
    with pytest.raises(RulesError, match="^tests must keep the answer within"):
        passes_probability(1, tests=10_000, probability=Rational(1, 10**200))


def test_small_answers_never_import_gmpy2():
    """The `rulesref` command's small answers (a d6 test, a Break test) need no big
    numbers: gmpy2, slow to import, is only imported when a big-number operation is used."""
    import subprocess
    import sys

    code = (
        "import sys; from rulesref import dice; from rulesref.exact import Rational; "
        "dice.with_rerolls(dice.probability_at_least(4, dice=1), 3); "
        "dice.probability_at_most(5, dice=2); assert 'gmpy2' not in sys.modules; "
        "dice.probability_at_most(3000, dice=1000); print('gmpy2' in sys.modules)"
    )
    env = {"RULESREF_FRACTIONS": "1", "PATH": ""}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "True"  # 1,000 dice: the tail's big numbers use it


@pytest.mark.parametrize(
    "kinds, top, answered",
    [
        (27, 60_000, False),  # 1.6 million totals in 5 rounds: 4 s and 205 MB before
        (27, 12_000, True),  # 0.3 million totals in 5 rounds: under a second
        (2, 60_000, True),  # one round
    ],
)
def test_dice_of_many_kinds_are_bounded_by_the_rounds_of_their_product(kinds, top, answered):
    """Dice of many kinds are multiplied by halving, each round laying out every total: the
    totals over the rounds are bounded, so a product that would take seconds is refused at
    once, and one of many dice with narrow faces (few totals) is not."""
    dice = [(0, 1, 2, 3, 4, top - kind) for kind in range(kinds)]
    if answered:
        assert sum(sum_counts(dice).weights) == 6**kinds
    else:
        with pytest.raises(RulesError, match="^dice must make at most .* in 5 rounds"):
            sum_counts(dice)


@pytest.mark.parametrize(
    "ways, rolls, message",
    [
        (5, 0, "rolls must be a whole number from 1 to 6**10000 with no prime factor but 2 and 3"),
        (1, 10, "rolls must be a whole number from 1 to 6**10000 with no prime factor but 2 and 3"),
        pytest.param(1, 6**10_001, "rolls must be a whole number from 1 to 6**10000", id="huge"),
        (1, 36.0, "rolls must be a whole number from 1 to 6**10000"),
        (7, 6, "ways must be a whole number from 0 to rolls, got 7"),
        (-1, 6, "ways must be a whole number from 0 to rolls, got -1"),
        (True, 6, "ways must be a whole number from 0 to rolls, got True"),
    ],
)
def test_probability_of_rolls_refuses_what_is_no_count_of_rolls(ways, rolls, message):
    with pytest.raises(RulesError) as refusal:
        probability_of_rolls(ways, rolls)
    assert str(refusal.value).startswith(message)


@given(st.integers(0, 40), st.integers(0, 40), st.data())
def test_probability_of_rolls_is_the_fraction_in_lowest_terms(twos, threes, data):
    rolls = 2**twos * 3**threes
    ways = data.draw(st.integers(0, rolls))
    assert probability_of_rolls(ways, rolls) == Rational(ways, rolls)
    assert probability_of_rolls.unchecked(ways, rolls) == Rational(ways, rolls)
