"""rulesref against icepool and dyce on the site's questions: identical exact answers, then times.

Run (icepool and dyce are benchmark-only dependencies, the `bench` extra):

    .venv/bin/pip install -c requirements/constraints.txt -e '.[bench]'
    .venv/bin/python benchmarks/compare.py [--repeat 7] [--write docs/includes/performance.md]

Every answer is computed cold, in a fresh Python process whose imports are done before
the clock starts, so no library profits from a cache filled by an earlier repetition.
The repetitions alternate the order of the libraries. The script first checks that the
libraries' exact answers are identical (as fractions), then prints the median time of
each, its spread (fastest to slowest) and rulesref's speed-up over the faster of the others.
"""

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from datetime import date
from fractions import Fraction
from pathlib import Path

LIBRARIES = ("rulesref", "icepool", "dyce")
LEADERSHIP, LOST_BY = range(2, 11), range(0, 11)


# --- the questions, each answered by each library that can express it -----------------


def break_table(library: str) -> list[str]:
    """1. Every Break test of Leadership 2-10 and lost by 0-10, Insane Courage on, with
    and without the re-roll variant."""
    cells = [(ld, by, reroll) for reroll in (False, True) for ld in LEADERSHIP for by in LOST_BY]
    if library == "rulesref":
        from rulesref.break_test import break_test_probability

        return [str(break_test_probability(ld, by, reroll=reroll)) for ld, by, reroll in cells]
    if library == "icepool":
        import icepool

        def stands(target: int) -> Fraction:
            test = icepool.map(lambda a, b: a + b <= target or a == b == 1, icepool.d6, icepool.d6)
            return test.probability(True)

    else:
        from dyce import H
        from dyce.evaluation import expand

        def stands(target: int) -> Fraction:
            test = expand(
                lambda a, b: a.outcome + b.outcome <= target or a.outcome == b.outcome == 1,
                H(6),
                H(6),
            )
            return Fraction(test.get(True, 0), test.total)

    answers = []
    for ld, by, reroll in cells:
        p = stands(ld - by)
        answers.append(str(p + (1 - p) * p if reroll else p))
    return answers


def d6_leadership(library: str) -> list[str]:
    """2. One d6 at or above 2+ ... 6+, with 0, 1 and 2 re-rolls of a failure."""
    cells = [(target, rerolls) for target in range(2, 7) for rerolls in range(3)]
    if library == "rulesref":
        from rulesref.leadership import leadership_test_probability

        return [str(leadership_test_probability(t, rerolls=r)) for t, r in cells]
    if library == "icepool":
        import icepool

        def passes(target: int, rerolls: int) -> Fraction:
            dice = [icepool.d6] * (rerolls + 1)
            best = icepool.highest(*dice) if rerolls else icepool.d6  # highest() wants 2+
            return (best >= target).probability(True)

    else:
        from dyce import H, P

        def passes(target: int, rerolls: int) -> Fraction:
            best = P(*[H(6)] * (rerolls + 1)).at(-1)
            test = best.ge(target)
            return Fraction(test.get(True, 0), test.total)

    return [str(passes(t, r)) for t, r in cells]


def difference(dice: int):
    """3. The distribution of `dice`d6 - `dice`d6."""

    def answer(library: str) -> dict[int, str]:
        if library == "rulesref":
            from rulesref.dice import D6, sum_counts

            lowest, counts = sum_counts([D6] * dice + [tuple(-f for f in D6)] * dice)
            total = 6 ** (2 * dice)
            return {lowest + i: str(Fraction(c, total)) for i, c in enumerate(counts) if c}
        if library == "icepool":
            import icepool

            die = dice @ icepool.d6 - dice @ icepool.d6
            total = die.denominator()
            return {x: str(Fraction(q, total)) for x, q in die.items()}
        from dyce import H

        h = dice @ H(6) - dice @ H(6)
        return {x: str(Fraction(c, h.total)) for x, c in h.items()}

    answer.__doc__ = f"3. The distribution of {dice}d6 - {dice}d6."
    return answer


def _battle():
    from rulesref.campaign import Battle, Platoon, Side

    mix = (
        Platoon("artillery"),  # +2
        Platoon("cavalry"),  # +1 to attack
        Platoon(state="damaged"),  # -1
        Platoon(state="fubar"),  # always a 1
        Platoon(),
    )

    def side(fortified: bool):
        members = [mix[i % len(mix)] for i in range(50)]
        return Side(members, ["attack", "defence"] * 25, fortified=fortified)

    return Battle(side(False), side(True))


