"""The "Army Standard" rules (ST-1 to ST-13, clarifications ST-C1 to ST-C8): each clause on
its own example, every possible round enumerated against the published decision table
and diagram, impossible rounds refused, and hypothesis properties."""

import contextlib
import io
import re
from collections import Counter
from dataclasses import replace
from html.parser import HTMLParser
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesref.clauses import CLAUSES, Document
from rulesref.errors import RulesError
from rulesref.standards import (
    ARMY_STEPS,
    REGIMENTAL_STEPS,
    Character,
    Fate,
    Readings,
    Round,
    Standard,
    Troops,
    UnitFate,
    Victor,
    decision_path,
    every_round,
    first_step,
    standard_fate,
)
from rulesref.views.standards import (
    VICTOR_LABELS,
    decision_svg,
    decision_table_html,
    table_groups,
)

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs/rules/army-standard.md"
ROUNDS_PAGE = ROOT / "docs/army-standard-rounds.md"  # the complete decision table
ST_IDS = [e.id for e in CLAUSES.values() if e.document is Document.ST and not e.clarification]
CHOICES = {
    "regimental_standard": (True, False),
    "army_standard": (True, False),
    "alone": (True, False),
    "troops": tuple(Troops),
    "unit": (*UnitFate, None),
    "character": (*Character, None),
    "victor": tuple(Victor),
}
ALL_ROUNDS = list(every_round())


WORDS = Readings(free_to_pursue_suffices=True)  # ST-C1 read by the words of ST-7, ST-8


def fates(r: Round, readings: Readings = Readings()) -> list[tuple[str, str]]:
    return [(v.fate.value, v.clause) for v in standard_fate(r, readings=readings)]


def asb(unit, character, victor=Victor.FREE, troops=Troops.NORMAL, regimental=True) -> Round:
    return Round(
        regimental_standard=regimental,
        army_standard=True,
        troops=troops,
        unit=unit,
        character=character,
        victor=victor,
    )


def lone(character, victor=Victor.FREE, troops=Troops.NORMAL) -> Round:
    return Round(
        regimental_standard=False,
        army_standard=True,
        alone=True,
        troops=troops,
        character=character,
        victor=victor,
    )


# Each clause on its own


def test_st1_a_broken_unit_loses_its_standard_to_a_pursuer():
    assert fates(Round(unit=UnitFate.BREAKS, victor=Victor.PURSUES)) == [("captured", "ST-1")]
    assert fates(Round(unit=UnitFate.BREAKS, victor=Victor.FREE)) == [("lost", "ST-1")]
    assert fates(Round(unit=UnitFate.BREAKS, victor=Victor.TIED)) == [("lost", "ST-1")]
    assert fates(Round(unit=UnitFate.HOLDS)) == [("kept", "ST-1")]
    (verdict,) = standard_fate(Round(unit=UnitFate.BREAKS, victor=Victor.PURSUES))
    assert verdict.by == "the pursuer" and "trampled" not in verdict.reason


def test_st2_psychology_never_costs_a_standard():
    for victor in Victor:
        assert fates(Round(unit=UnitFate.PANICS, victor=victor)) == [("kept", "ST-2")]
        panicked = asb(UnitFate.PANICS, Character.PANICS, victor)
        assert fates(panicked) == [("kept", "ST-2"), ("kept", "ST-2")]
        assert fates(lone(Character.PANICS, victor)) == [("kept", "ST-2")]


def test_st3_a_unit_destroyed_outright_to_a_free_victor():
    (free,) = standard_fate(Round(unit=UnitFate.DESTROYED, victor=Victor.FREE))
    assert (free.fate, free.clause, free.by) == (
        Fate.CAPTURED,
        "ST-3",
        "a victorious unit",
    )
    assert fates(Round(unit=UnitFate.DESTROYED, victor=Victor.TIED)) == [("lost", "ST-3")]
    for troops in Troops:
        assert fates(Round(troops=troops, unit=UnitFate.DESTROYED)) == [("captured", "ST-3")]


