"""Names that moved to `rulesref.odds` or `rulesref.views`, or were renamed, still importable.

The rules modules hold rules; the exact-odds algorithms live in `rulesref.odds` and the
drawing in `rulesref.views`. Code written against the old layout keeps working: each old
module ends with `__getattr__ = moved_from(__name__)`, which imports a moved name from its
new home on first use. The Python API page documents each name once, at its new home, and
keeps the old address (`/api/#rulesref.leadership.cascade_probabilities`) as an anchor
beside it (docs/hooks/api_aliases.py reads `MOVED` and `RENAMED`).

```python
from rulesref.dice import chance_at_most, probability_at_most

print(chance_at_most is probability_at_most)  # the old name of a renamed function
#> True
```
"""

from collections.abc import Callable
from importlib import import_module

__all__ = ["MOVED", "RENAMED", "moved_from"]

# "old module.name": "new module". Never remove a line: someone's code imports it.
MOVED: dict[str, str] = {
    **dict.fromkeys(
        [
            "rulesref.charts.STYLES",
            "rulesref.charts.Series",
            "rulesref.charts.line_chart",
            "rulesref.charts.bar_chart",
            "rulesref.charts.break_test_charts",
        ],
        "rulesref.views.charts",
    ),
    "rulesref.figures.PLACES": "rulesref.views.formations",
    "rulesref.figures.combat_figure": "rulesref.views.formations",
    "rulesref.leadership.chain_of_command_svg": "rulesref.views.chain_of_command",
    "rulesref.standards.decision_table_html": "rulesref.views.standards",
    "rulesref.standards.decision_svg": "rulesref.views.standards",
    "rulesref.campaign.hits_odds": "rulesref.odds.battle",
    "rulesref.campaign.BattleOdds": "rulesref.odds.battle",
    "rulesref.campaign.battle_odds": "rulesref.odds.battle",
}


def moved_from(module: str) -> Callable[[str], object]:
    """The module `__getattr__` (PEP 562) that finds `module`'s moved names in their new home."""

    def __getattr__(name: str) -> object:
        old = f"{module}.{name}"
        if old in RENAMED:
            home, _, name = RENAMED[old].rpartition(".")
        else:
            home = MOVED.get(old, "")
        if not home:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        return getattr(import_module(home), name)

    return __getattr__


# "old module.name": "its module.its new name", for names renamed to the one vocabulary
# (DEVELOPERS.md). Never remove a line either.
RENAMED: dict[str, str] = {
    "rulesref.dice.chance_at_most": "rulesref.dice.probability_at_most",
    "rulesref.dice.chance_at_least": "rulesref.dice.probability_at_least",
    # an outcome is an answer from a fixed list; this record is the side after its hits
    "rulesref.campaign.HitOutcome": "rulesref.campaign.AfterHits",
}
