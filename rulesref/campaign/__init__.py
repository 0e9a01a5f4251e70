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

from rulesref.campaign import hits, model, resolve, rolls, supply, victory
from rulesref.campaign.hits import *  # noqa: F403
from rulesref.campaign.model import *  # noqa: F403
from rulesref.campaign.model import MAX_BATTLE_DAMAGE, MAX_CHECK_LEADERSHIP, MAX_PLATOONS  # noqa: F401 (limits, not API)
from rulesref.campaign.resolve import *  # noqa: F403
from rulesref.campaign.rolls import *  # noqa: F403
from rulesref.campaign.supply import *  # noqa: F403
from rulesref.campaign.victory import *  # noqa: F403

__all__ = [
    *model.__all__,
    *rolls.__all__,
    *hits.__all__,
    *victory.__all__,
    *resolve.__all__,
    *supply.__all__,
]
