"""rulesref against icepool, dyce and FLINT on the site's questions: same exact answers, then times.

Run (icepool, dyce and python-flint are benchmark-only dependencies, the `bench` extra):

    .venv/bin/pip install -c requirements/constraints.txt -e '.[bench]'
    .venv/bin/python benchmarks/compare.py [--repeat 5] [--write docs/includes/performance.md]

Each answer runs in a fresh Python process whose imports (of every library, and of
rulesref's modules) are done before the clock starts. The first answer there is the
**cold** time: no library profits from a cache filled by an earlier answer. The process
then answers the same question three more times, and the fastest is the **warm** time.
Every library is written the way its documentation teaches: a distribution is built
once and queried per cell (icepool `n @ d6`, `d6.reroll(..., depth=r)`; dyce
`(2n)@H(6) - 7n`; FLINT's integer polynomials `fmpz_poly` and rationals `fmpq`; rulesref's
tables, `break_test_table`, and rows, `with_rerolls_up_to`). The repetitions alternate the
order of the libraries. The script first checks that the libraries' exact answers are
identical, then prints the best times of each (on a shared machine, the run least slowed
by others) and rulesref's speed-up over the fastest of the others. A library that fails on
a question (icepool's `n @ d6` recurses once per die) or takes longer than the time limit
is shown so and not repeated.
"""

import argparse
import hashlib
import json
import platform
import subprocess
import sys
import time
from datetime import date
from fractions import Fraction
from itertools import accumulate
from pathlib import Path

PEERS = ("icepool", "dyce", "flint")
LIBRARIES = ("rulesref", *PEERS)
LEADERSHIP, LOST_BY = range(2, 11), range(0, 11)
WARM_TRIES = 3


# --- the questions, each answered by each library that can express it -----------------


def _d6_sum(library: str, dice: int):
    """The native distribution of `dice` d6 in a peer library (FLINT: counts from 0 up)."""
    if library == "icepool":
        import icepool

        return dice @ icepool.d6
    if library == "dyce":
        from dyce import H

        return dice @ H(6)
    from flint import fmpz_poly

    return fmpz_poly([1] * 6) ** dice


def break_table(library: str) -> list[str]:
    """1. Every Break test of Leadership 2-10 and lost by 0-10, Insane Courage on, with
    and without the re-roll variant."""
    cells = [(ld, by, reroll) for reroll in (False, True) for ld in LEADERSHIP for by in LOST_BY]
    if library == "rulesref":  # its tables, as the site draws them: a row per Leadership
        from rulesref.tables import break_test_table

        tables = (break_test_table(), break_test_table(reroll=True))
        return [p for table in tables for row in table.cells for p in row]
    two = _d6_sum(library, 2)  # built once, queried per cell
    if library == "icepool":
        at_most = {t: two.probability("<=", t) for t in range(-8, 11)}
    elif library == "dyce":
        at_most = {t: Fraction(two.le(t).get(True, 0), two.total) for t in range(-8, 11)}
    else:  # FLINT in its own idiom: its exact rationals, fmpq, all the way
        from flint import fmpq

        ways = [0, 0, *accumulate(two.coeffs())]  # totals from 0 up, fmpz
        at_most = {t: fmpq(ways[max(t, 0)], 36) for t in range(-8, 11)}
    double_one = at_most[2] - at_most[1]  # 1/36, in the library's own type

    answers = []
    for ld, by, reroll in cells:
        target = ld - by
        p = at_most[target] + (double_one if target < 2 else 0)  # a double 1 stands
        answers.append(p + (1 - p) * p if reroll else p)
    return answers


def d6_leadership(library: str) -> list[str]:
    """2. One d6 at or above 2+ ... 6+, with 0 to 10 re-rolls of a failure."""
    cells = [(target, rerolls) for target in range(2, 7) for rerolls in range(11)]
    if library == "rulesref":  # a target's row: its test, then each number of re-rolls
        from rulesref.dice import with_rerolls_up_to
        from rulesref.leadership import leadership_test_probability

        rows = [with_rerolls_up_to(leadership_test_probability(t), 10) for t in range(2, 7)]
        return [p for row in rows for p in row]
    if library == "flint":  # its exact rationals: fails on every try, 1 - (1 - p)^(r + 1)
        from flint import fmpq

        return [1 - (1 - fmpq(7 - t, 6)) ** (r + 1) for t, r in cells]
    if library == "icepool":
        import icepool

        def passes(target: int, rerolls: int) -> Fraction:
            die = icepool.d6.reroll(lambda x: x < target, depth=rerolls)
            return die.probability(">=", target)

    else:
        from dyce import H, P

        def passes(target: int, rerolls: int) -> Fraction:
            test = P(*[H(6)] * (rerolls + 1)).at(-1).ge(target)
            return Fraction(test.get(True, 0), test.total)

    return [passes(t, r) for t, r in cells]


