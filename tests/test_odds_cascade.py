"""The exact cascade's limits on its work (`rulesref.odds.cascade`): every force the limits
accept is answered, and the others are refused up front, by name. (The cascade's
brute-force tests are in tests/test_leadership.py.)"""

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesref.errors import RulesError
from rulesref.leadership import MAX_CASCADE_TESTS, Command, Doctrine, Force, Leader, Unit
from rulesref.odds import cascade
from rulesref.odds.cascade import cascade_probabilities


def leaders_in_every_unit(units, commands, rerolls):
    """The worst shape known: each testing unit carries a leader of its own rank and
    Leadership, half of them preferred (LD-C8), so that a command may end with any of them
    as its senior figure."""
    every = Doctrine(rerolls)
    force, casualties, prefer = [], {}, []
    for c in range(commands):
        squads, leaders = [], []
        for k in range(c * units // commands, (c + 1) * units // commands):
            squads.append(Unit(f"u{k}", 10, 2 + k % 5, doctrine=every))
            leaders.append(Leader(f"l{k}", 2 + (k // 2) % 5, 1 + (k // 10) % 100, f"u{k}"))
            prefer += [f"l{k}"] if k % 2 else []
            casualties[f"u{k}"] = 6
        force.append(Command(f"c{c}", squads, leaders, every))
    return Force(force, doctrine=every), casualties, prefer


@pytest.mark.parametrize("units, commands, rerolls", [(1000, 2, 10), (1000, 1, 0), (1000, 2, 0)])
def test_the_worst_shape_at_the_limit_of_tests_is_refused_up_front(units, commands, rerolls):
    force, casualties, prefer = leaders_in_every_unit(units, commands, rerolls)
    begin = time.process_time()
    with pytest.raises(RulesError, match=r"^casualties must leave the exact cascade at most "):
        cascade_probabilities(force, casualties, prefer=prefer)
    assert time.process_time() - begin < 1  # refused before any polynomial is made


def test_the_refusal_names_the_limit_and_the_figure():
    force, casualties, prefer = leaders_in_every_unit(1000, 2, 10)
    with pytest.raises(RulesError) as refusal:
        cascade_probabilities(force, casualties, prefer=prefer)
    assert f"{cascade.MAX_CASCADE_WORK:,} bits of work" in str(refusal.value)
    assert "from 1000 tests" in str(refusal.value)


def test_the_same_shape_under_the_limit_is_answered():
    force, casualties, prefer = leaders_in_every_unit(200, 2, 0)
    odds = cascade_probabilities(force, casualties, prefer=prefer)
    assert 0 < odds.force_breaks < 1
    assert all(0 <= p <= 1 for p in odds.unit_removed.values())


@settings(max_examples=12, deadline=None)
@given(
    st.integers(1, MAX_CASCADE_TESTS),
    st.sampled_from([1, 2, 4, 50]),
    st.sampled_from([0, 1, 10]),
)
def test_forces_near_the_limits_are_answered_or_refused_by_name(units, commands, rerolls):
    """Either the estimate refuses the force before any work, or it is answered, as a
    probability; the estimate alone decides which."""
    force, casualties, prefer = leaders_in_every_unit(units, min(commands, units), rerolls)
    after = {unit.name: unit.models - casualties.get(unit.name, 0) for unit in force.units}
    parts = [cascade._testing(command, after, frozenset(prefer)) for command in force.commands]
    if cascade._work(parts, False) > cascade.MAX_CASCADE_WORK:
        with pytest.raises(RulesError, match="^casualties must leave the exact cascade"):
            cascade_probabilities(force, casualties, prefer=prefer)
    elif units <= 120:  # answered in a test's time; bigger ones: benchmarks/cascade.py
        odds = cascade_probabilities(force, casualties, prefer=prefer)
        assert 0 <= odds.force_breaks <= 1


@pytest.mark.parametrize("keep", [False, True])
def test_sums_and_packed_products_give_the_same_cascade(monkeypatch, keep):
    """Long levels of alike units (a dozen at one claim) and many figures: every product
    and correlation packed, then every one summed term by term; the answers agree."""
    from rulesref import counts
    from rulesref.leadership import Readings

    force, casualties, prefer = leaders_in_every_unit(24, 2, 1)
    squads = [Unit(f"s{k}", 10, 4, doctrine=Doctrine(1)) for k in range(12)]
    force = Force([*force.commands, Command("alike", squads, [Leader("Lt", 3, 2)])])
    casualties |= {f"s{k}": 6 for k in range(12)}
    readings = Readings(removed_figures_survive=keep)
    answers = []
    for sums in (0, 10**9):
        monkeypatch.setattr(counts, "_SUMS_PER_COEFFICIENT", sums)
        answers.append(cascade_probabilities(force, casualties, prefer=prefer, readings=readings))
    assert answers[0] == answers[1]
    assert 0 < answers[0].force_breaks < 1
