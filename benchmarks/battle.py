"""Exact battle odds for 2 v 2 up to 200 v 200 platoons, timed.

Run: `.venv/bin/python benchmarks/battle.py`. Each side mixes infantry, cavalry,
artillery and a Damaged platoon, half rolling for attack and half for defence; the
defender is fortified. Every probability is an exact Rational; the script checks that
the outcomes add up to 1. The first run of a size includes counting its dice.
"""

import time

from rulesref.campaign import Battle, Platoon, Side
from rulesref.odds.battle import battle_odds

MIX = (Platoon(), Platoon("cavalry"), Platoon("artillery"), Platoon(state="damaged"))


def side(platoons: int, *, fortified: bool = False) -> Side:
    members = [MIX[i % len(MIX)] for i in range(platoons)]
    rolls = ["attack" if i % 2 == 0 else "defence" for i in range(platoons)]
    return Side(members, rolls, fortified=fortified)


def main() -> None:
    print(f"{'battle':>10}  {'seconds':>8}  {'P(attacker wins)':>16}  {'E[hits on defender]':>19}")
    for size in (2, 10, 50, 200):
        battle = Battle(side(size), side(size, fortified=True))
        start = time.perf_counter()
        odds = battle_odds(battle)
        seconds = time.perf_counter() - start
        assert sum(odds.outcomes.values()) == 1
        wins, hits = odds.victor["attacker"], odds.expected_hits("defender")
        print(f"{size:>4} v {size:<4}  {seconds:8.4f}  {float(wins):16.4f}  {float(hits):19.3f}")
    big = Battle(Side([Platoon()] * 200), Side([Platoon()] * 200))  # 400 dice in one total
    start = time.perf_counter()
    battle_odds(big)
    print(f"200 v 200, all attack against all defence: {time.perf_counter() - start:.4f} s")


if __name__ == "__main__":
    main()