def test_st4_undead_that_crumble_or_are_wiped_out():
    for unit in (UnitFate.CRUMBLES, UnitFate.WIPED_OUT):
        free = Round(troops=Troops.UNDEAD, unit=unit, victor=Victor.FREE)
        assert fates(free) == [("captured", "ST-4")]
        assert fates(replace(free, victor=Victor.TIED)) == [("lost", "ST-4")]
        killed = replace(free, character=Character.KILLED)  # nobody remains: still ST-4
        assert fates(killed) == [("captured", "ST-4")]


def test_st5_the_undead_character_who_outlives_his_regiment():
    for unit in (UnitFate.DESTROYED, UnitFate.CRUMBLES, UnitFate.WIPED_OUT):
        base = Round(troops=Troops.UNDEAD, unit=unit, victor=Victor.FREE)
        assert fates(replace(base, character=Character.STANDS)) == [("lost", "ST-5")]
        for gone in (Character.BREAKS, Character.CRUMBLES):
            assert fates(replace(base, character=gone)) == [("captured", "ST-5")]
            tied = replace(base, character=gone, victor=Victor.TIED)
            assert fates(tied) == [("lost", "ST-5")]
        fled = replace(base, character=Character.BREAKS, victor=Victor.PURSUES)
        assert fates(fled) == [("captured", "ST-5")]


def test_st6_a_lone_asb():
    assert fates(lone(Character.KILLED, Victor.FREE)) == [("captured", "ST-6")]
    assert standard_fate(lone(Character.KILLED))[0].by == "the unit that killed him"
    assert fates(lone(Character.KILLED, Victor.TIED)) == [("lost", "ST-6")]
    for troops in Troops:
        assert fates(lone(Character.STANDS, troops=troops)) == [("kept", "ST-6")]
        assert fates(lone(Character.KILLED, troops=troops)) == [("captured", "ST-6")]


def test_st7_asb_alive_his_unit_breaks():
    pursued = asb(UnitFate.BREAKS, Character.BREAKS, Victor.PURSUES)
    assert fates(pursued) == [("captured", "ST-1"), ("captured", "ST-7")]
    assert standard_fate(pursued)[1].by == "the pursuer"
    for victor in (Victor.FREE, Victor.TIED):
        stays = asb(UnitFate.BREAKS, Character.BREAKS, victor, regimental=False)
        assert fates(stays) == [("lost", "ST-7")]


def test_st8_asb_killed_as_his_unit_breaks():
    killed = asb(UnitFate.BREAKS, Character.KILLED, Victor.PURSUES)
    assert fates(killed) == [("captured", "ST-1"), ("captured", "ST-8")]
    assert fates(replace(killed, victor=Victor.TIED)) == [("lost", "ST-1"), ("lost", "ST-8")]


def test_st9_asb_killed_his_unit_holds():
    for victor in (Victor.FREE, Victor.TIED):
        held = asb(UnitFate.HOLDS, Character.KILLED, victor)
        assert fates(held) == [("kept", "ST-1"), ("lost", "ST-9")]


def test_st10_asb_in_a_unit_that_does_not_break_normally():
    slayers = asb(UnitFate.DESTROYED, Character.KILLED, Victor.FREE, Troops.IMMUNE)
    assert fates(slayers) == [("captured", "ST-3"), ("captured", "ST-10")]
    tied = replace(slayers, victor=Victor.TIED)
    assert fates(tied) == [("lost", "ST-3"), ("lost", "ST-10")]
    fighting_on = asb(UnitFate.HOLDS, Character.KILLED, Victor.FREE, Troops.IMMUNE)
    assert fates(fighting_on) == [("kept", "ST-C3"), ("lost", "ST-10")]


def test_st11_wight_asb_destroyed_with_his_unit():
    for unit in (UnitFate.DESTROYED, UnitFate.CRUMBLES, UnitFate.WIPED_OUT):
        wight = asb(unit, Character.CRUMBLES, Victor.FREE, Troops.UNDEAD)
        assert fates(wight) == [("captured", "ST-5"), ("captured", "ST-11")]
        tied = replace(wight, victor=Victor.TIED)
        assert fates(tied) == [("lost", "ST-5"), ("lost", "ST-11")]