def difference(dice: int):
    """3. The distribution of `dice`d6 - `dice`d6: its lowest total, and the counts of each
    total from it up (over 6**(2 * dice) rolls)."""

    def answer(library: str) -> tuple[int, ...]:
        if library == "rulesref":
            from rulesref.dice import D6, sum_counts

            counts = sum_counts([D6] * dice + [tuple(-f for f in D6)] * dice)
            return counts.low, *counts.weights
        # -d6 is 7 - d6: the difference is (2 dice)d6 - 7 dice
        both = _d6_sum(library, 2 * dice)
        if library == "flint":
            return -5 * dice, *both.coeffs()
        difference = sorted((both - 7 * dice).items())
        return difference[0][0], *(count for _, count in difference)

    answer.__doc__ = f"3. The distribution of {dice}d6 - {dice}d6."
    return answer


def counts(dice: int):
    """4. The counts of each total of `dice` d6, from the lowest up (native integers)."""

    def answer(library: str) -> list[int]:
        if library == "rulesref":
            from rulesref.dice import total_counts

            return total_counts(dice)[dice:]
        native = _d6_sum(library, dice)
        if library == "flint":
            return native.coeffs()
        return [native[k] for k in range(dice, 6 * dice + 1)]

    return answer


def tail(dice: int, target: int):
    """5. The chance that `dice` d6 total `target` or less, as (numerator, denominator)."""

    def answer(library: str) -> tuple[int, int]:
        if library == "rulesref":
            from rulesref.dice import probability_at_most

            chance = probability_at_most(target, dice=dice)
            return chance.p, chance.q
        native = _d6_sum(library, dice)
        if library == "icepool":
            chance = native.probability("<=", target)
        elif library == "dyce":
            chance = Fraction(native.le(target).get(True, 0), native.total)
        else:
            chance = Fraction(int(sum(native.coeffs()[: max(target - dice + 1, 0)])), 6**dice)
        return chance.numerator, chance.denominator

    return answer


def passes(tests: int, at_least: int):
    """9. The chance that at least `at_least` of `tests` units pass a 4+ test with one
    re-roll (3/4 each), as (numerator, denominator)."""

    def answer(library: str) -> tuple[int, int]:
        if library == "rulesref":
            from rulesref.dice import passes_probability
            from rulesref.exact import Rational

            chance = passes_probability(at_least, tests=tests, probability=Rational(3, 4))
            return chance.p, chance.q
        if library == "flint":  # the binomial (1 + 3x)^n as an integer polynomial
            from flint import fmpq, fmpz_poly

            weights = (fmpz_poly([1, 3]) ** tests).coeffs()
            chance = fmpq(sum(weights[at_least:]), 4**tests)
            return int(chance.p), int(chance.q)
        if library == "icepool":
            import icepool

            chance = (tests @ icepool.Die({0: 1, 1: 3})).probability(">=", at_least)
        else:
            from dyce import H

            pool = tests @ H({0: 1, 1: 3})
            chance = Fraction(pool.ge(at_least).get(True, 0), pool.total)
        return chance.numerator, chance.denominator

    answer.__doc__ = f"9. At least {at_least} of {tests} units pass 4+ with a re-roll."
    return answer


def _battle():
    from rulesref.campaign import Battle, Kind, Platoon, Roll, Side, State

    mix = (
        Platoon(Kind.ARTILLERY),  # +2
        Platoon(Kind.CAVALRY),  # +1 to attack
        Platoon(state=State.DAMAGED),  # -1
        Platoon(state=State.FUBAR),  # always a 1
        Platoon(),
    )

    def side(fortified: bool):
        members = [mix[i % len(mix)] for i in range(50)]
        return Side(members, [Roll.ATTACK, Roll.DEFENCE] * 25, fortified=fortified)

    return Battle(side(False), side(True))


