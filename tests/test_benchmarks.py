"""A smoke test of benchmarks/compare.py: rulesref's side of every question runs and is
sound. (The comparison with icepool and dyce needs the `bench` extra; it is not run here.)"""

import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import compare  # noqa: E402


def test_every_question_is_answered_by_rulesref():
    for question, (function, libraries) in compare.QUESTIONS.items():
        assert "rulesref" in libraries
        assert function("rulesref"), question


def test_the_difference_of_two_sums_is_a_symmetric_distribution():
    answer = compare.difference(20)("rulesref")
    assert sum(Fraction(p) for p in answer.values()) == 1
    assert min(answer) == -100 and max(answer) == 100
    assert all(answer[x] == answer[-x] for x in answer)


def test_battle_hits_are_distributions():
    """CA-13: each side's hits are a probability distribution."""
    for hits in compare.battle_hits("rulesref").values():
        assert sum(Fraction(p) for p in hits.values()) == 1