def test_st12_wight_asb_lost_while_his_unit_fights_on():
    for wight in (Character.KILLED, Character.CRUMBLES):
        for victor in (Victor.FREE, Victor.TIED):
            fighting_on = asb(UnitFate.HOLDS, wight, victor, Troops.UNDEAD)
            assert fates(fighting_on) == [("kept", "ST-C3"), ("lost", "ST-12")]


def test_st13_wight_asb_left_alone():
    for unit in (UnitFate.DESTROYED, UnitFate.CRUMBLES, UnitFate.WIPED_OUT):
        survivor = asb(unit, Character.STANDS, Victor.FREE, Troops.UNDEAD)
        assert fates(survivor) == [("lost", "ST-5"), ("kept", "ST-13")]
    # from then on he is an ASB fighting alone (ST-6)
    assert fates(lone(Character.KILLED, Victor.TIED, Troops.UNDEAD)) == [("lost", "ST-6")]


# The clarifications


def test_stc1_a_fleeing_unit_needs_a_pursuer_unless_free_suffices():
    for victor, default, other in [
        (Victor.PURSUES, "captured", "captured"),
        (Victor.FREE, "lost", "captured"),
        (Victor.TIED, "lost", "lost"),
    ]:
        for r in (  # ST-7, ST-8: the words say "free to pursue"
            asb(UnitFate.BREAKS, Character.BREAKS, victor),
            asb(UnitFate.BREAKS, Character.KILLED, victor),
        ):
            assert {fate for fate, _ in fates(r)} == {default}
            assert {fate for fate, _ in fates(r, WORDS)} == {other}
        for r in (  # ST-1, and a lone ASB as ST-1 (ST-C4): "pursues", in either reading
            Round(unit=UnitFate.BREAKS, victor=victor),
            lone(Character.BREAKS, victor),
        ):
            assert {fate for fate, _ in fates(r)} == {default}
            assert {fate for fate, _ in fates(r, WORDS)} == {default}


def test_stc1_the_other_reading_changes_only_st7_and_st8():
    for r in ALL_ROUNDS:
        ours, theirs = standard_fate(r), standard_fate(r, readings=WORDS)
        changed = [(a.fate, b.fate) for a, b in zip(ours, theirs, strict=True) if a != b]
        if changed:
            assert r.victor is Victor.FREE and r.army_standard and not r.alone
            assert theirs[-1].clause in ("ST-7", "ST-8")  # the army standard
            # and the regimental one: ST-1 never hands a standard to a victor that stays
            assert {b.clause for a, b in zip(ours, theirs, strict=True) if a != b} <= {
                "ST-7",
                "ST-8",
            }
            assert set(changed) == {(Fate.LOST, Fate.CAPTURED)}


def test_stc1_who_takes_a_standard_agrees_with_the_reason():
    for readings in (Readings(), WORDS):
        for r in ALL_ROUNDS:
            for v in standard_fate(r, readings=readings):
                assert (v.by is None) == (v.fate is not Fate.CAPTURED)
                if v.by == "the pursuer":
                    assert r.victor is Victor.PURSUES and "the victor pursues" in v.reason
                if v.fate is Fate.CAPTURED and r.victor is not Victor.PURSUES:
                    assert "pursuer" not in v.by


def test_stc2_a_tied_victor_never_captures():
    for r in ALL_ROUNDS:
        if r.victor is Victor.TIED:
            assert all(v.fate is not Fate.CAPTURED for v in standard_fate(r))
    for unit in (UnitFate.DESTROYED, UnitFate.CRUMBLES, UnitFate.WIPED_OUT):
        tied = Round(troops=Troops.UNDEAD, unit=unit, victor=Victor.TIED)
        assert [fate for fate, _ in fates(tied)] == ["lost"]