def _damage(library: str, attack: list[tuple[int, ...]], defence: list[tuple[int, ...]]):
    """The exact distribution of the attack dice's total minus the defence dice's, as
    {damage: count} over the 6**dice rolls."""
    if library == "flint":
        from flint import fmpz_poly

        def poly(faces, sign):  # shifted so that the lowest face is the constant term
            low = min(sign * f for f in faces)
            coefficients = [0] * (max(sign * f for f in faces) - low + 1)
            for f in faces:
                coefficients[sign * f - low] += 1
            return fmpz_poly(coefficients), low

        product, lowest = fmpz_poly([1]), 0
        for faces, sign in [(f, 1) for f in attack] + [(f, -1) for f in defence]:
            factor, low = poly(faces, sign)
            product, lowest = product * factor, lowest + low
        return {lowest + k: int(c) for k, c in enumerate(product.coeffs()) if c}
    if library == "icepool":
        import icepool

        dice = [icepool.Die(f) for f in attack] + [-icepool.Die(f) for f in defence]
        return dict(sum(dice, icepool.Die([0])).items())
    from dyce import H

    return dict(sum([H(f) for f in attack] + [-H(f) for f in defence], H({0: 1})).items())


def battle_hits(library: str) -> dict[str, dict[int, str]]:
    """6. The hits each side takes in a 50 v 50 campaign battle of mixed platoons
    (+2 artillery, +1 cavalry, -1 Damaged, FUBAR 1s, a fortified defender)."""
    battle = _battle()
    if library == "rulesref":
        from rulesref.odds.battle import hits_odds

        hits = hits_odds(battle)
        return hits
    # the other libraries get each die's faces from the rules, then do the arithmetic
    from rulesref.campaign import Role, explain_roll

    def dice(role: str, roll: str) -> list[tuple[int, ...]]:
        rolls = [explain_roll(battle, role, i) for i in range(len(battle.side(role).platoons))]
        return [r.faces for r in rolls if r.roll == roll]

    answer = {}
    for role, enemy in zip(Role, reversed(Role), strict=True):
        attack, defence = dice(enemy, "attack"), dice(role, "defence")
        hits, total = {}, 6 ** (len(attack) + len(defence))
        for damage, ways in _damage(library, attack, defence).items():
            hits[max(damage, 0) // 6] = hits.get(max(damage, 0) // 6, 0) + ways
        answer[role] = {h: Fraction(c, total) for h, c in hits.items()}
    return answer


def battle_everything(library: str) -> dict[str, str]:
    """7. Every outcome of the same battle: hits, routs, victor, checks (rulesref only)."""
    from rulesref.odds.battle import battle_odds

    return {str(k): str(v) for k, v in battle_odds(_battle()).outcomes.items()}


def cascade(library: str) -> dict[str, str]:
    """8. The exact Break-test cascade of a 200-unit force (rulesref only)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from cascade import make_force  # the force of benchmarks/cascade.py

    from rulesref.odds.cascade import cascade_probabilities

    force, casualties = make_force(200)
    return {"force breaks": str(cascade_probabilities(force, casualties).force_breaks)}


QUESTIONS = {
    "Break test table, Ld 2-10 x lost by 0-10, with and without re-roll": (break_table, LIBRARIES),
    "d6 Leadership 2+ to 6+, 0 to 10 re-rolls": (d6_leadership, LIBRARIES),
    "20d6 - 20d6": (difference(20), LIBRARIES),
    "100d6 - 100d6": (difference(100), LIBRARIES),
    "counts of 1,000 d6": (counts(1000), LIBRARIES),
    "counts of 10,000 d6": (counts(10_000), LIBRARIES),
    "P(1,000 d6 ≤ 3,400)": (tail(1000, 3400), LIBRARIES),
    "P(10,000 d6 ≤ 35,000)": (tail(10_000, 35_000), LIBRARIES),
    "P(10,000 d6 ≤ 3)": (tail(10_000, 3), LIBRARIES),
    "at least 750 of 1,000 units pass 4+ with a re-roll": (passes(1000, 750), LIBRARIES),
    "at least 60 of 100 units pass 4+ with a re-roll": (passes(100, 60), LIBRARIES),
    "hits of a 50 v 50 campaign battle": (battle_hits, LIBRARIES),
    "every outcome of the same battle": (battle_everything, ("rulesref",)),
    "cascade of a 200-unit force": (cascade, ("rulesref",)),
}


# --- the harness ------------------------------------------------------------------------

IMPORTS = {
    "rulesref": (
        "gmpy2",  # rulesref.exact imports it on first use of a big number: an import too
        "rulesref.dice",
        "rulesref.break_test",
        "rulesref.leadership",
        "rulesref.campaign",
        "rulesref.odds.battle",
        "rulesref.odds.cascade",
        "rulesref.tables",
    ),
    "icepool": ("icepool",),
    "dyce": ("dyce", "dyce.evaluation"),
    "flint": ("flint",),
}


def _canonical(answer) -> str:
    """Answers as text, so that equal exact answers compare equal across libraries; long
    runs of big integers (counts of thousands of dice) by a hash of their bytes."""
    if isinstance(answer, list | tuple) and type(answer[-1]).__name__ in ("int", "fmpz"):
        digest = hashlib.sha256()
        for number in map(int, answer):
            raw = number.to_bytes(number.bit_length() // 8 + 1, "little", signed=True)
            digest.update(len(raw).to_bytes(8, "little") + raw)
        return digest.hexdigest()
    return json.dumps(answer, sort_keys=True, default=str)


def run_one(question: str, library: str) -> None:
    """In a fresh process: import everything, then time one cold answer and warm ones."""
    function, _ = QUESTIONS[question]
    for module in IMPORTS["rulesref"] + IMPORTS[library]:  # the peers use rulesref's faces
        __import__(module)
    start = time.perf_counter()
    answer = function(library)
    cold = time.perf_counter() - start
    warm = []
    for _ in range(WARM_TRIES):
        start = time.perf_counter()
        function(library)
        warm.append(time.perf_counter() - start)
    print(json.dumps({"cold": cold, "warm": min(warm), "answer": _canonical(answer)}))


def measure(question: str, library: str, limit: float) -> dict:
    """One fresh process's times and answer; {"failed": why} if it fails or is too slow."""
    try:
        run = subprocess.run(
            [sys.executable, __file__, "--run", question, library],
            capture_output=True,
            text=True,
            timeout=limit,
        )
    except subprocess.TimeoutExpired:
        return {"failed": f"> {limit:.0f} s"}
    if run.returncode:
        return {"failed": f"fails ({run.stderr.strip().splitlines()[-1].split(':')[0]})"}
    return json.loads(run.stdout)


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


def _time(seconds: float) -> str:
    if seconds < 0.01:
        return f"{seconds * 1000:.2f} ms"
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def compare(question: str, libraries: tuple[str, ...], repeat: int, limit: float) -> dict:
    """The best cold and warm times of each library (or why it has none), answers checked."""
    results = {library: [] for library in libraries}
    failed, answers = {}, {}
    for rep in range(repeat):
        order = libraries[rep % len(libraries) :] + libraries[: rep % len(libraries)]
        for library in order:
            if library in failed:
                continue
            result = measure(question, library, limit)
            if "failed" in result:
                failed[library] = result["failed"]
                continue
            results[library].append(result)
            answers.setdefault(library, result["answer"])
    assert "rulesref" not in failed, f"{question}: rulesref {failed.get('rulesref')}"
    assert len(set(answers.values())) == 1, f"{question}: the exact answers differ: {answers}"
    row = dict(failed)
    for library, runs in results.items():
        if runs:
            row[library] = tuple(
                min(run[key] for run in runs) for key in ("cold", "warm")
            )
    return row


def table(rows: dict[str, dict], repeat: int) -> str:
    lines = [
        "| question | rulesref | icepool | dyce | FLINT | rulesref ahead, cold | warm |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for question, row in rows.items():
        cells = []
        for library in LIBRARIES:
            times = row.get(library, "n/a")
            cells.append(
                times if isinstance(times, str) else f"{_time(times[0])} / {_time(times[1])}"
            )
        timed = [row[lib] for lib in PEERS if isinstance(row.get(lib), tuple)]
        ahead = [
            f"{min(t[k] for t in timed) / row['rulesref'][k]:.1f}×" if timed else "n/a"
            for k in (0, 1)
        ]
        lines.append(f"| {question} | {' | '.join(cells)} | {' | '.join(ahead)} |")
    versions = ", ".join(
        f"{name} {__import__('importlib.metadata').metadata.version(name)}"
        for name in ("sympy", "gmpy2", "icepool", "dyce", "python-flint")
    )
    return "\n".join(lines) + (
        f"\n\nEach cell: cold / warm time, the best of {repeat} fresh processes. "
        "The speed-up is over the fastest other library (above 1× rulesref is ahead).\n"
        f"Recorded on {date.today().isoformat()} on {machine()}; {versions}.\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--limit", type=float, default=60, help="seconds before a run is given up")
    parser.add_argument("--only", help="only the questions whose name contains this text")
    parser.add_argument("--write", type=Path, help="also write the table as Markdown here")
    parser.add_argument("--run", nargs=2, metavar=("QUESTION", "LIBRARY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run_one(*args.run)
        return

    rows = {}
    for question, (_, libraries) in QUESTIONS.items():
        if args.only and args.only not in question:
            continue
        rows[question] = compare(question, libraries, args.repeat, args.limit)
        print(f"checked and timed: {question}: {rows[question]}", file=sys.stderr)
    text = table(rows, args.repeat)
    print(text)
    if args.write:
        args.write.write_text(text)


if __name__ == "__main__":
    main()
