"""Time the exact cascade (`cascade_probabilities`, LD-4 to LD-12) on forces of growing size.

Commands of ten units (one with its leader in it, Leadership 3+ to 5+, some with a
re-rolling Doctrine), worn down by earlier phases (two units of each command already
gone, two below half), then this phase about a third of the units take a Break test
(some shot below half, some below half already and hit again) and one unit of each
command is wiped out, so commands test and the force may break. A company commander
leads the force. Prints the time of each size, and the growth from the size before as a power of the
number of units (N^2: four times the time for twice the units).

    .venv/bin/python benchmarks/cascade.py [SIZES ...]
"""

import sys
import time
from math import log

from rulesref.leadership import Command, Doctrine, Force, Leader, Unit, cascade_probabilities

SIZES = (10, 50, 200, 1000)
COMMAND_SIZE = 10
DRILLED = Doctrine(rerolls=1, name="Drilled")


def make_force(units: int, *, company_commander: bool = True) -> tuple[Force, dict[str, int]]:
    """A force of `units` units of ten models, and casualties that put a third below half."""
    commands, casualties = [], {}
    for number in range(0, units, COMMAND_SIZE):
        squads = []
        for index in range(number, min(number + COMMAND_SIZE, units)):
            doctrine = DRILLED if index % 7 == 0 else Doctrine()
            slot = index - number
            current = {0: 10, 1: 0, 2: 0, 3: 4, 4: 3}.get(slot, 10)  # gone, gone, below half
            leadership = 3 + index % 3
            squads.append(Unit(f"squad {index}", 10, leadership, current, doctrine))
            if slot in (0, 3, 4, 5):  # shot below half, or hit again while below it
                casualties[f"squad {index}"] = 1 if slot in (3, 4) else 6 + index % 3
            elif slot == 6:
                casualties[f"squad {index}"] = 10  # wiped out
        lieutenant = 3 + (number // COMMAND_SIZE) % 2  # 3+ and 4+ by turns
        leader = Leader(f"lieutenant {number}", lieutenant, rank=2, unit=squads[0].name)
        commands.append(Command(f"platoon {number // COMMAND_SIZE}", squads, [leader]))
    leaders = [Leader("captain", 3, rank=3)] if company_commander else []
    return Force(commands, leaders), casualties


def main(sizes: tuple[int, ...]) -> None:
    for captain in (True, False):
        who = (
            "a company commander"
            if captain
            else "no company commander (the force tests on its best surviving lieutenant)"
        )
        print(f"With {who}:")
        print(f"{'units':>6} {'tests':>6} {'seconds':>8} {'growth':>8}  force breaks")
        previous = None
        for size in sizes:
            force, casualties = make_force(size, company_commander=captain)
            begin = time.perf_counter()
            odds = cascade_probabilities(force, casualties)
            seconds = time.perf_counter() - begin
            growth = (
                ""
                if previous is None
                else f"N^{log(seconds / previous[0]) / log(size / previous[1]):.1f}"
            )
            tests = sum(1 for lost in casualties.values() if lost < 10)
            print(
                f"{size:>6} {tests:>6} {seconds:>8.3f} {growth:>8}  {float(odds.force_breaks):.3g}"
            )
            previous = seconds, size


if __name__ == "__main__":
    main(tuple(int(arg) for arg in sys.argv[1:]) or SIZES)