def test_stc3_units_that_never_break_keep_their_standards_until_destroyed():
    slayers = asb(UnitFate.HOLDS, Character.STANDS, Victor.FREE, Troops.IMMUNE)
    assert fates(slayers) == [("kept", "ST-C3"), ("kept", "ST-C3")]
    skeletons = Round(troops=Troops.UNDEAD, unit=UnitFate.HOLDS, character=Character.CRUMBLES)
    assert fates(skeletons) == [("kept", "ST-C3")]
    for r in ALL_ROUNDS:
        if r.troops is not Troops.NORMAL and not r.alone and not r.unit_destroyed:
            for v in standard_fate(r):
                if v.standard is Standard.REGIMENTAL:
                    assert v.fate is Fate.KEPT


def test_stc4_a_lone_asb_who_is_not_killed():
    assert fates(lone(Character.STANDS)) == [("kept", "ST-6")]
    assert fates(lone(Character.BREAKS, Victor.PURSUES)) == [("captured", "ST-1")]
    assert fates(lone(Character.BREAKS, Victor.FREE)) == [("lost", "ST-1")]
    assert fates(lone(Character.CRUMBLES, troops=Troops.UNDEAD)) == [("captured", "ST-6")]


def test_stc5_destroyed_takes_the_asb_with_it_except_undead():
    """ST-C5: a unit destroyed outright takes its ASB with it (ST-3 for both standards);
    only an Undead one may leave its character standing."""
    cut_down = asb(UnitFate.DESTROYED, Character.KILLED)
    assert fates(cut_down) == [("captured", "ST-3"), ("captured", "ST-3")]
    for troops in (Troops.NORMAL, Troops.IMMUNE):
        with pytest.raises(RulesError, match="^character must be one of KILLED"):
            asb(UnitFate.DESTROYED, Character.STANDS, troops=troops)
    assert asb(UnitFate.DESTROYED, Character.STANDS, troops=Troops.UNDEAD)


def test_stc6_wight_asb_killed_as_his_regiment_is_destroyed():
    """ST-C6: a Wight ASB killed as his regiment is destroyed is ST-10's case."""
    for unit in (UnitFate.DESTROYED, UnitFate.CRUMBLES, UnitFate.WIPED_OUT):
        both_fall = asb(unit, Character.KILLED, Victor.FREE, Troops.UNDEAD, regimental=False)
        assert fates(both_fall) == [("captured", "ST-10")]
        assert fates(replace(both_fall, victor=Victor.TIED)) == [("lost", "ST-10")]


def test_stc7_asb_killed_while_his_unit_flees_from_panic():
    """ST-C7: an ASB killed while his unit flees from Panic: the army standard is lost (ST-9)."""
    panic = asb(UnitFate.PANICS, Character.KILLED, Victor.PURSUES)
    assert fates(panic) == [("kept", "ST-2"), ("lost", "ST-9")]


# ST-C8: rounds that cannot happen, refused by name


@pytest.mark.parametrize(
    "circumstances, name",
    [
        ({"regimental_standard": False}, "regimental_standard and army_standard"),
        ({"unit": UnitFate.HOLDS, "alone": True, "army_standard": True}, "alone"),
        (
            {"regimental_standard": False, "army_standard": True, "alone": True},
            "character",
        ),
        (
            {
                "regimental_standard": False,
                "army_standard": True,
                "alone": True,
                "unit": UnitFate.HOLDS,
                "character": Character.KILLED,
            },
            "unit",
        ),
        ({"unit": None}, "unit"),
        ({"troops": Troops.IMMUNE, "unit": UnitFate.BREAKS}, "unit"),
        ({"troops": Troops.IMMUNE, "unit": UnitFate.PANICS}, "unit"),
        ({"troops": Troops.UNDEAD, "unit": UnitFate.PANICS}, "unit"),
        ({"unit": UnitFate.CRUMBLES}, "unit"),
        ({"army_standard": True, "unit": UnitFate.HOLDS}, "character"),
        ({"unit": UnitFate.HOLDS, "character": Character.STANDS}, "character"),
        (
            {
                "army_standard": True,
                "unit": UnitFate.DESTROYED,
                "troops": Troops.UNDEAD,
                "character": Character.BREAKS,
            },
            "character",
        ),
        (
            {"unit": UnitFate.HOLDS, "troops": Troops.UNDEAD, "character": Character.BREAKS},
            "character",
        ),
        (
            {"army_standard": True, "unit": UnitFate.BREAKS, "character": Character.STANDS},
            "character",
        ),
        ({"unit": UnitFate.DESTROYED, "victor": Victor.PURSUES}, "victor"),
        ({"unit": UnitFate.HOLDS, "troops": "Undead"}, "troops"),
        ({"unit": UnitFate.HOLDS, "army_standard": 1}, "army_standard"),
        ({"unit": "holds"}, "unit"),
        ({"unit": UnitFate.HOLDS, "victor": None}, "victor"),
    ],
)
def test_stc8_impossible_rounds_are_refused_by_name(circumstances, name):
    with pytest.raises(RulesError, match=f"^{re.escape(name)} must") as error:
        Round(**circumstances)
    assert isinstance(error.value, ValueError)


