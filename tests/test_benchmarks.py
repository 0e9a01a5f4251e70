"""A smoke test of benchmarks/compare.py and benchmarks/kernels.py: rulesref's side of
every question runs and is sound. (The comparison with icepool, dyce and FLINT needs the
`bench` extra; it is not run here.)"""

import sys
from fractions import Fraction
from pathlib import Path

from sympy import Rational

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import compare  # noqa: E402
import kernels  # noqa: E402


def test_every_question_is_answered_by_rulesref():
    for question, (function, libraries) in compare.QUESTIONS.items():
        assert "rulesref" in libraries
        assert compare._canonical(function("rulesref")), question


def test_the_small_tables_are_the_kernels_cell_by_cell():
    """rulesref answers the two small tables with its tables and rows of re-rolls: each
    cell, in the question's order, is the public function's answer for that cell."""
    from rulesref.break_test import break_test_probability
    from rulesref.leadership import leadership_test_probability

    cells = [
        break_test_probability(ld, by, reroll=reroll)
        for reroll in (False, True)
        for ld in compare.LEADERSHIP
        for by in compare.LOST_BY
    ]
    assert compare.break_table("rulesref") == cells
    d6 = [leadership_test_probability(t, rerolls=r) for t in range(2, 7) for r in range(11)]
    assert compare.d6_leadership("rulesref") == d6
    assert all(isinstance(p, Rational) for p in cells + compare.d6_leadership("rulesref"))


def test_the_difference_of_two_sums_is_a_symmetric_distribution():
    lowest, *counts = compare.difference(20)("rulesref")
    assert lowest == -100 and len(counts) == 201
    assert sum(counts) == 6**40 and counts == counts[::-1]


def test_the_tails_are_exact_fractions_of_all_rolls():
    numerator, denominator = compare.tail(1000, 3400)("rulesref")
    assert 0 < numerator < denominator and 6**1000 % denominator == 0
    assert compare.tail(10_000, 3)("rulesref") == (0, 1)


def test_battle_hits_are_distributions():
    """CA-13: each side's hits are a probability distribution."""
    for hits in compare.battle_hits("rulesref").values():
        assert sum(hits.values()) == 1


def test_equal_exact_answers_compare_equal_across_libraries():
    assert compare._canonical([Rational(1, 2)]) == compare._canonical([Fraction(2, 4)])
    assert compare._canonical((-5, 2**100)) == compare._canonical([-5, 2**100])
    assert compare._canonical((-5, 2**100)) != compare._canonical((-5, 2**100 + 1))
    assert compare._canonical((1, 256)) != compare._canonical((256, 1))


def test_the_kernel_benchmark_runs():
    assert kernels.seconds(kernels.many_questions, 0, 5) >= 0