def battle_hits(library: str) -> dict[str, dict[int, str]]:
    """4. The hits each side takes in a 50 v 50 campaign battle of mixed platoons
    (+2 artillery, +1 cavalry, -1 Damaged, FUBAR 1s, a fortified defender)."""
    battle = _battle()
    if library == "rulesref":
        from rulesref.campaign import hits_odds

        hits = hits_odds(battle)
        return {role: {h: str(p) for h, p in hits[role].items()} for role in hits}
    # the other libraries get each die's faces from the rules, then do the arithmetic
    from rulesref.campaign import ROLES, explain_roll

    def dice(role: str, roll: str) -> list[tuple[int, ...]]:
        rolls = [explain_roll(battle, role, i) for i in range(len(battle.side(role).platoons))]
        return [r.faces for r in rolls if r.roll == roll]

    answer = {}
    for role, enemy in zip(ROLES, reversed(ROLES), strict=True):
        attack, defence = dice(enemy, "attack"), dice(role, "defence")
        if library == "icepool":
            import icepool

            damage = sum((icepool.Die(f) for f in attack), icepool.Die([0])) - sum(
                (icepool.Die(f) for f in defence), icepool.Die([0])
            )
            hits = damage.map(lambda d: max(d, 0) // 6)
            total = hits.denominator()
            answer[role] = {h: str(Fraction(q, total)) for h, q in hits.items()}
        else:
            from dyce import H

            damage = sum((H(f) for f in attack), H({0: 1})) - sum(
                (H(f) for f in defence), H({0: 1})
            )
            hits = damage.apply(lambda d: max(d, 0) // 6)
            answer[role] = {h: str(Fraction(c, hits.total)) for h, c in hits.items()}
    return answer


def battle_everything(library: str) -> dict[str, str]:
    """4b. Every outcome of the same battle: hits, routs, victor, checks (rulesref only)."""
    from rulesref.campaign import battle_odds

    return {str(k): str(v) for k, v in battle_odds(_battle()).outcomes.items()}


def cascade(library: str) -> dict[str, str]:
    """5. The exact Break-test cascade of a 200-unit force (rulesref only)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from cascade import make_force  # the force of benchmarks/cascade.py

    from rulesref.leadership import cascade_probabilities

    force, casualties = make_force(200)
    return {"force breaks": str(cascade_probabilities(force, casualties).force_breaks)}


QUESTIONS = {
    "Break test table, Ld 2-10 x lost by 0-10, with and without re-roll": (break_table, LIBRARIES),
    "d6 Leadership 2+ to 6+, 0 to 2 re-rolls": (d6_leadership, LIBRARIES),
    "20d6 - 20d6": (difference(20), LIBRARIES),
    "100d6 - 100d6": (difference(100), LIBRARIES),
    "hits of a 50 v 50 campaign battle": (battle_hits, LIBRARIES),
    "every outcome of the same battle": (battle_everything, ("rulesref",)),
    "cascade of a 200-unit force": (cascade, ("rulesref",)),
}


# --- the harness ------------------------------------------------------------------------


def _canonical(answer):
    """Answers as sorted text, so that equal fractions compare equal across libraries."""
    return json.dumps(answer, sort_keys=True, default=str)


def run_one(question: str, library: str) -> None:
    """In a fresh process: import the library, then time one cold answer."""
    function, _ = QUESTIONS[question]
    __import__("rulesref.campaign" if library == "rulesref" else library)
    import rulesref.campaign  # noqa: F401  (every harness imports the rules it needs)
    import rulesref.leadership  # noqa: F401

    start = time.perf_counter()
    answer = function(library)
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "answer": _canonical(answer)}))


def measure(question: str, library: str) -> dict:
    output = subprocess.run(
        [sys.executable, __file__, "--run", question, library],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(output)


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "unknown CPU",
    )
    return f"{cpu}, Python {platform.python_version()}, {platform.system()} {platform.machine()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--write", type=Path, help="also write the table as Markdown here")
    parser.add_argument("--run", nargs=2, metavar=("QUESTION", "LIBRARY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run_one(*args.run)
        return

    rows = []
    for question, (_, libraries) in QUESTIONS.items():
        times = {library: [] for library in libraries}
        answers = {}
        for rep in range(args.repeat):
            order = libraries[rep % len(libraries) :] + libraries[: rep % len(libraries)]
            for library in order:
                result = measure(question, library)
                times[library].append(result["seconds"])
                answers.setdefault(library, result["answer"])
        assert len(set(answers.values())) == 1, f"{question}: the exact answers differ"
        rows.append((question, {lib: sorted(t) for lib, t in times.items()}))
        print(f"checked and timed: {question}", file=sys.stderr)

    def cell(samples):
        if samples is None:
            return "n/a"
        return (
            f"{statistics.median(samples) * 1000:.2f} ms "
            f"({samples[0] * 1000:.2f}–{samples[-1] * 1000:.2f})"
        )

    header = "| question | rulesref | icepool | dyce | rulesref speed-up |"
    lines = [header, "|---|---:|---:|---:|---:|"]
    for question, times in rows:
        ours = statistics.median(times["rulesref"])
        others = [statistics.median(times[lib]) for lib in ("icepool", "dyce") if lib in times]
        ratio = f"{min(others) / ours:.1f}×" if others else "n/a"
        lines.append(
            f"| {question} | {cell(times['rulesref'])} | {cell(times.get('icepool'))} "
            f"| {cell(times.get('dyce'))} | {ratio} |"
        )
    versions = ", ".join(
        f"{name} {__import__('importlib.metadata').metadata.version(name)}"
        for name in ("sympy", "icepool", "dyce")
    )
    table = "\n".join(lines)
    footer = (
        f"\nMedian of {args.repeat} cold runs each (fastest–slowest in brackets); "
        f"the speed-up is over the faster of icepool and dyce.\n"
        f"Recorded on {date.today().isoformat()} on {machine()}; {versions}.\n"
    )
    print(table + "\n" + footer)
    if args.write:
        args.write.write_text(table + "\n" + footer)


if __name__ == "__main__":
    main()