def test_standard_fate_wants_a_round():
    with pytest.raises(RulesError, match="^r must be a Round"):
        standard_fate({"unit": UnitFate.HOLDS})


# Every round that can happen


def test_every_round_is_exactly_the_set_of_valid_combinations():
    """Brute force over every value of every field: a combination either is refused or is
    listed by `every_round`, once."""
    valid = []
    for values in product(*CHOICES.values()):
        try:
            valid.append(Round(**dict(zip(CHOICES, values, strict=True))))
        except RulesError:
            continue
    assert len(ALL_ROUNDS) == len(set(ALL_ROUNDS)) == 171
    assert set(valid) == set(ALL_ROUNDS)


def test_each_round_has_exactly_one_fate_per_standard_present():
    for r in ALL_ROUNDS:
        verdicts = standard_fate(r)
        present = [Standard.REGIMENTAL] * r.regimental_standard + [Standard.ARMY] * r.army_standard
        assert [v.standard for v in verdicts] == present
        for v in verdicts:
            assert isinstance(v.fate, Fate) and v.reason
            assert re.fullmatch(r"ST-C?\d+", v.clause)
            assert (v.by is not None) == (v.fate is Fate.CAPTURED)


def test_every_clause_decides_at_least_one_round():
    decided = Counter(v.clause for r in ALL_ROUNDS for v in standard_fate(r))
    assert set(ST_IDS) <= set(decided), set(ST_IDS) - set(decided)
    assert set(decided) <= set(ST_IDS) | {"ST-C3"}


def test_every_clause_of_the_clause_list_is_implemented_and_published():
    assert ST_IDS == [f"ST-{n}" for n in range(1, 14)]
    answered = {step.clause for step in (*REGIMENTAL_STEPS, *ARMY_STEPS)}
    page = PAGE.read_text()
    assert answered == {*ST_IDS, "ST-C3"}
    for clause in ST_IDS:
        assert f"### {clause} · " in page and f"{{#{clause.lower()}}}" in page


