"""Campaign combat settled with one d6 per platoon: clauses CA-1 to CA-24.

Source: a campaign-combat note "by Dylan, October 2001" (our copy:
`001_a56d7721d8c2cbcd.txt`). The site restates each clause under its id; the code
below implements each in one place. Readings where the note is silent are the
clarifications CA-C1 and on; the optional ones are fields of `Readings`. The exact
odds of a battle are computed in `rulesref.odds.battle` from these rules.

Every public name is imported here, from one module per concern: `model` (the words,
platoons, sides and battles), `rolls` (the modifiers of a roll), `hits` (Battle Damage,
hits and their assignment), `victory` (who wins, and what becomes of each side),
`resolve` (a battle settled by the dice) and `supply` (sieges and the Mission HQ).

```python
from rulesref.campaign import Battle, Platoon, Side, resolve_battle

battle = Battle(Side([Platoon()] * 3), Side([Platoon()] * 3))  # 3 v 3 infantry, in the open
print(resolve_battle(battle, [6, 5, 4], [2, 2, 1]).victor)
#> attacker
```
"""

from rulesref.campaign.hits import (
    AfterHits,
    Policy,
    after_hits,
    assign_hits,
    battle_damage,
    checked_policy,
    fewest_withdrawals,
    fewest_withdrawals_order,
    hit_order,
    hits_from_damage,
    most_withdrawals,
    most_withdrawals_order,
)
from rulesref.campaign.model import (
    MAX_BATTLE_DAMAGE,  # noqa: F401 (the limits are here too, but not API)
    MAX_CHECK_LEADERSHIP,  # noqa: F401
    MAX_PLATOONS,  # noqa: F401
    Battle,
    Fate,
    HQActivity,
    Kind,
    Platoon,
    Readings,
    Role,
    Roll,
    Side,
    State,
    Terrain,
    cavalry_barred,
    declared_rolls,
)
from rulesref.campaign.resolve import BattleResult, Ruling, SideResult, resolve_battle
from rulesref.campaign.rolls import (
    MODIFIERS,
    RollExplanation,
    Term,
    artillery_modifier,
    cavalry_modifier,
    damaged_modifier,
    defender_modifier,
    explain_roll,
    fortified_modifier,
    mountain_modifier,
    supply_modifier,
)
from rulesref.campaign.supply import (
    AfterSurrender,
    Garrison,
    SurrenderChoice,
    after_hq_surrender,
    army_supply,
    garrison_tests_for_surrender,
    garrison_turn,
    hq_surrenders,
    may_withdraw_voluntarily,
    mission_hq,
    out_of_supply,
)
from rulesref.campaign.victory import (
    BattleVerdict,
    LeadershipCheck,
    checked_leadership,
    driven_off,
    fates,
    verdict,
)

__all__ = [
    "Kind",
    "State",
    "Terrain",
    "Roll",
    "Role",
    "Fate",
    "HQActivity",
    "Platoon",
    "Side",
    "Readings",
    "Battle",
    "cavalry_barred",
    "declared_rolls",
    "Term",
    "artillery_modifier",
    "cavalry_modifier",
    "defender_modifier",
    "fortified_modifier",
    "mountain_modifier",
    "damaged_modifier",
    "supply_modifier",
    "MODIFIERS",
    "RollExplanation",
    "explain_roll",
    "Policy",
    "checked_policy",
    "fewest_withdrawals",
    "fewest_withdrawals_order",
    "most_withdrawals",
    "most_withdrawals_order",
    "hit_order",
    "battle_damage",
    "hits_from_damage",
    "AfterHits",
    "after_hits",
    "assign_hits",
    "LeadershipCheck",
    "checked_leadership",
    "BattleVerdict",
    "verdict",
    "driven_off",
    "fates",
    "Ruling",
    "SideResult",
    "BattleResult",
    "resolve_battle",
    "garrison_tests_for_surrender",
    "Garrison",
    "garrison_turn",
    "mission_hq",
    "army_supply",
    "hq_surrenders",
    "AfterSurrender",
    "SurrenderChoice",
    "after_hq_surrender",
    "out_of_supply",
    "may_withdraw_voluntarily",
]
