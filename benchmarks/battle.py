"""Exact battle odds for 2 v 2 up to 1,000 v 1,000 platoons, timed.

Run: `.venv/bin/python benchmarks/battle.py`. Each side mixes infantry, cavalry,
artillery and a Damaged platoon, half rolling for attack and half for defence; the
defender is fortified. Then two shapes at 1,000 a side: every attacker attacks and every
defender defends (2,000 dice in one Battle Damage), and a brittle one, FUBAR and Damaged
platoons under heavy artillery, where many numbers of withdrawals are possible. Every
probability is an exact Rational; the script checks that the outcomes add up to 1. Each
time is the best of three runs, in seconds of this process's own CPU time (the machine
may be shared). Last, the process's peak resident memory over all of them.
"""

import resource
import time

from rulesref.campaign import Battle, Kind, Platoon, Side, State
from rulesref.odds.battle import BattleOdds, battle_odds

MIX = (Platoon(), Platoon(Kind.CAVALRY), Platoon(Kind.ARTILLERY), Platoon(state=State.DAMAGED))


def side(platoons: int, *, fortified: bool = False) -> Side:
    members = [MIX[i % len(MIX)] for i in range(platoons)]
    rolls = ["attack" if i % 2 == 0 else "defence" for i in range(platoons)]
    return Side(members, rolls, fortified=fortified)


def brittle(platoons: int) -> Side:
    """Artillery attacking beside FUBAR and Damaged platoons defending."""
    members = [Platoon(Kind.ARTILLERY), Platoon(state=State.FUBAR), Platoon(state=State.DAMAGED)]
    rolls = ["attack", "defence", "defence"]
    return Side([members[i % 3] for i in range(platoons)], [rolls[i % 3] for i in range(platoons)])


def timed(battle: Battle) -> tuple[float, BattleOdds]:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        odds = battle_odds(battle)
        best = min(best, time.process_time() - start)
    assert sum(odds.outcomes.values()) == 1
    return best, odds


def main() -> None:
    print(f"{'battle':>12}  {'seconds':>8}  {'P(attacker wins)':>16}  {'E[hits on defender]':>19}")
    for size in (2, 10, 50, 200, 1000):
        seconds, odds = timed(Battle(side(size), side(size, fortified=True)))
        wins, hits = odds.victor["attacker"], odds.expected_hits("defender")
        print(f"{size:>5} v {size:<5}  {seconds:8.4f}  {float(wins):16.4f}  {float(hits):19.3f}")
    seconds, _ = timed(Battle(Side([Platoon()] * 1000), Side([Platoon()] * 1000)))
    print(f"1000 v 1000, all attack against all defence: {seconds:.4f} s")
    seconds, _ = timed(Battle(brittle(1000), brittle(1000)))
    print(f"1000 v 1000, brittle (many numbers of withdrawals): {seconds:.4f} s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10  # KiB on Linux
    print(f"the process's largest resident size: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
