"""Time the exact cascade (`cascade_probabilities`, LD-4 to LD-12) on forces of growing size,
in several shapes, the hard ones included:

- `benchmark`: commands of ten units (one with its leader in it, Leadership 3+ to 5+, some
  with a re-rolling Doctrine), worn down by earlier phases (two units of each command
  already gone, two below half); this phase about a third of the units take a Break test
  and one unit of each command is wiped out, so commands test and the force may break. A
  company commander leads the force.
- `one-command`: a single command whose every unit falls below half and tests, with
  Leadership 3+ to 5+.
- `distinct-ranks`: commands of ten units, each led by an independent leader of its own rank
  (no company commander), every unit testing: the force may test on any of them.
- `rerolls-10`: the benchmark force with ten re-rolls for every unit, command and the force.
- `ranks-rerolls-10`: distinct ranks in commands of four units, with ten re-rolls
  everywhere: the slowest shape we know (at 400 units, the limit of tests).
- `leaders-in-units`: commands of ten units, three of which carry a leader (each of its
  own rank and Leadership), with ten re-rolls everywhere: a command's senior figure
  depends on which of those units hold, so each command changes at several figures.
- `many-leaders`: commands of a hundred units with 45 leaders among them and three
  re-rolls: every command changes at every figure the force may test on.
- `mixed`: a seeded random mix of command sizes, Leadership, ranks, leaders in units,
  re-rolls and casualties.

Prints the seconds of each size (the best of a few runs), and the growth from the size
before as a power of the number of units (N^2: four times the time for twice the units).
The limits of Break tests (`MAX_CASCADE_TESTS`) and of work (`MAX_CASCADE_WORK`) are
lifted: most of these forces pass them.

`--search N` looks for the slowest force the limits accept instead: N seeded random
shapes (commands, units each, leaders riding in units or not, Leadership, ranks, a
`prefer` list, re-rolls), each grown to the largest size the limits accept, then timed in
a process of its own (CPU seconds and peak resident memory); it prints the slowest.
`--no-gmpy2` counts with Python's integers, as the Workbench does in the page. `--cpu`
times the process's CPU seconds, not the wall clock: steadier on a busy machine.

    .venv/bin/python benchmarks/cascade.py [SHAPE ...] [--sizes 100 1000 ...] [--cpu]
    .venv/bin/python benchmarks/cascade.py --search 40 [--no-gmpy2]
"""

import argparse
import multiprocessing
import random
import resource
import sys
import time
from collections.abc import Callable
from math import log

if "--no-gmpy2" in sys.argv:  # before rulesref is imported: rulesref.exact falls back
    sys.modules["gmpy2"] = None  # type: ignore[assignment]

from rulesref import leadership
from rulesref.errors import RulesError
from rulesref.leadership import Command, Doctrine, Force, Leader, Unit
from rulesref.odds import cascade
from rulesref.odds.cascade import cascade_probabilities

COMMAND_SIZE = 10
DRILLED = Doctrine(rerolls=1, name="Drilled")
Shape = Callable[[int], tuple[Force, dict[str, int]]]


