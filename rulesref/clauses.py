"""The clause registry: every clause and clarification id, its document, and its code.

This is the project's own list of ids (they never change and are never reused): each id
is the anchor of its rule on the site, and `code` names the functions and classes that
implement it, by qualified name, as OpenFisca's `reference` ties a variable to its law.
Titles are ours, the same as the headings on the rules pages.

```python
from rulesref.clauses import clause

rule = clause("BR-5")
print(rule.title, "|", rule.document.title, "|", rule.page)
#> A double 1 always holds | Break? | rules/break-test.md#br-5
print(rule.quick)
#> Double 1 on a Break test: the unit holds, whatever its Leadership.
for name in rule.code:
    print(name)
    #> rulesref.break_test.is_insane_courage
    #> rulesref.break_test.resolve_break_test
    #> rulesref.break_test.break_test_probability
```
"""

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from types import MappingProxyType

from rulesref.errors import RulesError

__all__ = ["CLAUSES", "Clause", "Document", "clause"]


class Document(Enum):
    """The four source documents, by the prefix of their ids; `None` where one is silent.

    `date` is ISO 8601 to the precision the document gives (the ST one is a revision);
    `copy` is our copy's file name, `page` the rules page that restates it.
    """

    BR = ("Break?", None, None, "004_0cc32f3aced8fc96.txt", "rules/break-test.md")
    LD = ("Leadership Tests", None, None, "000_180018a333809db2.txt", "rules/leadership.md")
    CA = (None, "Dylan", "2001-10-29", "001_a56d7721d8c2cbcd.txt", "rules/campaign.md")
    ST = (
        "Army Standard",
        "Tom Poston",
        "1998-05",
        "003_759bb4cac976918d.txt",
        "rules/army-standard.md",
    )

    def __init__(
        self, title: str | None, author: str | None, date: str | None, copy: str, page: str
    ) -> None:
        self.title = title
        self.author = author
        self.date = date
        self.copy = copy
        self.page = page


@dataclass(frozen=True)
class Clause:
    """One clause (`BR-5`) or clarification (`BR-C1`): our short title, its code, and
    `quick`, the player's question it answers, answered in one line of our words
    (`rules.json` and `llms.txt` publish it; the printed sheet keeps the titles, which fit
    its one page).

    A clarification with no `code` is a pure reading of the text: nothing to compute.
    """

    id: str
    title: str
    code: tuple[str, ...] = ()
    quick: str = ""

    @property
    def document(self) -> Document:
        return Document[self.id.partition("-")[0]]

    @property
    def clarification(self) -> bool:
        return "-C" in self.id

    @property
    def anchor(self) -> str:
        return self.id.lower()

    @property
    def page(self) -> str:
        """The rule's place on the site, from the docs folder: `rules/break-test.md#br-5`."""
        return f"{self.document.page}#{self.anchor}"

    def implementations(self) -> tuple[object, ...]:
        """The objects `code` names, imported."""
        found = []
        for name in self.code:
            module, _, attribute = name.rpartition(".")
            found.append(getattr(importlib.import_module(module), attribute))
        return tuple(found)


_BR = "rulesref.break_test."
_LD = "rulesref.leadership."
_CA = "rulesref.campaign."
_ST = "rulesref.standards."
_CASCADE = "rulesref.odds.cascade."  # the exact odds of the LD rules


def _entries(module: str, *rows: tuple[str, str, str]) -> list[Clause]:
    """Clauses of one module: (id, title, the names in `module` that implement it, or
    qualified names of another module, such as its exact odds)."""
    return [
        Clause(id, title, tuple(_qualified(module, name) for name in code.split()))
        for id, title, code in rows
    ]


def _qualified(module: str, name: str) -> str:
    """A name in `module`, unless it is written in full (a name that moved: `rulesref.odds...`)."""
    return name if name.startswith("rulesref.") else module + name