class _Table(HTMLParser):
    """The rows of the published decision table, as lists of cell texts."""

    def __init__(self):
        super().__init__()
        self.rows: list[list[str]] = []
        self.links: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self._cell = []
        elif tag == "a":
            self.links.append(dict(attrs)["href"])

    def handle_endtag(self, tag):
        if tag == "td":
            self.rows[-1].append(" ".join(" ".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _build_time_blocks(page: Path = PAGE) -> list[str]:
    """The output of each build-time block of a page, as markdown-exec runs it."""
    outputs = []
    for code in re.findall(r'```python exec="on" html="1"\n(.*?)```', page.read_text(), re.S):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(code, {})
        outputs.append(buffer.getvalue())
    return outputs


def test_the_published_table_is_the_codes_answer():
    tables = [out for out in _build_time_blocks(ROUNDS_PAGE) if "<table>" in out]
    assert tables == [decision_table_html(rules_page="../rules/army-standard/") + "\n"]
    parser = _Table()
    parser.feed(tables[0])
    rows = [row for row in parser.rows if row]  # header rows have no <td>
    assert len(rows) == len(ALL_ROUNDS)
    expected = [
        [f"{r.label} victor: {VICTOR_LABELS[r.victor]}"]
        + [f"{v.fate.value} {v.clause}" for v in standard_fate(r)]
        for _, rounds in table_groups()
        for r in rounds
    ]
    assert rows == expected
    assert sum(len(rounds) for _, rounds in table_groups()) == len(ALL_ROUNDS)
    rules_page = "../rules/army-standard/"
    assert set(parser.links) == {f"{rules_page}#{c.lower()}" for c in [*ST_IDS, "ST-C3"]}
    anchors = set(re.findall(r"\{#([a-z0-9-]+)\}", PAGE.read_text()))
    assert {link.removeprefix(rules_page + "#") for link in parser.links} <= anchors


def test_labels_tell_every_round_of_a_group_apart():
    for title, rounds in table_groups():
        assert rounds, title
        assert len({(r.label, r.victor) for r in rounds}) == len(rounds), title


def test_the_steps_decide_and_every_step_decides_some_round():
    """The first step answered "yes" gives the verdict, and no step is dead."""
    for r in ALL_ROUNDS:
        for v in standard_fate(r):
            steps = REGIMENTAL_STEPS if v.standard is Standard.REGIMENTAL else ARMY_STEPS
            step = steps[first_step(steps, r)]
            assert step.clause == v.clause, (r, v)
            assert step.yes.verdict(v.standard, step.clause, r, Readings()) == v
    for steps, wants in ((REGIMENTAL_STEPS, "regimental_standard"), (ARMY_STEPS, "army_standard")):
        reached = {first_step(steps, r) for r in ALL_ROUNDS if getattr(r, wants)}
        assert reached == set(range(len(steps))), "a step no round reaches"


def test_decision_path_walks_the_diagram_to_the_deciding_clause():
    for r in ALL_ROUNDS:
        for v in standard_fate(r):
            *noes, yes = decision_path(r, v.standard)
            assert yes.endswith(f" yes: {v.clause}")
            assert all(step.endswith(" no") for step in noes)


def test_the_diagrams_are_offline_svg_with_clause_links():
    svgs = [out for out in _build_time_blocks() if "<svg" in out]
    assert svgs == [
        decision_svg(REGIMENTAL_STEPS, title="The regimental standard", name="st-regimental")
        + "\n"
        + decision_svg(ARMY_STEPS, title="The army standard", name="st-army")
        + "\n"
    ]
    assert "http://" not in svgs[0].replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in svgs[0]
    assert set(re.findall(r'href="#(st-c?\d+)"', svgs[0])) == {
        c.lower() for c in [*ST_IDS, "ST-C3"]
    }


# Hypothesis: any combination of circumstances is refused or answered consistently

rounds = st.builds(
    Round,
    regimental_standard=st.booleans(),
    army_standard=st.booleans(),
    alone=st.booleans(),
    troops=st.sampled_from(Troops),
    unit=st.sampled_from((*UnitFate, None)),
    character=st.sampled_from((*Character, None)),
    victor=st.sampled_from(Victor),
)


@given(st.data())
def test_any_round_is_refused_or_decided(data):
    try:
        r = data.draw(rounds)
    except RulesError:
        return
    assert r in set(ALL_ROUNDS)
    for v in standard_fate(r):
        if v.fate is Fate.CAPTURED:
            assert r.victor is not Victor.TIED  # ST-C2
        if r.unit is UnitFate.PANICS and v.standard is Standard.REGIMENTAL:
            assert v.fate is Fate.KEPT  # ST-2


@given(st.sampled_from(ALL_ROUNDS))
def test_a_keener_victor_never_does_worse(r):
    """Pursuing captures at least what standing free captures, which captures at least what
    a tied-down victor does."""
    order = [Victor.TIED, Victor.FREE, Victor.PURSUES]
    rank = {Fate.LOST: 0, Fate.KEPT: 0, Fate.CAPTURED: 1}
    for better in order[order.index(r.victor) + 1 :]:
        try:
            keener = replace(r, victor=better)
        except RulesError:
            continue
        for a, b in zip(standard_fate(r), standard_fate(keener), strict=True):
            assert rank[a.fate] <= rank[b.fate]
            assert (a.fate is Fate.KEPT) == (b.fate is Fate.KEPT)  # the victor cannot save it