def make_force(
    units: int, *, company_commander: bool = True, rerolls: int | None = None
) -> tuple[Force, dict[str, int]]:
    """The `benchmark` shape: `units` units of ten models, a third of them testing."""
    every = Doctrine(rerolls) if rerolls is not None else Doctrine()
    commands, casualties = [], {}
    for number in range(0, units, COMMAND_SIZE):
        squads = []
        for index in range(number, min(number + COMMAND_SIZE, units)):
            doctrine = every if rerolls is not None else DRILLED if index % 7 == 0 else every
            slot = index - number
            current = {0: 10, 1: 0, 2: 0, 3: 4, 4: 3}.get(slot, 10)  # gone, gone, below half
            squads.append(Unit(f"squad {index}", 10, 3 + index % 3, current, doctrine))
            if slot in (0, 3, 4, 5):  # shot below half, or hit again while below it
                casualties[f"squad {index}"] = 1 if slot in (3, 4) else 6 + index % 3
            elif slot == 6:
                casualties[f"squad {index}"] = 10  # wiped out
        lieutenant = 3 + (number // COMMAND_SIZE) % 2  # 3+ and 4+ by turns
        leader = Leader(f"lieutenant {number}", lieutenant, rank=2, unit=squads[0].name)
        commands.append(Command(f"platoon {number // COMMAND_SIZE}", squads, [leader], every))
    leaders = [Leader("captain", 3, rank=3)] if company_commander else []
    return Force(commands, leaders, every), casualties


def one_command(units: int) -> tuple[Force, dict[str, int]]:
    squads = [Unit(f"squad {n}", 10, 3 + n % 3) for n in range(units)]
    lieutenant = Leader("lieutenant", 4, rank=2, unit="squad 0")
    return Force([Command("horde", squads, [lieutenant])]), {s.name: 6 for s in squads}


def ranked_commands(
    units: int, *, size: int = COMMAND_SIZE, rerolls: int = 0, riding: int = 0
) -> tuple[Force, dict[str, int]]:
    """Commands of `size` units, every unit testing, each command led by figures of ranks
    and Leadership of their own: one independent leader, or `riding` leaders carried by
    its first units."""
    every = Doctrine(rerolls)
    commands, casualties = [], {}
    for number in range(0, units, size):
        squads = [
            Unit(f"squad {n}", 10, 3 + n % 3, doctrine=every) for n in range(number, number + size)
        ]
        c = number // size
        officers = [
            Leader(f"leader {c}.{k}", 2 + (c + k) % 5, 1 + (3 * c + k) % leadership.MAX_RANK, unit)
            for k, unit in enumerate(squad.name for squad in squads[:riding])
        ] or [Leader(f"leader {c}", 2 + c % 5, rank=1 + c % leadership.MAX_RANK)]
        commands.append(Command(f"command {c}", squads, officers, every))
        casualties |= {s.name: 6 for s in squads}
    return Force(commands, doctrine=every), casualties


def mixed(units: int) -> tuple[Force, dict[str, int]]:
    rng = random.Random(units)
    commands, casualties, made = [], {}, 0
    while made < units:
        size = min(rng.randint(1, 40), units - made)
        squads, leaders = [], []
        for n in range(made, made + size):
            starting = rng.randint(1, 12)
            current = rng.randint(0, starting)
            doctrine = Doctrine(rng.choice((0, 0, 1, 2, 10)), rng.random() < 0.05)
            squads.append(Unit(f"u{n}", starting, rng.randint(2, 6), current, doctrine))
            if current and rng.random() < 0.6:
                casualties[f"u{n}"] = rng.randint(0, current)
            if rng.random() < 0.1:
                leaders.append(Leader(f"l{n}", rng.randint(2, 6), rng.randint(1, 6), f"u{n}"))
        if rng.random() < 0.5:
            leaders.append(Leader(f"lc{made}", rng.randint(2, 6), rng.randint(1, 9)))
        commands.append(Command(f"c{made}", squads, leaders, Doctrine(rng.choice((0, 1, 3)))))
        made += size
    squads = commands[0].units
    if not any(unit.in_play for command in commands for unit in command.units):
        squads[0] = Unit(squads[0].name, 5, 4)
        commands[0] = Command(commands[0].name, squads, commands[0].leaders)
    return Force(commands, [Leader("general", 3, rank=7)], Doctrine(1)), casualties


SHAPES: dict[str, tuple[Shape, tuple[int, ...]]] = {
    "benchmark": (make_force, (10, 50, 200, 1000, 4000)),
    "one-command": (one_command, (100, 200, 400, 1000, 4000)),
    "distinct-ranks": (ranked_commands, (100, 400, 1000, 4000)),
    "rerolls-10": (lambda units: make_force(units, rerolls=10), (200, 1000, 4000)),
    "ranks-rerolls-10": (
        lambda units: ranked_commands(units, size=4, rerolls=10),
        (100, 400, 1000),
    ),
    "leaders-in-units": (
        lambda units: ranked_commands(units, rerolls=10, riding=3),
        (100, 400, 1000),
    ),
    "many-leaders": (
        lambda units: ranked_commands(units, size=100, rerolls=3, riding=45),
        (200, 400, 1000),
    ),
    "mixed": (mixed, (100, 1000, 4000)),
}


def seconds(shape: Shape, size: int, clock: Callable[[], float], repeat: int = 3) -> float:
    force, casualties = shape(size)
    best = float("inf")
    for _ in range(repeat):
        begin = clock()
        cascade_probabilities(force, casualties)
        best = min(best, clock() - begin)
        if best > 1:
            break
    return best


def adversary(seed: int) -> Callable[[int], tuple[Force, dict[str, int], list[str]]]:
    """A seeded random shape, as a function of its number of units: every unit testing,
    leaders riding in units (each its own figure) or leading from outside, ranks and
    Leadership spread or alike, half the figures preferred, re-rolls anywhere."""
    rng = random.Random(seed)
    size = rng.choice((1, 2, 4, 10, 50, 500))
    riding = rng.random()  # the share of units carrying a leader
    ranks = rng.choice((1, 3, 20, leadership.MAX_RANK))
    rerolls = rng.choice((0, 0, 1, 3, 10))
    every = Doctrine(rerolls)

    def shape(units: int) -> tuple[Force, dict[str, int], list[str]]:
        commands, casualties, prefer = [], {}, []
        for number in range(0, units, size):
            names = [f"u{n}" for n in range(number, min(number + size, units))]
            squads = [
                Unit(f"u{n}", 10, 2 + n * 3 % 5, doctrine=every)
                for n in range(number, number + len(names))
            ]
            leaders = [
                Leader(f"l{name}", 2 + n % 5, 1 + (n * 7) % ranks, name)
                for n, name in enumerate(names, number)
                if (n * 0.618) % 1 < riding
            ] or [Leader(f"l{number}", 2 + number % 5, 1 + number % ranks)]
            prefer += [leader.name for leader in leaders[::2]]
            commands.append(Command(f"c{number}", squads, leaders, every))
            casualties |= dict.fromkeys(names, 6)
        return Force(commands, doctrine=every), casualties, prefer

    return shape


def accepted(shape: Callable[[int], tuple[Force, dict[str, int], list[str]]], units: int) -> bool:
    force, casualties, prefer = shape(units)
    try:
        after = leadership.models_left(force, casualties)
        figures = leadership.preferred_figures(force, prefer)
        commands = [cascade._testing(command, after, figures) for command in force.commands]
        cascade._check_size(commands, False)
    except RulesError:
        return False
    return True


def largest(shape: Callable[[int], tuple[Force, dict[str, int], list[str]]]) -> int:
    """The most units (testing) the limits accept in this shape, by bisection."""
    low, high = 0, leadership.MAX_UNITS // 4 + 1  # MAX_CASCADE_TESTS of them, at most
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if accepted(shape, middle) else (low, middle)
    return low


def measured(seed: int, units: int, pipe: "multiprocessing.connection.Connection") -> None:
    force, casualties, prefer = adversary(seed)(units)
    begin = time.process_time()
    cascade_probabilities(force, casualties, prefer=prefer)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10  # MiB (KiB on Linux)
    pipe.send((time.process_time() - begin, peak))


def search(tries: int) -> None:
    print(f"{'seed':>5} {'units':>6} {'CPU s':>7} {'peak MiB':>9}")
    slowest = (0.0, 0.0, 0, 0)
    for seed in range(tries):
        units = largest(adversary(seed))
        if not units:
            continue
        receive, send = multiprocessing.Pipe(duplex=False)
        child = multiprocessing.Process(target=measured, args=(seed, units, send))
        child.start()
        took, peak = receive.recv()
        child.join()
        print(f"{seed:>5} {units:>6} {took:>7.2f} {peak:>9.0f}", flush=True)
        slowest = max(slowest, (took, peak, seed, units))
    took, peak, seed, units = slowest
    print(f"slowest: seed {seed}, {units} units: {took:.2f} s of CPU, peak {peak:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("shapes", nargs="*", choices=[[], *SHAPES], default=[])
    parser.add_argument("--sizes", nargs="+", type=int)
    parser.add_argument("--search", type=int, metavar="N")
    parser.add_argument("--no-gmpy2", action="store_true")
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()
    if args.search:
        search(args.search)
        return
    cascade.MAX_CASCADE_TESTS = leadership.MAX_UNITS  # time it past its limits
    cascade.MAX_CASCADE_WORK = 10**30
    print(f"{'shape':<17} {'units':>6} {'seconds':>8} {'growth':>7}")
    for name in args.shapes or SHAPES:
        shape, sizes = SHAPES[name]
        previous = None
        for size in args.sizes or sizes:
            took = seconds(shape, size, time.process_time if args.cpu else time.perf_counter)
            power = log(took / previous[0]) / log(size / previous[1]) if previous else 0
            growth = f"N^{power:.1f}" if previous else ""
            print(f"{name:<17} {size:>6} {took:>8.3f} {growth:>7}", flush=True)
            previous = took, size


if __name__ == "__main__":
    main()