_ALL = [
    *_entries(
        _BR,
        ("BR-1", "The loser tests", "takes_break_test"),
        ("BR-2", "Leadership drops by the margin of defeat", "modified_leadership"),
        (
            "BR-3",
            "Roll 2D6 against the modified Leadership",
            "resolve_break_test break_test_probability",
        ),
        ("BR-4", "The modified value lasts for one test", "reform_test_probability"),
        (
            "BR-5",
            "A double 1 always holds",
            "is_insane_courage resolve_break_test break_test_probability",
        ),
        ("BR-6", "Steadfast units ignore the margin", "is_steadfast modified_leadership"),
        ("BR-7", "What counts as a rank", "ranks"),
        ("BR-8", "Several units on a side", "is_steadfast"),
        ("BR-9", "Disrupted units count Unit Strength only", "usable_ranks"),
        ("BR-10", "Skirmishers count Unit Strength only", "usable_ranks"),
        ("BR-11", "Who reforms first", "reform_order"),
        ("BR-12", "Engaged on two facings: no reform", "reform_permission"),
        ("BR-13", "Winners and draws reform freely", "reform_permission"),
        ("BR-14", "What a combat reform may and may not do", "check_combat_reform"),
        ("BR-15", "Reforming after a defeat", "reform_permission reform_test_probability"),
        ("BR-C1", "Disrupted units: the rule text wins over the picture caption", "usable_ranks"),
        ("BR-C2", "The Unit Strength 10 floor with several units", "is_steadfast"),
        ("BR-C3", "No Insane Courage on the reform test", "reform_test_probability"),
        ("BR-C4", "An enemy that is Disrupted still counts its ranks", "is_steadfast"),
        ("BR-C5", "A draw is not a loss", "takes_break_test"),
        ("BR-C6", "Modified Leadership is not capped", "modified_leadership"),
        ("BR-C7", "Equal is not more", "is_steadfast"),
        ("BR-C8", "An enemy of Skirmishers has no ranks to count", "is_steadfast"),
        ("BR-C9", "A Disrupted unit shares its companions' ranks", "is_steadfast"),
    ),
    *_entries(
        _LD,
        (
            "LD-1",
            "One d6 against a target",
            "leadership_target leadership_test_probability failing_rolls",
        ),
        ("LD-2", "A unit tests on its best model", "best_leadership Unit unit_target"),
        (
            "LD-3",
            "Commands and forces test on their senior figure",
            "Leader figure_claim unit_claim independent_claim",
        ),
        (
            "LD-4",
            "From the bottom of the chain upward",
            f"resolve_phase {_CASCADE}cascade_probabilities",
        ),
        ("LD-5", "Falling below half", "models_left break_test_trigger must_take_break_test"),
        (
            "LD-6",
            "Hit again while below half",
            "below_half break_test_trigger must_take_break_test",
        ),
        (
            "LD-7",
            "At the end of the phase; Doctrines; removal",
            "Doctrine rolls_of_a_test failing_rolls leadership_test_probability unit_tests",
        ),
        ("LD-8", "What a command is", "Command"),
        ("LD-9", "When a command tests", "command_must_test command_test"),
        ("LD-10", "A failed command leaves the table", "command_test"),
        (
            "LD-11",
            "When the force tests",
            "Force force_must_test losses_to_fall_below_half force_test",
        ),
        ("LD-12", "A broken force loses", "force_test"),
        ("LD-C1", "The best Leadership is the easiest target", "best_leadership"),
        (
            "LD-C2",
            "Below half means strictly below; one test per phase",
            "below_half losses_to_fall_below_half",
        ),
        (
            "LD-C3",
            "A unit removed by a failed test counts for its command at once",
            "command_test",
        ),
        ("LD-C4", "A removed command's units count for the force at once", "force_test"),
        ("LD-C5", "A figure in a removed unit no longer survives", "Readings command_test"),
        ("LD-C6", "Re-rolls first, then ignoring", "failing_rolls leadership_test_probability"),
        (
            "LD-C7",
            "Nothing left, nothing to test",
            "below_half unit_tests command_test force_test",
        ),
        (
            "LD-C8",
            "Equal ranks: the best Leadership, unless the player says otherwise",
            "figure_claim preferred_figures",
        ),
        ("LD-C9", "Ordinary models are the lowest-ranked figures", "Leader unit_claim"),
        # A statement of scope (commands directly under the force): nothing to compute.
        ("LD-C10", "Two levels: commands, then the force", ""),
    ),
    *_entries(
        _CA,
        ("CA-1", "Play it out, or roll for it", "resolve_battle"),
        ("CA-2", "One die per platoon, declared before rolling", "Side Battle declared_rolls"),
        ("CA-3", "Artillery", "artillery_modifier"),
        ("CA-4", "Cavalry in the attack", "cavalry_modifier"),
        ("CA-5", "The defending army", "defender_modifier"),
        ("CA-6", "Fortifications", "fortified_modifier"),
        ("CA-7", "Mountain hex", "mountain_modifier"),
        ("CA-8", "Damaged platoons", "damaged_modifier"),
        ("CA-9", "FUBAR platoons always roll a 1", "explain_roll RollExplanation"),
        ("CA-10", "No cavalry dice in mountains or woods", "cavalry_barred"),
        ("CA-11", "Out of supply", "supply_modifier"),
        ("CA-12", "Totals and Battle Damage", "battle_damage rulesref.odds.battle.hits_odds"),
        ("CA-13", "Every full six is a hit", "hits_from_damage"),
        ("CA-14", "The damage scale", "Platoon assign_hits after_hits"),
        (
            "CA-15",
            "The owner assigns the hits",
            "assign_hits fewest_withdrawals fewest_withdrawals_order most_withdrawals "
            "most_withdrawals_order hit_order",
        ),
        ("CA-16", "More hits than platoons can take: a rout", "assign_hits after_hits driven_off"),
        ("CA-17", "More withdrawals lose", "verdict LeadershipCheck"),
        (
            "CA-18",
            "Level on withdrawals: the greater Battle Damage wins",
            "verdict LeadershipCheck",
        ),
        ("CA-19", "Leaving of one's own accord", "may_withdraw_voluntarily"),
        (
            "CA-20",
            "A garrison surrenders only when spent",
            "garrison_tests_for_surrender after_hits verdict fates",
        ),
        ("CA-21", "A supplied stronghold saves up for repairs", "garrison_turn"),
        ("CA-22", "The HQ fights as two Command platoons", "mission_hq"),
        ("CA-23", "A busy HQ cuts the army's supply", "army_supply out_of_supply"),
        ("CA-24", "After the HQ surrenders", "after_hq_surrender army_supply"),
        ("CA-C1", "The damage scale has four steps", "Platoon"),
        ("CA-C2", "Modifiers apply to a FUBAR platoon's 1", "explain_roll Readings"),
        (
            "CA-C3",
            "Negative Battle Damage: no hits, but it still counts",
            "battle_damage hits_from_damage",
        ),
        ("CA-C4", "Modified rolls are not clamped", "Readings"),
        ("CA-C5", "The leadership check is 2D6 against Leadership 7 by default", "LeadershipCheck"),
        ("CA-C6", "Level on withdrawals and on Battle Damage: a drawn battle", "verdict"),
        ("CA-C7", "If both sides are driven off, nobody wins", "driven_off"),
        ("CA-C8", "A side with no platoon left loses, without a rout", "after_hits driven_off"),
        (
            "CA-C9",
            "Odds assume the fewest withdrawals",
            "fewest_withdrawals fewest_withdrawals_order rulesref.odds.battle.battle_odds",
        ),
        ("CA-C10", "Forest and woods are one terrain", "Battle Readings"),
        ("CA-C11", "Both armies in a mountain hex get the bonus", "mountain_modifier Readings"),
        ("CA-C12", "Cavalry that may not roll is still in the battle", "cavalry_barred"),
        ("CA-C13", "Which withdrawals are compared", "AfterHits after_hits"),
        ("CA-C14", "A garrison that loses without testing holds", "garrison_tests_for_surrender"),
        ("CA-C15", "A repair costs one banked point per step", "garrison_turn"),
        ("CA-C16", "When the HQ's supply cut starts and ends", "army_supply"),
        ("CA-C17", "When the HQ surrenders", "hq_surrenders"),
        ("CA-C18", "Battle Damage is attack minus defence", "battle_damage Readings"),
    ),
    *_entries(
        _ST,
        ("ST-1", "A unit that breaks gives up its standard", "regimental_steps"),
        ("ST-2", "Psychology never costs a standard", "regimental_steps lone_asb_steps"),
        ("ST-3", "A unit destroyed outright", "regimental_steps"),
        ("ST-4", "Undead that crumble or are wiped out", "regimental_steps"),
        ("ST-5", "The Undead character who outlives his regiment", "regimental_steps"),
        ("ST-6", "An Army Standard Bearer fighting alone", "lone_asb_steps"),
        ("ST-7", "The ASB's unit breaks around him", "asb_in_a_normal_unit_steps"),
        ("ST-8", "The ASB dies as his unit breaks", "asb_in_a_normal_unit_steps"),
        ("ST-9", "The ASB dies but his unit holds", "asb_in_a_normal_unit_steps"),
        (
            "ST-10",
            "The ASB in a unit that does not break normally",
            "asb_in_an_unbreakable_unit_steps",
        ),
        ("ST-11", "A Wight ASB destroyed with his unit", "asb_in_an_unbreakable_unit_steps"),
        (
            "ST-12",
            "A Wight ASB lost while his unit fights on",
            "asb_in_an_unbreakable_unit_steps",
        ),
        ("ST-13", "A Wight ASB left standing alone", "asb_in_an_unbreakable_unit_steps"),
        (
            "ST-C1",
            "A fleeing unit's standards go only to a victor that pursues",
            "needs_pursuit CapturedIfPursued Readings",
        ),
        ("ST-C2", "A tied-down victor cannot take a destroyed unit's standard", "CapturedIfFree"),
        (
            "ST-C3",
            "A unit that never breaks keeps its standards until it is destroyed",
            "regimental_steps asb_in_an_unbreakable_unit_steps",
        ),
        ("ST-C4", "A lone ASB who is not killed", "lone_asb_steps"),
        (
            "ST-C5",
            '"Destroyed" takes the characters with it, except Undead ones',
            "asb_in_a_normal_unit_steps",
        ),
        (
            "ST-C6",
            "A Wight ASB killed as his regiment is destroyed: ST-10",
            "asb_in_an_unbreakable_unit_steps",
        ),
        (
            "ST-C7",
            "An ASB killed while his unit flees from Panic: the army standard is lost",
            "asb_in_a_normal_unit_steps",
        ),
        ("ST-C8", "Rounds that cannot happen", "Round"),
    ),
]

