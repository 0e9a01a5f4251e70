"""Formation diagrams, drawn as SVG from the same `Unit` objects the rules use.

Each model is a square; ranks that count for Steadfast (BR-7) are filled in the
side's colour, models in ranks that do not count are grey. The site draws its
pictures with `combat_figure` at build time, so a picture cannot drift from the code.

```python
from rulesref.break_test import Unit
from rulesref.views.formations import combat_figure

html = combat_figure(Unit(30, 6), Unit(12, 5), names=("Halberdiers", "Bloodletters"))
print("<svg" in html, "Halberdiers: Steadfast" in html)
#> True True
```
"""

from html import escape

from rulesref.break_test import Unit, is_steadfast, usable_ranks
from rulesref.errors import one_of
from rulesref.views.svg import Colour, rect, svg, swatch

__all__ = ["PLACES", "combat_figure"]

SIZE, GAP = 16, 3
STEP = SIZE + GAP
OURS, ENEMY = Colour.BLUE, Colour.RED
PLACES = ("front", "rear", "left flank")
"""Where the enemy may fight the defeated unit in `combat_figure`."""


def _models(unit: Unit, colour: Colour, x: float, y: float, *, front_on_top: bool) -> list[str]:
    """A square for each model, rank by rank, the front rank on top or at the bottom."""
    shapes = []
    for index in range(unit.models):
        rank, file = divmod(index, unit.width)
        in_rank = min(unit.width, unit.models - rank * unit.width)
        # an incomplete rear rank is centred behind the ones in front of it
        offset = (unit.width - in_rank) * STEP / 2
        row = rank if front_on_top else (unit.models - 1) // unit.width - rank
        paint = colour if rank < unit.ranks else Colour.GREY
        shapes.append(
            rect(x + offset + file * STEP, y + row * STEP, SIZE, SIZE, colour=paint, rx=2)
        )
    return shapes


def _caption(name: str, unit: Unit) -> str:
    usable = usable_ranks(unit)
    note = "" if usable == unit.ranks else f" (usable for Steadfast: {usable})"
    state = ", Disrupted" * unit.disrupted + ", Skirmishers" * unit.skirmisher
    return (
        f"{name}: {unit.models} models, {unit.ranks} ranks count{note}, "
        f"Unit Strength {unit.strength}{state}"
    )


def combat_figure(
    unit: Unit,
    enemy: Unit,
    *,
    names: tuple[str, str] = ("Defeated unit", "Enemy"),
    enemy_at: str = "front",
) -> str:
    """An HTML figure of a defeated `unit` and the `enemy` fighting it at its `enemy_at`
    (front, rear or left flank): an SVG of the ranks that count, and a caption with the
    numbers and the Steadfast verdict."""
    one_of("enemy_at", enemy_at, PLACES)
    ours_w, ours_h = unit.width * STEP, -(-unit.models // unit.width) * STEP
    theirs_w, theirs_h = enemy.width * STEP, -(-enemy.models // enemy.width) * STEP
    margin = 2 * STEP
    if enemy_at == "left flank":  # the enemy turned to face right, against our left file
        width, height = theirs_h + margin + ours_w, max(ours_h, theirs_w)
        body = [f'<g transform="translate({theirs_h:g} 0) rotate(90)">']
        body += _models(enemy, ENEMY, 0, 0, front_on_top=True)
        body += ["</g>"]
        body += _models(unit, OURS, theirs_h + margin, 0, front_on_top=True)
    else:
        width, height = max(ours_w, theirs_w), ours_h + margin + theirs_h
        enemy_on_top = enemy_at == "front"
        enemy_y, unit_y = (0, theirs_h + margin) if enemy_on_top else (ours_h + margin, 0)
        # our front rank is drawn on top; the enemy's front rank faces us
        body = _models(enemy, ENEMY, (width - theirs_w) / 2, enemy_y, front_on_top=not enemy_on_top)
        body += _models(unit, OURS, (width - ours_w) / 2, unit_y, front_on_top=True)
    verdict = "Steadfast" if is_steadfast(unit, enemy) else "not Steadfast"
    title = f"{names[0]} ({verdict}) against {names[1]} at their {enemy_at}"
    key = [
        (OURS, _caption(names[0], unit)),
        (ENEMY, f"{_caption(names[1], enemy)}, at their {enemy_at}"),
        (Colour.GREY, "grey: models in a rank of fewer than five, which does not count"),
    ]
    caption = "".join(f"{swatch(colour)}{escape(words)}<br>" for colour, words in key)
    return (
        f'<figure class="formation">{svg(width, height, body, title=title)}<figcaption>{caption}'
        f"<strong>{escape(names[0])}: {verdict}</strong></figcaption></figure>"
    )
