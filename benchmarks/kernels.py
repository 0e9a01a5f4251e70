"""Time the dice kernels of `rulesref.dice`, and show that their memory stays flat.

- the counts of n d6 (the recurrence), for n = 10 to 10,000;
- one tail of n d6 (inclusion-exclusion), at its worst (the middle) and at an edge;
- the peak memory of a run of many questions, and what is left after them.

    .venv/bin/python benchmarks/kernels.py [--questions 1000]
"""

import argparse
import resource
import time
import tracemalloc

from rulesref.dice import MAX_DICE, probability_at_least, probability_at_most, total_counts

COUNTS = (10, 100, 1000, 10_000)
TAILS = ((1000, 3500), (MAX_DICE, 35_000), (MAX_DICE, 3))


def seconds(function, *args, **keywords) -> float:
    start = time.perf_counter()
    function(*args, **keywords)
    return time.perf_counter() - start


def many_questions(first: int, questions: int) -> None:
    """Questions of every size and target, so that an unbounded cache would grow."""
    for number in range(first, first + questions):
        dice = 1 + number * 7919 % 400  # a walk over 1..400 dice
        probability_at_most(3 * dice + number % 7, dice=dice)
        probability_at_least(4 * dice - number % 5, dice=dice)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=1000)
    args = parser.parse_args()
    for dice in COUNTS:
        print(f"counts of {dice:>6} d6: {seconds(total_counts, dice) * 1000:9.2f} ms")
    for dice, target in TAILS:
        taken = seconds(probability_at_most, target, dice=dice)
        print(f"P({dice} d6 <= {target}): {taken * 1000:9.2f} ms")
    tracemalloc.start()
    seconds(probability_at_most, 35_000, dice=MAX_DICE)
    peak = tracemalloc.get_traced_memory()[1] / 2**20  # gmpy2's own temporaries are not traced
    print(f"P({MAX_DICE} d6 <= 35000): peak {peak:.2f} MiB of Python objects")
    for batch in range(3):  # the memory kept must not grow from batch to batch
        tracemalloc.reset_peak()
        taken = seconds(many_questions, batch * args.questions, args.questions)
        current, peak = tracemalloc.get_traced_memory()
        print(
            f"{2 * args.questions} more questions of 1 to 400 dice: {taken:.2f} s under"
            f" tracemalloc, peak {peak / 2**20:.2f} MiB, kept {current / 2**20:.2f} MiB"
        )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10  # KiB on Linux
    print(f"the process's largest resident size: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