# Each rule answered in one line, in our words, as a player asks it at the table.
_QUICK = {
    "BR-1": "Lost a round of combat (lower result)? Take a Break test; a draw tests nobody.",
    "BR-2": "Take the margin of defeat off your Leadership before you roll.",
    "BR-3": "Lost combat: roll 2D6 at or under Leadership minus the margin, or flee.",
    "BR-4": "The lowered Leadership lasts for this Break test and a reform after it only.",
    "BR-5": "Double 1 on a Break test: the unit holds, whatever its Leadership.",
    "BR-6": "Unit Strength 10+ and more ranks or Unit Strength than the enemy: no margin penalty.",
    "BR-7": "A rank counts with five or more models, the front rank included.",
    "BR-8": "Several units a side: compare the side's totals; all its units are Steadfast or none.",
    "BR-9": "Disrupted (flank or rear charged): only greater Unit Strength makes you Steadfast.",
    "BR-10": "Skirmishers: only greater Unit Strength makes them Steadfast, never ranks.",
    "BR-11": "Both sides want to reform: the loser goes first; after a draw, roll off.",
    "BR-12": "Fighting on two or more facings: no combat reform.",
    "BR-13": "Won the round (the enemy stayed) or drew: combat reform with no test.",
    "BR-14": "A combat reform may turn or widen the unit, but keeps every base contact it had.",
    "BR-15": "Lost but held: reform only after a Leadership test with the Break test's penalty.",
    "BR-C1": "A Disrupted unit claims Steadfast by Unit Strength only, whatever a caption shows.",
    "BR-C2": "Several units: the side as a whole needs Unit Strength 10.",
    "BR-C3": "A double 1 does not pass a reform test after a defeat.",
    "BR-C4": "A Disrupted enemy still counts its ranks against you.",
    "BR-C5": "A draw is no defeat: nobody takes a Break test.",
    "BR-C6": "Lowered Leadership can go below 2 or 0: then only a double 1 holds.",
    "BR-C7": "Equal ranks and equal Unit Strength: not Steadfast.",
    "BR-C8": "Skirmishers have no ranks, so an enemy of Skirmishers counts none against you.",
    "BR-C9": "A Disrupted unit is Steadfast with its side when its companions' ranks win.",
    "LD-1": "Leadership test: one d6 at or above the target (2+ to 6+) passes.",
    "LD-2": "A unit tests on the best Leadership among its models.",
    "LD-3": "A command or the force tests on its highest-ranking surviving figure.",
    "LD-4": "Test from the bottom up: units, then commands, then the force.",
    "LD-5": "A unit that drops below half its starting models in a phase tests.",
    "LD-6": "Below half already? Test in every phase in which it loses another model.",
    "LD-7": "Roll after the phase; a Doctrine may re-roll or ignore a failure; a failed unit goes.",
    "LD-8": "A command is the units under one leader at the start of the game.",
    "LD-9": "A command tests below half its starting units, or losing another while below half.",
    "LD-10": "A command that fails leaves the table with every unit it has left.",
    "LD-11": "The force tests below half its starting units, or losing another while below half.",
    "LD-12": "A force that fails leaves the table and its player loses.",
    "LD-C1": "On the d6 scale the best Leadership is the lowest target: 3+ beats 5+.",
    "LD-C2": "Exactly half is not below half; one test per phase at most.",
    "LD-C3": "A unit removed this phase counts as lost for its command's test this phase.",
    "LD-C4": "A command removed this phase counts as lost units for the force this phase.",
    "LD-C5": "A figure whose unit left the table no longer leads.",
    "LD-C6": "Re-roll failures first; a Doctrine that ignores failure then holds the test.",
    "LD-C7": "Nothing left to test: the unit, command or force is simply gone.",
    "LD-C8": "Several figures of the top rank: use the best Leadership, unless you name one.",
    "LD-C9": "No leader left: the command tests on its best surviving unit's Leadership.",
    "LD-C10": "Commands sit directly under the force, each unit in one command.",
    "CA-1": "Play the battle out as a game, or decide it with the dice system.",
    "CA-2": "Roll a d6 per platoon, each declared for attack or defence before rolling.",
    "CA-3": "Artillery: +2 to every roll, but -1 in forest.",
    "CA-4": "Cavalry: +1 on attack rolls only.",
    "CA-5": "The army attacked: +1 on each defence roll.",
    "CA-6": "Behind fortifications: +1 on each defence roll, on top of other bonuses.",
    "CA-7": "Mountain hex: +1 on each defence roll (both armies, CA-C11).",
    "CA-8": "Damaged platoon: -1 on each roll.",
    "CA-9": "A FUBAR platoon's die is always a 1.",
    "CA-10": "Cavalry rolls nothing in mountains or woods, but can still take hits.",
    "CA-11": "Out of supply: -1 on every roll.",
    "CA-12": "Battle Damage: your attack total minus the enemy's defence total.",
    "CA-13": "Each full 6 of Battle Damage is one hit on the enemy.",
    "CA-14": "Each hit: fresh to Damaged to FUBAR; a hit on a FUBAR platoon withdraws it.",
    "CA-15": "Each player places the hits on their own platoons.",
    "CA-16": "More hits than your platoons can take: routed, every platoon withdraws.",
    "CA-17": "The side that lost more platoons loses: pass a leadership check or withdraw.",
    "CA-18": "Equal platoons lost: the lower Battle Damage loses and checks; equal too, a draw.",
    "CA-19": "Once the victor is known, either army may leave the hex.",
    "CA-20": "A beaten garrison tests for surrender only when all its platoons are FUBAR.",
    "CA-21": "A supplied stronghold banks supply points to repair its platoons.",
    "CA-22": "An HQ attacked in its hex fights as two Command platoons.",
    "CA-23": "The HQ moves or fights: the army is out of supply until it rests a whole turn.",
    "CA-24": "HQ surrendered: concede, or fight on with no supply.",
    "CA-C1": "Fresh, Damaged, FUBAR, withdrawn: a fresh platoon withdraws on its third hit.",
    "CA-C2": "A FUBAR platoon's 1 still takes its modifiers.",
    "CA-C3": "Negative Battle Damage makes no hits but still counts for CA-18.",
    "CA-C4": "A modified roll below 0 counts as it is.",
    "CA-C5": "The leadership check: 2D6 at or under 7 (7/12).",
    "CA-C6": "Equal platoons lost and equal Battle Damage: a draw, nobody checks.",
    "CA-C7": "Both sides driven off: nobody wins.",
    "CA-C8": "A side left with no platoon loses, without the rout's extra move.",
    "CA-C9": "The odds place hits to withdraw as few platoons as possible.",
    "CA-C10": "Forest and woods are one terrain.",
    "CA-C11": "In a mountain hex both armies take the defence bonus.",
    "CA-C12": "Cavalry that cannot roll still takes hits and counts as a platoon.",
    "CA-C13": "Compare only platoons lost to hits, not a withdrawal after a failed check.",
    "CA-C14": "A beaten garrison that does not test stays put.",
    "CA-C15": "A repair costs one banked supply point per step.",
    "CA-C16": "The HQ's own battle keeps the old supply; the cut starts after it.",
    "CA-C17": "The HQ surrenders when its side loses and must leave the hex.",
    "CA-C18": "Battle Damage is your attack minus their defence, not the reverse.",
    "ST-1": "A unit that breaks loses its standard to a victor that pursues.",
    "ST-2": "Fleeing from Terror or Panic never costs a standard.",
    "ST-3": "A unit wiped out gives its standard to a victor free to pursue.",
    "ST-4": "Undead that crumble or are wiped out: the standard goes as for a unit wiped out.",
    "ST-5": "An Undead character outlives his regiment: its standard is lost, not taken.",
    "ST-6": "A lone ASB killed: his standard goes to killers free to pursue, else it is lost.",
    "ST-7": "ASB alive, his unit breaks: both standards go to a victor that pursues.",
    "ST-8": "ASB killed as his unit breaks: both standards go to a victor that pursues.",
    "ST-9": "ASB killed, his unit holds: the army standard is lost.",
    "ST-10": "ASB killed in a Break-immune unit: taken only if the unit dies that phase too.",
    "ST-11": "A Wight ASB destroyed with his unit: a victor free to pursue takes the standard.",
    "ST-12": "A Wight ASB lost while his unit fights on: the army standard is lost.",
    "ST-13": "A Wight ASB left alone keeps the standard and fights on as a lone ASB.",
    "ST-C1": "A fleeing unit's standards are taken only by a victor that pursues.",
    "ST-C2": "A destroyed unit's standard is lost when the victor is tied down.",
    "ST-C3": "A unit that never breaks keeps its standards until destroyed.",
    "ST-C4": "A lone ASB who is not killed keeps his standard.",
    "ST-C5": "A unit destroyed takes its ASB with it, unless he is Undead.",
    "ST-C6": "A Wight ASB killed as his unit is destroyed: ST-10 applies.",
    "ST-C7": "ASB killed, his unit flees from Panic: the army standard is lost.",
    "ST-C8": "Some rounds cannot happen, and rulesref refuses them by name.",
}

CLAUSES: Mapping[str, Clause] = MappingProxyType(
    {entry.id: replace(entry, quick=_QUICK[entry.id]) for entry in _ALL}
)
"""Every clause and clarification by id, each document's clauses first, in number order."""


def clause(id: str) -> Clause:
    """The clause or clarification `id` (`"BR-5"`, or its anchor `"br-5"`)."""
    found = CLAUSES.get(id.upper()) if isinstance(id, str) else None
    if found is None:
        raise RulesError(
            f"id must be a clause or clarification id such as BR-5 or LD-C3, got {id!r}"
        )
    return found
